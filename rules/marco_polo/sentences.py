"""Moves as plain sentences with names, and each move as the public may know it.

Everything on the table is public; only objective cards are secret, so ``public_move`` empties
them (the layout's dealt objectives, the ones kept, the ones shown before the end) and keeps
every other move whole. ``describe`` says what a seat did and what it gained and paid.
"""

from __future__ import annotations

import msgspec

from events.base import Event
from rules.marco_polo.content import NAME
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
from rules.marco_polo.state import MarcoPoloState
from rules.marco_polo_common import describe_step


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


def _place(loc: str) -> str:
    return NAME.get(loc, loc)


def _what(event: Event) -> str:
    """What a seat did, as a phrase after its name ("at the bazaar")."""
    if isinstance(event, FiveCoinsTaken):
        return "at the 5 coins space"
    if isinstance(event, BazaarUsed):
        return f"at the {event.row} bazaar"
    if isinstance(event, KhansFavorTaken):
        return "at the Khan's favor"
    if isinstance(event, ContractsTaken):
        return f"took {len(event.columns)} contract(s)"
    if isinstance(event, Travelled):
        stops = event.path2 or event.path
        return f"travelled to {_place(stops[-1])}" if stops else "travelled"
    if isinstance(event, CityCardUsed):
        return f"using the city card at {_place(event.space)}" + (f" {event.times} times" if event.times > 1 else "")
    if isinstance(event, ContractCompleted):
        return f"completing contract {event.contract}"
    if isinstance(event, MoneyBagTaken):
        return "from the money bag"
    if isinstance(event, DieRerolled):
        return "rerolled a die"
    if isinstance(event, DieAdjusted):
        return f"turned a die {'up' if event.delta > 0 else 'down'} by one"
    if isinstance(event, BlackDieBought):
        return "bought a black die"
    if isinstance(event, TurnEnded):
        return "ended their turn"
    if isinstance(event, IncomeTaken):
        return "as round-start income"
    if isinstance(event, CharacterPicked):
        return f"picked {event.character}"
    if isinstance(event, ObjectivesKept):
        return "kept 2 objective cards"
    if isinstance(event, ObjectivesRevealed):
        return "showed their objective cards" + (f": {', '.join(event.objectives)}" if event.objectives else "")
    if isinstance(event, ContractDiscarded):
        return f"returned contract {event.contract} under the special pile"
    if isinstance(event, ContractDrawn):
        return "drew a contract from the special pile" + (f" ({event.contract})" if event.contract else "")
    if isinstance(event, DieRolled):
        return f"rolled a {event.value}"
    return type(event).__name__


def describe(state: MarcoPoloState, event: Event, after: MarcoPoloState) -> str:
    """One sentence for ``event`` (``state``: before it; ``after``: after it)."""
    if isinstance(event, SetupDealt):
        return "The table was laid out: characters, city cards, outposts and the starting contracts"
    if isinstance(event, ContractsDealt):
        return f"Round {event.round}'s six contracts were laid out"
    if isinstance(event, DiceRolled):
        return f"Everyone rolled their dice for round {event.round}"
    return describe_step(state, after, event, _what(event))
