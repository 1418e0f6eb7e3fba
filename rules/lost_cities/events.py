"""Lost Cities events: decisions (play, discard, draw, pass) and observations (shuffle, deal, reveal).

Tags and fields are a contract with the other layers: never rename them; a changed meaning gets
a new tag plus an upcaster.
"""

from __future__ import annotations

from events.base import Event


class DeckShuffled(Event, frozen=True, tag="lost-cities.deck-shuffled"):
    """Digital play: the full deck order of a round. Seat i holds ``order[i*8:(i+1)*8]``; the rest
    is the draw pile, ``order[8*n]`` drawn first."""

    round: int
    order: tuple[str, ...]


class CardsDealt(Event, frozen=True, tag="lost-cities.cards-dealt"):
    """Physical table: the deal of a round. Per seat 8 entries, None = unknown to the recorder;
    ``()`` = every hand unknown."""

    round: int
    hands: tuple[tuple[str | None, ...], ...] = ()


class CardPlayed(Event, frozen=True, tag="lost-cities.card-played"):
    """A card from hand added to the end of the own side's expedition of its colour."""

    card: str
    seat: int | None = None


class CardDiscarded(Event, frozen=True, tag="lost-cities.card-discarded"):
    """A card from hand put on top of its colour's discard pile."""

    card: str
    seat: int | None = None


class CardDrawn(Event, frozen=True, tag="lost-cities.card-drawn"):
    """A card taken from the draw pile (``source="deck"``) or the top of a discard pile (a colour)."""

    source: str
    card: str | None = None
    seat: int | None = None


class CardsPassed(Event, frozen=True, tag="lost-cities.cards-passed"):
    """Partnership only: two cards from hand given to the partner instead of a turn."""

    cards: tuple[str | None, str | None]
    seat: int | None = None


class HandRevealed(Event, frozen=True, tag="lost-cities.hand-revealed"):
    """A seat's whole current hand, shown (e.g. at the end of a round)."""

    seat: int
    cards: tuple[str, ...]


EVENT_TYPES: tuple[type[Event], ...] = (
    DeckShuffled,
    CardsDealt,
    CardPlayed,
    CardDiscarded,
    CardDrawn,
    CardsPassed,
    HandRevealed,
)
