"""``tabletape season`` on a real DuckDB file: create, list, show, csv and amend, a refusal named,
and the Parquet export's seasons table."""

from __future__ import annotations

import csv
import io
import json

import duckdb
from typer.testing import CliRunner

from api.cli.main import app as cli

runner = CliRunner()


def run(*args: str):
    return runner.invoke(cli, [str(a) for a in args])


def create(db_path, name="Winter 2026", *extra):
    return run("season", "create", name, "--title", "lost-cities", "--title", "marco-polo", "--starts", "2026-01-01",
               "--ends", "2026-02-28", *[a for m in ("Ana", "Bea", "Carl", "Dana") for a in ("--member", m)], *extra, "--db", db_path)


def test_create_list_show_csv_and_amend(db_path, tmp_path):
    made = create(db_path)
    assert made.exit_code == 0, made.output
    assert "Winter 2026" in made.output
    listed = run("season", "list", "--json", "--db", db_path)
    assert listed.exit_code == 0 and json.loads(listed.output)[0]["name"] == "Winter 2026"
    shown = run("season", "show", "winter 2026", "--json", "--db", db_path)
    assert shown.exit_code == 0, shown.output
    standings = json.loads(shown.output)["standings"]
    assert [t["title"] for t in standings] == ["lost-cities", "marco-polo"]
    table = run("season", "show", "Winter 2026", "--db", db_path)
    assert table.exit_code == 0 and "Ana" in table.output
    written = run("season", "csv", "Winter 2026", "--db", db_path)
    rows = list(csv.DictReader(io.StringIO(written.stdout)))
    assert len(rows) == 8 and {r["player"] for r in rows} == {"Ana", "Bea", "Carl", "Dana"}
    amended = run("season", "amend", "Winter 2026", "--name", "Winter league", "--db", db_path)
    assert amended.exit_code == 0, amended.output
    assert json.loads(run("season", "list", "--json", "--db", db_path).output)[0]["name"] == "Winter league"
    folder = tmp_path / "export"
    exported = run("export", "--format", "parquet", str(folder), "--db", db_path)
    assert exported.exit_code == 0, exported.output
    got = duckdb.sql(f"SELECT season, title, player, games FROM read_parquet('{folder}/seasons/seasons.parquet') ORDER BY ALL").fetchall()
    assert len(got) == 8 and got[0][0] == "Winter league"
    assert sum(g for *_, g in got if _[1] == "lost-cities") == sum(int(r["games"]) for r in rows if r["title"] == "lost-cities")


def test_a_refusal_names_the_rule_and_writes_nothing(db_path):
    assert create(db_path).exit_code == 0
    again = create(db_path, "WINTER 2026")
    assert again.exit_code == 1 and "Winter 2026" in again.output
    reversed_ = run("season", "create", "Later", "--title", "lost-cities", "--starts", "2026-03-01", "--ends", "2026-01-01",
                    "--member", "Ana", "--member", "Bea", "--db", db_path)
    assert reversed_.exit_code == 1 and "2026-01-01" in reversed_.output
    assert len(json.loads(run("season", "list", "--json", "--db", db_path).output)) == 1
    unknown = run("season", "show", "Nothing", "--db", db_path)
    assert unknown.exit_code == 1 and "Nothing" in unknown.output
    spanish = run("--lang", "es", "season", "create", "Otra", "--title", "lost-cities", "--starts", "2026-01-01",
                  "--ends", "2026-01-02", "--member", "Ana", "--db", db_path)
    assert spanish.exit_code == 1 and "miembros" in spanish.output


def test_verify_checks_a_seasons_chain_with_the_games(db_path):
    assert create(db_path).exit_code == 0
    season_id = json.loads(run("season", "list", "--json", "--db", db_path).output)[0]["season_id"]
    checked = run("verify", "--rules", "--db", db_path)
    assert checked.exit_code == 0, checked.output
    assert season_id in checked.output
    exported = run("export", season_id, "--db", db_path)
    assert exported.exit_code == 0 and "season.defined" not in exported.stdout  # a season is no game to export
