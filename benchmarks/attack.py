"""Other clients' latency while the server refuses abusive requests: `python -m benchmarks.attack`.

Against a real uvicorn on 127.0.0.1 (issue 12, item 3): ``GET /health`` p50/p99 on an idle
server, then while attackers keep sending (a) unauthenticated 50 MB ``POST /games/{id}/moves``
bodies, (b) 50 MB ``POST /games`` bodies (each up to ``--rate`` a second: a flood of connections
is another attack) and (c) slow-loris connections that send a header byte every second, or a
whole head and then a body byte every second. Printed besides: how long a 50 MB request took
to be answered, what it was answered with, and how long a slow-loris connection stayed open.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import queue
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from benchmarks.common import row

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIG = 50 * 1024 * 1024
FILLER = b"1," * (512 * 1024)  # 1 MiB of a JSON list's items, sent over and over
#: a valid JSON body around a 50 MB list: the request is refused for its size, not for its bytes
SHAPES = {
    "moves": (b'{"expected_seq":1,"move":{"type":"lost-cities.card-played","card":[', b"1]}}"),
    "games": (b'{"title":"lost-cities","players":["Ana","Bea"],"options":{"x":[', b"1]}}"),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(root: str, db: str, port: int, extra: list[str]) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "api", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db, *extra],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/health")
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def health_latencies(port: int, seconds: float) -> list[float]:
    """Sequential ``GET /health`` on one keep-alive connection for ``seconds``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    samples = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.perf_counter()
        conn.request("GET", "/health")
        response = conn.getresponse()
        response.read()
        samples.append(time.perf_counter() - t0)
        assert response.status == 200
    return samples


def body_part(shape: tuple[bytes, bytes], at: int) -> bytes:
    """Up to 1 MiB of the 50 MB body from byte ``at``."""
    head, tail = shape
    if at < len(head):
        return head[at:]
    if at >= BIG - len(tail):
        return tail[at - (BIG - len(tail)) :]
    return FILLER[: BIG - len(tail) - at]


def big_post(port: int, path: str) -> tuple[str, float]:
    """One 50 MB body, sent while reading: what came back and after how long."""
    shape = SHAPES["games" if path == "/games" else "moves"]
    t0 = time.perf_counter()
    answer, sent = b"", 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(
            f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {BIG}\r\n\r\n".encode()
        )
        while b"\r\n" not in answer:
            readable, writable, _ = select.select([s], [s] if sent < BIG else [], [], 60)
            if readable:
                try:
                    data = s.recv(4096)
                except OSError:
                    break
                if not data:
                    break
                answer += data
            elif writable:
                try:
                    sent += s.send(body_part(shape, sent))
                except OSError:
                    sent = BIG  # the server stopped reading: wait for its answer
            elif not readable:
                break
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "connection closed"
    return status, time.perf_counter() - t0


def slow_loris(port: int, stop: threading.Event, lived: list[float], at_once: bytes, drip: bytes) -> None:
    """``at_once``, then ``drip`` a byte a second, until the server closes the connection."""
    t0 = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(at_once)
        for byte in drip:
            if stop.is_set():
                return
            try:
                s.sendall(bytes([byte]))
                s.settimeout(1)
                while s.recv(4096):  # an early answer (a 401 for the body) is read past
                    pass
                break  # the server closed the connection
            except TimeoutError:
                continue  # a second has passed: the next byte
            except OSError:
                break
    lived.append(time.perf_counter() - t0)


