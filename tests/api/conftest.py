"""Fixtures for the API tests: the real app over a real DuckDB file."""

from __future__ import annotations

import live_server
import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings


@pytest.fixture
def app_settings(tmp_path) -> Settings:
    return Settings(db_path=":memory:", stream_ping_s=0.2)


@pytest.fixture
def any_store_settings(store_db) -> Settings:
    """``app_settings`` on each store (DuckDB, then PostgreSQL): a module that overrides
    ``app_settings`` with it runs its tests on both."""
    return Settings(db_path=store_db, stream_ping_s=0.2)


@pytest.fixture
def client(app_settings):
    with TestClient(create_app(app_settings)) as client:
        yield client


@pytest.fixture
def svc(client):
    return client.app.state.services


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A real ``tabletape serve`` (uvicorn) on a DuckDB file: its base URL and its process."""
    base, proc = live_server.start(tmp_path_factory.mktemp("live") / "t.duckdb")
    yield base, proc
    live_server.stop(proc)


@pytest.fixture(scope="module")
def live_base(live) -> str:
    """The real server's base URL, for what the test client cannot send: it re-encodes header
    values as UTF-8, a real client sends their latin-1 bytes."""
    return live[0]
