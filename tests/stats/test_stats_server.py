"""On a real uvicorn on 127.0.0.1: a match recorded over HTTP shows up in the next statistics
answer (no stale read model), and SQL answers and refuses over the wire."""

from __future__ import annotations

import random

import httpx
import pytest

import live_server


@pytest.fixture
def server(db_path):
    base, proc = live_server.start(db_path)
    yield base
    live_server.stop(proc)


def test_a_match_recorded_over_http_is_in_the_next_answer(server):
    with httpx.Client(base_url=server, timeout=30) as http:
        before = {r["player"]: r for r in http.get("/stats/leaderboard").json()["rows"]}
        created = http.post("/games", json={"title": "lost-cities", "players": ["Quinn", "Ana"],
                                            "options": {"rounds": 1}, "seed": 4}).json()
        game_id, token = created["game_id"], created["tokens"]["write_token"]
        auth = {"Authorization": f"Bearer {token}"}
        rng = random.Random(4)
        while True:
            game = http.get(f"/games/{game_id}").json()
            if game["status"] == "ended":
                break
            moves = http.get(f"/games/{game_id}/legal-moves", headers=auth).json()["moves"]
            pick = moves[rng.randrange(len(moves))]
            answer = http.post(f"/games/{game_id}/moves", headers=auth,
                               json={"notation": pick["notation"], "expected_seq": game["last_seq"]})
            assert answer.status_code == 201, answer.text
        after = {r["player"]: r for r in http.get("/stats/leaderboard").json()["rows"]}
        assert after["Quinn"]["games"] == 1
        assert after["Ana"]["games"] == before["Ana"]["games"] + 1
        rows = http.post("/sql", json={"query": f"SELECT count(*) FROM moves WHERE game_id = '{game_id}'"}).json()
        assert rows["rows"][0][0] > 0
        refused = http.post("/sql", json={"query": "ATTACH '/tmp/x.duckdb'"})
        assert refused.status_code == 400 and refused.json()["code"] == "sql-refused"
        chart = http.get("/stats/charts/seats", params={"title": "lost-cities"})
        assert chart.headers["content-type"] == "image/svg+xml"
