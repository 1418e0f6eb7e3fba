"""Sustained appends over HTTP by store and workers: `python -m benchmarks.workers`.

Issue 18: PostgreSQL with 1, 2 and 4 workers (``tabletape serve --workers N``) against DuckDB with
its one worker, on the same machine in the same run, the same load (``benchmarks.http``'s: clients
replaying seeded Lost Cities games, each on its own games, every move with an idempotency key);
afterwards every acknowledged move must be in the log exactly once, in order, its chain intact.

PostgreSQL is ``$TABLETAPE_BENCH_POSTGRES`` (each run in a schema of its own), else a throw-away
cluster of the installed binaries (``tests/pgserver.py``, fsync off: this measures the service,
not the disk; DuckDB's file is on the same temp disk).
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from typing import Iterator

import uvloop

import rules  # noqa: F401
from benchmarks.common import row
from benchmarks.http import ROOT, Client, Game, drive, free_port
from events import codec
from events.lifecycle import GameCreated, GameEnded
from rules.lost_cities import DeckShuffled

sys.path.insert(0, os.path.join(ROOT, "tests"))
import pgserver  # noqa: E402


def machine() -> str:
    with open("/proc/meminfo") as meminfo:
        kib = next(int(line.split()[1]) for line in meminfo if line.startswith("MemTotal:"))
    return f"{os.cpu_count()} cores, {kib / 2**20:.1f} GiB RAM"


@contextmanager
def served(db: str, workers: int, env: dict[str, str]) -> Iterator[int]:
    port = free_port()
    command = [sys.executable, "-m", "api", "serve", "--db", db, "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--workers", str(workers)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if Client(port).call("GET", "/health")[0] == 200:
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server on {db} did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def measure(db: str, workers: int, clients: int, seconds: float, env: dict[str, str]) -> tuple[float, int, int]:
    """Appends/s, and acknowledged moves lost and duplicated once the server has stopped."""
    with served(db, workers, env) as port:
        setup = Client(port)
        games = [Game(setup, 3000 + n) for n in range(clients * max(2, math.ceil(seconds / 2) + 1))]
        t0 = time.perf_counter()
        done = sum(uvloop.run(drive(port, games, clients, seconds)))
        rate = done / (time.perf_counter() - t0)
    return rate, *checked(db, games, env)


def checked(db: str, games: list[Game], env: dict[str, str]) -> tuple[int, int]:
    from events.stores import open_log

    saved = os.environ.get("TABLETAPE_SECRET_FILE")
    os.environ.pop("TABLETAPE_SECRET_FILE", None)
    os.environ.update({k: v for k, v in env.items() if k == "TABLETAPE_SECRET_FILE"})
    try:
        log = open_log(db)
    finally:
        os.environ.pop("TABLETAPE_SECRET_FILE", None)
        if saved is not None:
            os.environ["TABLETAPE_SECRET_FILE"] = saved
    lost = duplicated = 0
    skip = (GameCreated, DeckShuffled, GameEnded)
    try:
        for game in games:
            recorded = [codec.to_builtins(e) for e in log.read_bodies(game.id) if not isinstance(e, skip)]
            lost += max(0, len(game.acknowledged) - len(recorded))
            duplicated += max(0, len(recorded) - len(game.acknowledged))
            assert recorded[: len(game.acknowledged)] == game.acknowledged, f"game {game.id} differs"
            assert log.verify(game.id).ok, game.id
    finally:
        log.close()
    return lost, duplicated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4], help="PostgreSQL worker counts")
    args = parser.parse_args()
    print(f"sustained appends over HTTP by store and workers, {args.clients} clients, {args.seconds:g} s each, on {machine()}")
    folder = tempfile.mkdtemp(prefix="tabletape-workers-")
    base_env = {k: v for k, v in os.environ.items() if k != "TABLETAPE_SECRET_FILE"}
    with ExitStack() as stack:
        url = os.environ.get("TABLETAPE_BENCH_POSTGRES") or stack.enter_context(pgserver.server())
        results = []
        rate, lost, dup = measure(os.path.join(folder, "bench.duckdb"), 1, args.clients, args.seconds, base_env)
        results.append(("DuckDB, 1 worker", rate, lost, dup))
        for workers in args.workers:
            env = {**base_env, "TABLETAPE_SECRET_FILE": os.path.join(folder, f"pg-{workers}.key")}
            rate, lost, dup = measure(pgserver.fresh_schema(url), workers, args.clients, args.seconds, env)
            results.append((f"PostgreSQL, {workers} worker{'s' * (workers > 1)}", rate, lost, dup))
    duck = results[0][1]
    for name, rate, lost, dup in results:
        row(f"sustained appends over HTTP, {name}", f"{rate:,.0f}/s ({rate / duck:.2f}x DuckDB)", "(info)")
        row("  acknowledged moves lost / duplicated afterwards", f"{lost} / {dup}", "0 / 0", lost == dup == 0)


if __name__ == "__main__":
    main()
