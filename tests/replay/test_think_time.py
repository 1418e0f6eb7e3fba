"""Think time: each seat's decisions timed from the times the log recorded, over a real DuckDB log
written by the real recorder on a clock the test moves; an undo restarts the clock; imported and
score-only games say they have no timings; and the same log read as one BG Stats play."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from api.formats import bgstats
from events.duckdb_log import DuckDBEventLog
from events.log import new_game_id
from projections.projector import Projector
from replay.play_record import play_record
from replay.recorder import Recorder
from replay.simulate import random_game
from replay.think_time import Decision, seat_times, think_time

START = datetime(2026, 3, 1, 19, 0)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def table():
    clock = Clock()
    log = DuckDBEventLog(":memory:", clock=clock)
    projector = Projector(log)
    yield clock, log, projector, Recorder(log, projector)
    log.close()


def move(clock, projector, recorder, game_id, seconds):
    clock.now += timedelta(seconds=seconds)
    game = projector.state(game_id)
    recorder.record(game_id, game.title.legal_moves(game.state)[0])


def test_each_decision_takes_from_the_step_before_to_the_move(table):
    clock, log, projector, recorder = table
    game_id, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=7)
    for seconds in (10, 20, 30, 40, 50, 60):
        move(clock, projector, recorder, game_id, seconds)
    got = think_time(projector, log, game_id)
    assert got.untimed is None and got.public_only is True
    # Lost Cities: a turn is two decisions, play (or discard) then draw
    assert [(d.seat, d.turn, d.seconds) for d in got.decisions] == [
        (0, 0, 10.0), (0, 0, 20.0), (1, 1, 30.0), (1, 1, 40.0), (0, 2, 50.0), (0, 2, 60.0)
    ]
    ana, bea = got.seats
    assert (ana.decisions, ana.turns, ana.total_s, ana.median_decision_s, ana.median_turn_s) == (4, 2, 140.0, 35.0, 70.0)
    assert ana.slowest.seconds == 60.0 and str(ana.slowest.words) == "Ana drew from the draw pile"
    assert (bea.decisions, bea.median_turn_s, bea.slowest.step) == (2, 70.0, 5)


def test_an_undo_starts_the_seats_clock_again(table):
    clock, log, projector, recorder = table
    game_id, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=7)
    move(clock, projector, recorder, game_id, 10)
    move(clock, projector, recorder, game_id, 20)
    clock.now += timedelta(seconds=300)
    last = log.last_seq(game_id)
    recorder.undo(game_id, last - 1, last)
    move(clock, projector, recorder, game_id, 7)
    got = think_time(projector, log, game_id)
    # the move taken back counts to nobody: the draw put back took the 7 s after the undo
    assert [d.seconds for d in got.decisions] == [10.0, 7.0]


def test_an_imported_game_has_no_timings(table):
    _, log, projector, _ = table
    game_id = new_game_id()
    log.import_games([(game_id, random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=3))])
    got = think_time(projector, log, game_id)
    assert got.untimed == "imported" and got.decisions and all(d.seconds is None for d in got.decisions)
    assert all(s.decisions == 0 and s.slowest is None and s.median_turn_s is None for s in got.seats)
    # its play is dated by the import and has no duration
    assert "durationMin" not in bgstats.push_play(play_record(projector, log, game_id))


def test_a_score_only_game_has_no_timings(table):
    _, log, projector, _ = table
    document = {
        "players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}],
        "games": [{"id": 1, "name": "Lost Cities", "bggId": 50}],
        "plays": [{"uuid": "C0FFEE00-0000-4000-8000-000000000001", "gameRefId": 1, "playDate": "2024-05-04 20:00:00",
                   "durationMin": 30, "playerScores": [
                       {"playerRefId": 1, "score": "38", "winner": True, "startPlayer": True, "seatOrder": 1},
                       {"playerRefId": 2, "score": "21", "seatOrder": 2}]}],
    }
    (game_id,) = bgstats.import_document(log, projector, document).imported
    got = think_time(projector, log, game_id)
    assert got.untimed == "score-only" and got.decisions == ()
    record = play_record(projector, log, game_id)
    assert (record.source, record.began, record.duration_min, record.start_seat) == ("bgstats", datetime(2024, 5, 4, 20), 30, 0)


def test_a_turn_counts_only_when_each_of_its_decisions_is_timed():
    words = "x"
    decisions = [
        Decision(step=1, seat=0, turn=0, seconds=4.0, words=words), Decision(step=2, seat=0, turn=0, seconds=None, words=words),
        Decision(step=3, seat=1, turn=1, seconds=9.0, words=words), Decision(step=4, seat=0, turn=2, seconds=2.0, words=words),
    ]
    ana, bea = seat_times(decisions, 2)
    assert (ana.decisions, ana.turns, ana.median_turn_s, ana.slowest.step) == (2, 1, 2.0, 1)
    assert (bea.decisions, bea.turns, bea.total_s) == (1, 1, 9.0)


def test_a_finished_game_is_one_play_dated_and_timed_by_its_log(table):
    clock, log, projector, recorder = table
    game_id, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=7)
    while projector.state(game_id).ended is None:
        move(clock, projector, recorder, game_id, 30)
    record = play_record(projector, log, game_id)
    minutes = round((clock.now - START).total_seconds() / 60)
    assert record.began == START and record.duration_min == minutes and record.start_seat == 0
    got = think_time(projector, log, game_id)
    assert got.public_only is False and all(d.seconds == 30.0 for d in got.decisions)
