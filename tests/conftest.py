"""Shared fixtures: a real DuckDB (in memory or in a temp file), the real layers above it."""

from __future__ import annotations

import pytest

import pgserver
import rules  # noqa: F401  (registers every title's events with the codec)
from events.duckdb_log import DuckDBEventLog
from projections.projector import Projector
from replay.recorder import Recorder


@pytest.fixture
def log() -> DuckDBEventLog:
    log = DuckDBEventLog(":memory:")
    yield log
    log.close()


@pytest.fixture
def file_log(tmp_path) -> DuckDBEventLog:
    log = DuckDBEventLog(str(tmp_path / "tabletape.duckdb"))
    yield log
    log.close()


@pytest.fixture
def projector(log) -> Projector:
    return Projector(log)


@pytest.fixture
def recorder(log, projector) -> Recorder:
    return Recorder(log, projector)


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server's URL for the session (see ``tests/pgserver.py``), or a skip saying why."""
    try:
        with pgserver.server() as url:
            yield url
    except LookupError as exc:
        pytest.skip(str(exc))


@pytest.fixture
def postgres_db(postgres_server, tmp_path, monkeypatch):
    """A URL of an empty PostgreSQL store (a schema of its own), its anchors' key in ``tmp_path``."""
    monkeypatch.setenv("TABLETAPE_SECRET_FILE", str(tmp_path / "postgres.key"))
    url = pgserver.fresh_schema(postgres_server)
    yield url
    pgserver.drop_schema(postgres_server, url)  # a server of $TABLETAPE_TEST_POSTGRES outlives the tests


@pytest.fixture(params=["duckdb", "postgresql"])
def lasting_db(request, tmp_path) -> str:
    """The ``--db`` of an empty store that outlives its log: a DuckDB file, then PostgreSQL."""
    return str(tmp_path / "tabletape.duckdb") if request.param == "duckdb" else request.getfixturevalue("postgres_db")


@pytest.fixture(params=["duckdb", "postgresql"])
def store_db(request) -> str:
    """The ``--db`` of an empty store of each kind: DuckDB in memory, then PostgreSQL."""
    if request.param == "duckdb":
        return ":memory:"
    return request.getfixturevalue("postgres_db")
