"""The interactive recorder of ``tabletape record``: for a game being played at a real table.

Each turn it shows whose turn it is and the legal moves in the title's notation, then reads one
line: a move in notation, ``undo`` (take back the last move), ``undo N`` (take back the last N
moves), ``undo --to SEQ`` (back to the state after raw seq SEQ), ``redo``, ``moves``, ``help`` or ``quit``. A typo or an illegal move is explained and
nothing is written. It records on the database file (``LocalDesk``) or, while a service holds
that file, through the service's API with the game's write token (``RemoteDesk``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import quote

from rich.console import Console
from rich.markup import escape

from api import i18n
from api.cli.refusals import refusal, rulebook_apart
from replay.frames import describe
from api.remote import Refused, Service
from events.errors import TabletapeError
from projections.fold import status_words
from replay.frames import notation, take_back_moves
from replay.recorder import Recorder

HELP = (
    "Type a move in the title's notation, or: undo (take back the last move), undo N (take back the "
    "last N moves), undo --to SEQ (back to the state after seq SEQ; 0 = before the first move), redo, "
    "moves (all legal moves), help, quit."
)
QUIT = {"quit", "q", "exit"}
SHOWN_MOVES = 40


@dataclass(frozen=True)
class Look:
    """Where the game stands, as the recorder shows it after each line."""

    last_seq: int
    last: str
    status: str
    ended: bool
    moves: list[str]


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
        moves: list[str] = []
        if game.ended is None:
            listed = (notation(game, m) for m in game.title.legal_moves(game.state))
            moves = list(dict.fromkeys(m for m in listed if m))
        status = i18n.sentence(status_words(game), i18n.cli_lang)
        return Look(history.last_seq, describe(game, last.body), status, game.ended is not None, moves)

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
        self.path = f"/games/{quote(game_id, safe='')}"
        self.actor = actor

    def look(self) -> Look:
        now = self.service.get(self.path + "/legal-moves")
        moves = list(dict.fromkeys(m["notation"] for m in now["moves"] if m["notation"]))
        return Look(now["at"], now["last"] or "", now["status_line"], now["ended"], moves)

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

    def show(self, all_moves: bool = False) -> None:
        look = self._seen = self.desk.look()
        self.console.print(f"[dim]#{look.last_seq}[/] last: {escape(look.last)}")
        self.console.print(f"[bold]{escape(look.status)}[/]")
        if look.ended:
            self.console.print("The game is over: undo, or quit.")
            return
        moves = look.moves
        if not moves:
            self.console.print("No listed moves: enter the next fact in the title's notation.")
            return
        shown = moves if all_moves else moves[:SHOWN_MOVES]
        more = f" … (+{len(moves) - len(shown)}, type moves)" if len(shown) < len(moves) else ""
        self.console.print("moves: " + escape(" ".join(shown)) + more)

    # -- acting ----------------------------------------------------------------------------

    def _expected(self) -> int:
        return (self._seen or self.desk.look()).last_seq

    def _undo(self, argument: str) -> None:
        words = argument.split()
        if words[:1] == ["--to"]:
            if len(words) != 2 or not words[1].isdigit():
                self.console.print("[red]undo --to takes a seq (a whole number), e.g. undo --to 12[/]")
                return
            self.desk.undo(int(words[1]), 1, self._expected())
            return
        if len(words) > 1 or (words and not words[0].isdigit()) or words == ["0"]:
            self.console.print(
                f"[red]undo takes how many moves to take back (a whole number from 1), not {escape(argument)!r}[/]"
            )
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
            if text.lower() in ("help", "?"):
                self.console.print(HELP)
                return True
            if text.lower() == "moves":
                self.show(all_moves=True)
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
        self.console.print(HELP)
        self.show()
        while True:
            try:
                line = read_line()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if not self.handle(line):
                return
