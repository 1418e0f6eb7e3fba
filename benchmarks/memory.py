"""Server memory with many games being recorded at once (issue 17): `python -m benchmarks.memory`.

Starts ``tabletape serve`` on a new DuckDB file, creates ``--games`` games (1,000) and appends
``--moves`` moves to each in turn over 16 keep-alive connections, so every game was appended to
recently; prints the server's resident memory (VmRSS, and its peak VmHWM) idle and afterwards.
Target: <= 500 MB with 1,000 games.

What bounds each in-memory cache (printed too, from the code's own settings):
the projector's live games (``Projector(cache_size)``, least recently used out; each holds its
history, its state and a mark every ``MARK_EVERY`` events); the log's heads (``DuckDBEventLog
(head_cache_size, head_cache_keys)``, each with the game's idempotency keys: every move here
carries one, as the web page's do); the live streams' encoded messages
(``Hub(cache_bytes)``, in bytes); the hub's subscriptions (one per open stream); the per-game
locks of the recorder and the projector (one per game being worked on right now, dropped on
release: bounded by the requests in flight).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile

import uvloop

from benchmarks.common import row
from benchmarks.http import Client, Connection, Game, Server


def rss_mb(pid: int) -> tuple[float, float]:
    """Resident and peak resident memory of a process, in MB (Linux /proc)."""
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return tuple(int(fields[name].split()[0]) / 1024 for name in ("VmRSS", "VmHWM"))  # type: ignore[return-value]


async def record_in_turn(port: int, games: list[Game], moves: int, clients: int = 16) -> int:
    """``moves`` rounds; in each, every game gets its next move (the clients share the games)."""
    connections = [await Connection.open(port) for _ in range(clients)]

    async def client(n: int) -> int:
        count = 0
        for _ in range(moves):
            for game in games[n::clients]:
                request = game.next_request(key=f"{game.id}:{game.next}")
                if request is not None:
                    game.accepted(*await connections[n].post(*request, game.token))
                    count += 1
        return count

    try:
        return sum(await asyncio.gather(*(client(n) for n in range(clients))))
    finally:
        for connection in connections:
            connection.close()


def bounds() -> list[tuple[str, str]]:
    import inspect

    from api.http.streaming import CACHE_BYTES
    from events.duckdb_log import DuckDBEventLog
    from projections.projector import MARK_EVERY, Projector

    def default(cls, name):
        return inspect.signature(cls.__init__).parameters[name].default

    return [
        ("projector live games (LRU)", f"{default(Projector, 'cache_size'):,} games, a mark every {MARK_EVERY}"),
        ("log heads with idempotency keys (LRU)",
         f"{default(DuckDBEventLog, 'head_cache_size'):,} games, {default(DuckDBEventLog, 'head_cache_keys'):,} keys"),
        ("live-stream messages (LRU)", f"{CACHE_BYTES >> 20} MB"),
        ("per-game locks (recorder, projector)", "games with a request in flight"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--moves", type=int, default=20, help="moves appended to each game")
    args = parser.parse_args()
    print(f"tabletape memory benchmark on {os.cpu_count()} cores ({args.games:,} games at once)")
    db = os.path.join(tempfile.mkdtemp(prefix="tabletape-memory-"), "memory.duckdb")
    server = Server(db)
    try:
        idle, _ = rss_mb(server.proc.pid)
        setup = Client(server.port)
        games = [Game(setup, 5000 + n) for n in range(args.games)]
        appended = uvloop.run(record_in_turn(server.port, games, args.moves))
        rss, peak = rss_mb(server.proc.pid)
    finally:
        server.stop()
    row("server RSS idle, after start", f"{idle:,.0f} MB", "(info)")
    row(f"server RSS, {args.games:,} games recorded at once ({appended:,} appends)", f"{rss:,.0f} MB",
        "<= 500 MB", rss <= 500)
    row("  peak RSS (VmHWM)", f"{peak:,.0f} MB", "(info)")
    for name, bound in bounds():
        row(f"  bound: {name}", bound, "(info)")


if __name__ == "__main__":
    main()
