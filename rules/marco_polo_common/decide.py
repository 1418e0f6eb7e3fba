"""The checks both Marco Polo titles' ``decide`` make the same way before a move takes effect, and
the words of the decision pending.

What differs stays in each title's ``decide``: the seed's words a refusal quotes, which codes say
that a phase comes first, who may answer a pending item, and whether the main action needs a die.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from events.base import Event
from events.messages import Phrase, phrase


def check_seat(state: Any, seat: object, codes: Any) -> None:
    """Refuses a seat the game does not have (``None``: the seat is the rules' to fill in)."""
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n):
        codes.illegal(codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{state_n_minus})", seat=seat, state_n_minus=state.n - 1)


def checked(state: Any, move: Event, event: Event, check: Callable[[Any, Event], None], codes: Any) -> tuple[Event, ...]:
    """``event`` (``move`` completed) once the strict transition ``check`` takes it; a malformed
    field that no rule names (a wrong type, an unknown key) is refused as a bad choice."""
    try:
        check(state, event)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        codes.illegal(codes.BAD_CHOICE, "{name}: malformed move ({name2}: {exc})", name=type(move).__name__, name2=type(exc).__name__, exc=exc)
    return (event,)


def seat_or(nobody: Phrase) -> Callable[[Any, int], str | Phrase]:
    """``who(state, seat)``: the player at ``seat``, else ``nobody`` (what seat -1 stands for in
    the title: the contract display, the table)."""

    def who(state: Any, seat: int) -> str | Phrase:
        return state.players[seat] if 0 <= seat < len(state.players) else nobody

    return who


def pending_words(
    state: Any, title: str, texts: dict[str, str], who: Callable[[Any, int], Any], die_words: Callable[[str], Any]
) -> Phrase:
    """The first pending item in words: ``texts`` by kind (``{who}``: its seat, named by ``who``;
    ``{arg}``: its argument, for a die to roll what ``die_words`` makes of it)."""
    kind, seat, arg = state.pending[0]
    if kind == "roll":
        arg = die_words(arg)
    return Phrase(f"pending/{title}/{kind}", texts[kind], dict(who=who(state, seat), arg=arg))


def decide_die_rolled(state: Any, e: Any, pending_seat: Callable[..., int], codes: Any) -> Any:
    """The value of the first pending die to roll (1-6), its seat filled in (``pending_seat``: the
    title's check of a pending item)."""
    seat = pending_seat(state, "roll", e.seat, phrase("what/record-die", "record a die's value"))
    if not isinstance(e.value, int) or isinstance(e.value, bool) or not 1 <= e.value <= 6:
        codes.illegal(codes.BAD_DIE, "{e_value!r} is not a die value (1-6)", e_value=e.value)
    return replace(e, seat=seat)
