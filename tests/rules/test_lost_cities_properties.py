"""Property tests: many random legal Lost Cities games, 2 and 4 players, 5 and 6 expeditions,
full information (digital, ``DeckShuffled``) and partial information (a simulator holds the true
deck; the recorder sees only what a person at the table sees, and hands are revealed at the end
of each round).

Checked at every step: replay (folding the stored, decoded events) equals live play; events
round-trip msgpack and JSON; the state round-trips msgpack; cards are conserved; the score equals
an independent recomputation; sampled moves are accepted exactly when ``legal_moves`` lists them.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules  # noqa: F401  (registers the event types with the codec)
from events import codec
from events.errors import ContradictsKnownFacts, IllegalMove
from rules.lost_cities import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsDealt,
    CardsPassed,
    DeckShuffled,
    HandRevealed,
    LostCities,
    LostCitiesState,
)

T = LostCities()
LETTERS = "YBWGRP"
COLOURS = ("yellow", "blue", "white", "green", "red", "purple")
ORDER = {
    f"{letter}{v}": i * 11 + k for i, letter in enumerate(LETTERS) for k, v in enumerate(["x", *range(2, 11)])
}
EVERY_ID = sorted(ORDER, key=ORDER.__getitem__)

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
CONFIGS = [(2, 5), (2, 6), (4, 5), (4, 6)]


# --- independent reference computations (written apart from the rules core) ----------------------


def reference_deck(players: int, expeditions: int) -> Counter:
    deck: Counter = Counter()
    for letter in LETTERS[:expeditions]:
        deck[letter + "x"] = 3
        for value in range(2, 11):
            deck[f"{letter}{value}"] = 2 if players == 4 and value <= 4 else 1
    return deck


def reference_expedition(cards) -> int:
    if not cards:
        return 0
    numbers = [int(c[1:]) for c in cards if c[1:] != "x"]
    wagers = len(cards) - len(numbers)
    points = (sum(numbers) - 20) * (wagers + 1)
    return points + (20 if len(cards) >= 8 else 0)


def reference_side(expeditions) -> int:
    return sum(reference_expedition(cards) for cards in expeditions)


def check_expedition_shape(cards, partnership: bool) -> None:
    values = [0 if c[1:] == "x" else int(c[1:]) for c in cards]
    wagers = values.count(0)
    assert wagers <= 3
    assert values[:wagers] == [0] * wagers, cards  # wagers only at the start
    numbers = values[wagers:]
    assert all(a < b for a, b in zip(numbers, numbers[1:])), cards  # strictly ascending
    assert len({c[0] for c in cards}) <= 1


def check_invariants(state: LostCitiesState) -> None:
    players = len(state.players)
    deck = reference_deck(players, state.expedition_count)
    # the state round-trips msgpack (projections snapshot it)
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=T.state_type) == state
    if state.round == 0:
        return
    assert all(u >= 0 for u in state.unknown)
    sizes = [len(h) + u for h, u in zip(state.hands, state.unknown)]
    on_table = [c for side in state.expeditions for cards in side for c in cards]
    discarded = [c for pile in state.discard_piles for c in pile]
    total = sum(sizes) + state.draw_pile + len(on_table) + len(discarded)
    assert total == sum(deck.values()), "cards are conserved"
    known = Counter(on_table) + Counter(discarded)
    for hand in state.hands:
        known.update(hand)
    for cards in state.shared:
        known.update(cards)
    assert all(len(state.shared[side]) <= holdable(state, side) for side in (0, 1)), "shared cards fit"
    if state.deck_order:
        known.update(state.deck_order[len(state.deck_order) - state.draw_pile :])
        assert known == deck, "digital play knows every card"
    else:
        assert all(known[c] <= deck[c] for c in known), "no card known in more places than copies"
    in_round = state.phase in ("play", "draw")
    if in_round:
        if players == 2:
            expected = [8, 8]
            if state.phase == "draw":
                expected[state.turn] = 7
            assert sizes == expected
        else:
            assert all(5 <= s <= 10 for s in sizes)
            for side in (0, 1):
                drawer = 1 if state.phase == "draw" and state.turn % 2 == side else 0
                assert sizes[side] + sizes[side + 2] == 16 - drawer
    for side in state.expeditions:
        for cards in side:
            check_expedition_shape(cards, players == 4)
            assert -80 <= reference_expedition(cards) <= 156
    # the score equals an independent recomputation
    breakdown = T.score(state)
    totals = [0, 0]
    for result in state.history:
        for side in (0, 1):
            totals[side] += reference_side(result.expeditions[side])
    assert breakdown["totals"]["sides"] == totals
    assert list(state.totals) == totals
    if in_round:
        current = breakdown["rounds"][-1]
        assert [s["score"] for s in current["sides"]] == [reference_side(e) for e in state.expeditions]
    msgspec.json.encode(breakdown)
    msgspec.json.encode(T.full_view(state))
    for seat in [None, *range(players)]:
        view = T.view(state, seat)
        msgspec.json.encode(view)
        assert "hands" not in view and "draw_pile_order" not in view


def holdable(state: LostCitiesState, side: int) -> int:
    seats = range(side, len(state.players), 2)
    return sum(min(state.unknown[s], state.shared_room[s]) for s in seats)


# --- the game driver -----------------------------------------------------------------------------


def _value(card: str) -> int:
    return 0 if card[1:] == "x" else int(card[1:])


def choose(
    rng: random.Random, moves: list, state: LostCitiesState | None = None, builder: bool = False
) -> object:
    """A random move; a ``builder`` plays small steps up its expeditions (long expeditions, wagers,
    the 8-card bonus) and discards what it can no longer use."""
    plays = [m for m in moves if isinstance(m, CardPlayed)]
    discards = [m for m in moves if isinstance(m, CardDiscarded)]
    passes = [m for m in moves if isinstance(m, CardsPassed)]
    draws = [m for m in moves if isinstance(m, CardDrawn)]
    if draws:
        deck = [m for m in draws if m.source == "deck"]
        if rng.random() < 0.8:
            return deck[0] if rng.random() < 0.8 else rng.choice(deck)
        return rng.choice(draws)
    r = rng.random()
    if passes and r < 0.08:
        return rng.choice(passes)
    if builder and state is not None and plays:
        side = state.expeditions[state.turn % 2]

        def gap(m) -> int:
            cards = side[LETTERS.index(m.card[0])]
            last = _value(cards[-1]) if cards else (0 if m.card[1:] == "x" else 1)
            return _value(m.card) - last if m.card[1:] != "x" else 0

        best = min(plays, key=gap)
        if gap(best) <= 2 or rng.random() < 0.15:
            return best
        playable = {m.card for m in plays}
        dead = [m for m in discards if m.card not in playable]
        if dead:
            return rng.choice(dead)
        return rng.choice(discards)
    if plays and r < 0.6:
        low = min(plays, key=lambda m: ORDER[m.card] % 11)
        return low if rng.random() < 0.5 else rng.choice(plays)
    return rng.choice(discards)


def strip(rng: random.Random, event):
    """What a recorder might type: seat omitted, a known drawn card left out."""
    if (
        getattr(event, "seat", None) is not None
        and not isinstance(event, HandRevealed)
        and rng.random() < 0.5
    ):
        event = msgspec.structs.replace(event, seat=None)
    if isinstance(event, CardDrawn) and rng.random() < 0.5:
        event = msgspec.structs.replace(event, card=None)
    return event


def normalize(state: LostCitiesState, move):
    """The completed form of a candidate move, as ``legal_moves`` lists it (without validating)."""
    if isinstance(move, (CardPlayed, CardDiscarded, CardDrawn, CardsPassed)) and move.seat is None:
        move = msgspec.structs.replace(move, seat=state.turn)
    if isinstance(move, CardDrawn) and move.card is None:
        if move.source == "deck" and state.deck_order and state.draw_pile:
            move = msgspec.structs.replace(
                move, card=state.deck_order[len(state.deck_order) - state.draw_pile]
            )
        elif move.source in COLOURS[: state.expedition_count]:
            pile = state.discard_piles[COLOURS.index(move.source)]
            if pile:
                move = msgspec.structs.replace(move, card=pile[-1])
    if isinstance(move, CardsPassed):
        move = msgspec.structs.replace(
            move, cards=tuple(sorted(move.cards, key=lambda c: 10**6 if c is None else ORDER.get(c, 10**5)))
        )
    return move


def random_candidate(rng: random.Random, state: LostCitiesState):
    seat = rng.choice([None, None, *range(len(state.players))])
    card = rng.choice(EVERY_ID + ["Q7", "R11"])
    kind = rng.randrange(4)
    if kind == 0:
        return CardPlayed(card=card, seat=seat)
    if kind == 1:
        return CardDiscarded(card=card, seat=seat)
    if kind == 2:
        source = rng.choice(["deck", "deck", *COLOURS, "orange"])
        return CardDrawn(source=source, card=rng.choice([None, None, card]), seat=seat)
    other = rng.choice([None, *EVERY_ID])
    return CardsPassed(cards=(rng.choice([None, card]), other), seat=seat)


def check_sampled_moves(rng: random.Random, state: LostCitiesState, legal: list, samples: int = 2) -> None:
    """A move is accepted by ``decide`` exactly when (completed) it is listed by ``legal_moves``.

    Exception (documented in ``moves``): a pass naming cards out of a hand's unknown cards is
    accepted but not listed."""
    legal_set = set(legal)
    physical = not state.deck_order
    for _ in range(samples):
        candidate = random_candidate(rng, state)
        before = msgspec.msgpack.encode(state)
        try:
            events = T.decide(state, candidate)
        except IllegalMove as exc:
            assert exc.code.startswith("lost-cities.") and exc.message
            assert msgspec.msgpack.encode(state) == before
            assert normalize(state, candidate) not in legal_set, (candidate, exc)
        else:
            (event,) = events
            if isinstance(event, CardsPassed) and physical:
                continue
            assert event in legal_set, (candidate, event)


class Game:
    """One game's log, with its live state and a replayed state folded from the stored bytes."""

    def __init__(self, players: int, expeditions: int, rounds: int, first_seat: int) -> None:
        names = ("Ana", "Bea", "Cai", "Dov")[:players]
        self.players = names
        self.options = {"rounds": rounds, "expeditions": expeditions, "first_seat": first_seat}
        self.state = T.setup(names, self.options)
        self.replayed = self.state
        self.log: list[bytes] = []
        self.snapshots: dict[int, bytes] = {}

    def record(self, move) -> tuple:
        events = T.decide(self.state, move)
        for event in events:
            data = codec.encode(event)
            stored = codec.decode(data)
            assert stored == event and type(stored) is type(event)
            assert codec.decode_json(codec.encode_json(event)) == event
            assert T.parse_move(self.state, T.format_move(event)) == normalize_for_notation(event)
            self.state = T.evolve(self.state, event)
            self.replayed = T.evolve(self.replayed, stored)
            self.log.append(data)
            assert self.replayed == self.state, "replay equals live play"
        return events

    def snapshot(self) -> None:
        self.snapshots[len(self.log)] = msgspec.msgpack.encode(self.state)

    def check_full_replay(self) -> None:
        state = T.setup(self.players, self.options)
        for i, data in enumerate(self.log):
            if i in self.snapshots:
                assert msgspec.msgpack.decode(self.snapshots[i], type=T.state_type) == state
            state = T.evolve(state, codec.decode(data))
        assert state == self.state


