"""What the log knows about where each card copy is, and the consistency checks built on it.

Every copy is in exactly one place: a hand (known, or one of the hand's unknown cards), the draw
pile, an expedition or a discard pile. A card id is *seen* where the log knows it; its *unseen*
copies (multiplicity minus seen) are somewhere among the unknown hand cards and the draw pile.

A face-down pass (ruling LC-3) leaves some cards *shared* by a side: each is among the unknown
cards of one of the two partners, and seat s holds at most ``shared_room[s]`` of them. A record is
consistent while the shared cards fit: ``len(shared) <= sum(min(unknown[s], shared_room[s]))``
over the side's two seats (every other unknown card is an unseen one; counting does the rest).
"""

from __future__ import annotations

from collections import Counter

from rules.lost_cities import codes
from rules.lost_cities.cards import COLOURS
from rules.lost_cities.state import SIDES, LostCitiesState
from events.messages import Phrase, joined, listed, phrase


def player(state: LostCitiesState, seat: int) -> str:
    return state.players[seat]


def draw_pile_cards(state: LostCitiesState) -> tuple[str, ...]:
    """Digital play: the remaining draw pile, next card first; () at a physical table."""
    order = state.deck_order
    if not order:
        return ()
    return order[len(order) - state.draw_pile :]


def seen_counts(state: LostCitiesState) -> Counter[str]:
    seen: Counter[str] = Counter()
    for hand in state.hands:
        seen.update(hand)
    for side_exps in state.expeditions:
        for cards in side_exps:
            seen.update(cards)
    for pile in state.discard_piles:
        seen.update(pile)
    for cards in state.shared:
        seen.update(cards)
    seen.update(draw_pile_cards(state))
    return seen


def unseen_counts(state: LostCitiesState, seen: Counter[str] | None = None) -> dict[str, int]:
    """Card id -> copies not known to be anywhere (0 omitted)."""
    if seen is None:
        seen = seen_counts(state)
    return {card: n - seen[card] for card, n in state.multiplicity.items() if n > seen[card]}


def places(state: LostCitiesState, card: str) -> list[Phrase]:
    """Where the log knows copies of ``card`` to be, in words."""
    found: list[Phrase] = []
    for seat, hand in enumerate(state.hands):
        k = hand.count(card)
        if k:
            found.append(phrase("place/hand", "in {player}'s hand", player=player(state, seat)) if k == 1 else phrase("place/hand-n", "{k} in {player}'s hand", k=k, player=player(state, seat)))
    for side, side_exps in enumerate(state.expeditions):
        for colour, cards in enumerate(side_exps):
            if card in cards:
                names = listed([state.players[s] for s in range(len(state.players)) if s % SIDES == side])
                found.append(phrase("place/expedition", "on {names}'s {colour} expedition", names=names, colour=COLOURS[colour]))
    for colour, pile in enumerate(state.discard_piles):
        k = pile.count(card)
        if k:
            found.append(phrase("place/discard", "in the {colour} discard pile", colour=COLOURS[colour]) if k == 1 else phrase("place/discard-n", "{k} in the {colour} discard pile", k=k, colour=COLOURS[colour]))
    k = draw_pile_cards(state).count(card)
    if k:
        found.append(phrase("place/draw-pile", "in the draw pile") if k == 1 else phrase("place/draw-pile-n", "{k} in the draw pile", k=k))
    for side, cards in enumerate(state.shared):
        k = cards.count(card)
        if k:
            found.append(phrase("place/shared", "with {either} (passed face down)", either=_either(state, side)) if k == 1 else phrase("place/shared-n", "{k} with {either} (passed face down)", k=k, either=_either(state, side)))
    return found


def _either(state: LostCitiesState, side: int) -> Phrase | str:
    """The side's seats that can still hold a shared card."""
    seats = range(side, len(state.players), SIDES)
    able = [s for s in seats if min(state.unknown[s], state.shared_room[s]) > 0] or list(seats)
    return listed([player(state, s) for s in able], last="or")


