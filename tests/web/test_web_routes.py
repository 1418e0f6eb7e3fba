"""The page's own endpoints, without a browser: the page and its files are served; titles come with
their options; the chance the table must report, and the move that records an outcome."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(db_path=":memory:"))) as client:
        yield client


def new(client, title: str, players=("Ana", "Bea"), **body):
    made = client.post("/games", json={"title": title, "players": list(players), **body})
    assert made.status_code == 201, made.text
    out = made.json()
    return out["game_id"], {"Authorization": f"Bearer {out['tokens']['write_token']}"}


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in page.text
    for path in ("/static/app.js", "/static/pages/game.js", "/static/draw/lost-cities.js", "/static/style.css"):
        response = client.get(path)
        assert response.status_code == 200, path
    module = client.get("/static/app.js")
    assert "javascript" in module.headers["content-type"] and module.headers["cache-control"] == "no-cache"
    assert client.get("/static/app.js", headers={"If-None-Match": module.headers["etag"]}).status_code == 304
    assert client.get("/static/nope.js").status_code == 404
    assert "/" not in client.get("/openapi.json").json()["paths"]  # the page is not an API operation


def test_titles_come_with_players_and_options(client):
    details = {t["id"]: t for t in client.get("/titles/details").json()}
    assert set(details) == {t["id"] for t in client.get("/titles").json()}
    lost = details["lost-cities"]
    assert lost["players"] == {"min": 2, "max": 4}
    assert lost["options"]["properties"]["rounds"]["default"] == 3
    assert details["marco-polo"]["options"]["properties"]["characters"]["enum"] == ["chosen", "draft", "first-game"]
    assert details["marco-polo"]["has_content"] is True
    content = client.get("/titles/marco-polo/content").json()
    assert {loc["id"] for loc in content["locations"]} >= {"VEN", "BEI"}
    assert client.get("/titles/nope/content").json()["code"] == "unknown-title"


def test_the_chance_awaited_and_the_move_that_records_it(client):
    game_id, auth = new(client, "marco-polo", options={"characters": "first-game"})
    assert client.get(f"/games/{game_id}/chance").json()["code"] == "token-missing"
    setup = (
        "setup chars=raschid,matteo cards=CC01,CC02,CC03,CC04,CC05,CC06,CC07,CC08,CC09 "
        "outposts=OB01,OB02,OB03,OB04,OB05,OB06,OB07 start=S1,S2 objectives=?,?;?,?"
    )
    record = client.post(f"/games/{game_id}/moves", headers=auth, json={"notation": setup, "expected_seq": 1})
    assert record.status_code == 201, record.text
    chance = client.get(f"/games/{game_id}/chance", headers=auth).json()
    assert chance["kind"] == "shuffle" and len(chance["items"]) > 6  # the six contracts of round 1
    made = client.post(f"/games/{game_id}/chance", headers=auth, json={"outcome": chance["items"]}).json()
    assert made["notation"] == "deal 1 " + ",".join(chance["items"][:6])
    record = client.post(f"/games/{game_id}/moves", headers=auth, json={"notation": made["notation"], "expected_seq": 2})
    assert record.status_code == 201, record.text
    chance = client.get(f"/games/{game_id}/chance", headers=auth).json()
    assert chance["kind"] == "dice" and chance["groups"] == [0, 6]  # Raschid sets his dice; Matteo rolls six
    made = client.post(f"/games/{game_id}/chance", headers=auth, json={"outcome": [1, 2, 3, 4, 5, 6]}).json()
    assert made["notation"] == "roll 1 -;1,2,3,4,5,6"
    refused = client.post(f"/games/{game_id}/chance", headers=auth, json={"outcome": ["x"]})
    assert refused.status_code == 422 and refused.json()["code"] == "bad-chance-outcome"
    assert client.get(f"/games/{game_id}").json()["last_seq"] == 3  # composing writes nothing
    assert client.get(f"/games/{game_id}/content").json()["locations"]


def test_no_chance_awaited_while_a_seat_decides(client):
    game_id, auth = new(client, "lost-cities", options={"rounds": 1}, seed=3)
    chance = client.get(f"/games/{game_id}/chance", headers=auth).json()
    assert chance["kind"] is None and chance["to_move"] == 0
    refused = client.post(f"/games/{game_id}/chance", headers=auth, json={"outcome": [1]})
    assert refused.status_code == 422 and refused.json()["code"] == "no-chance-awaited"
    assert client.get("/games/nope/chance", headers=auth).status_code == 404


def test_an_outcome_of_the_wrong_shape_is_refused(client):
    game_id, auth = new(client, "lost-cities", options={"rounds": 1})  # at the table: the deal is awaited
    chance = client.get(f"/games/{game_id}/chance", headers=auth).json()
    assert chance["kind"] == "shuffle" and len(chance["items"]) == 60
    for outcome in ([0], [1, 2], ["R7", "R7"], ["Yx", "Yx", "Yx", "Yx"], ["nope"], []):
        refused = client.post(f"/games/{game_id}/chance", headers=auth, json={"outcome": outcome})
        assert refused.status_code == 422, outcome
        assert refused.json()["code"] in ("bad-chance-outcome", "malformed-body"), refused.text
    made = client.post(f"/games/{game_id}/chance", headers=auth, json={"outcome": chance["items"]}).json()
    assert made["notation"].startswith("shuffle ")
    assert client.get(f"/games/{game_id}").json()["last_seq"] == 1