def normalize_for_notation(event):
    """Notation carries no seat, and a draw from a discard pile does not repeat the card."""
    if isinstance(event, (CardPlayed, CardDiscarded, CardDrawn, CardsPassed)):
        event = msgspec.structs.replace(event, seat=None)
    if isinstance(event, CardDrawn) and event.source != "deck":
        event = msgspec.structs.replace(event, card=None)
    return event


def shuffle_order(rng: random.Random, state: LostCitiesState) -> tuple[str, ...]:
    chance = T.chance(state)
    assert chance is not None and chance.kind == "shuffle"
    assert Counter(chance.items) == reference_deck(len(state.players), state.expedition_count)
    items = list(chance.items)
    rng.shuffle(items)
    return tuple(items)


MAX_EVENTS = 3000


# --- full information: digital play ---------------------------------------------------------------


@pytest.mark.parametrize("players,expeditions", CONFIGS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 3), first=st.integers(0, 3))
def test_random_digital_games(players, expeditions, seed, rounds, first):
    rng = random.Random(seed)
    builder = rng.random() < 0.6
    game = Game(players, expeditions, rounds, first % players)
    while T.outcome(game.state) is None:
        assert len(game.log) < MAX_EVENTS
        state = game.state
        if rng.random() < 0.05:
            game.snapshot()
        if T.chance(state) is not None:
            assert T.to_move(state) is None and T.legal_moves(state) == []
            game.record(T.chance_event(state, shuffle_order(rng, state)))
            check_invariants(game.state)
            continue
        legal = T.legal_moves(state)
        assert legal and T.to_move(state) == state.turn
        assert all(T.decide(state, m) == (m,) for m in rng.sample(legal, min(3, len(legal))))
        check_sampled_moves(rng, state, legal)
        move = choose(rng, legal, state, builder)
        (event,) = game.record(strip(rng, move))
        assert event == move
        check_invariants(game.state)
    game.check_full_replay()
    result = T.outcome(game.state)
    totals = game.state.totals
    assert result.scores == tuple(totals[s % 2] for s in range(players))
    assert set(result.winners) == {s for s in range(players) if result.scores[s] == max(result.scores)}
    assert len(game.state.history) == rounds
    assert T.legal_moves(game.state) == [] and T.to_move(game.state) is None


