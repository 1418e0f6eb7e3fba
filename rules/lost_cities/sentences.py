"""Moves as plain sentences with names, and each move as the public may know it.

``public_move`` keeps what the whole table saw (a card played, discarded, taken from a discard
pile) and empties what it did not (a card drawn from the draw pile, passed cards, the deal, a
digital shuffle's order, a hand shown to the recorder). ``describe`` words an event as given: a
draw without its card reads "drew from the draw pile".
"""

from __future__ import annotations

import msgspec

from events.base import Event
from rules.lost_cities.cards import CARD_COLOUR, CARD_VALUE, COLOURS
from rules.lost_cities.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsDealt,
    CardsPassed,
    DeckShuffled,
    HandRevealed,
)
from rules.lost_cities.state import LostCitiesState


def public_move(event: Event) -> Event:
    """The event with what only its seat (or the recorder) saw left out."""
    replace = msgspec.structs.replace
    if isinstance(event, CardDrawn) and event.source == "deck":
        return replace(event, card=None)
    if isinstance(event, CardsPassed):
        return replace(event, cards=(None, None))
    if isinstance(event, CardsDealt):
        return replace(event, hands=())
    if isinstance(event, DeckShuffled):
        return replace(event, order=())
    if isinstance(event, HandRevealed):
        return replace(event, cards=())
    return event


def card_words(card: str) -> str:
    """``R7`` -> "red 7", ``Bx`` -> "blue wager"."""
    colour = COLOURS[CARD_COLOUR[card]]
    value = CARD_VALUE[card]
    return f"{colour} {'wager' if value == 0 else value}"


def _name(state: LostCitiesState, seat: int | None) -> str:
    return state.players[seat] if seat is not None and 0 <= seat < len(state.players) else "Someone"


def describe(state: LostCitiesState, event: Event, after: LostCitiesState | None = None) -> str:
    """One sentence for ``event``, recorded in ``state`` (the state before it)."""
    who = _name(state, getattr(event, "seat", None))
    if isinstance(event, CardPlayed):
        return f"{who} played the {card_words(event.card)}"
    if isinstance(event, CardDiscarded):
        return f"{who} discarded the {card_words(event.card)}"
    if isinstance(event, CardDrawn):
        if event.source == "deck":
            return f"{who} drew {'the ' + card_words(event.card) + ' ' if event.card else ''}from the draw pile"
        card = f"the {card_words(event.card)}" if event.card else "the top card"
        return f"{who} took {card} from the {event.source} discard pile"
    if isinstance(event, CardsPassed):
        named = [card_words(c) for c in event.cards if c]
        return f"{who} passed two cards to their partner" + (f" ({', '.join(named)})" if named else "")
    if isinstance(event, CardsDealt):
        return f"The cards for round {event.round} were dealt, 8 each"
    if isinstance(event, DeckShuffled):
        return f"The deck was shuffled and dealt for round {event.round}"
    if isinstance(event, HandRevealed):
        shown = f": {', '.join(card_words(c) for c in event.cards)}" if event.cards else ""
        return f"{who} showed their hand{shown}"
    return type(event).__name__
