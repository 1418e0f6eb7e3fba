"""``tabletape serve --workers N`` on one PostgreSQL store: writers in different workers
serialise, and a live stream on one worker sees what another appended."""

from __future__ import annotations

import copy
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit

import httpx
import pytest

import live_server
from apiplay import last_seq, new_game, play, read_stream
from mp2play import OPTIONS, SETUP, d
from rules.marco_polo_2.content import PUBLIC

ADMIN_TOKEN = re.compile(r"admin token of this store \(shown once; it writes the content-pack library\): (\S+)")


@pytest.fixture
def workers(postgres_db, tmp_path):
    base, proc = live_server.start(postgres_db, args=("--workers", "2"), output=tmp_path / "serve.log")
    yield base
    live_server.stop(proc)


@pytest.fixture
def admin(workers, tmp_path) -> dict[str, str]:
    """The admin token ``serve`` printed on the store's first start."""
    return {"Authorization": f"Bearer {ADMIN_TOKEN.search((tmp_path / 'serve.log').read_text()).group(1)}"}


def two_workers(base: str) -> tuple[httpx.Client, httpx.Client]:
    """Two kept-alive clients whose connections were accepted by different workers."""
    first = httpx.Client(base_url=base, timeout=10)
    mine = first.get("/health").json()["log"]["worker"]
    for _ in range(200):
        other = httpx.Client(base_url=base, timeout=10)
        if other.get("/health").json()["log"]["worker"] != mine:
            return first, other
        other.close()
    raise AssertionError("every connection went to one worker")


def test_the_same_move_sent_through_two_workers_is_appended_once_and_the_other_gets_409(workers):
    a, b = two_workers(workers)
    game = new_game(a)
    seq = a.get(f"/games/{game.id}").json()["last_seq"]
    move = a.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()["moves"][0]["notation"]
    answers: list[httpx.Response] = []
    barrier = threading.Barrier(2)

    def send(client: httpx.Client) -> None:
        barrier.wait()
        answers.append(
            client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": move, "expected_seq": seq})
        )

    threads = [threading.Thread(target=send, args=(client,)) for client in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.status_code for r in answers) == [201, 409]
    refused = next(r for r in answers if r.status_code == 409).json()
    assert refused["code"] == "stale-expected-seq"
    for client in (a, b):  # both workers read the one log
        assert client.get(f"/games/{game.id}").json()["last_seq"] == seq + 1
        assert game.id in [g["game_id"] for g in client.get("/games").json()["games"]]  # and one catalogue


def test_a_stream_on_one_worker_sees_moves_appended_through_another(workers):
    a, b = two_workers(workers)
    game = new_game(a)
    seq = a.get(f"/games/{game.id}").json()["last_seq"]

    def move_later() -> None:
        time.sleep(0.5)  # the stream is open and idle by then: only a notification wakes it
        move = a.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()["moves"][0]["notation"]
        a.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": move, "expected_seq": seq})

    mover = threading.Thread(target=move_later)
    started = time.monotonic()
    mover.start()
    messages = read_stream(b, game.id, seq + 1, since=seq)
    mover.join()
    assert [m["id"] for m in messages if "id" in m] == [seq + 1]
    assert time.monotonic() - started < 5  # an idle stream pings every 15 s: this was the NOTIFY


def test_tokens_issued_again_through_one_worker_replace_the_old_ones_on_every_worker(workers):
    a, b = two_workers(workers)
    game = new_game(a)
    assert b.get(f"/games/{game.id}/legal-moves", headers=game.auth).status_code == 200  # b has seen them
    issued = a.post(f"/games/{game.id}/tokens", headers=game.auth)
    assert issued.status_code == 200, issued.text
    old = b.get(f"/games/{game.id}/legal-moves", headers=game.auth)
    assert (old.status_code, old.json()["code"]) == (403, "token-wrong")
    new = {"Authorization": f"Bearer {issued.json()['write_token']}"}
    assert b.get(f"/games/{game.id}/legal-moves", headers=new).status_code == 200


