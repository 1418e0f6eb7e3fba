"""The interactive recorder of ``tabletape record``: for a game being played at a real table.

Each turn it shows whose turn it is and the legal moves in the title's notation, then reads one
line: a move in notation, ``undo`` (take back the last move), ``undo N`` (take back the last N
moves), ``undo --to SEQ`` (back to the state after raw seq SEQ), ``redo``, ``moves``, ``help`` or ``quit``. A typo or an illegal move is explained and
nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from api import i18n
from api.console import describe
from events.errors import HistoryEditRefused, TabletapeError
from projections.fold import status_words
from replay.frames import notation, take_back_seq
from replay.recorder import Recorder

HELP = (
    "Type a move in the title's notation, or: undo (take back the last move), undo N (take back the "
    "last N moves), undo --to SEQ (back to the state after seq SEQ; 0 = before the first move), redo, "
    "moves (all legal moves), help, quit."
)
QUIT = {"quit", "q", "exit"}
SHOWN_MOVES = 40


class TableRecorder:
    """One recording session over one game."""

    def __init__(self, recorder: Recorder, game_id: str, console: Console, actor: str = "") -> None:
        self.recorder = recorder
        self.projector = recorder.projector
        self.game_id = game_id
        self.console = console
        self.actor = actor

    # -- showing ---------------------------------------------------------------------------

    def legal(self) -> list[str]:
        game = self.projector.state(self.game_id)
        if game.ended is not None:
            return []
        moves = (notation(game, m) for m in game.title.legal_moves(game.state))
        return list(dict.fromkeys(m for m in moves if m))

    def show(self, all_moves: bool = False) -> None:
        game = self.projector.state(self.game_id)
        history = self.projector.history(self.game_id)
        entries = history.entries()
        last = entries[-1]
        self.console.print(f"[dim]#{history.last_seq}[/] last: {escape(describe(game, last.body))}")
        self.console.print(f"[bold]{escape(i18n.sentence(status_words(game), i18n.cli_lang))}[/]")
        if game.ended is not None:
            self.console.print("The game is over: undo, or quit.")
            return
        moves = self.legal()
        if not moves:
            self.console.print("No listed moves: enter the next fact in the title's notation.")
            return
        shown = moves if all_moves else moves[:SHOWN_MOVES]
        more = f" … (+{len(moves) - len(shown)}, type moves)" if len(shown) < len(moves) else ""
        self.console.print("moves: " + escape(" ".join(shown)) + more)

    # -- acting ----------------------------------------------------------------------------

    def _expected(self) -> int:
        return self.projector.history(self.game_id).last_seq

    def _undo(self, argument: str) -> None:
        words = argument.split()
        if words[:1] == ["--to"]:
            if len(words) != 2 or not words[1].isdigit():
                self.console.print("[red]undo --to takes a seq (a whole number), e.g. undo --to 12[/]")
                return
            to_seq = int(words[1])
        else:
            if len(words) > 1 or (words and not words[0].isdigit()) or words == ["0"]:
                self.console.print(
                    f"[red]undo takes how many moves to take back (a whole number from 1), not {escape(argument)!r}[/]"
                )
                return
            to_seq = self._take_back(int(words[0]) if words else 1)
        self.recorder.undo(self.game_id, to_seq, self._expected(), actor=self.actor)

    def _take_back(self, count: int) -> int:
        """The seq to undo to so that the last ``count`` moves go (with what was recorded
        automatically after each)."""
        game = self.projector.state(self.game_id)
        digital = game.created.seed is not None
        entries = self.projector.history(self.game_id).entries()
        to_seq = None
        for taken in range(count):
            to_seq = take_back_seq(entries, digital)
            if to_seq is None:
                if taken == 0:
                    raise HistoryEditRefused("there is no move to take back", code="nothing-to-undo")
                raise HistoryEditRefused(
                    "there are only {taken} move(s) to take back, not {count}", params=dict(taken=taken, count=count), code="undo-out-of-range"
                )
            entries = entries[: next(i for i, e in enumerate(entries) if e.seq == to_seq) + 1]
        assert to_seq is not None
        return to_seq

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
                self.recorder.redo(self.game_id, self._expected(), actor=self.actor)
            else:
                self.recorder.record_notation(self.game_id, text, self._expected(), actor=self.actor)
        except TabletapeError as exc:
            said = i18n.message(exc, i18n.cli_lang)
            self.console.print(f"[red]{escape(exc.code)}[/]: {escape(said)}")
            self.console.print(i18n.cli("nothing-recorded"))
            return True
        self.show()
        return True

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
