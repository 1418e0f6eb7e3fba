"""Read-only SQL over the documented views, on a real DuckDB file through the real app: hostile
queries get a 400 with the reason and leave the database as it was; the log still writes; a query
gets no more time, memory or answer bytes than its limits."""

from __future__ import annotations

import hashlib
import time
from concurrent.futures import ThreadPoolExecutor

import duckdb
import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings
from projections.stats import sql

HOSTILE = {
    "read a file with a table function": ("SELECT * FROM read_csv('/etc/passwd')", "table function read_csv"),
    "read a file by its name": ("SELECT * FROM '/etc/passwd'", "not a documented view"),
    "read parquet": ("SELECT * FROM read_parquet('x.parquet')", "table function read_parquet"),
    "read text": ("SELECT content FROM read_text('/etc/hostname')", "table function read_text"),
    "copy out": ("COPY games TO '/tmp/tabletape-leak.csv'", "not COPY"),
    "copy in": ("COPY games FROM '/tmp/x.csv'", "not COPY"),
    "attach": ("ATTACH '/tmp/other.duckdb' AS other", "not ATTACH"),
    "install": ("INSTALL httpfs", "not LOAD"),
    "load": ("LOAD httpfs", "not LOAD"),
    "delete": ("DELETE FROM events", "not DELETE"),
    "drop": ("DROP TABLE events", "not DROP"),
    "update": ("UPDATE games SET title = 'x'", "not UPDATE"),
    "create": ("CREATE TABLE t AS SELECT 1", "not CREATE"),
    "pragma": ("PRAGMA database_list", "not PRAGMA"),
    "set": ("SET enable_external_access = true", "not SET"),
    "two statements": ("SELECT 1; DELETE FROM events", "exactly one statement"),
    "the raw log": ("SELECT * FROM events", "not a documented view"),
    "another schema": ("SELECT * FROM information_schema.tables", "not a documented view"),
    "settings": ("SELECT * FROM duckdb_settings()", "table function duckdb_settings"),
    "a file hidden in a CTE": ("WITH x AS (SELECT * FROM read_csv_auto('/etc/passwd')) SELECT * FROM x", "read_csv_auto"),
}

#: each builds more than the sandbox's 1 GB, mostly where DuckDB's own memory_limit does not look
MEMORY_HOGS = {
    "one huge string": "SELECT length(repeat('x', 2000000000)) AS n",
    "one huge blob": "SELECT octet_length(repeat('x'::BLOB, 2000000000)) AS n",
    "a string aggregated": "SELECT length(string_agg(repeat('x', 1000000), '')) AS n FROM range(3000)",
    "a list of strings": "SELECT length(list(repeat('x', 1000))) AS n FROM range(2000000)",
    "one list from range": "SELECT len(range(300000000)) AS n",
    "a join of ranges": "SELECT count(*) FROM range(100000000) a JOIN range(100000000) b ON a.range = b.range",
}
#: one function call over a 200 MB string: DuckDB looks for an interrupt only between vectors
UNINTERRUPTIBLE = "SELECT length(regexp_replace(repeat('ab', 100000000), 'a', 'x', 'g')) AS n"


def fingerprint(path: str) -> str:
    """Every table's rows, hashed (read with a fresh connection after the app closed the file)."""
    con = duckdb.connect(path)
    try:
        digest = hashlib.sha256()
        for (name,) in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall():
            digest.update(name.encode())
            digest.update(repr(con.execute(f"SELECT * FROM {name} ORDER BY ALL").fetchall()).encode())
        return digest.hexdigest()
    finally:
        con.close()


@pytest.fixture
def client(db_path):
    with TestClient(create_app(Settings(db_path=db_path))) as client:
        yield client


def test_a_select_over_the_views_answers(client):
    answer = client.post("/sql", json={"query": "SELECT title, count(*) AS n FROM games GROUP BY title ORDER BY title"})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["columns"] == ["title", "n"] and body["rows"][0][0] == "lost-cities"
    joined = client.post("/sql", json={"query": (
        "WITH w AS (SELECT player, count(*) FILTER (WHERE won) AS wins FROM results GROUP BY player) "
        "SELECT r.player, r.sources FROM results r JOIN w USING (player) ORDER BY ALL LIMIT 1")})
    assert joined.status_code == 200 and isinstance(joined.json()["rows"][0][1], dict)
    views = {v["name"] for v in client.get("/sql/views").json()}
    assert {"games", "results", "moves", "score_sources", "lost_cities_expeditions", "marco_polo_seats"} <= views


def test_hostile_queries_are_refused_and_change_nothing(db_path):
    with TestClient(create_app(Settings(db_path=db_path))) as client:
        client.post("/sql", json={"query": "SELECT 1"})  # the read models catch up first
    before = fingerprint(db_path)
    with TestClient(create_app(Settings(db_path=db_path))) as client:
        for name, (query, reason) in HOSTILE.items():
            answer = client.post("/sql", json={"query": query})
            assert answer.status_code == 400, (name, answer.text)
            body = answer.json()
            assert body["code"] == "sql-refused", (name, body)
            assert reason in body["message"], (name, body)
    assert fingerprint(db_path) == before


def test_a_runaway_query_is_stopped_and_rows_are_limited(client):
    runaway = client.post("/sql", json={
        "query": "SELECT sum(hash(range)) FROM range(100000000000)", "time_limit_s": 0.5})
    assert runaway.status_code == 400 and runaway.json()["code"] == "sql-timeout"
    cross = client.post("/sql", json={"query": "SELECT * FROM moves a, moves b", "row_limit": 7})
    assert cross.status_code == 200 and len(cross.json()["rows"]) == 7 and cross.json()["truncated"]
    broken = client.post("/sql", json={"query": "SELEC 1"})
    assert broken.status_code == 400 and broken.json()["code"] == "sql-parse-error"
    failing = client.post("/sql", json={"query": "SELECT no_such_column FROM games"})
    assert failing.status_code == 400 and failing.json()["code"] == "sql-error"


