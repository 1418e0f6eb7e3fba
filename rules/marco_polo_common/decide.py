"""The checks both Marco Polo titles' ``decide`` make the same way before a move takes effect.

What differs stays in each title's ``decide``: the seed's words a refusal quotes, which codes say
that a phase comes first, who may answer a pending item, and whether the main action needs a die.
"""

from __future__ import annotations

from typing import Any


def check_seat(state: Any, seat: object, codes: Any) -> None:
    """Refuses a seat the game does not have (``None``: the seat is the rules' to fill in)."""
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n):
        codes.illegal(codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{state_n_minus})", seat=seat, state_n_minus=state.n - 1)
