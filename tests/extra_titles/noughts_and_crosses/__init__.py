"""Noughts and crosses, a test-only title: proof that a new title is one folder plus one line
(``rules.register_title(NoughtsAndCrosses())``). Seat 0 plays X, seat 1 plays O; squares are
numbered 1-9 row by row."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from events.base import Event
from events.errors import IllegalMove, InvalidOptions
from rules.base import Chance, Outcome, Title

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class MarkPlaced(Event, frozen=True, tag="noughts-and-crosses.mark-placed"):
    """A seat's mark on an empty square (1-9)."""

    square: int
    seat: int | None = None


class State(msgspec.Struct, frozen=True):
    """The board as nine marks ("" empty, "X", "O") and the players."""

    players: tuple[str, ...]
    squares: tuple[str, ...] = ("",) * 9


def _winner(squares: tuple[str, ...]) -> str | None:
    for a, b, c in LINES:
        if squares[a] and squares[a] == squares[b] == squares[c]:
            return squares[a]
    return None


def _over(state: State) -> bool:
    return _winner(state.squares) is not None or all(state.squares)


def _turn(state: State) -> int:
    return sum(1 for s in state.squares if s) % 2


class NoughtsAndCrosses(Title[State]):
    id: ClassVar[str] = "noughts-and-crosses"
    name: ClassVar[str] = "Noughts and Crosses"
    event_types: ClassVar[tuple[type[Event], ...]] = (MarkPlaced,)
    state_type: ClassVar[type] = State
    codes: ClassVar[tuple[str, ...]] = ("noughts-and-crosses.square-taken", "noughts-and-crosses.not-your-turn")

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        if len(players) != 2:
            raise InvalidOptions("noughts and crosses is for 2 players", code="noughts-and-crosses.players")
        return State(players=tuple(players))

    def decide(self, state: State, move: Event) -> tuple[Event, ...]:
        if not isinstance(move, MarkPlaced) or _over(state):
            raise IllegalMove("the game is over", code="game-over")
        seat = _turn(state) if move.seat is None else move.seat
        if seat != _turn(state):
            raise IllegalMove("not your turn", code="noughts-and-crosses.not-your-turn")
        if not 1 <= move.square <= 9 or state.squares[move.square - 1]:
            raise IllegalMove("that square is taken", code="noughts-and-crosses.square-taken")
        return (MarkPlaced(square=move.square, seat=seat),)

    def evolve(self, state: State, event: Event) -> State:
        assert isinstance(event, MarkPlaced)
        squares = list(state.squares)
        squares[event.square - 1] = "XO"[event.seat or 0]
        return State(players=state.players, squares=tuple(squares))

    def legal_moves(self, state: State) -> list[Event]:
        if _over(state):
            return []
        return [MarkPlaced(square=i + 1, seat=_turn(state)) for i, s in enumerate(state.squares) if not s]

    def to_move(self, state: State) -> int | None:
        return None if _over(state) else _turn(state)

    def status(self, state: State) -> str:
        if _over(state):
            return "the game is over"
        return f"{state.players[_turn(state)]} to place {'XO'[_turn(state)]}"

    def chance(self, state: State) -> Chance | None:
        return None

    def chance_event(self, state: State, outcome: tuple[Any, ...]) -> Event:
        raise IllegalMove("noughts and crosses has no chance", code="no-chance")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"squares": list(state.squares)}

    def full_view(self, state: State) -> dict[str, Any]:
        return self.view(state, None)

    def score(self, state: State) -> dict[str, Any]:
        won = _winner(state.squares)
        return {"per_seat": [{"total": int(won == "XO"[seat])} for seat in range(2)]}

    def outcome(self, state: State) -> Outcome | None:
        if not _over(state):
            return None
        won = _winner(state.squares)
        if won is None:
            return Outcome(scores=(0, 0), ranks=(1, 1), winners=(0, 1))
        seat = "XO".index(won)
        return Outcome(scores=(int(seat == 0), int(seat == 1)), ranks=(1 if seat == 0 else 2, 1 if seat == 1 else 2), winners=(seat,))

    def parse_move(self, state: State, text: str) -> Event:
        if not text.strip().isdigit():
            raise IllegalMove("a move is a square, 1-9", code="noughts-and-crosses.bad-notation")
        return MarkPlaced(square=int(text))

    def format_move(self, event: Event) -> str:
        return str(event.square) if isinstance(event, MarkPlaced) else type(event).__name__
