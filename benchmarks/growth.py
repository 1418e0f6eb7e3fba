"""How the costs grow with the store (issue 17): `python -m benchmarks.growth [--large]`.

For a store of 10^4, 10^5 and 10^6 events (10^7 with ``--large``) of seeded random 3-round Lost
Cities matches, bulk-imported, prints: one validated append in process (p50 / p99), reading one
game on its first load (chain checked) and the state at a random seq (in process), one canned
statistic (the leaderboard; the store's statistics are current, as a running server keeps them), and the cold start of
``tabletape serve`` on that store to its first answered append (target <= 2 s at 10^7).

Target: append and one-game reads within 1.5x of their 10^4 figures at 10^7. The matches come
from the statistics benchmark's cache (``data/bench/stats/``); each store is kept under
``data/bench/growth/`` (gitignored) and copied before it is appended to, so a rerun only measures.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import rules  # noqa: F401  (registers the titles' events)
from events.duckdb_log import DuckDBEventLog
from projections.projector import Projector
from projections.stats.questions import Filters, Questions
from replay.recorder import Recorder

from benchmarks.common import median_ms, row
from benchmarks.stats import cached_games, ensure_cache

STORES = Path(__file__).resolve().parents[1] / "data" / "bench" / "growth"
EVENTS_PER_MATCH = 312  # measured: a 3-round table-like match (see `python -m benchmarks`)
PLAYERS = ("Ana", "Bea")


def store(events: int) -> tuple[Path, int]:
    """The cached store of about ``events`` events (built on first use), and its event count."""
    matches = max(1, events // EVENTS_PER_MATCH)
    path = STORES / f"lost-cities-{matches}.duckdb"
    done = path.with_suffix(".events")
    if done.exists() and path.exists():
        return path, int(done.read_text())
    ensure_cache("lost-cities", matches)
    STORES.mkdir(parents=True, exist_ok=True)
    for stale in (path, path.with_suffix(".duckdb.wal"), Path(str(path) + ".key")):
        stale.unlink(missing_ok=True)
    log = DuckDBEventLog(str(path))
    from events.log import new_game_id

    count, n = 0, 0
    for games in cached_games("lost-cities", matches):
        ids = [new_game_id(now_ms=1_700_000_000_000 + n + i) for i in range(len(games))]
        count += log.import_games(zip(ids, games))
        n += len(games)
    from projections.read_models import ReadModels

    # the catalogue and the statistics, as a server that has been running keeps them current
    ReadModels(log).refresh()
    log.close()
    done.write_text(str(count))
    return path, count


def working_copy(path: Path) -> str:
    """A copy of the store (and its key) to append to, so the cached one stays as built."""
    folder = tempfile.mkdtemp(prefix="tabletape-growth-")
    target = os.path.join(folder, path.name)
    shutil.copy(path, target)
    shutil.copy(str(path) + ".key", target + ".key")
    return target


def appends(log: DuckDBEventLog, count: int = 600) -> tuple[float, float]:
    """Validated appends in process to new games on this store: p50 and p99 in ms."""
    recorder = Recorder(log, Projector(log, read_models=False))
    samples: list[float] = []
    seed = 0
    while len(samples) < count:
        game_id, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=10**6 + seed)
        rng = random.Random(seed)
        seed += 1
        while len(samples) < count:
            game = recorder.projector.state(game_id)
            if game.ended is not None:
                break
            moves = game.title.legal_moves(game.state)
            move = moves[rng.randrange(len(moves))]
            t0 = time.perf_counter()
            recorder.record(game_id, move, expected_seq=recorder.projector.history(game_id).last_seq)
            samples.append(time.perf_counter() - t0)
    samples.sort()
    return statistics.median(samples) * 1000, samples[int(len(samples) * 0.99)] * 1000


def reads(log: DuckDBEventLog, ids: list[str]) -> tuple[float, float]:
    """One game's first load (chain checked) and the state at a random seq, medians in ms."""
    projector = Projector(log, read_models=False)
    rng = random.Random(8)
    first, at = [], []
    for game_id in rng.sample(ids, min(200, len(ids))):
        t0 = time.perf_counter()
        history = projector.history(game_id)
        first.append(time.perf_counter() - t0)
        seq = rng.randrange(1, history.last_seq)
        t0 = time.perf_counter()
        projector.state_at(game_id, seq)
        at.append(time.perf_counter() - t0)
    return median_ms(first), median_ms(at)


