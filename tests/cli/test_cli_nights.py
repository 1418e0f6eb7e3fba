"""``tabletape night`` run as a user runs it, on a real DuckDB file and beside a real ``tabletape
serve`` holding one: open, draw, join, drop and show; every table's game made and recordable with
the write token printed; the standings as the games end; a bad input refused in one line, the
same on the file and through the service, with nothing written."""

from __future__ import annotations

import json
import random
import re

import duckdb
import httpx
import pytest
from typer.testing import CliRunner

import live_server
from api.cli.main import app, layers

runner = CliRunner()


def run(*args: str):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    return result


def opened(db: str, *players: str, title: str = "lost-cities", rounds: int = 2, more: tuple[str, ...] = ("--option", "rounds=1")) -> tuple[str, str]:
    result = run("night", "open", "Friday", "--title", title, "--rounds", rounds, *[a for p in players for a in ("-p", p)],
                 "--seed", "s1", *more, "--db", db)
    assert result.exit_code == 0, result.output
    night_id = re.search(r"\((night-\w+)\)", result.output).group(1)
    token = re.search(r"night token \(shown only now\): (\S+)", result.output).group(1)
    return night_id, token


def shown(db: str, night_id: str) -> dict:
    result = run("night", "show", night_id, "--json", "--db", db)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def finish(db: str, game_id: str) -> None:
    """A table's game played to its end on the file, as its table reports it: each deal in some
    order, then always the first legal move."""
    rng = random.Random(game_id)
    with layers(db) as lay:
        while (game := lay.projector.state(game_id)).ended is None:
            chance = game.title.chance(game.state)
            if chance is not None:
                outcome = tuple(rng.sample(chance.items, len(chance.items))) if chance.kind == "shuffle" else tuple(
                    rng.randint(1, chance.sides) for _ in range(chance.count))
                lay.recorder.record(game_id, game.title.chance_event(game.state, outcome))
            else:
                lay.recorder.record(game_id, game.title.legal_moves(game.state)[0])


def events(db: str) -> list[tuple]:
    """Every event row of the store (the log is append-only: the same rows, nothing written)."""
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT game_id, seq, hash FROM events ORDER BY game_id, seq").fetchall()


def test_a_night_on_the_file_from_open_to_its_last_round(tmp_path):
    db = str(tmp_path / "n.duckdb")
    night_id, token = opened(db, "Ana", "Bea", "Cai")
    drawn = run("night", "draw", night_id, "--token", token, "--db", db)
    assert drawn.exit_code == 0, drawn.output
    assert "round 1 of 2" in drawn.output and "sits out (a bye): " in drawn.output
    table = re.search(r"table 1: (\w+), (\w+) \(game (\w+)\)", drawn.output)
    write = re.search(r"write token: (\S+)", drawn.output).group(1)
    game_id = table.group(3)
    night = shown(db, night_id)
    assert night["draws"][0]["tables"][0]["game_id"] == game_id and night["draws"][0]["tables"][0]["write_token"] is None
    # the printed write token records that table's game (here through the command line's recorder)
    recorded = runner.invoke(app, ["record", game_id, "--token", write, "--db", db], input="quit\n")
    assert recorded.exit_code == 0, recorded.output
    busy = run("night", "draw", night_id, "--token", token, "--db", db)
    assert busy.exit_code == 1 and "night-round-playing" in busy.output and busy.output.count("\n") == 1
    finish(db, game_id)
    table_text = run("night", "show", night_id, "--db", db)
    assert table_text.exit_code == 0 and "1 of 2 rounds drawn" in table_text.output and "playing" not in table_text.output
    top = shown(db, night_id)["standings"]
    assert sum(r["night_points"] for r in top) == 2.0 and sum(r["games"] for r in top) == 2
    joined = run("night", "join", night_id, "Dan", "--token", token, "--db", db)
    assert joined.exit_code == 0 and "Dan plays from the next round on" in joined.output
    dropped = run("night", "drop", night_id, "ana", "--token", token, "--db", db)
    assert dropped.exit_code == 0 and "plays no further round" in dropped.output
    second = run("night", "draw", night_id, "--token", token, "--db", db)
    assert second.exit_code == 0 and "round 2 of 2" in second.output
    night = shown(db, night_id)
    seated = sorted([p for t in night["draws"][1]["tables"] for p in t["players"]] + night["draws"][1]["byes"])
    assert seated == ["Bea", "Cai", "Dan"] and night["dropped"] == ["Ana"]
    for t in night["draws"][1]["tables"]:
        finish(db, t["game_id"])
    done = run("night", "draw", night_id, "--token", token, "--db", db)
    assert done.exit_code == 1 and "night-rounds-done" in done.output and done.output.count("\n") == 1


