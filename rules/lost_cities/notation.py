"""Human notation: one token per move, case-insensitive in, canonical out.

=================  =========================================================
``R7`` ``Rx``      play a card onto the own side's expedition
``-R7``            discard a card onto its colour's discard pile
``d`` ``d=R7``     draw from the draw pile (card unknown / known)
``dR``             draw the top of the red discard pile (colour letter)
``>R7,B3``         pass two cards to the partner (``?`` = unknown card)
``deal``           a physical deal, every hand unknown
``deal R2,..;?``   a physical deal: hands per seat split by ``;``, ``?`` = unknown
                   (a lone ``?`` = a wholly unknown hand)
``shuffle R2,..``  a digital shuffle: the full deck order
``reveal 1:R7,..`` seat 1 shows its whole hand
=================  =========================================================
"""

from __future__ import annotations

import re

from events.base import Event
from rules.lost_cities import codes
from rules.lost_cities.cards import COLOUR_INDEX, COLOURS, HAND_SIZE, LETTER_INDEX, LETTERS, parse_card
from rules.lost_cities.events import CardDiscarded, CardDrawn, CardPlayed, CardsDealt, CardsPassed, DeckShuffled, HandRevealed
from rules.lost_cities.state import LostCitiesState
from events.messages import phrase

EXPECTED = (
    phrase("notation/lost-cities", "expected one of: R7 or Rx (play onto your expedition), -R7 (discard), d or d=R7 (draw from the draw pile, card unknown/known), dR (draw the top of the red discard pile), >R7,B3 (pass two cards to the partner, ? = unknown), deal or deal R2,R3,...;? (deal, hands split by ';', ? = unknown), shuffle R2,R3,... (full deck order), reveal 1:R7,B3,... (a seat shows its hand). Card ids: colour letter Y B W G R P + value 2..10 or x")
)
UNKNOWN = "?"
_SPACES = re.compile(r"\s+")


def _bad(text: str, why: str = "") -> None:
    codes.illegal(codes.BAD_NOTATION, "cannot read {text!r}{value_plus}; {expected}", text=text, value_plus=phrase("notation/colon", ": {why}", why=why) if why else '', expected=EXPECTED)


def _card(token: str, text: str) -> str:
    card = parse_card(token)
    if card is None:
        _bad(text, phrase("notation/not-card", "{token!r} is not a card id", token=token))
    return card  # type: ignore[return-value]


def _maybe_card(token: str, text: str) -> str | None:
    return None if token == UNKNOWN else _card(token, text)


def _card_list(body: str, text: str) -> tuple[str, ...]:
    if body == "":
        return ()
    return tuple(_card(token, text) for token in body.split(","))


def parse_move(state: LostCitiesState, text: str) -> Event:
    if not isinstance(text, str):
        _bad(repr(text), phrase("notation/not-text", "notation is text"))
    raw = text.strip()
    low = raw.lower()
    head, _, rest = low.partition(" ")
    rest = _SPACES.sub("", raw.partition(" ")[2])
    if head == "deal":
        if not rest:
            return CardsDealt(round=state.round + 1)
        hands = []
        for part in rest.split(";"):
            if part == UNKNOWN:
                hands.append((None,) * HAND_SIZE)
            else:
                hands.append(tuple(_maybe_card(tok, text) for tok in part.split(",")))
        return CardsDealt(round=state.round + 1, hands=tuple(hands))
    if head == "shuffle":
        if not rest:
            _bad(text, phrase("notation/shuffle", "a shuffle lists the whole deck"))
        return DeckShuffled(round=state.round + 1, order=_card_list(rest, text))
    if head == "reveal":
        seat_text, colon, cards = rest.partition(":")
        if not colon or not seat_text.isdigit():
            _bad(text, phrase("notation/reveal", "a reveal is 'reveal <seat>:<cards>'"))
        return HandRevealed(seat=int(seat_text), cards=_card_list(cards, text))
    token = _SPACES.sub("", raw)
    low = token.lower()
    if low == "d":
        return CardDrawn(source="deck")
    if low.startswith("d="):
        return CardDrawn(source="deck", card=_card(token[2:], text))
    if len(low) == 2 and low[0] == "d" and low[1].upper() in LETTER_INDEX:
        return CardDrawn(source=COLOURS[LETTER_INDEX[low[1].upper()]])
    if low.startswith(">"):
        parts = token[1:].split(",")
        if len(parts) != 2:
            _bad(text, phrase("notation/pass", "a pass gives exactly two cards"))
        return CardsPassed(cards=(_maybe_card(parts[0], text), _maybe_card(parts[1], text)))
    if low.startswith("-"):
        return CardDiscarded(card=_card(token[1:], text))
    card = parse_card(token)
    if card is None:
        _bad(text)
    return CardPlayed(card=card)  # type: ignore[arg-type]


def _fmt(card: str | None) -> str:
    return UNKNOWN if card is None else card


def format_move(event: Event) -> str:
    if isinstance(event, CardPlayed):
        return event.card
    if isinstance(event, CardDiscarded):
        return "-" + event.card
    if isinstance(event, CardDrawn):
        if event.source == "deck":
            return "d" if event.card is None else "d=" + event.card
        if event.source in COLOUR_INDEX:
            return "d" + LETTERS[COLOUR_INDEX[event.source]]
        codes.illegal(codes.BAD_NOTATION, "no notation for a draw from {source!r}", source=event.source)
    if isinstance(event, CardsPassed):
        return ">" + ",".join(_fmt(c) for c in event.cards)
    if isinstance(event, CardsDealt):
        if not event.hands:
            return "deal"
        parts = [
            UNKNOWN
            if len(hand) == HAND_SIZE and all(c is None for c in hand)
            else ",".join(_fmt(c) for c in hand)
            for hand in event.hands
        ]
        return "deal " + ";".join(parts)
    if isinstance(event, DeckShuffled):
        return "shuffle " + ",".join(event.order)
    if isinstance(event, HandRevealed):
        return f"reveal {event.seat}:" + ",".join(event.cards)
    codes.illegal(codes.BAD_NOTATION, "{name} is not a Lost Cities move", name=type(event).__name__)