def statistic(log: DuckDBEventLog) -> tuple[float, float]:
    """Seconds to open the read models and answer a first question (what a restarted server's
    first statistics request pays), and the leaderboard's median ms afterwards."""
    from projections.read_models import ReadModels

    t0 = time.perf_counter()
    ask = Questions(ReadModels(log))
    ask.leaderboard(Filters())
    caught_up = time.perf_counter() - t0
    samples = []
    for _ in range(5):
        t0 = time.perf_counter()
        ask.leaderboard(Filters())
        samples.append(time.perf_counter() - t0)
    return caught_up, median_ms(samples)


def cold_start(db: str) -> float:
    """Seconds from starting ``tabletape serve`` on ``db`` to its first answered append."""
    import subprocess
    import sys

    from benchmarks.http import ROOT, Client, free_port

    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "api", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        body = {"title": "lost-cities", "players": list(PLAYERS), "options": {"rounds": 1}, "seed": 5}
        while time.perf_counter() - t0 < 300:
            try:
                status, _ = Client(port).call("POST", "/games", body)
            except OSError:
                time.sleep(0.02)
                continue
            if status == 201:
                return time.perf_counter() - t0
            raise RuntimeError(f"the first append was refused: {status}")
        raise RuntimeError("the server did not answer within 300 s")
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def measure(events: int) -> dict[str, float]:
    path, count = store(events)
    db = working_copy(path)
    figures: dict[str, float] = {"events": count}
    figures["cold start s"] = cold_start(db)
    log = DuckDBEventLog(db)
    ids = [r[0] for r in log.reader().execute("SELECT game_id FROM chain_heads").fetchall()]
    figures["first load ms"], figures["state at ms"] = reads(log, ids)
    figures["append p50 ms"], figures["append p99 ms"] = appends(log)
    figures["first question s"], figures["leaderboard ms"] = statistic(log)
    log.close()
    shutil.rmtree(os.path.dirname(db), ignore_errors=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--large", action="store_true", help="also 10^7 events (builds a ~32,000-match store once)")
    parser.add_argument("--sizes", type=int, nargs="*", help="event counts instead of 10^4..10^6")
    args = parser.parse_args()
    sizes = args.sizes or [10**4, 10**5, 10**6] + ([10**7] if args.large else [])
    print(f"tabletape growth benchmarks on {os.cpu_count()} cores (Lost Cities stores, bulk-imported)")
    results = []
    for events in sizes:
        t0 = time.perf_counter()
        figures = measure(events)
        results.append(figures)
        print(f"  store of {figures['events']:,.0f} events (measured in {time.perf_counter() - t0:.0f} s):")
        for name in ("append p50 ms", "append p99 ms", "first load ms", "state at ms", "leaderboard ms",
                     "first question s", "cold start s"):
            row(f"    {name}", f"{figures[name]:.3f}", "(info)")
    base, top = results[0], results[-1]
    if len(results) > 1:
        for name in ("append p50 ms", "first load ms"):
            ratio = top[name] / base[name]
            row(f"{name.rsplit(' ', 1)[0]} at {top['events']:,.0f} over {base['events']:,.0f} events",
                f"{ratio:.2f}x", "<= 1.5x", ratio <= 1.5)
        cold = top["cold start s"]
        row(f"cold start to the first answered append at {top['events']:,.0f} events", f"{cold:.2f} s",
            "<= 2 s", cold <= 2)


if __name__ == "__main__":
    main()
