"""What one request may cost the server: body size by route, read time limits, and writes that
check the token before they parse a body. The timing tests run a real ``tabletape serve``."""

from __future__ import annotations

import json
import select
import socket
import threading
import time

import httpx
import live_server
import pytest
from apiplay import new_game
from fastapi.testclient import TestClient
from sse import sse_messages
from typer.testing import CliRunner

from api.http.app import create_app
from api.program import app as cli
from api.http.edge import BODY_LIMITS, parse_limits, route_of, size
from api.http.settings import Settings

BIG = 50 * 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("edge") / "edge.duckdb"
    args = ("--head-timeout", "1", "--body-timeout", "1", "--body-limit", "games=32KiB")
    base, proc = live_server.start(db, args=args)
    yield base, int(base.rsplit(":", 1)[1])
    live_server.stop(proc)


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def _answer(s: socket.socket) -> tuple[int, dict, bytes]:
    """Status, headers and body of the one response on ``s``, read until the server closes it."""
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def _healthy(base: str) -> float:
    t0 = time.perf_counter()
    assert httpx.get(f"{base}/health", timeout=5).status_code == 200
    return time.perf_counter() - t0


def test_a_50_mb_stranger_is_refused_at_once_and_health_stays_answered(server):
    """Before: the server read and parsed all 50 MB (5.3 s during which /health waited), then
    answered 401. Now the declared length alone earns a 413 and the connection is closed."""
    base, port = server
    game = new_game(httpx.Client(base_url=base))
    for path, route in ((f"/games/{game.id}/moves", "moves"), ("/games", "games")):
        with _connect(port) as s:
            t0 = time.perf_counter()
            s.sendall(f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                      f"content-length: {BIG}\r\n\r\n".encode() + b'{"expected_seq": 2, "notation": "' + b"x" * 60_000)
            assert _healthy(base) < 1  # answered while the big request is still open
            status, headers, body = _answer(s)
            assert time.perf_counter() - t0 < 2
        assert status == 413 and headers["connection"] == "close"
        limit = 32 * 1024 if route == "games" else BODY_LIMITS["moves"]
        assert json.loads(body) == {
            "code": "body-too-large",
            "message": f"the body of a {route} request may hold at most {limit} bytes",
            "limit": limit,
        }


def test_a_slow_loris_head_is_answered_408_and_closed(server):
    """Before: a connection sending a header byte a second stayed open for good (uvicorn times out
    idle keep-alive connections only), and so did one that opened and sent nothing."""
    base, port = server
    with _connect(port) as trickle, _connect(port) as silent:
        t0 = time.perf_counter()
        trickle.sendall(b"GET /health HTTP/1.1\r\nhost: x\r\n")
        closed = threading.Event()

        def drip() -> None:
            for byte in b"x-slow: " + b"a" * 100:
                if closed.is_set():
                    return
                try:
                    trickle.sendall(bytes([byte]))
                except OSError:
                    return
                time.sleep(0.2)

        threading.Thread(target=drip, daemon=True).start()
        assert _healthy(base) < 1
        status, _, body = _answer(trickle)
        closed.set()
        assert time.perf_counter() - t0 < 3
        assert status == 408 and json.loads(body)["code"] == "request-timeout"
        assert silent.recv(65536).startswith(b"HTTP/1.1 408")


def test_a_body_that_stops_coming_is_answered_408(server):
    base, port = server
    game = new_game(httpx.Client(base_url=base))
    with _connect(port) as s:
        t0 = time.perf_counter()
        s.sendall(f"POST /games/{game.id}/moves HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {game.write}\r\n"
                  f"content-type: application/json\r\ncontent-length: 100\r\n\r\n{{\"expected".encode())
        status, _, body = _answer(s)
        assert time.perf_counter() - t0 < 3
    assert status == 408 and "body did not arrive within 1 s" in json.loads(body)["message"]
    assert _healthy(base) < 1


def test_a_huge_request_head_is_answered_431(server):
    _, port = server
    with _connect(port) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nhost: x\r\n")
        try:
            for _ in range(40):
                s.sendall(b"x-big: " + b"a" * 1000 + b"\r\n")
                time.sleep(0.001)  # separate reads, as a client that keeps sending would make
        except OSError:
            pass
        status, _, body = _answer(s)
    assert status == 431 and json.loads(body)["code"] == "request-head-too-large"


