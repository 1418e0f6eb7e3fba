"""A table of the store kept behind a cursor and a lock of its own."""

from __future__ import annotations

import threading

import duckdb


class OwnTable:
    """Opens ``schema`` (its tables made if missing) on a cursor of ``con`` that only this object
    uses, under ``_lock``: a DuckDB connection object must not be shared across threads."""

    def __init__(self, con: duckdb.DuckDBPyConnection, schema: str) -> None:
        self._con = con.cursor()
        self._lock = threading.Lock()
        with self._lock:
            self._con.execute(schema)
