"""The command line on a PostgreSQL store (``--db postgresql://...``), and on one that does not answer."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from api.cli.main import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_new_games_and_verify_work_on_postgresql(postgres_db):
    made = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", postgres_db)
    assert made.exit_code == 0, made.output
    game_id = re.search(r"game (\w+)", made.output).group(1)
    listed = run("games", "--db", postgres_db)
    assert listed.exit_code == 0 and game_id in listed.output and "Ana, Bea" in listed.output
    checked = run("verify", "--db", postgres_db)
    assert checked.exit_code == 0, checked.output


def test_a_postgresql_server_that_does_not_answer_is_one_line():
    done = run("games", "--db", "postgresql://someone:secret@127.0.0.1:1/nothing")
    assert done.exit_code == 1
    lines = done.output.strip().splitlines()
    assert len(lines) == 1 and "Connection refused" in lines[0] and "secret" not in lines[0]
