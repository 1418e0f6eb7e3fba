"""A tournament's tables on one machine: `python -m benchmarks.tournament [--quick] [--store postgres]`.

Goal (issue 30): at least 2,000 tables (400 appends/s, 4,000 open streams) on a 2-core machine,
with the tap-to-acknowledge p99 <= 50 ms, the follower lag p99 <= 250 ms and the server's RSS
<= 1 GB, over a real uvicorn on the default DuckDB store (and PostgreSQL with 4 workers).

Each table records one move every 5 s (jitter +-1 s), moves of a seeded random legal game of one
of the three titles (Lost Cities for 2, The Voyages of Marco Polo and Marco Polo II for 3, from
``legal_moves``), and is followed by two live streams. Beside them, 20 statistics page loads a
second (``/stats`` and its dashboard, as the page asks). The number of tables rises step by step
(tables of earlier steps keep playing) until a goal fails; it prints each step's figures and the
largest number that held, then checks that every acknowledged move is in the log (lost: 0).

The load generator is one uvloop process on keep-alive connections, sharing the cores with the
server; its own CPU is printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field

import msgspec
import uvloop

import rules  # noqa: F401  (registers the titles' events)
from events import codec

from benchmarks.common import row
from benchmarks.http import ROOT, free_port

json = msgspec.json
PACE_S, JITTER_S = 5.0, 1.0
STREAMS_PER_TABLE = 2
STATS_PER_S = 20
GOALS = {"ack_p99_ms": 50.0, "lag_p99_ms": 250.0, "rss_mb": 1024.0}
#: (title, players, options) of the tables, in turn
KINDS = (
    ("lost-cities", ("Ana", "Bea"), {"rounds": 3}),
    ("marco-polo", ("Ana", "Bea", "Cai"), {}),
    ("marco-polo-2", ("Ana", "Bea", "Cai"), {}),
)


def planned(kind: int, seed: int) -> tuple[str, tuple[str, ...], dict, int, list[dict]]:
    """One table's game: its creation and its moves, as the page sends them."""
    from api.cli.demo import game_options
    from replay.simulate import random_game

    title, players, options = KINDS[kind]
    options = game_options(title, options)
    chosen: list = []

    def pick(moves: list, rng: random.Random):
        chosen.append(moves[rng.randrange(len(moves))])
        return chosen[-1]

    random_game(title, players, options, seed=seed, policy=pick)
    return title, players, options, seed, [codec.to_builtins(m) for m in chosen]


def plans(per_kind: int) -> list[tuple]:
    import multiprocessing

    jobs = [(kind, 7000 + n) for n in range(per_kind) for kind in range(len(KINDS))]
    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 1) as pool:
        return pool.starmap(planned, jobs)


class Http:
    """One keep-alive HTTP/1.1 connection, one request at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()

    async def call(self, method: str, path: str, payload: object = None, token: str | None = None) -> tuple[int, dict]:
        async with self.lock:
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                self.writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            body = json.encode(payload) if payload is not None else b""
            auth = f"Authorization: Bearer {token}\r\n" if token else ""
            self.writer.write(
                f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{auth}"
                f"Content-Length: {len(body)}\r\n\r\n".encode() + body
            )
            head = await self.reader.readuntil(b"\r\n\r\n")
            length = next(
                int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
            )
            return int(head[9:12]), json.decode(await self.reader.readexactly(length))


@dataclass
class Figures:
    acks: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    stats: list[float] = field(default_factory=list)
    refused: int = 0
    recording: bool = False

    def reset(self) -> None:
        self.acks, self.lags, self.stats, self.refused = [], [], [], 0


@dataclass
class Table:
    game_id: str
    token: str
    seq: int
    moves: list[dict]
    next: int = 0
    acknowledged: int = 0
    #: the first seq of each append in flight or done -> when it was sent
    sent_at: dict[int, float] = field(default_factory=dict)


async def follow(port: int, table: Table, figures: Figures, ready: asyncio.Event) -> None:
    """One live stream of a table: each frame's lag from the send of the append that made it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /games/{table.game_id}/stream?since={table.seq} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    ready.set()
    buffer = b""
    try:
        while True:
            chunk = await reader.read(1 << 16)
            if not chunk:
                return
            now = time.perf_counter()
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                if line.startswith(b"id: "):
                    sent = table.sent_at.get(int(line[4:]))
                    if sent is not None and figures.recording:
                        figures.lags.append(now - sent)
    except (ConnectionError, asyncio.CancelledError):
        return
    finally:
        writer.close()


