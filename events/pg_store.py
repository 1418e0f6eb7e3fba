"""The tables every PostgreSQL worker shares (tokens, keys, packs), behind the small DB-API that
the layers above use on DuckDB too."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Sequence

import psycopg

EPOCH_US = "(extract(epoch FROM recorded_at) * 1000000)::bigint"


@lru_cache(maxsize=256)
def _dialect(sql: str) -> str:
    """DuckDB's SQL of the token and key stores (and of plain queries on the log's tables) as
    PostgreSQL reads it."""
    return sql.replace("make_timestamp(?)", "(timestamp 'epoch' + ?::bigint * interval '1 microsecond')").replace("?", "%s").replace("BLOB", "BYTEA").replace("epoch_us(recorded_at)", EPOCH_US)


class PgCursor:
    """A connection of its own with the calls ``TokenStore``, ``AdminToken`` and ``CreationKeys``
    make of a DuckDB cursor (``execute(...).fetchone()``, ``executemany``, BEGIN/COMMIT)."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._conn = psycopg.connect(dsn, autocommit=True)
        self._cur = self._conn.cursor()

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> "PgCursor":
        self._cur.execute(_dialect(sql), params)
        return self

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> "PgCursor":
        self._cur.executemany(_dialect(sql), rows)
        return self

    def fetchone(self) -> tuple | None:
        return self._cur.fetchone() if self._cur.description else None

    def fetchall(self) -> list[tuple]:
        return self._cur.fetchall() if self._cur.description else []

    def cursor(self) -> "PgCursor":
        return PgCursor(self._dsn)

    def close(self) -> None:
        self._conn.close()


class PgStore:
    """The PostgreSQL connection of the shared tables: each ``cursor()`` is a connection."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._cursors: list[PgCursor] = []

    def cursor(self) -> PgCursor:
        cursor = PgCursor(self._dsn)
        self._cursors.append(cursor)
        return cursor

    def close(self) -> None:
        for cursor in self._cursors:
            cursor.close()
        self._cursors.clear()
