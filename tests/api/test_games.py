"""Creating, listing and reading games over HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from apiplay import finish, log_rows, new_game, play


def test_create_returns_the_id_a_write_token_and_one_token_per_seat(client):
    response = client.post("/games", json={"title": "lost-cities", "players": ["Ana", "Bea"], "seed": 3})
    assert response.status_code == 201
    body = response.json()
    assert body["title"] == "lost-cities" and body["players"] == ["Ana", "Bea"]
    assert body["last_seq"] == 2  # created, then the digital shuffle
    tokens = body["tokens"]
    assert [t["seat"] for t in tokens["seat_tokens"]] == [0, 1]
    assert [t["player"] for t in tokens["seat_tokens"]] == ["Ana", "Bea"]
    every = {tokens["write_token"], *(t["token"] for t in tokens["seat_tokens"])}
    assert len(every) == 3 and all(len(t) >= 40 for t in every)


def test_the_store_keeps_only_hashes_of_tokens(client, svc):
    game = new_game(client)
    cur = svc.log.con.cursor()
    stored = [
        bytes(r[0]) for r in cur.execute("SELECT token_hash FROM game_tokens WHERE game_id = ?", [game.id]).fetchall()
    ]
    assert len(stored) == 3
    for token in (game.write, *game.seats):
        assert token.encode() not in b"".join(stored)


@pytest.mark.parametrize(
    "body, code",
    [
        ({"title": "chess", "players": ["Ana", "Bea"]}, "unknown-title"),
        ({"title": "lost-cities", "players": ["Ana", "Bea", "Cy"]}, "lost-cities.player-count"),
        ({"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"rounds": 0}}, "lost-cities.bad-options"),
        ({"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"colour": "red"}}, "lost-cities.bad-options"),
    ],
)
def test_a_game_the_title_refuses_is_a_422_naming_the_rule_and_writes_nothing(client, svc, body, code):
    response = client.post("/games", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == code
    assert log_rows(svc) == []
    assert svc.log.con.cursor().execute("SELECT count(*) FROM game_tokens").fetchone()[0] == 0


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"title": "lost-cities"},
        {"title": "lost-cities", "players": []},
        {"title": "lost-cities", "players": ["Ana", "Bea"], "seed": -1},
        {"title": "lost-cities", "players": ["Ana", "Bea"], "seed": 2**64},
        {"title": "lost-cities", "players": ["Ana", "Bea"], "surprise": 1},
        '{"title": "lost-cities", "players": ["Ana", "\\ud800"]}',
    ],
)
def test_a_malformed_create_is_a_422_malformed_body(client, svc, body):
    if isinstance(body, str):  # JSON that escapes a lone surrogate: httpx cannot send it as json=
        response = client.post("/games", content=body.encode(), headers={"Content-Type": "application/json"})
    else:
        response = client.post("/games", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "malformed-body"
    assert response.json()["errors"]
    assert log_rows(svc) == []


def test_a_body_that_is_not_json_is_a_422_malformed_body(client):
    response = client.post("/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json()["code"] == "malformed-body"


def test_get_a_game_tells_where_it_stands_and_hides_the_seed_until_the_end(client, svc):
    game = new_game(client, seed=11)
    body = client.get(f"/games/{game.id}").json()
    assert body["status"] == "in-progress" and body["digital"] is True and body["seed"] is None
    assert body["to_move"] == 0 and body["to_move_player"] == "Ana"
    assert body["last_seq"] == 2 and body["can_redo"] is False and body["outcome"] is None
    assert body["created_at"].endswith("Z") or body["created_at"].endswith("+00:00")
    finish(svc, game.id)
    body = client.get(f"/games/{game.id}").json()
    assert body["status"] == "ended" and body["seed"] == 11
    assert body["outcome"]["winners"] and body["ended_at"] is not None


def test_an_unknown_game_is_a_404_with_a_code(client):
    response = client.get("/games/nope")
    assert response.status_code == 404
    assert response.json() == {"code": "unknown-game", "message": "no game 'nope'", "game_id": "nope"}


def test_list_filters_by_title_player_status_and_date_newest_first(client, svc):
    a = new_game(client, players=("Ana", "Bea"))
    b = new_game(client, players=("Cy", "Dee"))
    c = new_game(client, players=("Ana", "Eve"))
    finish(svc, b.id)

    def ids(**params):
        response = client.get("/games", params=params)
        assert response.status_code == 200, response.text
        return [g["game_id"] for g in response.json()["games"]]

    assert ids() == [c.id, b.id, a.id]
    assert ids(player="ana") == [c.id, a.id]
    assert ids(status="ended") == [b.id]
    assert ids(status="in-progress", player="Ana") == [c.id, a.id]
    assert ids(title="lost-cities", limit=2) == [c.id, b.id]
    assert ids(limit=2, offset=2) == [a.id]
    assert ids(title="marco-polo") == []
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    yesterday = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    assert ids(created_from=yesterday, created_to=tomorrow) == [c.id, b.id, a.id]
    assert ids(created_from=tomorrow) == []
    assert client.get("/games", params={"limit": 2}).json()["total"] == 3


@pytest.mark.parametrize(
    "params", [{"limit": 0}, {"limit": 501}, {"offset": -1}, {"status": "paused"}, {"created_from": "soon"}]
)
def test_a_bad_listing_filter_is_a_422(client, params):
    response = client.get("/games", params=params)
    assert response.status_code == 422
    assert response.json()["code"] == "malformed-request"


def test_titles_and_health(client):
    assert {"id": "lost-cities", "name": "Lost Cities"} in client.get("/titles").json()
    assert client.get("/health").json()["status"] == "ok"


def test_unknown_routes_and_methods_answer_json(client):
    response = client.get("/no/such/route")
    assert response.status_code == 404 and response.json()["code"] == "not-found"
    response = client.delete("/games")
    assert response.status_code == 405 and response.json()["code"] == "method-not-allowed"


def test_a_game_played_through_the_api_is_listed_as_ended_with_its_result(client, svc):
    game = new_game(client)
    play(client, game, 4)
    finish(svc, game.id)
    listed = client.get("/games", params={"status": "ended"}).json()["games"]
    assert [g["game_id"] for g in listed] == [game.id]
    assert listed[0]["duration_s"] is not None
