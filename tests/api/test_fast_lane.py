"""``POST /games/{id}/moves`` is answered ahead of FastAPI's router (api.http.fast_lane); a client must
not be able to tell the lane from the registered route."""

from __future__ import annotations

import json
import random

import pytest
from apiplay import log_rows, new_game
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.edge import BodyLimits, FrameGuard
from api.http.fast_lane import MovesLane, moves_game_id
from api.http.settings import Settings


def test_only_the_moves_path_of_one_game_takes_the_lane():
    assert moves_game_id("/games/abc/moves") == "abc"
    for path in ("/games//moves", "/games/a/b/moves", "/games/abc/moves/", "/games/abc/undo", "/games/moves", "/x/moves"):
        assert moves_game_id(path) is None, path


@pytest.fixture
def router_client():
    """The same app under a root path, where the lane steps aside and the router answers."""
    with TestClient(create_app(Settings(db_path=":memory:")), root_path="/api") as client:
        yield client


def _session(client) -> list[tuple[int, dict]]:
    """A seeded game driven through good and bad requests; every answer, its game id blanked."""
    game = new_game(client, seed=11)
    path = f"/games/{game.id}/moves"
    answers = []

    def post(content=None, headers=None, **kw):
        response = client.post(path, content=content, headers={**game.auth, **(headers or {})}, **kw)
        answers.append((response.status_code, json.loads(response.text.replace(game.id, "<game>"))))

    post(content=b"{not json", headers={"Content-Type": "application/json"})
    post(json={"notation": "d", "expected_seq": 2}, headers={"Authorization": "Bearer wrong"})
    post(json={"notation": "d", "expected_seq": 2}, headers={"Authorization": ""})
    post(json={"notation": "d", "expected_seq": 1})
    post(json={"notation": "d", "expected_seq": 2})  # a draw before a play
    post(json={"notation": "d", "expected_seq": 2, "idempotency_key": "a"}, headers={"Idempotency-Key": "b"})
    rng = random.Random(3)
    for turn in range(12):
        legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
        pick = rng.choice(legal["moves"])
        key = f"k{turn}"
        post(json={"move": pick["move"], "expected_seq": legal["at"]}, headers={"Idempotency-Key": key})
        post(json={"move": pick["move"], "expected_seq": legal["at"]}, headers={"Idempotency-Key": key})
    return answers


def test_the_lane_answers_exactly_as_the_router_does(client, router_client, svc):
    """Refusals (malformed body, wrong or missing token, stale seq, a broken rule, mismatched keys),
    accepted moves and replayed idempotency keys: same status, same body, and the same log."""
    assert [m.cls for m in client.app.user_middleware] == [FrameGuard, BodyLimits, MovesLane]
    through_lane = _session(client)
    through_router = _session(router_client)
    assert through_lane == through_router
    assert {status for status, _ in through_lane} == {200, 201, 401, 403, 409, 422}
    lane_rows = [row[1:] for row in log_rows(svc)]
    router_rows = [row[1:] for row in log_rows(router_client.app.state.services)]
    assert [seq for seq, _ in lane_rows] == [seq for seq, _ in router_rows]


def test_other_methods_and_paths_still_reach_the_router(client):
    game = new_game(client)
    assert client.get(f"/games/{game.id}/moves").json()["code"] == "method-not-allowed"
    assert client.post(f"/games/{game.id}/nope", json={}).json()["code"] == "not-found"
