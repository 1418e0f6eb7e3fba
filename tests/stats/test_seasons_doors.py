"""Seasons through the real app on a real DuckDB file: defined with the admin token, listed, their
standings as JSON and CSV, refusals as ``{code, message}``, and a season's id at every game door."""

from __future__ import annotations

import csv
import io

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings

WINTER = {"name": "Winter 2026", "titles": ["lost-cities", "marco-polo"], "starts": "2026-01-01", "ends": "2026-02-28",
          "members": ["Ana", "Bea", "Carl", "Dana"]}


@pytest.fixture
def client(db_path):
    with TestClient(create_app(Settings(db_path=db_path))) as client:
        yield client


def admin(client):
    return {"Authorization": f"Bearer {client.app.state.services.admin_token_issued}"}


def events(client):
    return client.app.state.services.log.reader().execute("SELECT count(*) FROM events").fetchall()[0][0]


def test_a_season_is_defined_listed_and_stood(client):
    made = client.post("/seasons", json=WINTER, headers=admin(client))
    assert made.status_code == 201, made.text
    season = made.json()
    assert season["season_id"].startswith("season-") and season["members"] == WINTER["members"]
    assert [s["name"] for s in client.get("/seasons").json()["seasons"]] == ["Winter 2026"]
    shown = client.get(f"/seasons/{season['season_id']}", headers={"Accept-Language": "ja"})
    assert shown.status_code == 200, shown.text
    standings = shown.json()["standings"]
    assert [t["title"] for t in standings] == ["lost-cities", "marco-polo"]
    assert standings[0]["title_name"] != "Lost Cities" and len(standings[0]["rows"]) == 4
    assert sum(r["games"] for r in standings[0]["rows"]) > 0
    table = client.get(f"/seasons/{season['season_id']}.csv")
    assert table.status_code == 200 and table.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(table.text)))
    assert len(rows) == 8 and rows[0]["season"] == "Winter 2026" and rows[0]["title"] == "lost-cities"
    assert [int(r["games"]) for r in rows[:4]] == [r["games"] for r in standings[0]["rows"]]
    amended = client.post(f"/seasons/{season['season_id']}/amend", json={"name": "Winter league"}, headers=admin(client))
    assert amended.status_code == 200 and amended.json()["amendments"] == 1
    assert client.get(f"/seasons/{season['season_id']}").json()["name"] == "Winter league"


@pytest.mark.parametrize("change, status, code", [
    ({"starts": "2026-03-01", "ends": "2026-01-01"}, 422, "season-dates-reversed"),
    ({"titles": ["chess"]}, 422, "season-title-unknown"),
    ({"members": []}, 422, "season-members-too-few"),
    ({"name": "winter 2026"}, 422, "season-name-taken"),
    ({"name": "x" * 81}, 422, "season-text-too-long"),
    ({"name": "x" * 5000}, 422, None),
    ({"members": ["Ana", "y" * 65]}, 422, "season-text-too-long"),
    ({"starts": "1 March"}, 422, "season-date-invalid"),
    ({"titles": "lost-cities"}, 422, None),
])
def test_bad_input_is_refused_naming_the_rule_and_the_log_is_unchanged(client, change, status, code):
    assert client.post("/seasons", json=WINTER, headers=admin(client)).status_code == 201
    before = events(client)
    answer = client.post("/seasons", json={**WINTER, "name": "Spring", **change}, headers=admin(client))
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) >= {"code", "message"} and (code is None or body["code"] == code)
    assert events(client) == before


def test_writing_a_season_needs_the_admin_token(client):
    assert client.post("/seasons", json=WINTER).status_code == 401
    assert client.post("/seasons", json=WINTER, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.post("/seasons/season-x/amend", json={}, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get("/seasons").json()["seasons"] == []


def test_unknown_seasons_and_refusals_speak_the_readers_language(client):
    for url in ("/seasons/season-nothing", "/seasons/season-nothing.csv", "/seasons/" + "s" * 81):
        answer = client.get(url)
        assert answer.status_code in (404, 422) and set(answer.json()) >= {"code", "message"}
    game = client.get("/games").json()
    game_id = (game["games"] if isinstance(game, dict) else game)[0]["game_id"]
    assert client.get(f"/seasons/{game_id}").status_code == 404  # a game is no season
    said = client.post("/seasons", json={**WINTER, "members": []}, headers={**admin(client), "Accept-Language": "es"}).json()
    assert said["code"] == "season-members-too-few" and "miembros" in said["message"]


def test_a_seasons_id_at_every_game_door_is_a_clean_refusal(client):
    season_id = client.post("/seasons", json=WINTER, headers=admin(client)).json()["season_id"]
    paths = [p for p in client.app.openapi()["paths"] if "{game_id}" in p]
    assert len(paths) >= 8
    for path in paths:
        url = path.replace("{game_id}", season_id)
        for method in ("get", "post"):
            answer = getattr(client, method)(url)
            assert answer.status_code != 500 and answer.status_code >= 400 or answer.status_code == 405, (url, answer.text)
    listed = client.get("/games").json()
    assert season_id not in str(listed)
    assert client.get("/stats").status_code == 200 and client.get("/health").json().get("unreadable", []) in ([], None)