def test_a_pack_uploaded_through_one_worker_is_served_by_every_worker(workers, admin):
    a, b = two_workers(workers)
    b.get("/titles/marco-polo-2/packs")  # b has read the library before the upload
    data = copy.deepcopy(PUBLIC.data)
    data["id"] = "ours-workers"
    up = a.post("/titles/marco-polo-2/packs", json=data, headers=admin)
    assert up.status_code == 201, up.text
    ref = {"id": "ours-workers", "hash": up.json()["hash"]}
    created = b.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {**OPTIONS, "content": ref}})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["game_id"], created.json()["tokens"]["write_token"]
    auth = {"Authorization": f"Bearer {token}"}
    moved = b.post(f"/games/{game_id}/moves", headers=auth, json={"notation": SETUP, "expected_seq": created.json()["last_seq"]})
    assert moved.status_code == 201, moved.text
    states = [client.get(f"/games/{game_id}/state", headers=auth) for client in (a, b)]
    assert [s.status_code for s in states] == [200, 200], [s.text for s in states]
    assert states[0].json() == states[1].json()
    listed = [client.get("/titles/marco-polo-2/packs").json() for client in (a, b)]
    assert listed[0] == listed[1]
    assert next(p for p in listed[0]["packs"] if p["id"] == "ours-workers")["games"] == 1
    working = a.post("/titles/marco-polo-2/packs", params={"working": "true"}, json=data, headers=admin)
    assert working.json()["working"], working.text  # the same content again: made working
    plain = b.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": OPTIONS}).json()
    # pinned to the next version b grew from the working pack a made (what the first game described)
    pinned = b.get(f"/games/{plain['game_id']}").json()["options"]["content"]
    assert pinned["id"] == "ours-workers-v2"
    assert [c.get("/titles/marco-polo-2/packs").json()["working"] for c in (a, b)] == [pinned, pinned]
    assert a.get(f"/games/{plain['game_id']}/state", headers={"Authorization": f"Bearer {plain['tokens']['write_token']}"}).status_code == 200