def shared_overflow(state: LostCitiesState, side: int, leaving: int = -1) -> int:
    """How many of ``side``'s shared cards fit in no hand (> 0: a contradiction); ``leaving``: a seat
    that gives up one unknown card that is not a shared one."""
    shared = state.shared[side]
    if not shared:
        return 0
    room = state.shared_room
    fit = sum(
        min(state.unknown[s] - (s == leaving), room[s]) for s in range(side, len(state.players), SIDES)
    )
    return len(shared) - fit


def can_give_unseen(state: LostCitiesState, seat: int) -> bool:
    """Whether one of ``seat``'s unknown cards can be an unseen card rather than a shared one."""
    return shared_overflow(state, seat % SIDES, leaving=seat) <= 0


def require_shared_fit(state: LostCitiesState, side: int, *, what: str, code: str) -> None:
    """After a fact (``state`` folded with it), ``side``'s shared cards must still fit its hands."""
    over = shared_overflow(state, side)
    if over <= 0:
        return
    seats = range(side, len(state.players), SIDES)
    holds = "; ".join(
        f"{player(state, s)} has {state.unknown[s]} unknown card(s) and can hold at most "
        f"{min(state.unknown[s], state.shared_room[s])} of them"
        for s in seats
    )
    codes.contradiction(
        code,
        "{what}: the cards passed face down must still be with {value} ({shared_item}: {holds}), and {over} of them would fit in no hand. A pass gives \"dos cartas cualesquiera de su mano\" to the partner: the cards come from the passer's hand and go to the partner's.", what=what, value=listed([player(state, s) for s in seats], last="or"), shared_item=', '.join(sorted(state.shared[side])), holds=holds, over=over,
    )


def copies(state: LostCitiesState, card: str) -> Phrase:
    n = state.multiplicity.get(card, 0)
    return phrase("place/copies", "the deck has {n} {one:?copy|copies} of {card}", n=n, one=n == 1, card=card)


def require_unseen(state: LostCitiesState, card: str, seen: Counter[str] | None = None, *, what: str) -> None:
    """``card`` is newly learned somewhere (a named deck draw, a reveal): a copy must be unaccounted for."""
    if seen is None:
        seen = seen_counts(state)
    if state.multiplicity[card] - seen[card] <= 0:
        codes.contradiction(
            codes.CARD_ALREADY_SEEN,
            "{what}: {card} cannot be there, every copy is already placed ({copies}: {places}). A card is in exactly one place.", what=what, card=card, copies=copies(state, card), places=joined('; ', places(state, card)),
        )


def require_in_hand(
    state: LostCitiesState, seat: int, cards: tuple[str, ...], seen: Counter[str] | None = None, *, what: str
) -> None:
    """Each of ``cards`` (a multiset) must be possible in ``seat``'s hand: a known card of the hand, or
    one of its unknown cards while the id still has an unseen copy or a shared copy the hand can
    hold. (Whether the shared cards still fit afterwards is ``require_shared_fit``'s check.)"""
    hand = Counter(state.hands[seat])
    unknown = state.unknown[seat]
    if seen is None and any(hand[c] < n for c, n in Counter(cards).items()):
        seen = seen_counts(state)
    shared = state.shared[seat % SIDES] if state.shared_room[seat] else ()
    from_unknown = 0
    for card, n in Counter(cards).items():
        extra = n - hand[card]
        if extra <= 0:
            continue
        from_unknown += extra
        assert seen is not None
        unseen = state.multiplicity[card] - seen[card] + shared.count(card)
        if unknown == 0 or from_unknown > unknown or extra > unseen:
            known = ", ".join(sorted(state.hands[seat])) or "no known cards"
            where = joined("; ", places(state, card))
            if unknown == 0:
                reason = phrase("reason/fully-known", "the hand is fully known ({known}) and holds no {card}", known=known, card=card)
            elif from_unknown > unknown:
                reason = phrase("reason/few-unknown", "the hand has only {unknown} unknown card(s)", unknown=unknown)
            else:
                reason = phrase("reason/all-placed", "{copies} and every copy is already placed", copies=copies(state, card))
            if where:
                reason = phrase("reason/where", "{reason} ({card} is {where})", reason=reason, card=card, where=where)
            codes.contradiction(
                codes.CARD_NOT_IN_HAND, "{what}: {card} is not in {player}'s hand: {reason}", what=what, card=card, player=player(state, seat), reason=reason
            )