# --- partial information: a physical table ---------------------------------------------------------


def mask(rng: random.Random, truth: LostCitiesState, event, recorder_seat: int | None):
    """What the recorder sees of a true event."""
    if isinstance(event, DeckShuffled):
        n = len(truth.players)
        hands = [event.order[i * 8 : (i + 1) * 8] for i in range(n)]
        style = rng.randrange(3)
        if style == 0 and recorder_seat is None:
            return CardsDealt(round=event.round)
        seen = []
        for seat, hand in enumerate(hands):
            if seat == recorder_seat:
                seen.append(tuple(hand))
            elif style == 2:
                seen.append(tuple(c if rng.random() < 0.25 else None for c in hand))
            else:
                seen.append((None,) * 8)
        return CardsDealt(round=event.round, hands=tuple(seen))
    if isinstance(event, CardDrawn):
        if event.source != "deck":
            return CardDrawn(source=event.source, seat=rng.choice([None, event.seat]))
        visible = event.seat == recorder_seat or rng.random() < 0.1
        return CardDrawn(source="deck", card=event.card if visible else None, seat=event.seat)
    if isinstance(event, CardsPassed):
        partner = (event.seat + 2) % 4
        sees = recorder_seat in (event.seat, partner)
        cards = tuple(c if sees or rng.random() < 0.3 else None for c in event.cards)
        return CardsPassed(cards=cards, seat=event.seat)
    return strip(rng, event)