def test_versions_derived_at_the_same_instant_through_two_workers_each_get_an_id_of_their_own(workers, admin):
    """Two admins adding to the public pack at once, through two workers: the versions are
    numbered one after the other, and no id names two contents."""
    a, b = two_workers(workers)
    made: list[httpx.Response] = []
    cities = iter(["KAS", "XIA", "TUR", "LHA", "HAM", "KHO", "YAR", "SAM", "BUK", "MER"])
    for _ in range(5):
        barrier = threading.Barrier(2)

        def derive(client: httpx.Client, city: str) -> None:
            barrier.wait()
            body = {"add": [d("node", city, kind="city", shield="bow")], "working": False}
            made.append(client.post(f"/titles/marco-polo-2/packs/{PUBLIC.id}/versions", json=body, headers=admin))

        threads = [threading.Thread(target=derive, args=(client, next(cities))) for client in (a, b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert [r.status_code for r in made] == [201] * 10, [r.text for r in made]
    assert sorted(r.json()["version"] for r in made) == list(range(1, 11))
    for client in (a, b):
        listed = [p for p in client.get("/titles/marco-polo-2/packs").json()["packs"] if p["lineage"] == "ours"]
        assert sorted(p["id"] for p in listed) == sorted(f"ours-v{n}" for n in range(1, 11))
        assert client.get("/titles/marco-polo-2/packs/ours-v10").status_code == 200  # one pack, not two


def test_many_games_created_at_once_in_one_worker_take_turns_without_emptying_its_pool(postgres_db):
    """A tournament starting its tables at once: each creation of a game whose pack may grow holds
    the store's pack lock; the others wait their turn in the worker, not each on a connection of
    the pool the creation in turn needs (8 then starved it for 30 s)."""
    from fastapi.testclient import TestClient

    from api.http.app import create_app
    from api.http.settings import Settings

    with TestClient(create_app(Settings(db_path=postgres_db))) as client:
        barrier = threading.Barrier(12)
        answers: list[httpx.Response] = []

        def create() -> None:
            barrier.wait()
            answers.append(client.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": OPTIONS}))

        threads = [threading.Thread(target=create) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [r.status_code for r in answers] == [201] * 12, [r.text for r in answers if r.status_code != 201]
        assert len(client.get("/games", params={"title": "marco-polo-2"}).json()["games"]) == 12


class SlowLink:
    """A TCP relay to PostgreSQL that, once ``slow`` is set, holds every client packet for
    ``delay`` seconds: a database far away, each round trip slow."""

    def __init__(self, upstream: tuple[str, int], delay: float) -> None:
        self.upstream, self.delay, self.slow = upstream, delay, False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, held: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if held and self.slow:
                    time.sleep(self.delay)
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                end.close()

    def close(self) -> None:
        self.listener.close()


@pytest.mark.parametrize("edit", ["undo", "redo", "amend"])
def test_a_history_edit_waiting_on_a_slow_database_leaves_the_worker_answering(postgres_db, edit):
    parts = urlsplit(postgres_db)
    # a second a round trip: a loaded machine can stall a probe for half of one, never for all of it
    link = SlowLink((parts.hostname, parts.port), delay=1.0)
    base, proc = live_server.start(postgres_db.replace(f":{parts.port}/", f":{link.port}/", 1))
    try:
        client = httpx.Client(base_url=base, timeout=30)
        game = new_game(client)
        play(client, game, 2, first=True)
        seq = last_seq(client, game.id)
        if edit == "redo":
            assert client.post(f"/games/{game.id}/undo", headers=game.auth, json={"expected_seq": seq}).status_code == 201
            seq += 1
        body = {"expected_seq": seq}
        if edit == "amend":
            moves = client.get(f"/games/{game.id}/legal-moves", params={"at": seq - 1}, headers=game.auth).json()["moves"]
            body |= {"seq": seq, "notation": moves[-1]["notation"]}
        answers: list[httpx.Response] = []
        probe = httpx.Client(base_url=base, timeout=30)
        assert probe.get("/titles/details").status_code == 200  # a request that asks the database nothing
        link.slow = True
        writer = threading.Thread(target=lambda: answers.append(client.post(f"/games/{game.id}/{edit}", headers=game.auth, json=body)))
        writer.start()
        waits = []
        while writer.is_alive():
            started = time.monotonic()
            assert probe.get("/titles/details").status_code == 200
            waits.append(time.monotonic() - started)
            time.sleep(0.05)
        probe.close()
        link.slow = False
        assert answers[0].status_code == 201, answers[0].text
        assert len(waits) > 5  # the edit took several slow round trips
        assert max(waits) < 0.9 * link.delay, waits  # none of those round trips on the event loop
    finally:
        live_server.stop(proc)
        link.close()


def serving_pids(base: str, deadline_s: float = 30) -> set[int]:
    """The pids of the workers serving, once ``/health`` counts every configured one live."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        health = httpx.get(f"{base}/health", timeout=5).json()
        if health["workers"]["live"] == health["workers"]["configured"]:
            pids: set[int] = set()
            for _ in range(200):  # a fresh connection each time: the kernel hands them round
                pids.add(httpx.get(f"{base}/health", timeout=5).json()["log"]["worker"])
                if len(pids) == health["workers"]["configured"]:
                    return pids
        time.sleep(0.1)
    raise AssertionError(f"the workers were not all back: {health['workers']}")


def killed(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    while os.path.exists(f"/proc/{pid}") and "zombie" not in open(f"/proc/{pid}/status").read():
        time.sleep(0.05)


def test_a_killed_worker_is_forked_again_and_health_counts_the_live_ones(workers, tmp_path):
    before = serving_pids(workers)
    assert httpx.get(f"{workers}/health").json()["workers"] == {"configured": 2, "live": 2}
    gone = min(before)
    killed(gone)
    counted, deadline = set(), time.monotonic() + 5
    while 1 not in counted and time.monotonic() < deadline:  # until the new one serves, after its pause
        counted.add(httpx.get(f"{workers}/health", timeout=5).json()["workers"]["live"])
    assert 1 in counted  # the worker left answers, and counts itself alone
    after = serving_pids(workers)
    assert gone not in after and len(after) == 2 and (after - {gone}) & before
    said = (tmp_path / "serve.log").read_text()
    assert f"serve: worker {gone} was stopped by signal 9; a new one starts in 0.5 s" in said  # it had just started


def test_a_worker_that_keeps_dying_is_forked_again_after_growing_pauses(workers, tmp_path):
    for _ in range(3):
        pids = serving_pids(workers)
        killed(max(pids))  # the newest: it dies soon after it started
    serving_pids(workers)
    pauses = re.findall(r"was stopped by signal 9; a new one starts in (\S+) s", (tmp_path / "serve.log").read_text())
    assert pauses == ["0.5", "1", "2"], pauses


def test_a_worker_that_served_a_long_time_is_forked_again_at_once_and_a_crash_loop_waits_at_most_30_s():
    from api.http.server import backoff

    assert [backoff(n) for n in range(9)] == [0, 0.5, 1, 2, 4, 8, 16, 30, 30]


def test_several_workers_on_a_duckdb_file_are_refused_in_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "api", "serve", "--workers", "2", "--db", str(tmp_path / "t.duckdb")],
        cwd=live_server.ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout.strip().splitlines() == [
        "serve: --workers 2 needs a PostgreSQL database (--db postgresql://...): one process holds a DuckDB file"
    ]
    assert not (tmp_path / "t.duckdb").exists()
