"""Folding already-validated events into state. No validation here: ``decide`` did it.

Fast path: one dict dispatch on the event type, tuple surgery, one ``structs.replace``.
"""

from __future__ import annotations

from msgspec.structs import replace

from events.base import Event
from rules.lost_cities.cards import CARD_COLOUR, COLOUR_INDEX, HAND_SIZE
from rules.lost_cities.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsDealt,
    CardsPassed,
    DeckShuffled,
    HandRevealed,
)
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


def _remove_from_hand(hand: tuple[str, ...], unknown: int, card: str) -> tuple[tuple[str, ...], int]:
    """Take ``card`` out of a hand: a known copy if there is one, else one unknown card."""
    try:
        i = hand.index(card)
    except ValueError:
        return hand, unknown - 1
    return hand[:i] + hand[i + 1 :], unknown


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
    seat = event.seat
    card = event.card
    hand, unknown = _remove_from_hand(state.hands[seat], state.unknown[seat], card)
    side = seat % SIDES
    colour = _COLOUR_OF[card]
    side_exps = state.expeditions[side]
    side_exps = _set(side_exps, colour, side_exps[colour] + (card,))
    return replace(
        state,
        phase=DRAW,
        hands=_set(state.hands, seat, hand),
        unknown=_set(state.unknown, seat, unknown) if unknown != state.unknown[seat] else state.unknown,
        expeditions=_set(state.expeditions, side, side_exps),
        discarded_onto=-1,
    )


def _card_discarded(state: LostCitiesState, event: CardDiscarded) -> LostCitiesState:
    seat = event.seat
    card = event.card
    hand, unknown = _remove_from_hand(state.hands[seat], state.unknown[seat], card)
    colour = _COLOUR_OF[card]
    piles = state.discard_piles
    return replace(
        state,
        phase=DRAW,
        hands=_set(state.hands, seat, hand),
        unknown=_set(state.unknown, seat, unknown) if unknown != state.unknown[seat] else state.unknown,
        discard_piles=_set(piles, colour, piles[colour] + (card,)),
        discarded_onto=colour,
    )


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
    hand = list(state.hands[seat])
    unknown = state.unknown[seat]
    received: list[str] = []
    received_unknown = 0
    faces_down = 0
    for card in event.cards:
        if card is None:
            faces_down += 1
            received_unknown += 1
        else:
            received.append(card)
            if card in hand:
                hand.remove(card)
            else:
                unknown -= 1
    if faces_down:
        # Ruling: an unknown card left a hand, so its known cards can no longer be told apart.
        unknown = len(hand) + unknown - faces_down
        hand = []
    hands = _set(state.hands, seat, tuple(hand))
    hands = _set(hands, partner, hands[partner] + tuple(received))
    unknowns = _set(state.unknown, seat, unknown)
    unknowns = _set(unknowns, partner, unknowns[partner] + received_unknown)
    return replace(state, phase=PLAY, turn=(seat + 1) % n, hands=hands, unknown=unknowns, discarded_onto=-1)


def _hand_revealed(state: LostCitiesState, event: HandRevealed) -> LostCitiesState:
    return replace(
        state,
        hands=_set(state.hands, event.seat, tuple(event.cards)),
        unknown=_set(state.unknown, event.seat, 0),
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