@pytest.mark.parametrize("players,expeditions", CONFIGS)
@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    rounds=st.integers(1, 2),
    first=st.integers(0, 3),
    recorder=st.sampled_from([None, 0, 1]),
)
def test_random_recorded_games(players, expeditions, seed, rounds, first, recorder):
    rng = random.Random(seed)
    builder = rng.random() < 0.6
    truth = T.setup(
        ("Ana", "Bea", "Cai", "Dov")[:players],
        {"rounds": rounds, "expeditions": expeditions, "first_seat": first % players},
    )
    game = Game(players, expeditions, rounds, first % players)

    def reveal_all() -> None:
        for seat in range(players):
            game.record(HandRevealed(seat=seat, cards=truth.hands[seat]))
            assert Counter(game.state.hands[seat]) == Counter(truth.hands[seat])
            assert game.state.unknown[seat] == 0

    steps = 0
    while T.outcome(truth) is None:
        steps += 1
        assert steps < MAX_EVENTS
        if T.chance(truth) is not None:
            (true_event,) = T.decide(truth, T.chance_event(truth, shuffle_order(rng, truth)))
        else:
            true_event = choose(rng, T.legal_moves(truth), truth, builder)
            (true_event,) = T.decide(truth, true_event)
        rnd = truth.round
        truth = T.evolve(truth, true_event)
        seen = mask(rng, truth, true_event, recorder)
        legal = T.legal_moves(game.state)
        if legal:
            check_sampled_moves(rng, game.state, legal, samples=1)
        try:
            (recorded,) = game.record(seen)  # a true fact is never rejected (soundness)
        except (IllegalMove, ContradictsKnownFacts) as exc:  # pragma: no cover - a failure
            raise AssertionError(f"true fact {seen} rejected: {exc!r}") from exc
        if legal and not (isinstance(recorded, CardsPassed)):
            assert recorded in set(legal), recorded
        if rng.random() < 0.02:
            game.snapshot()
        # the recorder agrees with the truth on everything public
        s = game.state
        assert (s.round, s.phase, s.turn, s.starting_seat) == (
            truth.round,
            truth.phase,
            truth.turn,
            truth.starting_seat,
        )
        assert s.expeditions == truth.expeditions and s.discard_piles == truth.discard_piles
        assert s.draw_pile == truth.draw_pile and s.totals == truth.totals
        assert [len(h) + u for h, u in zip(s.hands, s.unknown)] == [len(h) for h in truth.hands]
        for seat in range(players):
            assert not Counter(s.hands[seat]) - Counter(truth.hands[seat]), "known cards are really there"
        check_invariants(s)
        if truth.round == rnd and truth.phase in ("play", "draw") and rng.random() < 0.02:
            seat = rng.randrange(players)
            game.record(HandRevealed(seat=seat, cards=truth.hands[seat]))
        if truth.phase in ("deal", "over") and truth.round == rnd and isinstance(true_event, CardDrawn):
            reveal_all()  # the round just ended: hands are shown and checked
            check_invariants(game.state)
    game.check_full_replay()
    assert T.outcome(game.state) == T.outcome(truth)


