"""On a real uvicorn on 127.0.0.1: a match recorded over HTTP shows up in the next statistics
answer (no stale read model), SQL answers and refuses over the wire, and a query that tries to
take more memory than its limit neither grows the server nor slows its other clients."""

from __future__ import annotations

import os
import random
import threading
import time

import httpx
import pytest

import live_server
from projections.stats import sql


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


def rss(pid: int) -> int:
    """Resident bytes of one process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


def family(pid: int) -> set[int]:
    """``pid`` and every process below it (the fork server, the sandboxes)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    tree = {pid}
    while grown := {child for child, parent in parents.items() if parent in tree} - tree:
        tree |= grown
    return tree


def test_a_memory_hog_grows_neither_the_server_nor_its_latency(db_path):
    base, proc = live_server.start(db_path)
    peaks = {"server": 0, "family": 0, "health": 0.0}
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peaks["server"] = max(peaks["server"], rss(proc.pid))
            peaks["family"] = max(peaks["family"], sum(rss(p) for p in family(proc.pid)))
            time.sleep(0.01)

    def ping() -> None:
        with httpx.Client(base_url=base, timeout=30) as http:
            while not done.is_set():
                started = time.monotonic()
                assert http.get("/health").status_code == 200
                peaks["health"] = max(peaks["health"], time.monotonic() - started)
                time.sleep(0.05)

    try:
        with httpx.Client(base_url=base, timeout=60) as http:
            http.post("/sql", json={"query": "SELECT 1"})  # the fork server and a sandbox are up
            server, everything = rss(proc.pid), sum(rss(p) for p in family(proc.pid))
            watchers = [threading.Thread(target=watch), threading.Thread(target=ping)]
            for thread in watchers:
                thread.start()
            try:
                for query in ("SELECT length(repeat('x', 2000000000)) AS n",
                              "SELECT repeat('x', 10000000) AS s FROM range(100)",
                              "SELECT length(list(repeat('x', 1000))) AS n FROM range(2000000)"):
                    answer = http.post("/sql", json={"query": query, "time_limit_s": 30})
                    assert answer.status_code == 400, answer.text[:300]
                    assert answer.json()["code"] in ("sql-memory-limit", "sql-result-too-large"), answer.text
            finally:
                done.set()
                for thread in watchers:
                    thread.join()
    finally:
        live_server.stop(proc)
    # before: +3.8 GB in the server for the first query, +2.85 GB and a 1 GB body for the second
    assert peaks["server"] - server < 64 * 2**20
    assert peaks["family"] - everything < sql.MEMORY_LIMIT + sql.MEMORY_MARGIN + 256 * 2**20
    assert peaks["health"] < 1.0
