"""A real ``tabletape serve`` (``python -m api serve``) on 127.0.0.1, for the tests that need one."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import ports

ROOT = Path(__file__).resolve().parents[1]


def start(
    db: str | Path, timeout: float = 30, args: tuple[str, ...] = (), output: Path | None = None, module: str = "api"
) -> tuple[str, subprocess.Popen]:
    """Start the server over the DuckDB file ``db`` (``args``: more ``serve`` options; ``output``:
    a file for what it prints, else a pipe; ``module``: the one ``python -m`` runs, a module of
    ``tests/`` being found too); its base URL once ``/health`` answers."""
    with ports.reserved() as port:  # until it listens: no other worker's server gets the port
        proc = subprocess.Popen(
            [sys.executable, "-m", module, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), *args],
            cwd=ROOT,
            stdout=subprocess.PIPE if output is None else output.open("wb"),
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": os.pathsep.join(
                p for p in (str(ROOT / "tests"), os.environ.get("PYTHONPATH")) if p)},
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + timeout
        while True:
            try:
                httpx.get(f"{base}/health", timeout=1)
                return base, proc
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    raise AssertionError(proc.stdout.read().decode() if output is None else output.read_text()) from None
                time.sleep(0.05)


def stop(proc: subprocess.Popen) -> None:
    """Ask the server to stop; kill it if it does not within 10 s."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cpu_seconds(proc: subprocess.Popen) -> float:
    """User + system CPU time of the server process so far, all threads (Linux /proc)."""
    fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
