"""The service starts on the embedded DuckDB default and answers its health route."""

from __future__ import annotations

import httpx
from fastapi.testclient import TestClient

import live_server
from api.http.app import create_app
from api.http.settings import Settings


def test_health_answers_in_process(tmp_path):
    with TestClient(create_app(Settings(db_path=str(tmp_path / "t.duckdb")))) as client:
        response = client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert "lost-cities" in body["titles"]


def test_serve_command_answers_health_on_a_real_uvicorn(tmp_path):
    """`tabletape serve` (what `make serve` runs) listens on 127.0.0.1 and creates its database."""
    db = tmp_path / "data" / "tabletape.duckdb"
    base, proc = live_server.start(db)
    try:
        response = httpx.get(f"{base}/health", timeout=5)
        assert response.status_code == 200
        assert response.json()["status"] == "ok"
        assert db.exists()
    finally:
        live_server.stop(proc)
