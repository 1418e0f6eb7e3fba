"""Opening the event log a ``--db`` names: a DuckDB file (the default) or a PostgreSQL URL."""

from __future__ import annotations

from typing import Any


def is_postgres(db: str) -> bool:
    """Whether ``db`` names a PostgreSQL database (``postgresql://...``) rather than a DuckDB file."""
    return db.startswith(("postgresql://", "postgres://"))


def open_log(db: str, **options: Any) -> Any:
    """The event log of ``db``: ``PostgresEventLog`` for a PostgreSQL URL, else ``DuckDBEventLog``."""
    if is_postgres(db):
        from events.pg_log import PostgresEventLog

        return PostgresEventLog(db, **options)
    from events.duckdb_log import DuckDBEventLog

    return DuckDBEventLog(db, **options)


def shown(db: str) -> str:
    """``db`` as the service may show it: a URL's password left out."""
    if not is_postgres(db):
        return db
    import re

    return re.sub(r"(//[^/:@]*):[^@/]*@", r"\1@", db)
