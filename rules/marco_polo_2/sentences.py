"""Moves as plain sentences with names, and each move as the public may know it.

Only goal cards are secret (the views keep them hidden until the end), so ``public_move`` empties
them (the dealt goals, the goal kept, goal components described on any event) and hides a goal
shown before the end whole; every other move is public.
"""

from __future__ import annotations

import msgspec

from events.base import Event
from rules.marco_polo_2 import events as ev
from rules.marco_polo_2.state import MP2State
from rules.marco_polo_common import describe_step


def public_move(event: Event) -> Event | None:
    """The event with the goal cards left out; None for a goal card shown."""
    if isinstance(event, ev.GoalRevealed):
        return None
    replace = msgspec.structs.replace
    components = getattr(event, "describe", ())
    if any(c.kind == "goal" for c in components):
        event = replace(event, describe=tuple(c for c in components if c.kind != "goal"))
    if isinstance(event, ev.SetupDealt):
        return replace(event, goals=())
    if isinstance(event, ev.GoalKept):
        return replace(event, goal=None)
    return event


_WHAT: dict[type, str] = {
    ev.BookUsed: "using a book",
    ev.KhansFavorTaken: "at the Khan's favor",
    ev.GuildTaken: "at a guild",
    ev.SpecialCityUsed: "at a special city",
    ev.CityCardUsed: "using a city card",
    ev.ContractCompleted: "completing a contract",
    ev.SealImproved: "improved their seal",
    ev.MoneyBagTaken: "from the money bag",
    ev.DieRerolled: "rerolled a die",
    ev.DieAdjusted: "turned a die by one",
    ev.BlackDieBought: "bought a black die",
    ev.GoodsTraded: "traded goods",
    ev.OutpostTileUsed: "using an outpost tile",
    ev.CaravanStarted: "started a caravan",
    ev.CaravanConquered: "with a caravan",
    ev.TurnEnded: "ended their turn",
    ev.IncomeTaken: "as round-start income",
    ev.GoalKept: "kept a goal card",
    ev.Travelled: "travelled",
    ev.ContractsTaken: "took contracts",
}


def describe(state: MP2State, event: Event, after: MP2State) -> str:
    """One sentence for ``event`` (``state``: before it; ``after``: after it)."""
    if isinstance(event, ev.SetupDealt):
        return "The table was laid out"
    if isinstance(event, ev.RoundRevealed):
        return f"Round {event.round}'s offers were laid out"
    if isinstance(event, ev.DiceRolled):
        return "Everyone rolled their dice"
    if isinstance(event, ev.ContractRevealed):
        return "A new contract was laid out"
    if isinstance(event, ev.DieRolled):
        return describe_step(state, after, event, f"rolled a {event.value}")
    if isinstance(event, ev.CharacterPicked):
        return describe_step(state, after, event, f"picked {event.character}")
    what = _WHAT.get(type(event))
    if what is None:
        return type(event).__name__
    return describe_step(state, after, event, what)
