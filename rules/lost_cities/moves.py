"""Every legal move now, as completed events (seat filled in; known drawn cards filled in).

Plays and discards: every card id the hand can hold (its known cards; and, when it has unknown
cards, the cards its side shares after a face-down pass that it can hold, and every id with an
unseen copy unless all its unknown cards must be shared ones). Draws: the draw pile
(``card=None`` when its top is unknown, plus each unseen id the recorder might have seen drawn)
and the top of each non-empty discard pile except the one discarded onto this turn. Passes (partnership, hand of 8 or more): pairs of the
hand's known cards and, at a physical table, ``None`` entries (a face-down pass the recorder did
not see; digital play names every card). A pass naming a card that comes from the hand's unknown
cards is legal too (``decide`` accepts it) but is not listed, to keep the list short.
"""

from __future__ import annotations

from events.base import Event
from rules.lost_cities.cards import (
    CARD_COLOUR,
    CARD_KEY,
    CARD_VALUE,
    COLOURS,
    MIN_HAND_AFTER_PASS,
    PASS_SIZE,
    WAGERS_PER_COLOUR,
)
from rules.lost_cities.events import CardDiscarded, CardDrawn, CardPlayed, CardsPassed
from rules.lost_cities.knowledge import can_give_unseen, draw_pile_cards, unseen_counts
from rules.lost_cities.state import DRAW, PLAY, SIDES, LostCitiesState


def can_place(state: LostCitiesState, side: int, card: str) -> bool:
    cards = state.expeditions[side][CARD_COLOUR[card]]
    if not cards:
        return True
    value = CARD_VALUE[card]
    last = CARD_VALUE[cards[-1]]
    if value == 0:
        return last == 0 and len(cards) < WAGERS_PER_COLOUR
    return value > last


def possible_cards(state: LostCitiesState, seat: int, unseen: dict[str, int] | None = None) -> list[str]:
    """Distinct card ids ``seat``'s hand may hold, in canonical order."""
    ids = set(state.hands[seat])
    if state.unknown[seat]:
        if state.shared_room[seat]:
            ids.update(state.shared[seat % SIDES])
        if can_give_unseen(state, seat):
            if unseen is None:
                unseen = unseen_counts(state)
            ids.update(unseen)
    return sorted(ids, key=CARD_KEY.__getitem__)


def _passes(state: LostCitiesState, seat: int) -> list[Event]:
    known = sorted(state.hands[seat], key=CARD_KEY.__getitem__)
    pairs: list[tuple[str | None, str | None]] = []
    seen_pairs: set[tuple[str | None, str | None]] = set()
    for i in range(len(known)):
        for j in range(i + 1, len(known)):
            pair = (known[i], known[j])
            if pair not in seen_pairs:
                seen_pairs.add(pair)
                pairs.append(pair)
    if not state.deck_order:  # a physical table: the recorder may not see the passed cards
        for card in dict.fromkeys(known):
            pairs.append((card, None))
        pairs.append((None, None))
    return [CardsPassed(cards=pair, seat=seat) for pair in pairs]


def legal_moves(state: LostCitiesState) -> list[Event]:
    seat = state.turn
    if state.phase == PLAY:
        side = seat % SIDES
        cards = possible_cards(state, seat)
        moves: list[Event] = [CardPlayed(card=c, seat=seat) for c in cards if can_place(state, side, c)]
        moves.extend(CardDiscarded(card=c, seat=seat) for c in cards)
        if (
            state.partnership
            and len(state.hands[seat]) + state.unknown[seat] - PASS_SIZE >= MIN_HAND_AFTER_PASS
        ):
            moves.extend(_passes(state, seat))
        return moves
    if state.phase == DRAW:
        pile = draw_pile_cards(state)
        if pile:
            moves = [CardDrawn(source="deck", card=pile[0], seat=seat)]
        else:
            moves = [CardDrawn(source="deck", card=None, seat=seat)]
            unseen = unseen_counts(state)
            moves.extend(
                CardDrawn(source="deck", card=c, seat=seat) for c in sorted(unseen, key=CARD_KEY.__getitem__)
            )
        for colour, discards in enumerate(state.discard_piles):
            if discards and colour != state.discarded_onto:
                moves.append(CardDrawn(source=COLOURS[colour], card=discards[-1], seat=seat))
        return moves
    return []
