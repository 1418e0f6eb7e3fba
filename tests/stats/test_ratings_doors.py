"""The ratings through the real app and the real CLI on a real DuckDB file: the table, a player's
history, the leaderboard by rating, who is favourite, and refusals as ``{code, message}``."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.cli.main import app as cli
from api.http.app import create_app
from api.http.settings import Settings

runner = CliRunner()


@pytest.fixture
def client(db_path):
    with TestClient(create_app(Settings(db_path=db_path))) as client:
        yield client


def test_the_rating_table_and_a_players_history(client):
    table = client.get("/stats/ratings?title=lost-cities")
    assert table.status_code == 200, table.text
    rows = table.json()["rows"]
    assert [r["position"] for r in rows] == list(range(1, len(rows) + 1))
    assert rows == sorted(rows, key=lambda r: -r["conservative"])
    history = client.get("/stats/ratings/history", params={"title": "lost-cities", "name": "ANA"}).json()
    assert history["player"] == "Ana" and len(history["rows"]) == next(r["games"] for r in rows if r["player"] == "Ana")
    assert history["rows"][-1]["mu"] == next(r["mu"] for r in rows if r["player"] == "Ana")


def test_the_leaderboard_by_rating(client):
    by_rating = client.get("/stats/leaderboard?title=lost-cities&order=rating").json()["rows"]
    table = client.get("/stats/ratings?title=lost-cities").json()["rows"]
    assert [r["player"] for r in by_rating] == [r["player"] for r in table]
    assert by_rating[0]["mu"] == table[0]["mu"]
    plain = client.get("/stats/leaderboard?title=lost-cities").json()["rows"]
    assert "mu" not in plain[0]  # the win-rate leaderboard reads as it did before ratings


def test_who_is_favourite(client):
    answer = client.get("/stats/ratings/favourite?title=lost-cities&player=Ana&player=Bea&player=Someone")
    assert answer.status_code == 200, answer.text
    rows = answer.json()["rows"]
    assert [r["player"] for r in rows] == ["Ana", "Bea", "Someone"]
    assert sum(r["win_probability"] for r in rows) == pytest.approx(1.0)


@pytest.mark.parametrize("url, code", [
    ("/stats/ratings", "stats-title-needed"),
    ("/stats/ratings?title=chess", "stats-title-not-covered"),
    ("/stats/leaderboard?order=rating", "stats-title-needed"),
    ("/stats/ratings/favourite?title=lost-cities&player=Ana", "ratings-players-needed"),
    ("/stats/ratings/favourite?title=lost-cities&player=Ana&player=ana", "ratings-players-needed"),
    ("/stats/ratings/favourite?title=lost-cities&player=Ana&player=" + "x" * 65, "ratings-players-needed"),
    ("/stats/leaderboard?title=lost-cities&order=elo", None),
])
def test_refusals_name_the_rule_and_change_nothing(client, url, code):
    answer = client.get(url)
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert set(body) >= {"code", "message"} and (code is None or body["code"] == code)


def test_refusals_speak_the_readers_language(client):
    answer = client.get("/stats/ratings/favourite?title=lost-cities&player=Ana", headers={"Accept-Language": "es"})
    assert answer.json()["code"] == "ratings-players-needed" and "jugadores" in answer.json()["message"]


def run(*args: str):
    return runner.invoke(cli, [str(a) for a in args])


def test_the_cli_prints_the_table_a_history_and_the_favourite(db_path):
    table = run("ratings", "--title", "lost-cities", "--db", db_path)
    assert table.exit_code == 0, table.output
    assert "rating (mu)" in table.output and "Ana" in table.output
    rows = json.loads(run("ratings", "--title", "lost-cities", "--json", "--db", db_path).output)
    assert rows[0]["position"] == 1
    history = run("ratings", "--title", "lost-cities", "--player", "bea", "--db", db_path)
    assert history.exit_code == 0 and "rank" in history.output
    favourite = run("ratings", "--title", "lost-cities", "-f", "Ana", "-f", "Carl", "--rebuild", "--db", db_path)
    assert favourite.exit_code == 0 and "chance to win" in favourite.output and "%" in favourite.output
    refused = run("ratings", "--title", "lost-cities", "-f", "Ana", "--db", db_path)
    assert refused.exit_code == 1 and "ratings-players-needed" in refused.output
    spanish = run("--lang", "es", "ratings", "--title", "marco-polo", "--db", db_path)
    assert spanish.exit_code == 0 and "puntuación (mu)" in spanish.output
