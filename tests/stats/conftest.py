"""Fixtures for the statistics tests: the seeded games in a real DuckDB file, the real layers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from statsdata import Clock, fill

from events.duckdb_log import DuckDBEventLog
from projections.projector import Projector
from replay.recorder import Recorder


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory) -> Path:
    """A DuckDB file with the seeded games (copied per test that needs it)."""
    path = tmp_path_factory.mktemp("seeded") / "seeded.duckdb"
    clock = Clock()
    log = DuckDBEventLog(str(path), clock=clock)
    fill(log, clock)
    log.close()
    return path


@pytest.fixture
def db_path(seeded_db, tmp_path) -> str:
    path = tmp_path / "stats.duckdb"
    shutil.copy(seeded_db, path)
    shutil.copy(f"{seeded_db}.key", f"{path}.key")  # a copied store needs the secret of its anchors
    return str(path)


@pytest.fixture
def layers(db_path):
    log = DuckDBEventLog(db_path)
    projector = Projector(log)
    yield log, projector, Recorder(log, projector)
    log.close()