def test_a_chunked_body_is_refused_once_it_passes_the_limit(server):
    """No Content-Length to judge by: the body is counted as it comes, and refused at 32 KiB."""
    _, port = server
    with _connect(port) as s:
        s.sendall(b"POST /games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                  b"transfer-encoding: chunked\r\n\r\n")
        sent = 0
        while not select.select([s], [], [], 0)[0] and sent < BIG:
            try:
                s.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
            except OSError:
                break
            sent += 1024
        status, _, body = _answer(s)
    assert status == 413 and json.loads(body)["limit"] == 32 * 1024
    assert sent < BIG // 10  # refused while the client was still sending


def test_limits_are_per_route_and_settable(client):
    game = new_game(client)
    body = {"expected_seq": 2, "notation": "x" * 20_000, "actor": "a"}
    small = TestClient(create_app(Settings(db_path=":memory:", body_limits={"moves": 1000})))
    with small:
        other = new_game(small)
        assert small.post(f"/games/{other.id}/moves", json=body, headers=other.auth).status_code == 413
        fits = small.post(f"/games/{other.id}/moves", json={"expected_seq": 2, "notation": "x"}, headers=other.auth)
        assert fits.status_code == 422  # read and judged as usual
    # by default a 20 kB move is read (and refused for its notation) but a 20 kB undo is too large
    assert client.post(f"/games/{game.id}/moves", json=body, headers=game.auth).status_code == 422
    undo = client.post(f"/games/{game.id}/undo", json={"expected_seq": 2, "actor": "x" * 20_000}, headers=game.auth)
    assert undo.status_code == 413 and undo.json()["limit"] == BODY_LIMITS["undo"]


def test_limits_read_sizes_and_routes():
    assert size("65536") == size("64KiB") == size("64 kb") == 65536 and size("1MiB") == 1 << 20
    assert parse_limits("moves=1KiB, games=2MiB") == {"moves": 1024, "games": 2 << 20}
    for bad in ("moves", "nowhere=1", "moves=lots"):
        with pytest.raises(ValueError):
            parse_limits(bad)
    assert [route_of("POST", p) for p in ("/games", "/games/g/moves", "/games/g/fork", "/sql", "/games/g/x")] == [
        "games", "moves", "fork", "sql", "other"
    ]
    assert route_of("GET", "/games/g/moves") == "other"


@pytest.mark.parametrize("path", ["moves", "undo", "redo", "amend"])
def test_a_write_without_its_token_is_refused_before_its_body_is_read(client, path):
    """Before: the body was parsed first, so a stranger's malformed body got a 422 (and a big one
    cost the parse)."""
    game = new_game(client)
    for headers, status in (({}, 401), ({"Authorization": "Bearer wrong"}, 403)):
        response = client.post(f"/games/{game.id}/{path}", content=b"{not json", headers=headers)
        assert response.status_code == status, response.text
    unknown = client.post("/games/nope/undo", content=b"{not json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown-game"


def test_fork_and_chance_ask_for_the_token_before_the_body_only_in_progress(client):
    game = new_game(client)
    assert client.post(f"/games/{game.id}/fork", content=b"{not json").status_code == 401
    assert client.post(f"/games/{game.id}/chance", content=b"{not json").status_code == 401
    with_token = client.post(f"/games/{game.id}/fork", content=b"{not json", headers=game.auth)
    assert with_token.status_code == 422


def test_a_kept_alive_connection_gets_the_same_head_time_limit(server):
    base, port = server
    with _connect(port) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nhost: x\r\n\r\n")
        assert s.recv(65536).startswith(b"HTTP/1.1 200")
        t0 = time.perf_counter()
        s.sendall(b"GET /health HTTP/1.1\r\n")  # and nothing more
        status, _, _ = _answer(s)
        assert status == 408 and time.perf_counter() - t0 < 3


def test_a_live_stream_outlives_the_read_time_limits(server):
    """The limits are on reading a request: a stream that is answering for long is not cut."""
    base, _ = server
    client = httpx.Client(base_url=base)
    game = new_game(client)
    last = client.get(f"/games/{game.id}").json()["last_seq"]
    with client.stream("GET", f"/games/{game.id}/stream?since={last - 1}", timeout=10) as stream:
        messages = sse_messages(stream.iter_lines())
        assert next(messages)["id"] == last
        time.sleep(2.5)  # past both 1 s limits
        legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
        move = {"move": legal["moves"][0]["move"], "expected_seq": legal["at"]}
        assert client.post(f"/games/{game.id}/moves", json=move, headers=game.auth).status_code == 201
        assert next(messages)["id"] == last + 1


def test_serve_refuses_a_limit_it_cannot_read():
    result = CliRunner().invoke(cli, ["serve", "--db", ":memory:", "--body-limit", "moves=lots"])
    assert result.exit_code == 1 and "'lots' is not a size" in result.output
    result = CliRunner().invoke(cli, ["serve", "--db", ":memory:", "--head-timeout", "0"])
    assert result.exit_code == 1 and "head_timeout_s" in result.output


def test_the_longest_query_the_schema_allows_fits_the_sql_limit_in_any_characters(client):
    """Found by the schema fuzzer: a 20,000-character query (within ``SqlIn``) of characters
    outside the BMP, JSON-escaped as 12 bytes each, was refused as a 413 at 64 KiB."""
    body = json.dumps({"query": "\U00056561" * 20_000, "row_limit": 1, "time_limit_s": 1})
    assert len(body) > 64 * 1024
    answer = client.post("/sql", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["code"] == "sql-parse-error"  # read and judged
    padded = body.replace("}", " " * BODY_LIMITS["sql"] + "}")
    over = client.post("/sql", content=padded, headers={"content-type": "application/json"})
    assert over.status_code == 413 and over.json()["limit"] == BODY_LIMITS["sql"]