def test_the_sandbox_cannot_be_reopened(client):
    con = sql.sandbox()
    try:
        with pytest.raises(duckdb.Error):
            con.execute("SET enable_external_access = true")
        with pytest.raises(duckdb.Error):
            con.execute("SET lock_configuration = false")
        with pytest.raises(duckdb.Error):
            con.execute("SELECT * FROM read_csv('/etc/passwd')")
    finally:
        con.close()


def test_the_log_still_writes_and_exports_after_sql(client):
    client.post("/sql", json={"query": "SELECT * FROM read_csv('/etc/passwd')"})
    created = client.post("/games", json={"title": "lost-cities", "players": ["Ana", "Bea"], "seed": 3})
    assert created.status_code == 201
    game_id = created.json()["game_id"]
    svc = client.app.state.services
    assert svc.log.last_seq(game_id) >= 1
    # the service's own connection keeps its external access (the Parquet export needs it)
    assert svc.log.reader().execute("SELECT current_setting('enable_external_access')").fetchall() == [(True,)]
    count = client.post("/sql", json={"query": f"SELECT count(*) FROM games WHERE game_id = '{game_id}'"})
    assert count.json()["rows"] == [[1]]


def test_a_query_stops_at_its_time_limit_even_inside_one_function(client):
    started = time.monotonic()
    answer = client.post("/sql", json={"query": UNINTERRUPTIBLE, "time_limit_s": 1})
    took = time.monotonic() - started
    assert answer.status_code == 400 and answer.json()["code"] == "sql-timeout", answer.text
    assert took < 2, took  # it ran 9.5 s past the limit when the query ran in the server
    assert client.post("/sql", json={"query": "SELECT count(*) FROM games"}).json()["rows"] == [[28]]


def test_a_query_gets_no_more_memory_than_its_limit(client):
    for name, query in MEMORY_HOGS.items():
        answer = client.post("/sql", json={"query": query, "time_limit_s": 30})
        assert answer.status_code == 400, (name, answer.text)
        body = answer.json()
        assert body["code"] == "sql-memory-limit" and "memory limit of 1 GB" in body["message"], (name, body)
    # the 1 GB answer: too big to build within the limit, let alone to send
    wide = client.post("/sql", json={"query": "SELECT repeat('x', 10000000) AS s FROM range(100)", "time_limit_s": 30})
    assert wide.status_code == 400 and wide.json()["code"] in ("sql-memory-limit", "sql-result-too-large")
    assert client.post("/sql", json={"query": "SELECT count(*) FROM games"}).json()["rows"] == [[28]]


def test_an_answer_is_limited_in_bytes_not_only_in_rows(client):
    big = client.post("/sql", json={"query": "SELECT repeat('x', 100000) AS s FROM range(100)"})  # 10 MB in 100 rows
    assert big.status_code == 400, big.text
    body = big.json()
    assert body["code"] == "sql-result-too-large" and "8 MiB" in body["message"] and body["byte_limit"] == 8 * 2**20
    fits = client.post("/sql", json={"query": "SELECT repeat('x', 80000) AS s FROM range(100)"})  # 8,000,000 bytes
    assert fits.status_code == 200 and len(fits.json()["rows"]) == 100
    assert len(fits.content) < 8 * 2**20 + 1_000
    # an error quotes the value it failed on: a 50 MB one
    cast = client.post("/sql", json={"query": "SELECT repeat('x', 50000000)::INTEGER AS n", "time_limit_s": 30})
    assert cast.status_code == 400 and cast.json()["code"] == "sql-error" and len(cast.content) < 2_000


def test_the_byte_limit_is_a_setting(db_path):
    with TestClient(create_app(Settings(db_path=db_path, sql_byte_limit=1_000))) as client:
        refused = client.post("/sql", json={"query": "SELECT repeat('x', 100) AS s FROM range(20)"})
        assert refused.status_code == 400 and refused.json()["code"] == "sql-result-too-large"
        assert "1,000 bytes" in refused.json()["message"]
        assert client.post("/sql", json={"query": "SELECT count(*) FROM games"}).status_code == 200


def test_a_query_that_finds_every_sandbox_busy_gets_a_503(client):
    slow = {"query": "SELECT sum(hash(range)) FROM range(100000000000)", "time_limit_s": 3}
    one = {"query": "SELECT 1", "time_limit_s": 5}
    with ThreadPoolExecutor(sql.SANDBOXES + sql.WAITING) as pool:
        running = [pool.submit(client.post, "/sql", json=slow) for _ in range(sql.SANDBOXES)]
        time.sleep(1)
        busy = client.post("/sql", json={"query": "SELECT 1", "time_limit_s": 0.5})
        assert busy.status_code == 503 and busy.json()["code"] == "sql-busy", busy.text
        waiting = [pool.submit(client.post, "/sql", json=one) for _ in range(sql.WAITING)]
        time.sleep(0.3)
        started = time.monotonic()
        refused = client.post("/sql", json=one)  # one waiter too many: refused at once, no thread held
        assert refused.status_code == 503 and time.monotonic() - started < 1, refused.text
        assert [f.result().json()["code"] for f in running] == ["sql-timeout"] * sql.SANDBOXES
        assert [f.result().json()["rows"] for f in waiting] == [[[1]]] * sql.WAITING
    assert client.post("/sql", json={"query": "SELECT 1"}).json()["rows"] == [[1]]
