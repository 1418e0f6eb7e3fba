"""Validating moves into completed events. All validation lives here; ``evolve`` trusts its input.

Each rule check raises ``IllegalMove`` with a stable code and a message quoting the seed; a fact
that contradicts what the log already knows raises ``ContradictsKnownFacts``.
"""

from __future__ import annotations

from collections import Counter

from events.base import Event
from rules.lost_cities import codes
from rules.lost_cities.cards import (
    CARD_COLOUR,
    CARD_KEY,
    CARD_VALUE,
    COLOUR_INDEX,
    COLOURS,
    HAND_SIZE,
    MIN_HAND_AFTER_PASS,
    PASS_SIZE,
    WAGERS_PER_COLOUR,
)
from rules.lost_cities.events import CardDiscarded, CardDrawn, CardPlayed, CardsDealt, CardsPassed, DeckShuffled, HandRevealed
from rules.lost_cities.evolve import evolve
from rules.lost_cities.knowledge import (
    draw_pile_cards,
    places,
    player,
    require_in_hand,
    require_shared_fit,
    require_unseen,
    seen_counts,
)
from rules.lost_cities.state import DEAL, DRAW, OVER, PLAY, SIDES, LostCitiesState
from events.messages import Phrase, joined, listed, phrase

Q_ALTERNATE = '"El jugador de mayor edad comienza y los jugadores alternan turnos."'
Q_PLAY_THEN_DRAW = (
    '"En su turno, un jugador debe primero jugar una carta de su mano, '
    'y luego tomar una carta para reemplazarla."'
)
Q_ASCEND = (
    '"Las cartas siempre deben agregarse al final de la expedición '
    'y con números más altos que la carta previa."'
)
Q_EQUAL = '"Dos cartas del mismo valor no pueden ser jugadas en la misma expedición."'
Q_WAGERS = (
    '"Un jugador puede jugar hasta 3 cartas de patrocinio '
    'antes de la primera carta numerada de la expedición."'
)
Q_WAGER_AFTER = (
    '"Una vez que el jugador ha colocado una carta numerada en su expedición, '
    'ya no podrá jugar más cartas de patrocinio en esa expedición."'
)
Q_DRAW = (
    '"Puede tomar la carta superior del mazo de cartas colocadas boca abajo, '
    'o la carta superior de cualquiera de los montones de cartas deshechadas."'
)
Q_NO_REDRAW = '"El jugador no puede tomar una carta que haya deshechado en ese mismo turno."'
Q_END = '"El juego termina inmediatamente cuando un jugador toma la última carta del mazo"'
Q_DEAL = '"Revuelva las cartas y reparta 8 a cada jugador. Coloque las cartas restantes, boca abajo"'
Q_PASS = (
    '"un jugador puede elegir dos cartas cualesquiera de su mano y pasárselas a su compañero. '
    'Al hacer esto, un jugador nunca deberá reducir su mano a menos de seis cartas."'
)
Q_ROUNDS = '"Después del número de rondas acordado al inicio, normalmente 3, el juego termina."'


def _check_card_id(state: LostCitiesState, card: object, what: str) -> str:
    if not isinstance(card, str) or card not in state.multiplicity:
        extra = ""
        if isinstance(card, str) and card[:1] == "P" and state.expedition_count == 5:
            extra = " (purple is the 6th expedition, not in this game: option expeditions=6)"
        colours = " ".join(c[0].upper() for c in COLOURS[: state.expedition_count])
        codes.illegal(
            codes.UNKNOWN_CARD,
            "{what}: {card!r} is not a card of this game's deck{extra}; a card id is a colour letter ({colours}) and a value 2..10 or x for a wager, e.g. R7, Rx, B10", what=what, card=card, extra=extra, colours=colours,
        )
    return card


