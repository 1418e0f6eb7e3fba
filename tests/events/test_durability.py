"""An acknowledged append, and its game's keyed head, survive the process being killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from events.duckdb_log import DuckDBEventLog

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
