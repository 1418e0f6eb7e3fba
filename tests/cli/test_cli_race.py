"""``tabletape replay GAME --race``: the score race in the terminal, as JSON and as a chart file,
on a real DuckDB file through the real command line."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from api.cli.main import app

runner = CliRunner()
NO_LOCALE = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env={**NO_LOCALE, **(env or {})})
    assert "Traceback" not in result.output, result.output
    return result


def imported(db: str, cut: int | None = None) -> str:
    from events.duckdb_log import DuckDBEventLog
    from events.log import new_game_id
    from replay.simulate import random_game

    game_id = new_game_id()
    events = random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=3)
    log = DuckDBEventLog(db)
    log.import_games([(game_id, events[:cut] if cut else events)])
    log.close()
    return game_id


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "t.duckdb")


def test_an_ended_game_races_in_words(db):
    game_id = imported(db)
    said = run("replay", game_id, "--race", "--db", db)
    assert said.exit_code == 0, said.output
    assert said.output.startswith("Score race\n")
    assert re.search(r"^Ana +-?\d+ ", said.output, re.M) and re.search(r"^Bea +-?\d+ ", said.output, re.M)
    assert "Biggest swing: " in said.output and "points for" in said.output
    answer = json.loads(run("replay", game_id, "--race", "--json", "--db", db).output)
    assert answer["public_only"] is False and answer["steps"][0] == {"step": 0, "scores": [0, 0]}


def test_a_game_in_progress_says_that_only_the_table_counts(db):
    game_id = imported(db, cut=20)
    said = run("replay", game_id, "--race", "--db", db)
    assert said.exit_code == 0 and "only the points on the table count" in said.output
    assert "Turning point" not in said.output


def test_the_chart_as_svg_and_png_and_a_refused_extension(db, tmp_path):
    game_id = imported(db)
    assert run("replay", game_id, "--race", "--out", tmp_path / "race.svg", "--db", db).exit_code == 0
    assert b"<svg" in (tmp_path / "race.svg").read_bytes()
    assert run("replay", game_id, "--race", "-o", tmp_path / "race.png", "--db", db).exit_code == 0
    assert (tmp_path / "race.png").read_bytes()[:4] == b"\x89PNG"
    refused = run("replay", game_id, "--race", "--out", tmp_path / "race.gif", "--db", db)
    assert refused.exit_code != 0 and ".svg or .png" in refused.output


def test_the_race_in_japanese(db):
    game_id = imported(db)
    said = run("replay", game_id, "--race", "--db", db, env={"LANG": "ja_JP.UTF-8"})
    assert said.output.startswith("得点の推移\n") and "最大の変動: " in said.output
