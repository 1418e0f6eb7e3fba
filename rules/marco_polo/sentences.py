"""Moves as plain sentences with names, and each move as the public may know it.

Everything on the table is public; only objective cards are secret, so ``public_move`` empties
them (the layout's dealt objectives, the ones kept, the ones shown before the end) and keeps
every other move whole. ``describe`` says what a seat did and what it gained and paid, as a
``Phrase`` the API says in the reader's language.
"""

from __future__ import annotations

import msgspec

from events.base import Event
from events.messages import Phrase, listed, phrase
from rules.marco_polo.content import CHARACTERS, NAME, OBJECTIVES
from rules.marco_polo.events import (
    BazaarUsed,
    BlackDieBought,
    CharacterPicked,
    CityCardUsed,
    ContractCompleted,
    ContractDiscarded,
    ContractDrawn,
    ContractsDealt,
    ContractsTaken,
    DiceRolled,
    DieAdjusted,
    DieRerolled,
    DieRolled,
    FiveCoinsTaken,
    IncomeTaken,
    KhansFavorTaken,
    MoneyBagTaken,
    ObjectivesKept,
    ObjectivesRevealed,
    SetupDealt,
    Travelled,
    TurnEnded,
)
from rules.marco_polo.state import CONTRACTS, REVEAL, SETUP, MarcoPoloState
from rules.marco_polo_common.sentences import describe_step
from rules.marco_polo_common.sentences import status_words as common_status_words


def public_move(event: Event) -> Event:
    """The event with the objective cards left out."""
    replace = msgspec.structs.replace
    if isinstance(event, SetupDealt):
        return replace(event, objectives=())
    if isinstance(event, ObjectivesKept):
        return replace(event, objectives=(None,) * len(event.objectives))
    if isinstance(event, ObjectivesRevealed):
        return replace(event, objectives=())
    return event


def _place(loc: str) -> Phrase | str:
    """A place by its name, which a language may write its own way ("Venecia")."""
    return phrase(f"marco-polo.place.{loc}", NAME[loc]) if loc in NAME else loc


def _objective(card: str) -> Phrase | str:
    """An objective card by the two cities it shows ("Moscow – Xian")."""
    if card not in OBJECTIVES:
        return card
    first, second = OBJECTIVES[card]["cities"]
    return _p("objective-card", "{first} – {second}", first=_place(first), second=_place(second))


def _p(key: str, template: str, /, **params: object) -> Phrase:
    return phrase(f"marco-polo.{key}", template, **params)


#: what a seat did, in words that take nothing from the move
_WHAT: dict[type, tuple[str, str]] = {
    FiveCoinsTaken: ("five-coins", "at the 5 coins space"),
    KhansFavorTaken: ("khans-favor", "at the Khan's favor"),
    ContractCompleted: ("completing", "completing a contract"),
    MoneyBagTaken: ("money-bag", "from the money bag"),
    DieRerolled: ("rerolled", "rerolled a die"),
    BlackDieBought: ("black-die", "bought a black die"),
    TurnEnded: ("ended-turn", "ended their turn"),
    IncomeTaken: ("income", "as round-start income"),
    ObjectivesKept: ("kept-objectives", "kept 2 objective cards"),
    ContractDiscarded: ("returned-contract", "returned a contract under the special pile"),
    # the card itself is drawn beside the sentence: its id is no word of the table's
    ContractDrawn: ("drew-contract", "drew a contract from the special pile"),
}


def _what(event: Event) -> Phrase:
    """What a seat did, as a phrase after its name ("at the bazaar")."""
    fixed = _WHAT.get(type(event))
    if fixed is not None:
        return _p(*fixed)
    if isinstance(event, BazaarUsed):
        return _p("bazaar", "at the {row} bazaar", row=phrase(f"marco-polo.row.{event.row}", event.row))
    if isinstance(event, ContractsTaken):
        return _p("took-contracts", "took {n} contract(s)", n=len(event.columns))
    if isinstance(event, Travelled):
        stops = event.path2 or event.path
        return _p("travelled-to", "travelled to {place}", place=_place(stops[-1])) if stops else _p("travelled", "travelled")
    if isinstance(event, CityCardUsed):
        if event.times > 1:
            where = _place(event.space)
            return _p("city-card-times", "using the city card at {place} {times} times", place=where, times=event.times)
        return _p("city-card", "using the city card at {place}", place=_place(event.space))
    if isinstance(event, DieAdjusted):
        if event.delta > 0:
            return _p("turned-up", "turned a die up by one")
        return _p("turned-down", "turned a die down by one")
    if isinstance(event, CharacterPicked):
        return _p("picked", "picked {character}", character=CHARACTERS[event.character]["name"] if event.character in CHARACTERS else event.character)
    if isinstance(event, ObjectivesRevealed):
        if event.objectives:
            return _p("showed-objectives-named", "showed their objective cards: {cards}", cards=listed([_objective(o) for o in event.objectives]))
        return _p("showed-objectives", "showed their objective cards")
    if isinstance(event, DieRolled):
        return _p("rolled", "rolled a {value}", value=event.value)
    return phrase("event", "{name}", name=type(event).__name__)


def describe(state: MarcoPoloState, event: Event, after: MarcoPoloState) -> Phrase:
    """One sentence for ``event`` (``state``: before it; ``after``: after it)."""
    if isinstance(event, SetupDealt):
        return _p("laid-out", "The table was laid out: characters, city cards, outposts and the starting contracts")
    if isinstance(event, ContractsDealt):
        return _p("contracts-dealt", "Round {round}'s six contracts were laid out", round=event.round)
    if isinstance(event, DiceRolled):
        return _p("dice-rolled", "Everyone rolled their dice for round {round}", round=event.round)
    return describe_step(state, after, event, _what(event))


#: what the table reports next, by phase
_WAITING = {
    SETUP: lambda state: _p(
        "status.setup", "setup: waiting for the table's layout (characters, city cards, bonuses, contracts, objectives)"
    ),
    CONTRACTS: lambda state: _p("status.contracts", "round {round}: waiting for the six contracts of the round", round=state.round),
    REVEAL: lambda state: _p("status.reveal", "after round 5: waiting for the objective cards"),
}


def status_words(state: MarcoPoloState) -> Phrase:
    """The one-line status as a phrase; what a pending step waits for is ``describe_pending``'s."""
    from rules.marco_polo.decide import describe_pending
    from rules.marco_polo.scoring import outcome

    return common_status_words(state, outcome, describe_pending, _WAITING)
