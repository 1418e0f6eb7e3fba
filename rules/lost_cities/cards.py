"""The cards: colours, values, card ids and the decks, precomputed once at import.

A card id is a colour letter plus a value: ``R7``, ``B10``, ``Yx`` (``x`` = wager card, the seed's
"carta de patrocinio"). Identical copies (the three wagers of a colour; the doubled 2, 3 and 4 of
the partnership deck) share one id and are interchangeable.
"""

from __future__ import annotations

import re
from types import MappingProxyType

#: expedition order for display and scoring; purple is the 6th expedition of current editions
COLOURS: tuple[str, ...] = ("yellow", "blue", "white", "green", "red", "purple")
LETTERS: tuple[str, ...] = ("Y", "B", "W", "G", "R", "P")
#: number card values; a wager card has value 0 in the tables below
VALUES: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10)
WAGER = "x"
WAGERS_PER_COLOUR = 3
#: values a partnership deck holds twice ("agregue las cartas de valores 2, 3 y 4 del otro juego")
PARTNERSHIP_EXTRA_VALUES: tuple[int, ...] = (2, 3, 4)
HAND_SIZE = 8
#: "Al hacer esto, un jugador nunca deberá reducir su mano a menos de seis cartas."
MIN_HAND_AFTER_PASS = 6
PASS_SIZE = 2
EXPEDITION_OPTIONS: tuple[int, ...] = (5, 6)


def card_id(colour: int, value: int) -> str:
    """``card_id(4, 7) == "R7"``; value 0 is a wager: ``card_id(4, 0) == "Rx"``."""
    return LETTERS[colour] + (WAGER if value == 0 else str(value))


#: every distinct card id, in canonical order (colour order, wager first, then 2..10)
ALL_CARDS: tuple[str, ...] = tuple(card_id(c, v) for c in range(len(COLOURS)) for v in (0, *VALUES))
#: card id -> colour index (0 yellow .. 5 purple)
CARD_COLOUR: MappingProxyType[str, int] = MappingProxyType(
    {card: i // (1 + len(VALUES)) for i, card in enumerate(ALL_CARDS)}
)
#: card id -> value (0 for a wager)
CARD_VALUE: MappingProxyType[str, int] = MappingProxyType(
    {card: (0 if card[1:] == WAGER else int(card[1:])) for card in ALL_CARDS}
)
#: card id -> sort key (canonical order)
CARD_KEY: MappingProxyType[str, int] = MappingProxyType({card: i for i, card in enumerate(ALL_CARDS)})
#: colour name -> index, colour letter -> index
COLOUR_INDEX: MappingProxyType[str, int] = MappingProxyType({name: i for i, name in enumerate(COLOURS)})
LETTER_INDEX: MappingProxyType[str, int] = MappingProxyType({letter: i for i, letter in enumerate(LETTERS)})

_CARD_RE = re.compile(r"^([ybwgrp])(x|10|[2-9])$", re.IGNORECASE)


def parse_card(text: str) -> str | None:
    """The canonical id of ``text`` (case-insensitive: ``r7`` -> ``R7``, ``RX`` -> ``Rx``), or None."""
    m = _CARD_RE.match(text.strip())
    if m is None:
        return None
    letter, value = m.groups()
    return letter.upper() + value.lower()


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=CARD_KEY.__getitem__)


def _build_multiplicity(expeditions: int, partnership: bool) -> MappingProxyType[str, int]:
    counts: dict[str, int] = {}
    for colour in range(expeditions):
        counts[card_id(colour, 0)] = WAGERS_PER_COLOUR
        for value in VALUES:
            extra = partnership and value in PARTNERSHIP_EXTRA_VALUES
            counts[card_id(colour, value)] = 2 if extra else 1
    return MappingProxyType(counts)


#: (expeditions, partnership) -> card id -> number of copies in the deck
MULTIPLICITY: MappingProxyType[tuple[int, bool], MappingProxyType[str, int]] = MappingProxyType(
    {(e, p): _build_multiplicity(e, p) for e in EXPEDITION_OPTIONS for p in (False, True)}
)
#: (expeditions, partnership) -> the full deck, every copy, in canonical order
DECKS: MappingProxyType[tuple[int, bool], tuple[str, ...]] = MappingProxyType(
    {
        key: tuple(card for card in ALL_CARDS if card in counts for _ in range(counts[card]))
        for key, counts in MULTIPLICITY.items()
    }
)


def describe_card(card: str) -> str:
    colour = COLOURS[CARD_COLOUR[card]]
    value = CARD_VALUE[card]
    return f"{colour} wager" if value == 0 else f"{colour} {value}"
