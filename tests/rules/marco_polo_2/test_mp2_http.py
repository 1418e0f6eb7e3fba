"""Marco Polo II over HTTP: a digital game with the invented synthetic pack played from the legal
moves the API lists, and a table game with the public pack whose moves describe components."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from mp2_helpers import PUB, SYN, policy, T
from test_mp2_recording import SETUP


@pytest.fixture
def client():
    with TestClient(create_app(Settings(db_path=":memory:", stream_ping_s=0.2))) as c:
        yield c


def create(client, options, seed=None):
    body = {"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": options}
    if seed is not None:
        body["seed"] = seed
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.text
    out = response.json()
    return out["game_id"], {"Authorization": f"Bearer {out['tokens']['write_token']}"}


def test_a_digital_game_is_played_from_the_listed_moves(client):
    gid, auth = create(client, {**SYN, "caravans": True}, seed=3)
    rng = random.Random(3)
    for _ in range(1000):
        legal = client.get(f"/games/{gid}/legal-moves", headers=auth).json()
        if not legal["moves"]:
            break
        moves = [T.parse_move(None, m["notation"]) for m in legal["moves"]]
        pick = legal["moves"][moves.index(policy(moves, rng))]
        response = client.post(f"/games/{gid}/moves", headers=auth, json={"notation": pick["notation"], "expected_seq": legal["at"]})
        assert response.status_code == 201, response.text
    game = client.get(f"/games/{gid}").json()
    assert "game over" in legal["status_line"] and game["status"] == "ended", game


def test_a_table_game_describes_components_in_structured_moves(client):
    gid, auth = create(client, {**PUB, "characters": "chosen"})
    response = client.post(f"/games/{gid}/moves", headers=auth, json={"notation": SETUP, "expected_seq": 1})
    assert response.status_code == 201, response.text
    bad = {"type": "marco-polo-2.goal-kept", "goal": None, "describe": [{"kind": "goal", "id": "G1", "spec": {"shields": 3}}]}
    response = client.post(f"/games/{gid}/moves", headers=auth, json={"move": bad, "expected_seq": 2})
    assert response.status_code == 422 and response.json()["code"] == "marco-polo-2.bad-description"
    frames = client.get(f"/games/{gid}/frames").json()["frames"]
    assert "contract:T1" in frames[-1]["described"]