def test_a_marco_polo_night_of_a_seasons_members(tmp_path):
    db = str(tmp_path / "n.duckdb")
    members = [a for m in ("Ana", "Bea", "Cai", "Dan", "Eva", "Fay", "Gil") for a in ("--member", m)]
    made = run("season", "create", "Club", "--title", "marco-polo", "--starts", "2026-01-01", "--ends", "2026-12-31", *members, "--db", db)
    assert made.exit_code == 0, made.output
    night_id, token = opened(db, title="marco-polo", more=("--season", "club"))  # a season by its name
    drawn = run("night", "draw", night_id, "--token", token, "--db", db)
    assert drawn.exit_code == 0, drawn.output
    tables = shown(db, night_id)["draws"][0]["tables"]
    assert sorted(len(t["players"]) for t in tables) == [3, 4]


#: a bad input for each command: (the arguments after ``night``, what its one line names)
BAD = [
    (("open", "X", "--title", "chess", "--rounds", "2", "-p", "Ana", "-p", "Bea"), "night-title-unknown"),
    (("open", "X", "--title", "lost-cities", "--rounds", "0", "-p", "Ana", "-p", "Bea"), "night-rounds-out-of-range"),
    (("open", "X", "--title", "lost-cities", "--rounds", "2", "-p", "Ana"), "night-players-too-few"),
    (("open", "X", "--title", "lost-cities", "--rounds", "2", "-p", "Ana", "-p", "ana"), "night-player-repeated"),
    (("open", "X", "--title", "lost-cities", "--rounds", "2", "-p", "Ana", "-p", "Bea", "-o", "rounds=many"), "lost-cities.bad-options"),
    (("open", "X", "--title", "lost-cities", "--rounds", "2", "-p", "Ana", "-p", "Bea", "-o", "rounds"), "key=value"),
    (("open", "X", "--title", "lost-cities", "--rounds", "2", "--season", "season-nothing"), "unknown-season"),
    (("draw", "{night}", "--token", "nope"), "token-wrong"),
    (("draw", "night-nothing", "--token", "{token}"), "unknown-night"),
    (("join", "{night}", "Bea", "--token", "{token}"), "night-player-present"),
    (("join", "{night}", "Eve", "--token", "nope"), "token-wrong"),
    (("drop", "{night}", "Zed", "--token", "{token}"), "night-player-absent"),
    (("show", "night-nothing"), "unknown-night"),
]


def refusals(db: str, night_id: str, token: str) -> dict[str, str]:
    out = {}
    for args, names in BAD:
        filled = [a.format(night=night_id, token=token) for a in args]
        result = run("night", *filled, "--db", db)
        assert result.exit_code == 1, (filled, result.output)
        assert names in result.output and result.output.count("\n") == 1, (filled, result.output)
        out[" ".join(args)] = result.output
    return out


@pytest.fixture
def night_store(tmp_path):
    db = str(tmp_path / "n.duckdb")
    night_id, token = opened(db, "Ana", "Bea", "Cai")
    return db, night_id, token


def test_a_bad_input_is_one_line_and_writes_nothing(night_store):
    db, night_id, token = night_store
    before = events(db)
    refusals(db, night_id, token)
    assert events(db) == before


def test_beside_the_service_the_night_goes_through_it_and_refuses_alike(night_store, tmp_path):
    db, night_id, token = night_store
    on_file = refusals(db, night_id, token)
    base, proc = live_server.start(db, timeout=90, output=tmp_path / "server.txt")
    try:
        assert refusals(db, night_id, token) == on_file
        drawn = run("night", "draw", night_id, "--token", token, "--db", db)
        assert drawn.exit_code == 0 and "round 1 of 2" in drawn.output, drawn.output
        write = re.search(r"write token: (\S+)", drawn.output).group(1)
        game_id = re.search(r"\(game (\w+)\)", drawn.output).group(1)
        legal = httpx.get(f"{base}/games/{game_id}/chance", headers={"Authorization": f"Bearer {write}"}, timeout=10)
        assert legal.status_code == 200 and legal.json()["kind"] == "shuffle"
        assert run("night", "join", night_id, "Dan", "--token", token, "--db", db).exit_code == 0
        night = shown(db, night_id)
        assert night["present"] == ["Ana", "Bea", "Cai", "Dan"] and night["rounds_drawn"] == 1
    finally:
        live_server.stop(proc)
    assert shown(db, night_id)["present"] == ["Ana", "Bea", "Cai", "Dan"]  # written by the service, read on the file
