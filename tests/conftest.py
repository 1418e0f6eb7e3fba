"""Shared fixtures: a real DuckDB (in memory or in a temp file), the real layers above it."""

from __future__ import annotations

import pytest

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
