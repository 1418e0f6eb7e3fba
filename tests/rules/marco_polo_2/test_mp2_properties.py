"""Property tests: random legal Marco Polo II games with the INVENTED synthetic pack, 2-4 players,
every character, with and without caravans and the variants, through the rules core and through
the whole pipeline (DuckDB log, projections, replay).

Checked at every step: sampled legal moves decide to themselves; replay of the stored, decoded
events equals live play; events round-trip msgpack, JSON and the notation; the state round-trips
msgpack; no resource is ever negative; colour and black dice are conserved; each contract is in one
place; views hide other seats' goal cards and encode as JSON.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import codec
from events.errors import IllegalMove
from mp2_helpers import NAMES, SYN, T, draw, policy
from rules.marco_polo_2.content import SYNTHETIC
from rules.marco_polo_2.events import SetupDealt

SETTINGS = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_EVENTS = 3000


def check_invariants(state) -> None:
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=T.state_type) == state
    n = state.n
    for p in state.seats:
        assert min(p.coins, p.camels, p.pepper, p.silk, p.gold, p.jade) >= 0, p
        assert p.posts_left + len(p.posts) == 11 and len(set(p.posts)) == len(p.posts)
        assert len(p.contracts) <= 2
        assert len(set(p.seals)) == len(p.seals) and set(p.improved) <= set(p.seals)
    places = [k for _, k in state.city_contracts]
    for p in state.seats:
        places += list(p.contracts) + list(p.completed)
    assert all(v == 1 for v in Counter(places).values()), Counter(places)
    if state.phase == "play":
        rolling = Counter((s, k[-1]) for kind, s, k in state.pending if kind == "roll")  # "rb": a black reroll
        black_board = sum(1 for x in state.board if x[3] == "b")
        black_held = sum(len(p.black) for p in state.seats)
        pool = len(state.black_pool)
        total = SYNTHETIC.black_dice[n]
        assert state.black_supply + black_board + black_held + rolling[(state.turn, "b")] + sum(
            v for (s, k), v in rolling.items() if k == "b" and s != state.turn) == total + (0 if not state.options.black_dice_variant else 0)
        if state.options.black_dice_variant:
            assert pool == state.black_supply
        for s, p in enumerate(state.seats):
            on_board = sum(1 for x in state.board if x[2] == s and x[3] == "c")
            assert len(p.dice) + on_board + rolling[(s, "c")] == 5
    for seat in [None, *range(n)]:
        text = msgspec.json.encode(T.view(state, seat)).decode()
        if state.phase != "over":
            for other in range(n):
                g = state.seats[other].goal
                if other != seat and g is not None and not (seat is not None and g in state.seats[seat].dealt):
                    assert f'"{g}"' not in text
    msgspec.json.encode(T.score(state))


class Game:
    def __init__(self, players: int, options: dict) -> None:
        self.state = T.setup(NAMES[:players], {**SYN, **options})
        self.replayed = self.state

    def record(self, move) -> None:
        (event,) = T.decide(self.state, move)
        assert T.decide(self.state, event) == (event,)
        stored = codec.decode(codec.encode(event))
        assert stored == event
        assert codec.decode_json(codec.encode_json(event)) == event
        assert T.parse_move(self.state, T.format_move(event)) == event
        self.state = T.evolve(self.state, event)
        self.replayed = T.evolve(self.replayed, stored)
        assert self.replayed == self.state


def play(players: int, seed: int, options: dict, characters: tuple[str, ...] | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(players, options)
    steps = 0
    while T.outcome(game.state) is None:
        steps += 1
        assert steps < MAX_EVENTS
        state = game.state
        if T.chance(state) is not None:
            assert T.to_move(state) is None and T.legal_moves(state) == []
            event = T.chance_event(state, draw(rng, state))
            if isinstance(event, SetupDealt) and characters:
                event = msgspec.structs.replace(event, characters=characters, offered=())
            game.record(event)
        else:
            legal = T.legal_moves(state)
            assert legal, T.status(state)
            for m in rng.sample(legal, min(2, len(legal))):
                assert T.decide(state, m) == (m,), m
            move = policy(legal, rng)
            if rng.random() < 0.3:
                move = msgspec.structs.replace(move, seat=None)
            game.record(move)
        if steps % 7 == 0 or T.outcome(game.state) is not None:
            check_invariants(game.state)
    assert T.legal_moves(game.state) == [] and T.to_move(game.state) is None
    assert game.state.round == 5
    assert T.outcome(game.state).scores == tuple(T.score(game.state)["totals"])
    return game


CHARACTER_SETS = [
    ("mongke", "dewu"),
    ("abha", "mailin", "filippo"),
    ("isabella", "gantulga", "mongke", "abha"),
    ("filippo", "dewu", "mailin", "gantulga"),
]
CARAVAN_SETS = [
    ("tebaldo", "piedro"),
    ("vidal", "donata", "mailin"),
    ("donata", "piedro", "vidal", "tebaldo"),
]


@pytest.mark.parametrize("characters", CHARACTER_SETS, ids=lambda c: "-".join(c))
def test_random_games_every_base_character(characters):
    play(len(characters), seed=sum(map(ord, "".join(characters))), options={"characters": "chosen"}, characters=characters)
    assert {c for cs in CHARACTER_SETS for c in cs} == set(SYNTHETIC.characters)


@pytest.mark.parametrize("characters", CARAVAN_SETS, ids=lambda c: "-".join(c))
def test_random_games_every_caravan_character(characters):
    play(len(characters), seed=len(characters), options={"characters": "chosen", "caravans": True}, characters=characters)
    assert {c for cs in CARAVAN_SETS for c in cs} >= set(SYNTHETIC.caravan_characters)


@pytest.mark.parametrize("players", [2, 3, 4])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), caravans=st.booleans(), black=st.booleans(), all_chars=st.booleans())
def test_random_games(players, seed, caravans, black, all_chars):
    options = {"caravans": caravans, "black_dice_variant": black, "characters": "all" if all_chars else "offer"}
    play(players, seed, options)


def mutate(rng: random.Random, move):
    fields = [f for f in move.__struct_fields__ if f not in ("seat", "describe")]
    if not fields:
        return msgspec.structs.replace(move, seat=rng.choice([0, 1, 2, 5]))
    f = rng.choice(fields)
    value = getattr(move, f)
    if isinstance(value, int) and not isinstance(value, bool):
        new = rng.choice([value - 1, value + 1, 0, 7, -3])
    elif isinstance(value, str):
        new = rng.choice(["7", "b9", "K99", "S1", "C1", "silk", "", "CC01", "pR", "farmer"])
    elif value is None:
        new = rng.choice(["C1", "K01", "BEI"])
    else:
        new = rng.choice([(), value + value, ("x",), tuple(reversed(value)), value[:-1]])
    return msgspec.structs.replace(move, **{f: new})


def test_sampled_illegal_moves_leave_state_unchanged():
    """Random mutations of legal moves: refused with a marco-polo-2 code and the state unchanged, or
    accepted as exactly one event."""
    rng = random.Random(7)
    game = Game(3, {"characters": "chosen", "caravans": True})
    checked = 0
    while T.outcome(game.state) is None and checked < 300:
        state = game.state
        if T.chance(state) is not None:
            event = T.chance_event(state, draw(rng, state))
            if isinstance(event, SetupDealt):
                event = msgspec.structs.replace(event, characters=("mongke", "vidal", "donata"), offered=())
            game.record(event)
            continue
        legal = T.legal_moves(state)
        for m in rng.sample(legal, min(3, len(legal))):
            mutant = mutate(rng, m)
            before = msgspec.msgpack.encode(state)
            try:
                out = T.decide(state, mutant)
            except IllegalMove as exc:
                assert exc.code.startswith("marco-polo-2.") and exc.message
            else:
                assert len(out) == 1
            assert msgspec.msgpack.encode(state) == before
            checked += 1
        game.record(policy(legal, rng))


@pytest.mark.parametrize("players,options", [(2, {}), (3, {"caravans": True, "characters": "all"}), (4, {"black_dice_variant": True})])
def test_pipeline_replay_equals_live_play(recorder, players, options):
    """A digital game through the recorder (seeded chance, DuckDB log); a fresh projector replays the
    log to the same state and outcome; the frames and the ended event agree."""
    from projections.projector import Projector
    from replay.frames import frames

    rng = random.Random(players)
    gid, _ = recorder.create("marco-polo-2", NAMES[:players], {**SYN, **options}, seed=40 + players)
    for _ in range(MAX_EVENTS):
        game = recorder.projector.state(gid)
        if game.ended is not None:
            break
        legal = T.legal_moves(game.state)
        recorder.record(gid, policy(legal, rng))
    live = recorder.projector.state(gid)
    assert live.ended is not None
    fresh = Projector(recorder.log).state(gid)
    assert fresh.state == live.state
    assert fresh.ended.scores == T.outcome(live.state).scores
    steps = frames(recorder.projector, gid, from_seq=1, to_seq=6)
    assert steps and all(f.described is None for f in steps)


def test_simulate_random_game_runs_through_the_title():
    from replay.simulate import random_game

    events = random_game("marco-polo-2", NAMES[:3], {**SYN, "caravans": True}, seed=5, policy=policy)
    assert type(events[-1]).__name__ == "GameEnded"


@pytest.mark.parametrize("players,options,characters", [
    (3, {"characters": "chosen"}, ("mongke", "gantulga", "mailin")),
    (4, {"characters": "chosen", "caravans": True}, ("piedro", "donata", "vidal", "tebaldo")),
    (2, {"characters": "chosen", "black_dice_variant": True}, ("isabella", "filippo")),
])
def test_every_listed_move_is_accepted(players, options, characters):
    """``legal_moves`` applies the rules itself (no trial runs): at every decision of a whole game each
    listed move decides to exactly itself."""
    rng = random.Random(players)
    game = Game(players, options)
    while T.outcome(game.state) is None:
        state = game.state
        if T.chance(state) is not None:
            event = T.chance_event(state, draw(rng, state))
            if isinstance(event, SetupDealt):
                event = msgspec.structs.replace(event, characters=characters, offered=())
            game.record(event)
            continue
        legal = T.legal_moves(state)
        for m in legal:
            assert T.decide(state, m) == (m,), m
        game.record(policy(legal, rng))
