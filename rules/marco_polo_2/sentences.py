"""Moves as plain sentences with names, and each move as the public may know it.

Only goal cards are secret (the views keep them hidden until the end), so ``public_move`` empties
them (the dealt goals, the goal kept, goal components described on any event) and hides a goal
shown before the end whole; every other move is public. ``describe`` words a move as a
``Phrase`` the API says in the reader's language.
"""

from __future__ import annotations

import msgspec

from events.base import Event
from events.messages import Phrase, phrase
from rules.marco_polo_2 import events as ev
from rules.marco_polo_2.state import REVEAL, ROUND, SETUP, MP2State
from rules.marco_polo_common.sentences import describe_step
from rules.marco_polo_common.sentences import status_words as common_status_words


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


_WHAT: dict[type, tuple[str, str]] = {
    ev.BookUsed: ("book", "using a book"),
    ev.KhansFavorTaken: ("khans-favor", "at the Khan's favor"),
    ev.GuildTaken: ("guild", "at a guild"),
    ev.SpecialCityUsed: ("special-city", "at a special city"),
    ev.CityCardUsed: ("city-card", "using a city card"),
    ev.ContractCompleted: ("completing", "completing a contract"),
    ev.SealImproved: ("seal", "improved their seal"),
    ev.MoneyBagTaken: ("money-bag", "from the money bag"),
    ev.DieRerolled: ("rerolled", "rerolled a die"),
    ev.DieAdjusted: ("turned", "turned a die by one"),
    ev.BlackDieBought: ("black-die", "bought a black die"),
    ev.GoodsTraded: ("traded", "traded goods"),
    ev.OutpostTileUsed: ("outpost-tile", "using an outpost tile"),
    ev.CaravanStarted: ("caravan-started", "started a caravan"),
    ev.CaravanConquered: ("caravan", "with a caravan"),
    ev.TurnEnded: ("ended-turn", "ended their turn"),
    ev.IncomeTaken: ("income", "as round-start income"),
    ev.GoalKept: ("kept-goal", "kept a goal card"),
    ev.Travelled: ("travelled", "travelled"),
    ev.ContractsTaken: ("took-contracts", "took contracts"),
}


def _p(key: str, template: str, /, **params: object) -> Phrase:
    return phrase(f"marco-polo-2.{key}", template, **params)


def describe(state: MP2State, event: Event, after: MP2State) -> Phrase:
    """One sentence for ``event`` (``state``: before it; ``after``: after it)."""
    if isinstance(event, ev.SetupDealt):
        return _p("laid-out", "The table was laid out")
    if isinstance(event, ev.RoundRevealed):
        return _p("round-revealed", "Round {round}'s offers were laid out", round=event.round)
    if isinstance(event, ev.DiceRolled):
        return _p("dice-rolled", "Everyone rolled their dice")
    if isinstance(event, ev.ContractRevealed):
        return _p("contract-revealed", "A new contract was laid out")
    if isinstance(event, ev.DieRolled):
        return describe_step(state, after, event, _p("rolled", "rolled a {value}", value=event.value))
    if isinstance(event, ev.CharacterPicked):
        return describe_step(state, after, event, _p("picked", "picked {character}", character=event.character))
    what = _WHAT.get(type(event))
    if what is None:
        return phrase("event", "{name}", name=type(event).__name__)
    return describe_step(state, after, event, _p(*what))


#: what the table reports next, by phase
_WAITING = {
    SETUP: lambda state: _p("status.setup", "setup: waiting for the table's layout (characters, contracts, goal cards, board)"),
    ROUND: lambda state: _p(
        "status.round", "round {round}: waiting for the offer tiles and action-area city cards", round=state.round + 1
    ),
    REVEAL: lambda state: _p("status.reveal", "after the last round: waiting for the goal cards"),
}


def status_words(state: MP2State) -> Phrase:
    """The one-line status as a phrase; what a pending step waits for is ``describe_pending``'s."""
    from rules.marco_polo_2.decide import describe_pending
    from rules.marco_polo_2.scoring import outcome

    return common_status_words(state, outcome, describe_pending, _WAITING)
