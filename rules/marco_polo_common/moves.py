"""The order in which both Marco Polo titles offer moves: the first pending decision (a pick, the
round-start income, a card to keep or return), else the moves of the seat whose turn it is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def legal_moves(
    state: Any, to_move: Callable[[Any], int | None], pending: dict[str, Callable[[Any, int, Any], list]],
    turn_moves: Callable[[Any], list],
) -> list:
    """``pending``: by pending item kind, the moves that answer it (``(state, seat, seat record)``);
    a kind not listed is answered by the table, not by a move."""
    seat = to_move(state)
    if seat is None:
        return []
    if state.pending:
        answers = pending.get(state.pending[0][0])
        return answers(state, seat, state.seats[seat]) if answers is not None else []
    if state.phase == "play":
        return turn_moves(state)
    return []
