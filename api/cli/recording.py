"""The interactive recorder of ``tabletape record``: for a game being played at a real table.

After each accepted move (and at the start) it draws the table (``api.cli.table``) with whose
turn it is and what they may do: the real choices of the step (a draw: the draw pile and the
discard piles the rules allow, in words), else the legal moves in the title's notation. Then it
reads one line: a move in notation, ``show`` (the table again), ``hand`` (the hand the recorder
may see), ``moves`` (the choices), ``moves all`` (every legal move), ``undo`` (take back the
last move), ``undo N`` (the last N moves), ``undo --to SEQ`` (back to the state after raw seq
SEQ), ``redo``, ``help`` or ``quit``. A typo or an illegal move is explained and nothing is
written. It records on the database file (``LocalDesk``) or, while a service holds that file,
through the service's API with the game's write token (``RemoteDesk``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import quote

from rich.console import Console
from rich.markup import escape

from api import i18n
from api.cli.refusals import refusal, rulebook_apart
from api.cli.table import CHOICES, picture
from api.remote import Refused, Service
from events import codec
from events.errors import TabletapeError
from projections.fold import status_words
from replay.frames import PUBLIC, describe_as_seen, notation, take_back_moves
from replay.recorder import Recorder

QUIT = {"quit", "q", "exit"}
SHOWN_MOVES = 40


@dataclass(frozen=True)
class Look:
    """Where the game stands, as the recorder shows it after each line: the public view, and the
    hand of the seat to move where the recorder may see it (on the file: the legal moves name its
    cards anyway; through the service a hand needs its seat's token)."""

    game_id: str
    last_seq: int
    last: str
    status: str
    ended: bool
    #: the legal moves, each ``{"notation", "move"}`` (the move as the API sends it)
    moves: list[dict[str, Any]]
    view: dict[str, Any] = field(default_factory=dict)
    content: dict[str, Any] | None = None
    hand: dict[str, Any] | None = None
    to_move: int | None = None

    @property
    def notations(self) -> list[str]:
        return list(dict.fromkeys(m["notation"] for m in self.moves if m["notation"]))


class Desk(Protocol):
    """What the recorder reads and writes: the file itself (``LocalDesk``), or a running service."""

    def look(self) -> Look: ...
    def move(self, text: str, expected_seq: int) -> int: ...
    def undo(self, to_seq: int | None, moves: int, expected_seq: int) -> None: ...
    def redo(self, expected_seq: int) -> None: ...


class LocalDesk:
    """The recorder and projector over the database file."""

    def __init__(self, recorder: Recorder, game_id: str, actor: str = "") -> None:
        self.recorder = recorder
        self.projector = recorder.projector
        self.game_id = game_id
        self.actor = actor

    def look(self) -> Look:
        game = self.projector.state(self.game_id)
        history = self.projector.history(self.game_id)
        last = history.entries()[-1]
        moves: list[dict[str, Any]] = []
        if game.ended is None:
            moves = [{"notation": notation(game, m), "move": codec.to_builtins(m)} for m in game.title.legal_moves(game.state)]
        status = i18n.sentence(status_words(game), i18n.cli_lang)
        to_move = game.title.to_move(game.state)
        hand = game.title.view(game.state, to_move).get("hand") if to_move is not None else None
        return Look(
            self.game_id, history.last_seq, describe_as_seen(game, last.body), status, game.ended is not None, moves,
            PUBLIC.see(game), game.title.table_content(game.state), hand, to_move,
        )

    def move(self, text: str, expected_seq: int) -> int:
        """Record one move; the log's last seq after it."""
        return self.recorder.record_notation(self.game_id, text, expected_seq, actor=self.actor).last_seq

    def undo(self, to_seq: int | None, moves: int, expected_seq: int) -> None:
        if to_seq is None:
            game = self.projector.state(self.game_id)
            entries = self.projector.history(self.game_id).entries()
            to_seq = take_back_moves(entries, game.created.seed is not None, moves)
        self.recorder.undo(self.game_id, to_seq, expected_seq, actor=self.actor)

    def redo(self, expected_seq: int) -> None:
        self.recorder.redo(self.game_id, expected_seq, actor=self.actor)


class RemoteDesk:
    """The same game through a running service's API, with the game's write token."""

    def __init__(self, service: Service, game_id: str, actor: str = "") -> None:
        self.service = service
        self.game_id = game_id
        self.path = f"/games/{quote(game_id, safe='')}"
        self.actor = actor
        self._content: dict[str, Any] | None = None

    def look(self) -> Look:
        """The legal moves (the write token's) and the public state: a hand needs its seat's token."""
        now = self.service.get(self.path + "/legal-moves")
        state = self.service.get(self.path + "/state", [("at", now["at"])])
        if self._content is None:
            self._content = self.service.get(self.path + "/content") or {}
        return Look(
            self.game_id, now["at"], now["last"] or "", now["status_line"], now["ended"], now["moves"],
            state["view"], self._content, None, now["to_move"],
        )

    def move(self, text: str, expected_seq: int) -> int:
        body = {"notation": text, "expected_seq": expected_seq, "actor": self.actor}
        return self.service.post(self.path + "/moves", body)["last_seq"]

    def undo(self, to_seq: int | None, moves: int, expected_seq: int) -> None:
        wanted = {"to_seq": to_seq} if to_seq is not None else {"moves": moves}
        self.service.post(self.path + "/undo", {**wanted, "expected_seq": expected_seq, "actor": self.actor})

    def redo(self, expected_seq: int) -> None:
        self.service.post(self.path + "/redo", {"expected_seq": expected_seq, "actor": self.actor})


class TableRecorder:
    """One recording session over one game."""

    def __init__(self, desk: Desk, console: Console) -> None:
        self.desk = desk
        self.console = console
        self._seen: Look | None = None

    # -- showing ---------------------------------------------------------------------------

    def show(self) -> None:
        """The table, then what the one to move may do."""
        look = self._seen = self.desk.look()
        self.console.print(f"[dim]{escape(i18n.cli('record/last', seq=look.last_seq, last=look.last))}[/]")
        # the public view: a hand only when asked (``hand``), not to everyone facing the screen
        self.console.print(picture(look.view, look.content, "", look.status), soft_wrap=False)
        self.choices(look)

    def choices(self, look: Look, every: bool = False) -> None:
        """The step's real choices in words (a draw), else its legal moves; ``every``: all of them."""
        if look.ended:
            self.console.print(i18n.cli("record/over"))
            return
        moves = look.notations
        if not moves:
            self.console.print(i18n.cli("record/no-moves"))
            return
        real = None if every else CHOICES.get(look.view.get("title", ""), lambda v, m: None)(look.view, look.moves)
        if real:
            self.console.print(i18n.cli("record/draws"))
            width = max(len(n) for n, _ in real)
            for written, words in real:
                self.console.print(f"  [bold]{escape(written.ljust(width))}[/]  {escape(words)}")
            if len(real) < len(moves):
                self.console.print(f"[dim]{escape(i18n.cli('record/all-moves'))}[/]")
            return
        shown = moves if every else moves[:SHOWN_MOVES]
        more = i18n.cli("record/more", n=len(moves) - len(shown)) if len(shown) < len(moves) else ""
        self.console.print(escape(i18n.cli("record/moves", moves=" ".join(shown)) + more))

    def hand(self) -> None:
        look = self._seen = self.desk.look()
        if look.hand is None or look.to_move is None:
            remote = isinstance(self.desk, RemoteDesk) and look.to_move is not None and not look.ended
            self.console.print(i18n.cli("record/hand-needs-seat", game_id=look.game_id) if remote else i18n.cli("record/no-hand"))
            return
        from api.cli.table import hand_line

        self.console.print(hand_line(look.view["players"][look.to_move], look.hand))

    # -- acting ----------------------------------------------------------------------------

    def _expected(self) -> int:
        return (self._seen or self.desk.look()).last_seq

    def _undo(self, argument: str) -> None:
        words = argument.split()
        if words[:1] == ["--to"]:
            if len(words) != 2 or not words[1].isdigit():
                self.console.print(f"[red]{escape(i18n.cli('record/undo-to-seq'))}[/]")
                return
            self.desk.undo(int(words[1]), 1, self._expected())
            return
        if len(words) > 1 or (words and not words[0].isdigit()) or words == ["0"]:
            self.console.print(f"[red]{escape(i18n.cli('record/undo-count', argument=repr(argument)))}[/]")
            return
        self.desk.undo(None, int(words[0]) if words else 1, self._expected())

    def handle(self, line: str) -> bool:
        """Act on one line; False when the session ends."""
        text = line.strip()
        command, _, argument = text.partition(" ")
        if not text:
            return True
        if text.lower() in QUIT:
            return False
        try:
            said = " ".join(text.lower().split())
            if said in ("help", "?"):
                self.console.print(i18n.cli("record/help"))
                return True
            if said in ("show", "table"):
                self.show()
                return True
            if said == "hand":
                self.hand()
                return True
            if said in ("moves", "moves all"):
                self._seen = self.desk.look()
                self.choices(self._seen, every=said == "moves all")
                return True
            if command.lower() == "undo":
                self._undo(argument.strip())
            elif text.lower() == "redo":
                self.desk.redo(self._expected())
            else:
                self.desk.move(text, self._expected())
        except TabletapeError as exc:
            self.refused(exc.code, refusal(exc))
            return True
        except Refused as exc:  # the service's answer: its code and message, in our language
            self._seen = None  # a 409: someone else recorded meanwhile; look again before the next line
            self.refused(exc.code, rulebook_apart(exc.message, exc.rulebook))
            return True
        self.show()
        return True

    def refused(self, code: str, message: str) -> None:
        self.console.print(f"[red]{escape(code)}[/]: {escape(message)}")
        self.console.print(i18n.cli("nothing-recorded"))

    def run(self, read_line: Callable[[], str]) -> None:
        """Show the table, then read lines until ``quit`` or the end of input."""
        self.console.print(i18n.cli("record/help"))
        self.show()
        while True:
            try:
                line = read_line()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if not self.handle(line):
                return