# --- partnership: face-down passes, and contradictions refused -----------------------------------


def truth_is_possible(state: LostCitiesState, truth: LostCitiesState) -> None:
    """The true hands are a world the log allows: known cards are there, and each side's shared
    cards (passed face down) can be split between the partners' unknown cards within their room."""
    for side in (0, 1):
        a, b = side, side + 2
        shared = Counter(state.shared[side])
        free_a = Counter(truth.hands[a]) - Counter(state.hands[a])
        free_b = Counter(truth.hands[b]) - Counter(state.hands[b])
        assert not shared - (free_a + free_b), ("shared cards are in the side's hands", side)
        low = sum(max(0, n - free_b[c]) for c, n in shared.items())  # fewest that seat a must hold
        high = sum(min(n, free_a[c]) for c, n in shared.items())  # most that seat a can hold
        total = sum(shared.values())
        lo, hi = max(low, total - state.shared_room[b]), min(high, state.shared_room[a])
        assert lo <= hi, ("the shared cards fit the rooms", side, state.shared, state.shared_room)


def partnership_mask(rng: random.Random, event, known_deal: float):
    """What a recorder at a partnership table notes: most passes and draws face down."""
    if isinstance(event, DeckShuffled):
        hands = []
        for seat in range(4):
            hand = event.order[seat * 8 : (seat + 1) * 8]
            p = rng.choice([0.0, known_deal, 1.0])
            hands.append(tuple(c if rng.random() < p else None for c in hand))
        return CardsDealt(round=event.round, hands=tuple(hands))
    if isinstance(event, CardDrawn):
        if event.source != "deck":
            return CardDrawn(source=event.source, seat=rng.choice([None, event.seat]))
        return CardDrawn(source="deck", card=event.card if rng.random() < 0.3 else None, seat=event.seat)
    if isinstance(event, CardsPassed):
        cards = tuple(c if rng.random() < 0.3 else None for c in event.cards)
        return CardsPassed(cards=cards, seat=event.seat)
    return strip(rng, event)


class SideOf:
    """Reference, kept apart from the rules core: which side's hands hold each single-copy card the
    recorder saw go into a hand (plays and discards are public, a pass stays within the side)."""

    def __init__(self, multiplicity) -> None:
        self.single = {c for c, n in multiplicity.items() if n == 1}
        self.side: dict[str, int] = {}

    def noted(self, event) -> None:
        if isinstance(event, CardsDealt):
            self.side = {}
            for seat, hand in enumerate(event.hands):
                self._into(hand, seat)
        elif isinstance(event, (CardPlayed, CardDiscarded)):
            self.side.pop(event.card, None)
        elif isinstance(event, CardDrawn) and event.card is not None:
            self._into((event.card,), event.seat)
        elif isinstance(event, CardsPassed):
            self._into(event.cards, event.seat)
        elif isinstance(event, HandRevealed):
            self._into(event.cards, event.seat)

    def _into(self, cards, seat: int) -> None:
        for card in cards:
            if card in self.single:
                self.side[card] = seat % 2


def contradicted(state: LostCitiesState, move) -> None:
    before = msgspec.msgpack.encode(state)
    with pytest.raises(ContradictsKnownFacts):
        T.decide(state, move)
    assert msgspec.msgpack.encode(state) == before