def _check_not_over(state: LostCitiesState) -> None:
    if state.phase == OVER:
        codes.illegal(
            codes.GAME_OVER, "the game is over after the {rounds} agreed {one:?round|rounds}: {rule}", rounds=state.rounds,
            one=state.rounds == 1, rule=Q_ROUNDS
        )


def _turn_seat(state: LostCitiesState, seat: int | None, expected_phase: str, action: str) -> int:
    """Common checks for a seat's turn action; returns the seat (filled in when omitted)."""
    _check_not_over(state)
    if state.phase == DEAL:
        codes.illegal(
            codes.AWAITING_DEAL,
            "cannot {action}: round {round_plus} has not been dealt yet; record the shuffle or the deal first ({rule})", action=action, round_plus=state.round + 1, rule=Q_DEAL,
        )
    if seat is not None:
        if not isinstance(seat, int) or not 0 <= seat < len(state.players):
            codes.illegal(
                codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{n_players_minus})", seat=seat, n_players_minus=len(state.players) - 1
            )
        if seat != state.turn:
            codes.illegal(
                codes.NOT_YOUR_TURN,
                "it is {player}'s turn, not {player2}'s: {rule}", player=player(state, state.turn), player2=player(state, seat), rule=Q_ALTERNATE,
            )
    seat = state.turn
    if state.phase != expected_phase:
        if state.phase == DRAW:
            msg = "{player} has played or discarded and must now draw a card: {rule}"
        else:
            msg = "{player} must first play or discard a card, then draw: {rule}"
        codes.illegal(codes.PLAY_THEN_DRAW, msg, player=player(state, seat), rule=Q_PLAY_THEN_DRAW)
    return seat


def _owners(state: LostCitiesState, side: int) -> Phrase | str:
    """"Ana", or "Ana and Cy" for a partnership side."""
    return listed([state.players[s] for s in range(len(state.players)) if s % SIDES == side])


def _check_placement(state: LostCitiesState, seat: int, card: str) -> None:
    side = seat % SIDES
    colour = CARD_COLOUR[card]
    cards = state.expeditions[side][colour]
    if not cards:
        return
    value = CARD_VALUE[card]
    last = CARD_VALUE[cards[-1]]
    owners, named = _owners(state, side), COLOURS[colour]
    if value == 0:
        if last != 0:
            codes.illegal(
                codes.WAGER_AFTER_NUMBER,
                "{card} cannot go on {owners}'s {colour} expedition: it already has the number card {cards_last}. {rule}", card=card, owners=owners, colour=named, cards_last=cards[-1], rule=Q_WAGER_AFTER,
            )
        if len(cards) >= WAGERS_PER_COLOUR:
            codes.illegal(codes.TOO_MANY_WAGERS, "{owners}'s {colour} expedition already has {n_cards} wager cards: {rule}", owners=owners, colour=named, n_cards=len(cards), rule=Q_WAGERS)
        return
    if value == last and state.partnership:
        codes.illegal(
            codes.NO_EQUAL_VALUES, "{card} cannot go on {owners}'s {colour} expedition: it already ends with {cards_last}. {rule}", card=card, owners=owners, colour=named, cards_last=cards[-1], rule=Q_EQUAL
        )
    if value <= last:
        codes.illegal(
            codes.EXPEDITION_MUST_ASCEND,
            "{card} cannot go on {owners}'s {colour} expedition, which ends with {cards_last}: {rule}", card=card, owners=owners, colour=named, cards_last=cards[-1], rule=Q_ASCEND,
        )


def _check_shared(state: LostCitiesState, event: Event, seat: int, what: str, code: str) -> None:
    """Cards passed face down (ruling LC-3) must still fit the side's hands once ``event`` is folded."""
    side = seat % SIDES
    if state.shared[side]:
        require_shared_fit(evolve(state, event), side, what=what, code=code)


