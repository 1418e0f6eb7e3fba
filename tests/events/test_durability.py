"""What was acknowledged survives the process being killed with SIGKILL: appends, their games' keyed heads, and games in the catalogue."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import duckdb
import httpx

from events.duckdb_log import DuckDBEventLog
import live_server

WRITER = textwrap.dedent(
    """
    import sys
    import rules
    from events.duckdb_log import DuckDBEventLog
    from events.lifecycle import GameCreated, Undone
    log = DuckDBEventLog(sys.argv[1])
    gid = sys.argv[2]
    log.append(gid, [GameCreated(title="lost-cities", players=("Ana", "Bea"))], expected_seq=0)
    print(1, flush=True)
    seq = 1
    while True:
        result = log.append(gid, [Undone(to_seq=1)], expected_seq=seq)
        seq = result.last_seq
        print(seq, flush=True)
    """
)


def test_acknowledged_appends_survive_sigkill(tmp_path):
    path = str(tmp_path / "crash.duckdb")
    gid = "crash-test-game"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, path, gid],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": root},
    )
    acknowledged = 0
    deadline = time.monotonic() + 60
    try:
        while acknowledged < 200 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            acknowledged = int(line)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert acknowledged >= 200, proc.stderr.read()
    log = DuckDBEventLog(path)
    try:
        seqs = [e.seq for e in log.read(gid)]
        assert seqs[:acknowledged] == list(range(1, acknowledged + 1))
        assert len(seqs) >= acknowledged
        assert log.verify(gid).ok
        # the keyed head was committed with the last event: removing that event afterwards shows
        last = seqs[-1]
        log.con.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", [gid, last])
        report = log.verify(gid)
        assert not report.ok and report.first_bad_seq == last
    finally:
        log.close()


def _uncatalogued(db) -> set[str]:
    """Games whose creation committed but which have no ``games`` row, read from the file itself."""
    con = duckdb.connect(str(db))
    try:
        return {
            r[0]
            for r in con.execute(
                "SELECT game_id FROM events WHERE seq = 1 AND game_id NOT IN (SELECT game_id FROM games)"
            ).fetchall()
        }
    finally:
        con.close()


CREATE = {"title": "lost-cities", "players": ["Ana", "Bea"], "seed": 1}


def _create_until_killed(base: str, stop: threading.Event, keys: list[str]) -> None:
    """Create games, each under a new idempotency key (in ``keys`` before it is sent)."""
    with httpx.Client(base_url=base, timeout=10) as client:
        while not stop.is_set():
            key = f"{threading.get_ident()}-{len(keys)}"
            keys.append(key)
            try:
                client.post("/games", json=CREATE, headers={"Idempotency-Key": key})
            except httpx.TransportError:
                return


def test_games_created_before_a_sigkill_are_listed_after_restart(tmp_path):
    """A creation commits its events before its catalogue row is written; a kill in between must
    not hide the game from ``GET /games`` once the server is back. Retrying every creation under
    its key then answers each with its own game: none is lost, none is made twice."""
    db = tmp_path / "catalogue.duckdb"
    missing: set[str] = set()
    keys: list[str] = []
    for _ in range(10):  # until a kill lands between a creation's commit and its catalogue row
        base, proc = live_server.start(db)
        stop = threading.Event()
        creators = [threading.Thread(target=_create_until_killed, args=(base, stop, keys)) for _ in range(4)]
        for thread in creators:
            thread.start()
        time.sleep(1.0)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        stop.set()
        for thread in creators:
            thread.join(timeout=30)
        missing = _uncatalogued(db)
        if missing:
            break
    assert missing, "no kill landed between a creation's commit and its catalogue row"
    base, proc = live_server.start(db)
    try:
        listed: set[str] = set()
        while True:
            page = httpx.get(f"{base}/games", params={"limit": 500, "offset": len(listed)}).json()
            listed |= {g["game_id"] for g in page["games"]}
            if not page["games"]:
                break
        assert missing <= listed
        assert page["total"] == len(listed)
        with httpx.Client(base_url=base, timeout=30) as client:
            retried = {key: client.post("/games", json=CREATE, headers={"Idempotency-Key": key}) for key in keys}
        assert {r.status_code for r in retried.values()} <= {200, 201}
        made = {r.json()["game_id"] for r in retried.values()}
        assert len(made) == len(keys) and listed <= made
    finally:
        live_server.stop(proc)
