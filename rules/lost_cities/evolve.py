"""Folding already-validated events into state. No validation here: ``decide`` did it.

Fast path: one dict dispatch on the event type, tuple surgery, one ``structs.replace``.
"""

from __future__ import annotations

from msgspec.structs import replace

from events.base import Event
from rules.lost_cities.cards import CARD_COLOUR, COLOUR_INDEX, HAND_SIZE
from rules.lost_cities.events import CardDiscarded, CardDrawn, CardPlayed, CardsDealt, CardsPassed, DeckShuffled, HandRevealed
from rules.lost_cities.scoring import next_starting_seat, side_score
from rules.lost_cities.state import (
    DEAL,
    DRAW,
    OVER,
    PLAY,
    SIDES,
    LostCitiesState,
    RoundResult,
    empty_expeditions,
)

_DECK = "deck"


# plain dicts for the hot path (a MappingProxyType lookup is slower)
_COLOUR_OF: dict[str, int] = dict(CARD_COLOUR)
_COLOUR_NAMED: dict[str, int] = dict(COLOUR_INDEX)


def _leave_hand(state: LostCitiesState, seat: int, card: str, hands=None, unknown=None, shared=None):
    """``card`` leaves ``seat``'s hand: a known copy if there is one, else one unknown card (a shared
    copy when it can be one). Returns hands, unknown and shared (of ``state``, or those given)."""
    if hands is None:
        hands, unknown, shared = state.hands, state.unknown, state.shared
    hand = hands[seat]
    try:
        i = hand.index(card)
    except ValueError:
        unknown = _set(unknown, seat, unknown[seat] - 1)
        side = seat % SIDES
        cards = shared[side]
        # which copy left cannot be told: a shared one, where it can be, leaves the most open
        if state.shared_room[seat] and card in cards:
            j = cards.index(card)
            shared = _set(shared, side, cards[:j] + cards[j + 1 :])
        return hands, unknown, shared
    return _set(hands, seat, hand[:i] + hand[i + 1 :]), unknown, shared


def _set(items: tuple, i: int, value) -> tuple:
    return items[:i] + (value,) + items[i + 1 :]


def _new_round(state: LostCitiesState, hands, unknown, draw_pile: int, deck_order) -> LostCitiesState:
    return replace(
        state,
        round=state.round + 1,
        phase=PLAY,
        turn=state.starting_seat,
        hands=hands,
        unknown=unknown,
        expeditions=empty_expeditions(state.expedition_count),
        discard_piles=((),) * state.expedition_count,
        draw_pile=draw_pile,
        deck_order=deck_order,
        discarded_onto=-1,
        shared=((),) * SIDES,
        shared_room=(0,) * len(state.players),
    )