def attack(port: int, game_id: str, rate: float, stop: Any, results: Any) -> None:
    """The attackers, in a process of their own (so that their work does not slow the measuring
    client): results are put as ``("body", path, status, seconds)`` and ``("loris", seconds)``."""
    halt = threading.Event()

    def bodies(path: str) -> None:
        while not halt.is_set():
            t0 = time.monotonic()
            results.put(("body", path, *big_post(port, path)))
            halt.wait(max(0.0, 1 / rate - (time.monotonic() - t0)))

    def lorises(what: str) -> None:
        if what == "head":  # a request head a byte a second
            at_once, drip = b"", b"GET /health HTTP/1.1\r\nhost: x\r\nx-slow: " + b"a" * 10_000
        else:  # a whole head, then its body a byte a second
            at_once = f"POST /games/{game_id}/undo HTTP/1.1\r\nhost: x\r\ncontent-length: 10000\r\n\r\n".encode()
            drip = b"a" * 10_000
        while not halt.is_set():
            lived: list[float] = []
            slow_loris(port, halt, lived, at_once, drip)
            for seconds in lived:
                results.put(("loris", what, seconds))

    threads = [
        threading.Thread(target=bodies, args=(f"/games/{game_id}/moves",), daemon=True),
        threading.Thread(target=bodies, args=("/games",), daemon=True),
        *(threading.Thread(target=lorises, args=(what,), daemon=True) for what in ("head", "body") * 4),
    ]
    for thread in threads:
        thread.start()
    stop.wait()
    halt.set()
    for thread in threads:
        thread.join(timeout=5)


def ms(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--rate", type=float, default=20.0, help="50 MB requests a second, per route")
    parser.add_argument("--root", default=ROOT, help="the tree whose server is run (to compare with another commit)")
    parser.add_argument("--head-timeout", type=float, default=2.0, help="the server's --head-timeout (0: not passed)")
    parser.add_argument("--body-timeout", type=float, default=2.0, help="the server's --body-timeout (0: not passed)")
    args = parser.parse_args()
    extra = [f"--{k}-timeout={v}" for k, v in (("head", args.head_timeout), ("body", args.body_timeout)) if v]
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(prefix="tabletape-attack-"), "attack.duckdb")
    proc = serve(args.root, db, port, extra)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", "/games", json.dumps({"title": "lost-cities", "players": ["Ana", "Bea"]}),
                     {"content-type": "application/json"})
        game_id = json.loads(conn.getresponse().read())["game_id"]
        print(f"tabletape under attack on {os.cpu_count()} cores (uvicorn on 127.0.0.1, {args.seconds:g} s a phase)")
        idle = health_latencies(port, args.seconds)
        stop, results = multiprocessing.Event(), multiprocessing.Queue()
        attackers = multiprocessing.Process(target=attack, args=(port, game_id, args.rate, stop, results), daemon=True)
        attackers.start()
        time.sleep(0.5)
        busy = health_latencies(port, args.seconds)
        stop.set()
        answers, lived = [], []
        deadline = time.monotonic() + 8
        while attackers.is_alive() or not results.empty():
            try:
                item = results.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if item[0] == "body":
                answers.append(item[1:])
            else:
                lived.append(item[1:])
        attackers.join(timeout=1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    row("GET /health p50 idle / under attack (ms)", f"{ms(idle, .5):.2f} / {ms(busy, .5):.2f}", "-")
    p99 = f"{ms(idle, .99):.2f} / {ms(busy, .99):.2f}"
    row("GET /health p99 idle / under attack (ms)", p99, "within 2x idle + 5 ms", ms(busy, .99) <= 2 * ms(idle, .99) + 5)
    row("GET /health answered idle / under attack", f"{len(idle)} / {len(busy)}", "-")
    for path in sorted({p for p, _, _ in answers}):
        took = [t for p, _, t in answers if p == path]
        statuses = sorted({s for p, s, _ in answers if p == path})
        row(f"50 MB POST {path if path == '/games' else '/games/{id}/moves'}: answered in (ms, median)",
            f"{statistics.median(took) * 1000:.1f}", "-")
        print(f"      {len(took)} sent, answered: {'; '.join(statuses)}")
    for what in ("head", "body"):
        closed = [seconds for kind, seconds in lived if kind == what]
        name = f"slow-loris {what}: connection closed after (s, median)"
        if closed:
            row(name, f"{statistics.median(closed):.1f}", f"the {what} timeout ({len(closed)} closed)")
        else:
            row(name, "never", f"the {what} timeout", False)


if __name__ == "__main__":
    main()
