"""Fixtures for the API tests: the real app over a real DuckDB file."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings


@pytest.fixture
def app_settings(tmp_path) -> Settings:
    return Settings(db_path=":memory:", stream_ping_s=0.2)


@pytest.fixture
def client(app_settings):
    with TestClient(create_app(app_settings)) as client:
        yield client


@pytest.fixture
def svc(client):
    return client.app.state.services
