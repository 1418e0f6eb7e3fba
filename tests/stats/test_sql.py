"""Read-only SQL over the documented views, on a real DuckDB file through the real app: hostile
queries get a 400 with the reason and leave the database as it was; the log still writes."""

from __future__ import annotations

import hashlib

import duckdb
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
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
        "query": "SELECT count(*) FROM range(1000000000) a, range(1000000000) b", "time_limit_s": 0.5})
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
