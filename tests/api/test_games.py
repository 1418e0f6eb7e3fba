"""Creating, listing and reading games over HTTP."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from apiplay import Game, finish, log_rows, log_size, new_game, play

from api.http.models import CreateGame
from api.http.routes.games import canonical
from events.creation_keys import CREATION
from events.log import new_game_id


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


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
    cur = svc.log.store.cursor()
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
    assert svc.log.store.cursor().execute("SELECT count(*) FROM game_tokens").fetchone()[0] == 0


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
        '{"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"\\ud800": 1}}',
        '{"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"rounds": 1, "x": {"\\ud800": 1}}}',
        '{"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {"\\ud800": 1}}',
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


def test_a_lone_surrogate_in_an_options_key_is_named_escaped(client):
    body = '{"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"rounds": 1, "x": {"\\ud800": 1}}}'
    response = client.post("/games", content=body.encode(), headers={"Content-Type": "application/json", "Accept-Language": "es"})
    assert response.status_code == 422 and "x.\\ud800: el texto debe ser Unicode válido" in response.json()["message"]


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
    assert response.json() == {"code": "unknown-game", "message": "no game 'nope'", "game_id": "nope", "params": {"game_id": "nope"}}


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


# -- retrying a creation: idempotency keys ---------------------------------------------------------

CREATE = {"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"rounds": 1}, "seed": 3}


def tokens_of(answer: dict) -> list[str]:
    return [answer["tokens"]["write_token"], *(t["token"] for t in answer["tokens"]["seat_tokens"])]


def game_of(answer: dict) -> Game:
    write, *seats = tokens_of(answer)
    return Game(answer["game_id"], write, tuple(seats), tuple(answer["players"]))


def test_a_retried_creation_answers_the_first_game_and_its_tokens_with_200(client, svc):
    first = client.post("/games", json=CREATE | {"idempotency_key": "table-7"})
    assert first.status_code == 201, first.text
    again = client.post("/games", json=CREATE, headers={"Idempotency-Key": "table-7"})  # the header is the same key
    assert again.status_code == 200, again.text
    assert again.json() == first.json()
    assert client.get("/games").json()["total"] == 1
    play(client, game_of(first.json()), 2)  # its tokens are the game's
    # later moves do not change the first answer
    assert client.post("/games", json=CREATE | {"idempotency_key": "table-7"}).json() == first.json()


def test_the_same_request_is_the_validated_one_with_its_defaults(client):
    plain = {"title": "lost-cities", "players": ["Ana", "Bea"], "idempotency_key": "k"}
    first = client.post("/games", json=plain)
    spelled_out = client.post("/games", json=plain | {"options": {}, "seed": None, "actor": ""})
    assert (first.status_code, spelled_out.status_code) == (201, 200)
    assert spelled_out.json()["game_id"] == first.json()["game_id"]


@pytest.mark.parametrize(
    "other",
    [
        {"players": ["Ana", "Cy"]},
        {"players": ["Bea", "Ana"]},
        {"options": {"rounds": 3}},  # the title's default, but not what the first request said
        {"seed": 4},
        {"seed": None},
        {"actor": "Ana"},
    ],
)
def test_a_creation_key_reused_for_another_request_is_a_409_and_writes_nothing(client, svc, other):
    first = client.post("/games", json=CREATE | {"idempotency_key": "k-1"})
    assert first.status_code == 201
    before = log_size(svc)
    refused = client.post("/games", json=CREATE | other | {"idempotency_key": "k-1"})
    assert refused.status_code == 409 and refused.json()["code"] == "idempotency-key-reused", refused.text
    assert "tokens" not in refused.json()
    assert log_size(svc) == before


def test_a_creation_whose_header_and_body_keys_differ_is_a_422_and_writes_nothing(client, svc):
    response = client.post("/games", json=CREATE | {"idempotency_key": "a"}, headers={"Idempotency-Key": "b"})
    assert response.status_code == 422 and response.json()["code"] == "idempotency-key-mismatch"
    assert log_size(svc) == (0, 0)
    assert client.post("/games", json=CREATE | {"idempotency_key": "a"}).status_code == 201  # the key is still free


def test_a_creation_the_title_refuses_leaves_its_key_free(client):
    refused = client.post("/games", json=CREATE | {"players": ["Ana"], "idempotency_key": "k"})
    assert refused.status_code == 422 and refused.json()["code"] == "lost-cities.player-count"
    assert client.post("/games", json=CREATE | {"idempotency_key": "k"}).status_code == 201


def test_creation_keys_are_their_own_scope(client):
    """A creation key names one creation of this store; a game's move keys are that game's own."""
    first = client.post("/games", json=CREATE | {"idempotency_key": "k"}).json()
    other = client.post("/games", json=CREATE | {"idempotency_key": "k2"}).json()
    assert other["game_id"] != first["game_id"]
    game = game_of(first)
    legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
    move = {"notation": legal["moves"][0]["notation"], "expected_seq": legal["at"], "idempotency_key": "k"}
    assert client.post(f"/games/{game.id}/moves", headers=game.auth, json=move).status_code == 201


def test_concurrent_retries_of_one_creation_make_one_game(client, svc):
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: client.post("/games", json=CREATE, headers={"Idempotency-Key": "race"}), range(8)))
    assert sorted(a.status_code for a in answers) == [200] * 7 + [201], [a.text for a in answers]
    assert len({a.text for a in answers}) == 1
    assert client.get("/games").json()["total"] == 1


def test_a_creation_that_died_after_claiming_its_key_is_made_by_its_retry(client, svc):
    """The first attempt claimed the key and was killed before its append: the retry creates the
    game under the claimed id, and only then does it exist."""
    request = CreateGame.model_validate(CREATE | {"idempotency_key": "lost"})
    claimed = svc.creation_keys.claim(CREATION, "lost", canonical(request), new_game_id()).game_id
    assert client.get("/games").json()["total"] == 0
    retry = client.post("/games", json=CREATE | {"idempotency_key": "lost"})
    assert retry.status_code == 201 and retry.json()["game_id"] == claimed
    assert client.post("/games", json=CREATE | {"idempotency_key": "lost"}).json() == retry.json()


def test_the_store_keeps_neither_a_creation_key_nor_its_tokens(client, svc):
    answer = client.post("/games", json=CREATE | {"idempotency_key": "secret-key-1234"}).json()
    dump = b"".join(
        bytes(str(row), "utf-8")
        for table in ("creation_keys", "game_tokens", "events")
        for row in svc.log.store.cursor().execute(f"SELECT * FROM {table}").fetchall()
    )
    assert b"secret-key-1234" not in dump
    assert not any(token.encode() in dump for token in tokens_of(answer))


# -- retrying a fork ---------------------------------------------------------------------------

def test_a_retried_fork_of_an_ended_game_answers_the_first_fork_and_its_tokens(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    first = client.post(f"/games/{game.id}/fork", json={"at_seq": 5, "idempotency_key": "f"})
    assert first.status_code == 201, first.text
    again = client.post(f"/games/{game.id}/fork", json={"at_seq": 5}, headers={"Idempotency-Key": "f"})
    assert again.status_code == 200 and again.json() == first.json()
    assert first.json()["tokens"] is not None
    assert client.get("/games").json()["total"] == 2
    other = client.post(f"/games/{game.id}/fork", json={"at_seq": 6, "idempotency_key": "f"})
    assert other.status_code == 409 and other.json()["code"] == "idempotency-key-reused"
    assert client.get("/games").json()["total"] == 2


def test_a_retried_fork_at_the_end_answers_the_first_fork_though_the_parent_moved_on(client, svc):
    game = new_game(client)
    play(client, game, 2)
    first = client.post(f"/games/{game.id}/fork", headers=game.auth, json={"idempotency_key": "f"})
    assert first.status_code == 201, first.text
    play(client, game, 1)
    again = client.post(f"/games/{game.id}/fork", headers=game.auth, json={"idempotency_key": "f"})
    assert again.status_code == 200 and again.json() == first.json()
    assert again.json()["tokens_inherited"] is True and again.json()["tokens"] is None
    assert client.post(f"/games/{game.id}/fork", json={"idempotency_key": "f"}).status_code == 401


def test_fork_keys_are_scoped_to_their_parent(client, svc):
    a, b = new_game(client), new_game(client)
    fork_a = client.post(f"/games/{a.id}/fork", headers=a.auth, json={"idempotency_key": "f"})
    fork_b = client.post(f"/games/{b.id}/fork", headers=b.auth, json={"idempotency_key": "f"})
    assert (fork_a.status_code, fork_b.status_code) == (201, 201)
    assert fork_a.json()["game_id"] != fork_b.json()["game_id"]


def test_a_refused_keyed_fork_writes_nothing_and_leaves_its_key_free(client, svc):
    game = new_game(client)
    before = log_size(svc)
    empty = client.post(f"/games/{game.id}/fork", headers=game.auth, json={"at_seq": 0, "idempotency_key": "f"})
    assert empty.status_code == 409 and empty.json()["code"] == "fork-empty"
    assert log_size(svc) == before
    assert client.post(f"/games/{game.id}/fork", headers=game.auth, json={"idempotency_key": "f"}).status_code == 201