async def play(port: int, table: Table, figures: Figures, rng: random.Random) -> None:
    """A table's moves at the pace of play, on its own connection."""
    http = Http(port)
    await asyncio.sleep(rng.uniform(0, PACE_S))
    while table.next < len(table.moves):
        payload = {"move": table.moves[table.next], "expected_seq": table.seq, "idempotency_key": f"{table.game_id}-{table.next}"}
        t0 = time.perf_counter()
        table.sent_at[table.seq + 1] = t0
        status, body = await http.call("POST", f"/games/{table.game_id}/moves", payload, table.token)
        elapsed = time.perf_counter() - t0
        if status != 201:
            figures.refused += 1
            return
        table.seq = body["last_seq"]
        table.next += 1
        table.acknowledged = table.next
        if figures.recording:
            figures.acks.append(elapsed)
        await asyncio.sleep(max(0.0, PACE_S + rng.uniform(-JITTER_S, JITTER_S) - elapsed))


async def statistics_pages(port: int, figures: Figures, stop: asyncio.Event, rate: float) -> None:
    """``rate`` statistics page loads a second, each ``/stats`` then its dashboard, spread over connections."""
    pool = [Http(port) for _ in range(8)]
    n = 0

    async def load(http: Http) -> None:
        t0 = time.perf_counter()
        status, index = await http.call("GET", "/stats")
        if status == 200 and index.get("endpoints"):
            await http.call("GET", index["endpoints"]["dashboard"])
        if figures.recording:
            figures.stats.append(time.perf_counter() - t0)

    tasks = set()
    while rate and not stop.is_set():
        task = asyncio.ensure_future(load(pool[n % len(pool)]))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        n += 1
        await asyncio.sleep(1 / rate)


def percentile(samples: list[float], p: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000


class Served:
    """``tabletape serve`` in a child process; its RSS and CPU with its workers."""

    def __init__(self, db: str, workers: int, env: dict[str, str]) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "api", "serve", "--db", db, "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(workers)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        import http.client

        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/health")
                if conn.getresponse().status == 200:
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server on {db} did not start") from None
                time.sleep(0.2)

    def pids(self) -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout.split()
        return [self.proc.pid, *map(int, out)]

    def rss_mb(self) -> float:
        total = 0
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/status") as status:
                    total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
            except (OSError, StopIteration):
                pass
        return total / 1024

    def cpu_s(self) -> float:
        total = 0.0
        for pid in self.pids():
            try:
                fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            except OSError:
                pass
        return total

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=60)


async def tournament(
    server: Served, pool: list[tuple], steps: list[int], seconds: float, stats_rate: float
) -> tuple[list[Table], int]:
    """The tables opened, and the most of them that held every goal."""
    port = server.port
    figures, tables, tasks = Figures(), [], []
    stop = asyncio.Event()
    stats_task = asyncio.ensure_future(statistics_pages(port, figures, stop, stats_rate))
    setup = [Http(port) for _ in range(16)]
    rng = random.Random(1)
    held = 0
    for target in steps:
        async def open_table(n: int) -> None:
            title, players, options, seed, moves = pool[n % len(pool)]
            status, body = await setup[n % len(setup)].call(
                "POST", "/games", {"title": title, "players": list(players), "options": options, "seed": seed}
            )
            assert status == 201, body
            table = Table(body["game_id"], body["tokens"]["write_token"], body["last_seq"], moves)
            tables.append(table)
            for _ in range(STREAMS_PER_TABLE):
                ready = asyncio.Event()
                tasks.append(asyncio.ensure_future(follow(port, table, figures, ready)))
                await ready.wait()
            tasks.append(asyncio.ensure_future(play(port, table, figures, random.Random(rng.random()))))

        await asyncio.gather(*(open_table(n) for n in range(len(tables), target)))
        await asyncio.sleep(PACE_S + JITTER_S)  # every new table has started playing
        figures.reset()
        figures.recording = True
        cpu0, mine0, t0 = server.cpu_s(), time.process_time(), time.perf_counter()
        rss = 0.0
        while time.perf_counter() - t0 < seconds:
            await asyncio.sleep(1)
            rss = max(rss, server.rss_mb())
        wall = time.perf_counter() - t0
        figures.recording = False
        cpu, mine = (server.cpu_s() - cpu0) / wall, (time.process_time() - mine0) / wall
        ack50, ack99 = percentile(figures.acks, 0.5), percentile(figures.acks, 0.99)
        lag99, stats99 = percentile(figures.lags, 0.99), percentile(figures.stats, 0.99)
        ok = ack99 <= GOALS["ack_p99_ms"] and lag99 <= GOALS["lag_p99_ms"] and rss <= GOALS["rss_mb"] and not figures.refused
        print(
            f"  {target:>5} tables: {len(figures.acks) / wall:6.0f} appends/s, ack p50 {ack50:6.1f} p99 {ack99:7.1f} ms,"
            f" lag p99 {lag99:7.1f} ms, stats p99 {stats99:7.1f} ms, RSS {rss:6.0f} MB, server CPU {cpu:4.2f} cores,"
            f" load generator {mine:4.2f}, refused {figures.refused}  {'held' if ok else 'FAILED'}",
            flush=True,
        )
        if not ok:
            break
        held = target
    stop.set()
    for task in tasks:
        task.cancel()
    stats_task.cancel()
    await asyncio.gather(*tasks, stats_task, return_exceptions=True)
    await asyncio.sleep(0.5)
    return tables, held


