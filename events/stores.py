"""Opening the event log a ``--db`` names: a DuckDB file (the default) or a PostgreSQL URL."""

from __future__ import annotations

from typing import Any

from events.errors import PostgresNotInstalled


def is_postgres(db: str) -> bool:
    """Whether ``db`` names a PostgreSQL database (``postgresql://...``) rather than a DuckDB file."""
    return db.startswith(("postgresql://", "postgres://"))


def check_driver(db: str) -> None:
    """Raise ``PostgresNotInstalled`` when ``db`` is a PostgreSQL URL and psycopg (the ``postgres``
    extra) is not installed."""
    if not is_postgres(db):
        return
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise PostgresNotInstalled(
            "a PostgreSQL store needs psycopg: install it with make serve EXTRAS=postgres (pip's extra '.[postgres]')",
            params={},
        ) from None


def open_log(db: str, **options: Any) -> Any:
    """The event log of ``db``: ``PostgresEventLog`` for a PostgreSQL URL, else ``DuckDBEventLog``."""
    check_driver(db)
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
