"""``tabletape demo`` on a store's file: finished games of every title and one in progress, the
same games for the same seed. (Beside a running service the README's first example runs it:
tests/docs/test_examples.py.)"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli.main import app

runner = CliRunner()


def demo_store(path) -> tuple[str, list[dict]]:
    made = runner.invoke(app, ["demo", "--seed", "4", "--db", str(path)])
    assert made.exit_code == 0, made.output
    assert "Traceback" not in made.output
    listed = runner.invoke(app, ["games", "--db", str(path)])
    assert listed.exit_code == 0, listed.output
    board = runner.invoke(app, ["stats", "leaderboard", "--json", "--db", str(path)])
    assert board.exit_code == 0, board.output
    return listed.output, json.loads(board.output)


def test_demo_fills_a_store_with_every_title_and_the_same_games_for_the_same_seed(tmp_path):
    listed, board = demo_store(tmp_path / "a.duckdb")
    for title in ("lost-cities", "marco-polo", "marco-polo-2"):
        assert title in listed
    assert listed.count("ended") == 7 and listed.count("in-progress") == 1
    assert {row["player"]: row["games"] for row in board} == {"Ana": 7, "Bea": 5, "Carl": 4, "Dana": 2}
    _, again = demo_store(tmp_path / "b.duckdb")
    assert again == board
