"""Property tests: random legal Marco Polo games for 2, 3 and 4 players with every character (and
the expert options), played through the rules core and through the whole pipeline (DuckDB log,
projections, replay).

Checked at every step: every sampled legal move decides to itself; replay of the stored, decoded
events equals live play; events round-trip msgpack, JSON and the notation; the state round-trips
msgpack; no resource is ever negative; dice, contracts and trading posts are conserved; views hide
other seats' objectives and encode as JSON.
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
from events.errors import IllegalMove
from mp_helpers import T
from rules.marco_polo.content import CHARACTER_IDS
from rules.marco_polo.events import (
    BazaarUsed,
    CityCardUsed,
    ContractCompleted,
    ContractsTaken,
    DieAdjusted,
    DieRerolled,
    SetupDealt,
    Travelled,
    TurnEnded,
)

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ("Ana", "Bea", "Cai", "Dov")
MAX_EVENTS = 4000


def policy(moves: list, rng: random.Random):
    """A table-like player: completes contracts, travels and takes contracts often."""
    by = lambda cls: [m for m in moves if isinstance(m, cls)]  # noqa: E731
    for cls, p in ((ContractCompleted, 0.8), (Travelled, 0.35), (ContractsTaken, 0.3), (CityCardUsed, 0.5), (BazaarUsed, 0.4)):
        options = by(cls)
        if options and rng.random() < p:
            return rng.choice(options)
    end = by(TurnEnded)
    if end and rng.random() < 0.85:
        return end[0]
    calm = [m for m in moves if not isinstance(m, (DieRerolled, DieAdjusted))]
    if calm and rng.random() < 0.9:
        return rng.choice(calm)
    return rng.choice(moves)


def check_invariants(state) -> None:
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=T.state_type) == state
    n = state.n
    for p in state.seats:
        assert min(p.coins, p.camels, p.pepper, p.silk, p.gold, p.vp) >= 0, p
        total_posts = 11 if p.character == "wilhelm" else 9
        assert p.posts_left + len(p.posts) == total_posts and len(set(p.posts)) == len(p.posts)
        assert len(p.contracts) <= 2 or state.pending and state.pending[0][0] == "discard"
    # contracts: each in one place
    places = list(state.display) + [k for k in state.special if k is not None]
    for p in state.seats:
        places += list(p.contracts) + list(p.completed)
    assert all(v == 1 for v in Counter(places).values()), Counter(places)
    assert len(state.special) + len(state.display) + sum(len(p.contracts) + len(p.completed) for p in state.seats) <= 38 + n
    # dice conserved
    if state.phase == "play":
        rolling = Counter((s, k) for kind, s, k in state.pending if kind == "roll")
        black_on_board = sum(1 for x in state.board if x[3] == "b")
        black_held = sum(len(p.black) for p in state.seats)
        assert state.black_supply + black_on_board + black_held + sum(v for (s, k), v in rolling.items() if k == "b") == n + 1
        for s, p in enumerate(state.seats):
            on_board = sum(1 for x in state.board if x[2] == s and x[3] == "c")
            assert len(p.dice) + on_board + rolling[(s, "c")] == 5
            white = sum(1 for x in state.board if x[2] == s and x[3] == "w")
            assert len(p.white) + white + rolling[(s, "w")] == (1 if p.character == "matteo" else 0)
    # views
    for seat in [None, *range(n)]:
        v = T.view(state, seat)
        text = msgspec.json.encode(v).decode()
        for other in range(n):
            if other != seat and state.phase != "over":
                for g in state.seats[other].objectives:
                    if g is not None and not (seat is not None and g in state.seats[seat].objectives):
                        assert f'"{g}"' not in text
    msgspec.json.encode(T.score(state))


class Game:
    def __init__(self, players: int, options: dict) -> None:
        self.players = NAMES[:players]
        self.options = options
        self.state = T.setup(self.players, options)
        self.replayed = self.state
        self.log: list[bytes] = []

    def record(self, move):
        events = T.decide(self.state, move)
        assert len(events) == 1
        for event in events:
            assert T.decide(self.state, event) == (event,)
            data = codec.encode(event)
            stored = codec.decode(data)
            assert stored == event
            assert codec.decode_json(codec.encode_json(event)) == event
            assert T.parse_move(self.state, T.format_move(event)) == event
            self.state = T.evolve(self.state, event)
            self.replayed = T.evolve(self.replayed, stored)
            self.log.append(data)
        assert self.replayed == self.state
        return events


def draw(rng: random.Random, state):
    chance = T.chance(state)
    if chance.kind == "dice":
        return tuple(rng.randint(1, chance.sides) for _ in range(chance.count))
    items = list(chance.items)
    rng.shuffle(items)
    return tuple(items)


def play(players: int, seed: int, options: dict, characters: tuple[str, ...] | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(players, options)
    while T.outcome(game.state) is None:
        assert len(game.log) < MAX_EVENTS
        state = game.state
        if T.chance(state) is not None:
            assert T.to_move(state) is None and T.legal_moves(state) == []
            event = T.chance_event(state, draw(rng, state))
            if isinstance(event, SetupDealt) and characters:
                event = msgspec.structs.replace(event, characters=characters)
            game.record(event)
        else:
            legal = T.legal_moves(state)
            assert legal, T.status(state)
            assert T.to_move(state) is not None
            for m in rng.sample(legal, min(2, len(legal))):
                assert T.decide(state, m) == (m,), m
            move = policy(legal, rng)
            if rng.random() < 0.3 and getattr(move, "seat", None) is not None:
                move = msgspec.structs.replace(move, seat=None)  # the recorder may leave the seat out
            game.record(move)
        check_invariants(game.state)
    assert T.legal_moves(game.state) == [] and T.to_move(game.state) is None
    assert game.state.round == 5
    result = T.outcome(game.state)
    assert result.scores == tuple(T.score(game.state)["totals"])
    return game


CHARACTER_SETS = [
    ("raschid", "matteo"),
    ("berke", "mercator"),
    ("kubilai", "niccolo", "wilhelm"),
    ("carpini", "raschid", "mercator"),
    ("matteo", "berke", "niccolo", "wilhelm"),
    ("kubilai", "carpini", "mercator", "matteo"),
]


@pytest.mark.parametrize("characters", CHARACTER_SETS, ids=lambda c: "-".join(c))
def test_random_games_every_character(characters):
    play(len(characters), seed=hash(characters) % 1000, options={"characters": "chosen"}, characters=characters)
    assert set(CHARACTER_IDS) == {c for cs in CHARACTER_SETS for c in cs}


@pytest.mark.parametrize("players", [2, 3, 4])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), expert=st.booleans())
def test_random_games(players, seed, expert):
    options = {"characters": "draft", "random_city_bonuses": True, "objectives_keep": True} if expert else {}
    play(players, seed, options)


def test_sampled_illegal_moves_leave_state_unchanged():
    """Random mutations of legal moves: refused with a marco-polo code and the state unchanged, or
    accepted as exactly themselves."""
    rng = random.Random(7)
    game = Game(3, {"characters": "chosen"})
    checked = 0
    while T.outcome(game.state) is None and checked < 400:
        state = game.state
        if T.chance(state) is not None:
            game.record(T.chance_event(state, draw(rng, state)))
            continue
        legal = T.legal_moves(state)
        for m in rng.sample(legal, min(3, len(legal))):
            mutant = mutate(rng, m)
            before = msgspec.msgpack.encode(state)
            try:
                out = T.decide(state, mutant)
            except IllegalMove as exc:
                assert exc.code.startswith("marco-polo.") and exc.message
            else:
                assert len(out) == 1
            assert msgspec.msgpack.encode(state) == before
            checked += 1
        game.record(policy(legal, rng))


def mutate(rng: random.Random, move):
    fields = [f for f in move.__struct_fields__ if f != "seat"]
    if not fields:
        return msgspec.structs.replace(move, seat=rng.choice([0, 1, 2, 5]))
    f = rng.choice(fields)
    value = getattr(move, f)
    if isinstance(value, int):
        new = rng.choice([value - 1, value + 1, 0, 7, -3])
    elif isinstance(value, str):
        new = rng.choice(["7", "b9", "K99", "S1", "MOS", "silk", "", "CC01", "w1"])
    else:
        new = rng.choice([(), value + value, ("x",), tuple(reversed(value)), value[:-1]])
    return msgspec.structs.replace(move, **{f: new})


@pytest.mark.parametrize("players,options", [(2, {}), (3, {"characters": "chosen"}), (4, {"characters": "draft", "objectives_keep": True})])
def test_pipeline_replay_equals_live_play(recorder, players, options):
    """Through the log and projections: a digital game recorded move by move; replay from the log
    (a fresh projector) equals the live projection; a mis-entered die is amended and re-checked."""
    from projections.projector import Projector

    rng = random.Random(3)
    gid, _ = recorder.create("marco-polo", NAMES[:players], options, seed=11 + players)
    while True:
        game = recorder.projector.state(gid)
        if game.ended is not None:
            break
        legal = game.title.legal_moves(game.state)
        recorder.record(gid, policy(legal, rng))
    live = recorder.projector.state(gid)
    fresh = Projector(recorder.log).state(gid)
    assert fresh.state == live.state and fresh.ended == live.ended
    assert live.ended.scores == T.outcome(live.state).scores
    # amend the first round roll's dice (a mis-read die) to the same values: accepted, nothing breaks
    stored = recorder.log.read(gid)
    roll = next(e for e in stored if type(e.body).__name__ == "DiceRolled")
    recorder.amend(gid, roll.seq, roll.body)
    assert Projector(recorder.log).state(gid).state == live.state
