"""Thousands of random legal Lost Cities games through the whole pipeline's pure parts.

Each game is played by ``replay.simulate.random_game`` (digital, chance drawn outside the rules
core), then checked: every event round-trips msgpack and JSON, replaying the decoded log equals
live play, cards are conserved at a random point and at the end, and the final result equals an
independent recomputation from the expeditions. The per-step checks of partial information live
in ``test_lost_cities_properties.py``; this file is about volume.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import codec
from events.lifecycle import GameEnded
from projections.fold import fold, fold_all, start
from replay.simulate import random_game
from tests.rules.test_lost_cities_properties import check_invariants, reference_side

CONFIGS = [(2, 5), (2, 6), (4, 5), (4, 6)]


def table_like(moves, rng):
    deck = [m for m in moves if getattr(m, "source", None) == "deck"]
    if deck and rng.random() < 0.7:
        return deck[0]
    return moves[rng.randrange(len(moves))]


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31), config=st.sampled_from(CONFIGS), rounds=st.integers(1, 3))
def test_thousands_of_random_games_replay_conserve_and_score(seed, config, rounds):
    players, expeditions = config
    names = ("Ana", "Bea", "Cai", "Dov")[:players]
    events = random_game(
        "lost-cities", names, {"rounds": rounds, "expeditions": expeditions}, seed=seed, policy=table_like
    )
    decoded = [codec.decode(codec.encode(e)) for e in events]
    assert decoded == events
    assert [codec.decode_json(codec.encode_json(e)) for e in events] == events
    live = fold_all(events)
    replayed = fold_all(decoded)
    assert replayed.state == live.state
    middle = random.Random(seed).randrange(1, len(events))
    check_invariants(fold(start(events[0]), events[1:middle]).state)
    state = live.state
    check_invariants(state)
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    totals = [0, 0]
    for result in state.history:
        for side in (0, 1):
            totals[side] += reference_side(result.expeditions[side])
    assert ended.scores == tuple(totals[seat % 2] for seat in range(players))
    assert set(ended.winners) == {s for s in range(players) if ended.scores[s] == max(ended.scores)}
