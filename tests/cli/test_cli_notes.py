"""``tabletape note``: a note on a step from the command line, on the file and through a running
service, shown by ``replay`` and listed by ``log``."""

from __future__ import annotations

import json
import re

import live_server
from typer.testing import CliRunner

from api.cli.main import app, layers

runner = CliRunner()


def run(*args, input: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def new(db: str) -> tuple[str, str]:
    made = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", db)
    assert made.exit_code == 0, made.output
    return re.search(r"game (\w+)", made.output).group(1), re.search(r"write token: (\S+)", made.output).group(1)


def test_a_note_is_written_shown_by_replay_and_listed_by_log(tmp_path):
    db = str(tmp_path / "t.duckdb")
    game_id, _ = new(db)
    assert run("record", game_id, "--db", db, input="deal\nR7\nd\nquit\n").exit_code == 0
    written = run("note", game_id, "2", "Ana opened red early", "--db", db)
    assert written.exit_code == 0, written.output
    assert written.output.strip() == "note written on step 2 (seq 5)"
    with layers(db) as lay:
        assert len(lay.projector.history(game_id).entries()) == 4  # a note is not a step
    shown = run("replay", game_id, "--db", db)
    assert "Notes" in shown.output and "step 2: Ana opened red early" in shown.output
    assert json.loads(run("replay", game_id, "--json", "--db", db).output)["notes"][0]["text"] == "Ana opened red early"
    before = run("replay", game_id, "--at", "4", "--json", "--db", db)
    assert json.loads(before.output)["notes"] == []  # the table before the note was written
    assert "note on #3: Ana opened red early" in run("log", game_id, "--db", db).output
    spanish = run("--lang", "es", "note", game_id, "0", "otra", "--db", db)
    assert spanish.output.strip() == "nota escrita en el paso 0 (seq 6)"


def test_a_bad_note_is_refused_in_one_line_and_writes_nothing(tmp_path):
    db = str(tmp_path / "t.duckdb")
    game_id, _ = new(db)
    for args, code in ((("1", "   "), "note-empty"), (("7", "far"), "note-step-out-of-range"), (("0", "x" * 501), "note-too-long")):
        refused = run("note", game_id, *args, "--db", db)
        assert refused.exit_code == 1 and refused.output.count("\n") == 1 and code in refused.output, refused.output
    refused = run("--lang", "ja", "note", game_id, "0", "", "--db", db)
    assert refused.output.count("\n") == 1 and "メモには文字が必要です" in refused.output
    with layers(db) as lay:
        assert lay.log.last_seq(game_id) == 1


def test_a_note_through_a_running_service_needs_its_write_token(tmp_path):
    db = tmp_path / "served.duckdb"
    game_id, write = new(str(db))
    base, proc = live_server.start(db, output=tmp_path / "server.txt")
    try:
        without = run("note", game_id, "0", "hello", "--db", db)
        assert without.exit_code == 1 and without.output.count("\n") == 1
        through = run("note", game_id, "0", "hello", "--token", write, "--db", db)
        assert through.exit_code == 0 and through.output.strip() == "note written on step 0 (seq 2)", through.output
        shown = run("replay", game_id, "--db", db)
        assert "step 0: hello" in shown.output
    finally:
        live_server.stop(proc)