def elsewhere_facts(rng: random.Random, state: LostCitiesState, truth: LostCitiesState, ref: SideOf) -> list:
    """Facts that put a card the recorder saw go into one side's hands anywhere else."""
    if not ref.side:
        return []
    facts = []
    card, side = rng.choice(sorted(ref.side.items()))
    if state.phase == "play" and state.turn % 2 != side:
        facts.append(CardDiscarded(card=card, seat=state.turn))
    if state.phase == "draw":
        facts.append(CardDrawn(source="deck", card=card))
    seat = rng.choice([s for s in range(4) if s % 2 != side])
    if truth.hands[seat]:
        shown = list(truth.hands[seat])
        shown[rng.randrange(len(shown))] = card
        facts.append(HandRevealed(seat=seat, cards=tuple(shown)))
    return facts


def pass_facts(rng, before: LostCitiesState, truth: LostCitiesState, true_pass, seen_pass) -> list:
    """After a face-down pass from a hand the recorder knew whole (H), on a side with no cards passed
    face down before (ruling LC-3 keeps one set of such cards per side): a reveal of the passer that
    shows a card not in H, or of a wholly known partner whose face-down cards include one not in H."""
    a = true_pass.seat
    b = (a + 2) % 4
    if before.unknown[a] or before.shared[a % 2] or None not in seen_pass.cards:
        return []
    held = set(before.hands[a])
    outside = [c for c in before.multiplicity if c not in held]
    z = rng.choice(outside)
    shown = list(truth.hands[a])
    shown[rng.randrange(len(shown))] = z
    facts = [HandRevealed(seat=a, cards=tuple(shown))]
    if before.unknown[b] == 0:
        face_down = [c for c, s in zip(true_pass.cards, seen_pass.cards) if s is None]
        shown = list(truth.hands[b])
        shown[shown.index(rng.choice(face_down))] = z
        facts.append(HandRevealed(seat=b, cards=tuple(shown)))
    return facts


@pytest.mark.parametrize("expeditions", [5, 6])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 2), first=st.integers(0, 3))
def test_random_partnership_records_with_face_down_passes(expeditions, seed, rounds, first):
    """lost-cities.es.txt: "un jugador puede elegir dos cartas cualesquiera de su mano y pasárselas a
    su compañero". Random partnership tables where most passes and draws go unseen: every true fact
    is accepted and the true hands stay a world the log allows (ruling LC-3); a fact that puts a
    card the recorder saw go into one side's hands anywhere else, or that shows a hand holding a
    card it cannot hold after a face-down pass, is refused."""
    rng = random.Random(seed)
    known_deal = rng.choice([0.3, 0.7])
    options = {"rounds": rounds, "expeditions": expeditions, "first_seat": first}
    truth = T.setup(("Ana", "Bea", "Cai", "Dov"), options)
    game = Game(4, expeditions, rounds, first)
    ref = SideOf(game.state.multiplicity)
    while T.outcome(truth) is None:
        assert len(game.log) < MAX_EVENTS
        if T.chance(truth) is not None:
            (true_event,) = T.decide(truth, T.chance_event(truth, shuffle_order(rng, truth)))
        else:
            legal = T.legal_moves(truth)
            passes = [m for m in legal if isinstance(m, CardsPassed)]
            move = rng.choice(passes) if passes and rng.random() < 0.3 else choose(rng, legal, truth)
            (true_event,) = T.decide(truth, move)
        rnd = truth.round
        truth = T.evolve(truth, true_event)
        seen = partnership_mask(rng, true_event, known_deal)
        before = game.state
        for fact in elsewhere_facts(rng, before, truth, ref) if rng.random() < 0.3 else []:
            contradicted(before, fact)
        (recorded,) = game.record(seen)  # a true fact is never refused
        ref.noted(recorded)
        if isinstance(recorded, CardsPassed):
            for fact in pass_facts(rng, before, truth, true_event, recorded):
                contradicted(game.state, fact)
        state = game.state
        assert state.expeditions == truth.expeditions and state.discard_piles == truth.discard_piles
        for seat in range(4):
            assert not Counter(state.hands[seat]) - Counter(truth.hands[seat]), "known cards are really there"
        truth_is_possible(state, truth)
        check_invariants(state)
        ended = truth.phase in ("deal", "over") and truth.round == rnd and isinstance(true_event, CardDrawn)
        if ended or (truth.phase in ("play", "draw") and rng.random() < 0.05):
            for seat in range(4) if ended else [rng.randrange(4)]:
                (shown,) = game.record(HandRevealed(seat=seat, cards=truth.hands[seat]))
                ref.noted(shown)
                truth_is_possible(game.state, truth)
    game.check_full_replay()
    assert T.outcome(game.state) == T.outcome(truth)