def _from_hand(state: LostCitiesState, event: CardPlayed | CardDiscarded, what: Phrase) -> tuple[Event, ...]:
    """``event``, once its card is in its seat's hand (and cards passed face down still fit)."""
    require_in_hand(state, event.seat, (event.card,), what=what)
    _check_shared(state, event, event.seat, what, codes.CARD_NOT_IN_HAND)
    return (event,)


def _decide_played(state: LostCitiesState, move: CardPlayed) -> tuple[Event, ...]:
    seat = _turn_seat(state, move.seat, PLAY, "play a card")
    card = _check_card_id(state, move.card, "play")
    _check_placement(state, seat, card)
    what = phrase("what/plays", "{player} plays {card}", player=player(state, seat), card=card)
    return _from_hand(state, CardPlayed(card=card, seat=seat), what)


def _decide_discarded(state: LostCitiesState, move: CardDiscarded) -> tuple[Event, ...]:
    seat = _turn_seat(state, move.seat, PLAY, "discard a card")
    card = _check_card_id(state, move.card, "discard")
    what = phrase("what/discards", "{player} discards {card}", player=player(state, seat), card=card)
    return _from_hand(state, CardDiscarded(card=card, seat=seat), what)


def _decide_drawn(state: LostCitiesState, move: CardDrawn) -> tuple[Event, ...]:
    seat = _turn_seat(state, move.seat, DRAW, "draw a card")
    source = move.source
    card = move.card
    if card is not None:
        card = _check_card_id(state, card, "draw")
    if source == "deck":
        if state.draw_pile <= 0:  # unreachable in a valid log: the round ends on the last card
            codes.illegal(codes.DRAW_PILE_EMPTY, "the draw pile is empty: {rule}", rule=Q_END)
        pile = draw_pile_cards(state)
        if pile:
            top = pile[0]
            if card is not None and card != top:
                codes.contradiction(
                    codes.DRAWN_CARD_MISMATCH,
                    "{player} cannot draw {card} from the draw pile: the shuffled deck's next card is {top}", player=player(state, seat), card=card, top=top,
                )
            card = top
        elif card is not None:
            require_unseen(state, card, what=phrase("what/draws-deck", "{player} draws {card} from the draw pile", player=player(state, seat), card=card))
        return (CardDrawn(source=source, card=card, seat=seat),)
    colour = COLOUR_INDEX.get(source) if isinstance(source, str) else None
    if colour is None or colour >= state.expedition_count:
        names = ", ".join(COLOURS[: state.expedition_count])
        codes.illegal(
            codes.UNKNOWN_SOURCE,
            "cannot draw from {source!r}: draw from 'deck' or a discard pile ({names}). {rule}", source=source, names=names, rule=Q_DRAW,
        )
    if colour == state.discarded_onto:
        codes.illegal(
            codes.NO_REDRAW_OF_DISCARD,
            "{player} discarded onto the {source} pile this turn: {rule}", player=player(state, seat), source=source, rule=Q_NO_REDRAW,
        )
    pile = state.discard_piles[colour]
    if not pile:
        codes.illegal(
            codes.DISCARD_PILE_EMPTY, "the {source} discard pile is empty; nothing to take. {rule}", source=source, rule=Q_DRAW
        )
    if card is not None and card != pile[-1]:
        codes.contradiction(
            codes.DRAWN_CARD_MISMATCH,
            "{player} cannot draw {card} from the {source} discard pile: its top card is {pile_last} (only the top card can be taken: {rule})", player=player(state, seat), card=card, source=source, pile_last=pile[-1], rule=Q_DRAW,
        )
    return (CardDrawn(source=source, card=pile[-1], seat=seat),)


def _pass_key(card: str | None) -> int:
    return 1 << 20 if card is None else CARD_KEY[card]


