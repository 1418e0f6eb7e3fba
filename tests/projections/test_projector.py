"""Projections: folding through the rules core, snapshots, and the games/results read models."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from events.errors import UnknownGame
from events.history import build
from events.log import new_game_id
from projections.fold import fold_all
from projections.projector import Projector
from replay.recorder import Recorder
from replay.simulate import random_game

PLAYERS = ("Ana", "Bea")


def play_to_end(recorder: Recorder, game_id: str, seed: int, max_moves: int | None = None) -> None:
    rng = random.Random(seed)
    moves = 0
    while max_moves is None or moves < max_moves:
        game = recorder.projector.state(game_id)
        if game.ended is not None:
            return
        legal = game.title.legal_moves(game.state)
        recorder.record(game_id, legal[rng.randrange(len(legal))])
        moves += 1


def table(log, name: str) -> list[tuple]:
    return log.con.execute(f"SELECT * FROM {name} ORDER BY ALL").fetchall()


def test_folding_a_stored_game_equals_folding_its_events(log):
    events = random_game("lost-cities", PLAYERS, {"rounds": 2}, seed=11)
    gid = new_game_id()
    log.import_games([(gid, events)])
    projector = Projector(log)
    assert projector.state(gid).state == fold_all(events).state
    assert projector.state(gid).ended == events[-1]


def test_an_unknown_game_is_a_typed_error(projector):
    with pytest.raises(UnknownGame):
        projector.state("nope")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), every=st.sampled_from([7, 16, 32]))
def test_state_at_any_seq_with_snapshots_equals_folding_from_the_start(seed, every):
    """Snapshots are a shortcut only: every seq gives the state a fold from the start gives."""
    from events.duckdb_log import DuckDBEventLog

    log = DuckDBEventLog(":memory:")
    recorder = Recorder(log, Projector(log, snapshot_every=every))
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=seed)
    play_to_end(recorder, gid, seed, max_moves=60)
    last = recorder.projector.history(gid).last_seq
    recorder.undo(gid, last // 2)
    play_to_end(recorder, gid, seed + 1, max_moves=20)
    assert log.con.execute("SELECT count(*) FROM snapshots").fetchall()[0][0] > 0
    bodies = log.read_bodies(gid)
    cold = Projector(log, snapshot_every=every)  # a fresh process: snapshots come from DuckDB
    for seq in range(1, len(bodies) + 1):
        expected = fold_all(e.body for e in build(bodies[:seq]).entries())
        assert cold.state_at(gid, seq).state == expected.state, seq
    log.close()


def test_read_models_follow_games_as_they_end_and_a_rebuild_is_identical(log, recorder):
    for seed in range(3):
        gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=seed)
        play_to_end(recorder, gid, seed)
    unfinished, _ = recorder.create("lost-cities", ("Cy", "Di"), {"rounds": 1}, seed=99)
    games = table(log, "games")
    results = table(log, "results")
    assert [g[4] for g in games].count("ended") == 3
    assert len(results) == 6
    assert {r[2] for r in results} == set(PLAYERS)
    assert sum(r[5] for r in results) >= 3  # every game has a winner (ties: several)
    recorder.projector.read_models.rebuild()
    assert table(log, "games") == games
    assert table(log, "results") == results


def test_undoing_past_the_end_reopens_the_game_in_the_read_models(log, recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=5)
    play_to_end(recorder, gid, 5)
    last = recorder.projector.history(gid).last_seq
    assert log.con.execute("SELECT status FROM games").fetchall() == [("ended",)]
    recorder.undo(gid, last - 3)
    assert log.con.execute("SELECT status FROM games").fetchall() == [("in-progress",)]
    assert log.con.execute("SELECT count(*) FROM results").fetchall() == [(0,)]
    recorder.redo(gid)
    assert log.con.execute("SELECT status FROM games").fetchall() == [("ended",)]
    before = table(log, "results")
    recorder.projector.read_models.rebuild()
    assert table(log, "results") == before


def test_a_fork_is_marked_with_its_parent(log, recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    play_to_end(recorder, gid, 3, max_moves=10)
    child, _ = recorder.fork(gid, 6)
    row = log.con.execute("SELECT parent_id, forked_at FROM games WHERE game_id = ?", [child]).fetchall()
    assert row == [(gid, 6)]
