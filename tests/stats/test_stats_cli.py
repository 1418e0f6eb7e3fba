"""``tabletape stats``, ``sql``, ``chart`` and the Parquet export / import, on a real DuckDB file."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli.main import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_stats_questions_print_tables_and_json(db_path):
    board = run("stats", "leaderboard", "--title", "lost-cities", "--db", db_path)
    assert board.exit_code == 0, board.output
    assert "win rate" in board.output and "Ana" in board.output
    for question in ("head-to-head --player ana", "seats --title marco-polo", "scores --title lost-cities",
                     "sources --title marco-polo", "wagers", "bonus", "rounds", "characters", "beijing",
                     "contracts", "views"):
        answer = run("stats", *question.split(), "--db", db_path)
        assert answer.exit_code == 0, (question, answer.output)
    rows = json.loads(run("stats", "wagers", "--json", "-o", "rounds=3", "--db", db_path).output)
    assert rows and {"wagers", "expeditions", "avg_score"} <= set(rows[0])
    refused = run("stats", "seats", "--db", db_path)
    assert refused.exit_code == 1 and "stats-title-needed" in refused.output
    rebuilt = run("stats", "rebuild", "--db", db_path)
    assert rebuilt.exit_code == 0 and "rebuilt the read models of" in rebuilt.output


def test_sql_answers_and_refuses(db_path):
    answer = run("sql", "SELECT count(*) AS n FROM games", "--json", "--db", db_path)
    assert answer.exit_code == 0, answer.output
    assert json.loads(answer.output)[0]["n"] > 0
    refused = run("sql", "SELECT * FROM read_csv('/etc/passwd')", "--db", db_path)
    assert refused.exit_code == 1 and "sql-refused" in refused.output


def test_charts_are_written(db_path, tmp_path):
    for kind, name in (("scores", "s.svg"), ("seats", "t.png"), ("characters", "c.svg")):
        title = [] if kind == "characters" else ["--title", "lost-cities"]
        out = tmp_path / name
        result = run("chart", kind, *title, "-o", out, "--db", db_path)
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 1000
    assert run("chart", "scores", "--title", "lost-cities", "-o", tmp_path / "x.gif", "--db", db_path).exit_code == 1


def test_parquet_export_and_import_keep_the_jsonl_ones_working(db_path, tmp_path):
    folder = tmp_path / "parquet"
    exported = run("export", "--format", "parquet", folder, "--db", db_path)
    assert exported.exit_code == 0, exported.output
    assert (folder / "events").is_dir()
    target = str(tmp_path / "copy.duckdb")
    imported = run("import", folder, "--db", target)
    assert imported.exit_code == 0, imported.output
    same = [run("stats", "leaderboard", "--json", "--db", path).output for path in (db_path, target)]
    assert same[0] == same[1]
    jsonl = tmp_path / "games.jsonl"
    assert run("export", "-o", jsonl, "--db", target).exit_code == 0
    assert run("import", jsonl, "--db", str(tmp_path / "third.duckdb")).exit_code == 0