def _decide_passed(state: LostCitiesState, move: CardsPassed) -> tuple[Event, ...]:
    if not state.partnership:
        codes.illegal(
            codes.PASS_ONLY_IN_PARTNERSHIP,
            "passing cards to a partner is only in the 4-player partnership game (parejas): {rule}", rule=Q_PASS,
        )
    seat = _turn_seat(state, move.seat, PLAY, "pass cards")
    cards = tuple(move.cards)
    if len(cards) != PASS_SIZE:
        codes.illegal(codes.PASS_TWO_CARDS, "a pass gives exactly two cards, got {n_cards}: {rule}", n_cards=len(cards), rule=Q_PASS)
    named = tuple(_check_card_id(state, c, "pass") for c in cards if c is not None)
    size = len(state.hands[seat]) + state.unknown[seat]
    if size - PASS_SIZE < MIN_HAND_AFTER_PASS:
        codes.illegal(
            codes.PASS_BELOW_SIX,
            "{player} holds {size} cards; passing two would leave {size_minus}: {rule}", player=player(state, seat), size=size, size_minus=size - PASS_SIZE, rule=Q_PASS,
        )
    if len(named) < PASS_SIZE and state.deck_order:
        codes.illegal(
            codes.CARD_MUST_BE_NAMED,
            "name both passed cards: digital play knows every card ({player} holds {hands_item})", player=player(state, seat), hands_item=', '.join(sorted(state.hands[seat])),
        )
    what = phrase("what/passes", "{player} passes {named}", player=player(state, seat), named=', '.join(named) or phrase("what/two-face-down", "two cards face down"))
    require_in_hand(state, seat, named, what=what)
    ordered = tuple(sorted(cards, key=_pass_key))
    event = CardsPassed(cards=ordered, seat=seat)  # type: ignore[arg-type]
    _check_shared(state, event, seat, what, codes.CARD_NOT_IN_HAND)
    return (event,)


def _check_deal_phase(state: LostCitiesState, round_no: object) -> None:
    _check_not_over(state)
    if state.phase != DEAL:
        codes.illegal(
            codes.ROUND_IN_PROGRESS,
            "round {round} is in progress; a new deal comes only after {rule}", round=state.round, rule=Q_END,
        )
    if round_no != state.round + 1:
        codes.illegal(codes.WRONG_ROUND, "the next deal is for round {round_plus}, not {round_no!r}", round_plus=state.round + 1, round_no=round_no)


def _decide_shuffled(state: LostCitiesState, move: DeckShuffled) -> tuple[Event, ...]:
    _check_deal_phase(state, move.round)
    order = tuple(move.order)
    deck = state.deck
    if Counter(order) != Counter(deck):
        missing = Counter(deck) - Counter(order)
        extra = Counter(order) - Counter(deck)
        detail = []
        if missing:
            detail.append("missing " + ", ".join(sorted(missing.elements())))
        if extra:
            detail.append(
                "not in the deck or too many copies: " + ", ".join(map(str, sorted(extra.elements())))
            )
        codes.illegal(
            codes.SHUFFLE_NOT_FULL_DECK,
            "a shuffle is an order of the whole {n_deck}-card deck ({detail}): {rule}", n_deck=len(deck), detail='; '.join(detail), rule=Q_DEAL,
        )
    return (DeckShuffled(round=move.round, order=order),)


def _decide_dealt(state: LostCitiesState, move: CardsDealt) -> tuple[Event, ...]:
    _check_deal_phase(state, move.round)
    n = len(state.players)
    hands = tuple(tuple(hand) for hand in move.hands)
    if hands:
        if len(hands) != n or any(len(hand) != HAND_SIZE for hand in hands):
            codes.illegal(
                codes.DEAL_EIGHT_EACH,
                "a deal gives each of the {n} seats exactly {hand_size} cards (None = unknown), got {value}: {rule}", n=n, hand_size=HAND_SIZE, value=[len(h) for h in hands], rule=Q_DEAL,
            )
        known = Counter()
        for seat, hand in enumerate(hands):
            for card in hand:
                if card is not None:
                    known[_check_card_id(state, card, phrase("what/deal-to-seat", "deal to seat {seat}", seat=seat))] += 1
        for card, k in known.items():
            if k > state.multiplicity[card]:
                codes.contradiction(
                    codes.CARD_ALREADY_SEEN,
                    "the deal names {card} {k} times but the deck has {multiplicity_item} cop{multiplicity_item_is_1:?y|ies}; a card is in exactly one place", card=card, k=k, multiplicity_item=state.multiplicity[card], multiplicity_item_is_1=state.multiplicity[card] == 1,
                )
    return (CardsDealt(round=move.round, hands=hands),)