def lost(db: str, tables: list[Table], env: dict[str, str]) -> int:
    """Acknowledged moves not in the log, once the server has stopped."""
    from events.stores import open_log

    os.environ.update({k: v for k, v in env.items() if k == "TABLETAPE_SECRET_FILE"})
    log = open_log(db)
    try:
        return sum(max(0, table.seq - len(log.read_bodies(table.game_id))) for table in tables if table.acknowledged)
    finally:
        log.close()


def run(name: str, db: str, workers: int, env: dict[str, str], pool: list[tuple], steps: list[int], seconds: float,
        stats_rate: float) -> None:
    print(f"{name}: tables at one move per {PACE_S:g} s +-{JITTER_S:g}, {STREAMS_PER_TABLE} streams each, "
          f"{stats_rate:g} statistics page loads/s, {seconds:g} s a step", flush=True)
    server = Served(db, workers, env)
    try:
        tables, held = uvloop.run(tournament(server, pool, steps, seconds, stats_rate))
    finally:
        server.stop()
    row(f"{name}: most tables that held every goal", f"{held:,}", ">= 2,000", held >= 2000)
    gone = lost(db, tables, env)
    row(f"{name}: acknowledged moves lost", f"{gone}", "0", gone == 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two small steps, 10 s each (make bench)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds a step")
    parser.add_argument("--steps", type=int, nargs="+", default=[250, 500, 1000, 1500, 2000, 2500, 3000, 4000])
    parser.add_argument("--store", choices=["duckdb", "postgres", "both"], default="duckdb")
    parser.add_argument("--workers", type=int, default=4, help="PostgreSQL's workers")
    parser.add_argument("--stats-per-s", type=float, default=STATS_PER_S, help="statistics page loads a second")
    args = parser.parse_args()
    steps, seconds = ([50, 200], 10.0) if args.quick else (args.steps, args.seconds)
    print(f"tournament on {os.cpu_count()} cores: goals ack p99 <= {GOALS['ack_p99_ms']:g} ms, follower lag p99 <= "
          f"{GOALS['lag_p99_ms']:g} ms, RSS <= {GOALS['rss_mb']:g} MB", flush=True)
    pool = plans(8 if args.quick else 24)
    folder = tempfile.mkdtemp(prefix="tabletape-tournament-")
    env = {k: v for k, v in os.environ.items() if k != "TABLETAPE_SECRET_FILE"}
    if args.store in ("duckdb", "both"):
        run("DuckDB, 1 worker", os.path.join(folder, "tournament.duckdb"), 1, env, pool, steps, seconds, args.stats_per_s)
    if args.store in ("postgres", "both"):
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        import pgserver

        with ExitStack() as stack:
            url = os.environ.get("TABLETAPE_BENCH_POSTGRES") or stack.enter_context(pgserver.server())
            pg_env = {**env, "TABLETAPE_SECRET_FILE": os.path.join(folder, "pg.key")}
            run(f"PostgreSQL, {args.workers} workers", pgserver.fresh_schema(url), args.workers, pg_env, pool, steps, seconds, args.stats_per_s)


if __name__ == "__main__":
    main()