def _deck_shuffled(state: LostCitiesState, event: DeckShuffled) -> LostCitiesState:
    order = tuple(event.order)
    n = len(state.players)
    hands = tuple(order[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(n))
    return _new_round(state, hands, (0,) * n, len(order) - HAND_SIZE * n, order)


def _cards_dealt(state: LostCitiesState, event: CardsDealt) -> LostCitiesState:
    n = len(state.players)
    if event.hands:
        hands = tuple(tuple(c for c in hand if c is not None) for hand in event.hands)
        unknown = tuple(sum(1 for c in hand if c is None) for hand in event.hands)
    else:
        hands = ((),) * n
        unknown = (HAND_SIZE,) * n
    return _new_round(state, hands, unknown, len(state.deck) - HAND_SIZE * n, ())


def _card_played(state: LostCitiesState, event: CardPlayed) -> LostCitiesState:
    side = event.seat % SIDES
    colour = _COLOUR_OF[event.card]
    side_exps = state.expeditions[side]
    side_exps = _set(side_exps, colour, side_exps[colour] + (event.card,))
    return _left_hand(
        state, event.seat, event.card, expeditions=_set(state.expeditions, side, side_exps), discarded_onto=-1
    )


def _card_discarded(state: LostCitiesState, event: CardDiscarded) -> LostCitiesState:
    colour = _COLOUR_OF[event.card]
    piles = state.discard_piles
    return _left_hand(
        state, event.seat, event.card, discard_piles=_set(piles, colour, piles[colour] + (event.card,)),
        discarded_onto=colour,
    )


def _left_hand(state: LostCitiesState, seat: int, card: str, **placed) -> LostCitiesState:
    """``card`` has left ``seat``'s hand for the place ``placed`` says; a draw comes next."""
    hands, unknown, shared = _leave_hand(state, seat, card)
    return replace(state, phase=DRAW, hands=hands, unknown=unknown, shared=shared, **placed)


def _end_round(state: LostCitiesState) -> LostCitiesState:
    """ "El juego termina inmediatamente cuando un jugador toma la última carta del mazo"."""
    scores = tuple(side_score(side_exps) for side_exps in state.expeditions)
    totals = tuple(t + s for t, s in zip(state.totals, scores))
    result = RoundResult(
        round=state.round, starting_seat=state.starting_seat, expeditions=state.expeditions, scores=scores
    )
    last = state.round >= state.rounds
    start = (
        state.starting_seat if last else next_starting_seat(len(state.players), state.starting_seat, totals)
    )
    return replace(
        state,
        phase=OVER if last else DEAL,
        starting_seat=start,
        turn=start,
        discarded_onto=-1,
        history=state.history + (result,),
        totals=totals,
    )


def _card_drawn(state: LostCitiesState, event: CardDrawn) -> LostCitiesState:
    seat = event.seat
    card = event.card
    hand = state.hands[seat]
    unknown = state.unknown
    piles = state.discard_piles
    draw_pile = state.draw_pile
    if event.source == _DECK:
        draw_pile -= 1
        if card is None:
            unknown = _set(unknown, seat, unknown[seat] + 1)
        else:
            hand = hand + (card,)
    else:
        colour = _COLOUR_NAMED[event.source]
        pile = piles[colour]
        hand = hand + (pile[-1],)
        piles = _set(piles, colour, pile[:-1])
    state = replace(
        state,
        phase=PLAY,
        turn=(seat + 1) % len(state.players),
        hands=_set(state.hands, seat, hand),
        unknown=unknown,
        discard_piles=piles,
        draw_pile=draw_pile,
        discarded_onto=-1,
    )
    if draw_pile == 0:
        return _end_round(state)
    return state


def _cards_passed(state: LostCitiesState, event: CardsPassed) -> LostCitiesState:
    seat = event.seat
    n = len(state.players)
    partner = (seat + 2) % n
    faces_down = 0
    received: tuple[str, ...] = ()
    hands, unknowns, shared = state.hands, state.unknown, state.shared
    for card in event.cards:
        if card is None:
            faces_down += 1
        else:
            hands, unknowns, shared = _leave_hand(state, seat, card, hands, unknowns, shared)
            received += (card,)
    room = state.shared_room
    if faces_down:
        # Ruling LC-3: the passer's known cards are now with one of the partners, not told which;
        # the partner holds at most as many of them as it was passed face down.
        known = hands[seat]
        side = seat % SIDES
        if not shared[side]:  # rooms left from cards since played or shown bound nothing now
            room = _set(_set(room, seat, 0), partner, 0)
        shared = _set(shared, side, shared[side] + known)
        hands = _set(hands, seat, ())
        unknowns = _set(unknowns, seat, unknowns[seat] + len(known) - faces_down)
        unknowns = _set(unknowns, partner, unknowns[partner] + faces_down)
        room = _set(room, seat, room[seat] + len(known))
        room = _set(room, partner, room[partner] + faces_down)
    hands = _set(hands, partner, hands[partner] + received)
    return replace(
        state,
        phase=PLAY,
        turn=(seat + 1) % n,
        hands=hands,
        unknown=unknowns,
        shared=shared,
        shared_room=room,
        discarded_onto=-1,
    )


def _hand_revealed(state: LostCitiesState, event: HandRevealed) -> LostCitiesState:
    seat = event.seat
    side = seat % SIDES
    shared = state.shared
    if state.shared_room[seat] and shared[side]:
        # shown cards the log did not know in this hand: shared copies where they can be
        rest = list(shared[side])
        new = list(event.cards)
        for card in state.hands[seat]:
            new.remove(card)
        for card in new:
            if card in rest:
                rest.remove(card)
        shared = _set(shared, side, tuple(rest))
    return replace(
        state,
        hands=_set(state.hands, seat, tuple(event.cards)),
        unknown=_set(state.unknown, seat, 0),
        shared=shared,
        shared_room=_set(state.shared_room, seat, 0),
    )


EVOLVERS = {
    DeckShuffled: _deck_shuffled,
    CardsDealt: _cards_dealt,
    CardPlayed: _card_played,
    CardDiscarded: _card_discarded,
    CardDrawn: _card_drawn,
    CardsPassed: _cards_passed,
    HandRevealed: _hand_revealed,
}


def evolve(state: LostCitiesState, event: Event) -> LostCitiesState:
    """Fold one validated event; events of other titles (lifecycle) leave the state as it is."""
    fold = EVOLVERS.get(type(event))
    return state if fold is None else fold(state, event)