def _decide_revealed(state: LostCitiesState, move: HandRevealed) -> tuple[Event, ...]:
    seat = move.seat
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        codes.illegal(
            codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{n_players_minus})", seat=seat, n_players_minus=len(state.players) - 1
        )
    if state.round == 0:
        codes.illegal(codes.AWAITING_DEAL, "no hand to reveal: round 1 has not been dealt yet ({rule})", rule=Q_DEAL)
    cards = tuple(_check_card_id(state, c, phrase("what/reveal-seat", "reveal of seat {seat}", seat=seat)) for c in move.cards)
    hand = state.hands[seat]
    size = len(hand) + state.unknown[seat]
    who = player(state, seat)
    if len(cards) != size:
        codes.contradiction(
            codes.REVEAL_WRONG_SIZE, "{who} holds {size} cards, but the reveal shows {n_cards}", who=who, size=size, n_cards=len(cards)
        )
    shown = Counter(cards)
    missing = Counter(hand) - shown
    if missing:
        codes.contradiction(
            codes.REVEAL_MISSING_KNOWN_CARD,
            "{who}'s hand is known to hold {elements}, missing from the reveal", who=who, elements=', '.join(sorted(missing.elements())),
        )
    new = shown - Counter(hand)
    if new:
        seen = seen_counts(state)
        room = state.shared_room[seat]
        shared = Counter(state.shared[seat % SIDES]) if room else Counter()
        passed = 0  # shown cards that can only be cards passed face down
        for card, k in new.items():
            unseen = state.multiplicity[card] - seen[card]
            if unseen + shared[card] < k:
                require_unseen(state, card, seen, what=phrase("what/reveal-hand", "reveal of {who}'s hand", who=who))
                codes.contradiction(
                    codes.CARD_ALREADY_SEEN,
                    "reveal of {who}'s hand: it shows {k} more {card} than the deck has unplaced copies ({places})", who=who, k=k, card=card, places=joined('; ', places(state, card)),
                )
            passed += max(0, k - unseen)
        if passed > room:
            codes.contradiction(
                codes.CARD_ALREADY_SEEN,
                "reveal of {who}'s hand: {passed} of the shown cards can only be cards passed face down, but {who} can hold at most {room} of them", who=who, passed=passed, room=room,
            )
    event = HandRevealed(seat=seat, cards=cards)
    _check_shared(state, event, seat, phrase("what/reveal-hand", "reveal of {who}'s hand", who=who), codes.REVEAL_MISSING_KNOWN_CARD)
    return (event,)


DECIDERS = {
    CardPlayed: _decide_played,
    CardDiscarded: _decide_discarded,
    CardDrawn: _decide_drawn,
    CardsPassed: _decide_passed,
    DeckShuffled: _decide_shuffled,
    CardsDealt: _decide_dealt,
    HandRevealed: _decide_revealed,
}


def decide(state: LostCitiesState, move: Event) -> tuple[Event, ...]:
    handler = DECIDERS.get(type(move))
    if handler is None:
        codes.illegal(
            codes.UNKNOWN_EVENT,
            "{move} is not a Lost Cities move; expected one of {moves}",
            move=type(move).__name__,
            moves=", ".join(t.__name__ for t in DECIDERS),
        )
    return handler(state, move)
