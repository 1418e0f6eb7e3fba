"""What both Marco Polo engines do the same way around an event taking effect: the scratch copy of
the state, and the turn passing to the next seat that still has dice.

Not the title's rules: each title says how a seat is copied and frozen, how a choice is read,
and what a turn resets.
"""

from __future__ import annotations

from events.messages import phrase

from collections.abc import Callable
from typing import Any


class Work:
    """A scratch copy of the state: seats copied on first touch (``p``, the title's), fields
    overridden (``f``), then frozen (``finish``, the title's). ``tokens`` are the move's choices,
    consumed in order; ``codes`` is the title's codes module.

    The title's ``__init__`` sets every slot itself: one is made per event folded, and a call to
    a shared ``__init__`` would cost the fold a few per cent."""

    __slots__ = ("s", "strict", "pl", "f", "tokens", "ti")
    codes: Any = None

    def get(self, name: str):
        f = self.f
        return f[name] if name in f else getattr(self.s, name)

    def who(self, seat: int) -> str:
        return self.s.players[seat] if 0 <= seat < len(self.s.players) else phrase("who/seat", "seat {seat}", seat=seat)

    def done_tokens(self) -> None:
        if self.strict and self.ti < len(self.tokens):
            codes = self.codes
            codes.illegal(
                codes.EXTRA_CHOICE, "the move lists choices the rules do not ask for: {tokens_item}", tokens_item=list(self.tokens[self.ti:])
            )

    def push(self, item: tuple[str, int, str], front: bool = False) -> None:
        pending = self.get("pending")
        self.f["pending"] = (item,) + pending if front else pending + (item,)


def pass_turn(w: Work, seat: int, has_dice: Callable[[Any], bool]) -> bool:
    """Give the turn to the next seat clockwise from ``seat`` that still has a die (``seat``
    itself last); False when no seat has one: the round is over. (The title clears what holds
    for one turn itself: this runs once per turn folded.)

    Both seeds skip a seat without dice and end the round when no seat has any: "Por orden, cada
    persona juega turnos hasta que nadie conserve dados disponibles" / "ダイスが無い場合には、手番は
    自動的に飛ばされます ... これを全てのプレイヤーがすべてのダイスを置くまで続けます"."""
    touched, seats = w.pl, w.s.seats
    n = len(seats)
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        if has_dice(touched.get(nxt) or seats[nxt]):
            w.f["turn"] = nxt
            return True
    return False


def shown_at_end(w: Work, seat: int) -> None:
    """``seat`` has shown its secret cards: after the last round that answers its pending show, and
    the game is over once no seat's remains (shown earlier, they answer nothing)."""
    if w.s.phase == "reveal":
        rest = tuple(p for p in w.s.pending if p[1] != seat)
        w.f["pending"] = rest
        if not rest:
            w.f["phase"] = "over"
