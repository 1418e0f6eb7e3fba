"""The service starts on the embedded DuckDB default and answers its health route."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings


def test_health_answers_in_process(tmp_path):
    with TestClient(create_app(Settings(db_path=str(tmp_path / "t.duckdb")))) as client:
        response = client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert "lost-cities" in body["titles"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_command_answers_health_on_a_real_uvicorn(tmp_path):
    """`tabletape serve` (what `make serve` runs) listens on 127.0.0.1 and creates its database."""
    port = _free_port()
    db = tmp_path / "data" / "tabletape.duckdb"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.Popen(
        [sys.executable, "-m", "api", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError(proc.stdout.read().decode() if proc.poll() is not None else "no answer")
                time.sleep(0.1)
        assert response.status_code == 200
        assert response.json()["status"] == "ok"
        assert db.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
