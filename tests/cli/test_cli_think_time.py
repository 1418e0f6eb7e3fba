"""``tabletape replay GAME --think-time`` and ``--bgstats`` on a real DuckDB file through the real
command line: a game recorded at the table is timed, an imported one says it has no timings, and
an ended game's BG Stats link carries its play."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from typer.testing import CliRunner

from api.cli.main import app

runner = CliRunner()
NO_LOCALE = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env={**NO_LOCALE, **(env or {})})
    assert "Traceback" not in result.output, result.output
    return result


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 19, 0)

    def __call__(self) -> datetime:
        return self.now


def recorded(db: str, moves: int | None = None) -> str:
    """A Lost Cities game recorded move by move, 30 s a decision (to its end when ``moves`` is None)."""
    from events.duckdb_log import DuckDBEventLog
    from projections.projector import Projector
    from replay.recorder import Recorder

    clock = Clock()
    log = DuckDBEventLog(db, clock=clock)
    projector = Projector(log)
    recorder = Recorder(log, projector)
    game_id, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=7)
    count = 0
    while projector.state(game_id).ended is None and (moves is None or count < moves):
        clock.now += timedelta(seconds=30)
        game = projector.state(game_id)
        recorder.record(game_id, game.title.legal_moves(game.state)[0])
        count += 1
    log.close()
    return game_id


def imported(db: str) -> str:
    from events.duckdb_log import DuckDBEventLog
    from events.log import new_game_id
    from replay.simulate import random_game

    game_id = new_game_id()
    log = DuckDBEventLog(db)
    log.import_games([(game_id, random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=3))])
    log.close()
    return game_id


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "t.duckdb")


def test_a_recorded_game_is_timed_per_player(db):
    game_id = recorded(db, moves=8)
    said = run("replay", game_id, "--think-time", "--db", db)
    assert said.exit_code == 0, said.output
    lines = said.output.splitlines()
    assert lines[0] == "Think time"
    assert lines[1] == "Ana  4 decisions, median 30 s per decision, 1 min 00 s per turn, 2 min 00 s in all"
    assert lines[2].strip().startswith("Slowest decision: 30 s: Ana ") and "(step 2, turn 1)" in lines[2]
    answer = json.loads(run("replay", game_id, "--think-time", "--json", "--db", db).output)
    assert answer["timed"] is True and [s["decisions"] for s in answer["seats"]] == [4, 4]


def test_an_imported_game_says_it_has_no_timings_in_three_languages(db):
    game_id = imported(db)
    assert "it has no timings" in run("replay", game_id, "--think-time", "--db", db).output
    assert "no tiene tiempos" in run("replay", game_id, "--think-time", "--db", db, env={"LANG": "es_ES.UTF-8"}).output
    assert "時間の記録がありません" in run("replay", game_id, "--think-time", "--db", db, env={"LANG": "ja_JP.UTF-8"}).output


def test_an_ended_games_bgstats_link_and_a_game_in_progress_refused(db, tmp_path):
    game_id = recorded(db)
    said = run("replay", game_id, "--bgstats", "--db", db)
    assert said.exit_code == 0, said.output
    parts = urlsplit(said.output.strip())
    assert (parts.netloc, parts.path) == ("app.bgstatsapp.com", "/createPlay.html")
    play = json.loads(parse_qs(parts.query)["data"][0])
    assert play["playDate"] == "2026-03-01 19:00:00" and play["game"]["bggId"] == 50
    assert json.loads(run("replay", game_id, "--bgstats", "--json", "--db", db).output) == play
    other = str(tmp_path / "other.duckdb")
    going = recorded(other, moves=3)
    refused = run("replay", going, "--bgstats", "--db", other)
    assert refused.exit_code != 0 and "once the game has ended" in refused.output
    assert len(refused.output.strip().splitlines()) == 1
