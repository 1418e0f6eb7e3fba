"""On a real uvicorn on 127.0.0.1: a match recorded over HTTP shows up in the next statistics
answer (no stale read model), and SQL answers and refuses over the wire."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(db_path):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "api", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db_path],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{base}/health", timeout=1)
            break
        except httpx.TransportError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(proc.stdout.read().decode())
            time.sleep(0.05)
    yield base
    proc.kill()
    proc.wait()


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
