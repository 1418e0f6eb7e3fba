"""The ``tabletape`` program: the command line (``api.cli``) plus ``serve``, which runs the HTTP
service (``api.http``). The one module that knows both doors; neither imports the other."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Optional

import typer

from api.cli.common import DEFAULT_DB, cli, fail, said
from api.cli.main import app

@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on"),
    db: str = typer.Option(
        DEFAULT_DB, "--db", envvar="TABLETAPE_DB", help="DuckDB database file (':memory:' for none), or a PostgreSQL URL"
    ),
    body_limit: list[str] = typer.Option(
        [], "--body-limit", help="a route's body limit as route=size, e.g. moves=64KiB (repeatable; README: Limits)"
    ),
    head_timeout: Optional[float] = typer.Option(None, help="seconds a request's line and headers may take"),
    body_timeout: Optional[float] = typer.Option(None, help="seconds a request's body may take once its head came"),
    access_log: bool = typer.Option(False, "--access-log", help="log each request's line (no token is in one)"),
    workers: int = typer.Option(1, "--workers", min=1, help="processes serving the port (PostgreSQL only; README: PostgreSQL)"),
) -> None:
    """Run the HTTP service on the embedded DuckDB database, or on a PostgreSQL one (--db postgresql://...)."""
    from api.http.app import create_app
    from api.http.edge import SettingError, parse_limits
    from api.http.server import run
    from api.http.settings import Settings

    from api import i18n, remote

    from events.errors import TabletapeError
    from events.stores import check_driver

    try:
        check_driver(db)
    except TabletapeError as exc:  # the app would fail at its start, with a traceback
        fail(said(exc))
    running = remote.discovered(db)
    if running is not None:  # the second would fail on DuckDB's lock
        fail(cli("service-busy", db=db, url=running.url, pid=running.pid))
    if db != ":memory:" and Path(db).exists():
        held_by_another(db)
    chosen = {"head_timeout_s": head_timeout, "body_timeout_s": body_timeout}
    try:
        settings = Settings(db_path=db, host=host, port=port, **{k: v for k, v in chosen.items() if v is not None})
        settings.body_limits.update(parse_limits(",".join(body_limit)))
    except SettingError as exc:
        fail("serve: " + i18n.text("edge", exc.key, i18n.cli_lang, **exc.params))
    except ValueError as exc:  # pydantic's ValidationError is one
        fail(f"serve: {exc}")
    if workers > 1:
        from events.stores import is_postgres

        if not is_postgres(db):
            fail(cli("msgs/workers-need-postgres", workers=workers))
        first_start(settings)  # once, before the workers: the schema and the admin token
    run(create_app(settings), host, port, access_log=access_log, settings=settings, workers=workers)


def first_start(settings: Any) -> None:
    """Open the store once in this process: its tables exist and its admin token, if new, is
    shown once (rather than each worker making its own)."""
    from api.http.app import admin_token_notice
    from api.http.services import Services

    try:
        services = Services(settings)
    except Exception as exc:  # a server that does not answer: one line, not a traceback
        if type(exc).__module__.startswith("psycopg"):
            fail(f"serve: {str(exc).strip().splitlines()[0]}")
        raise
    try:
        if services.admin_token_issued:
            print(admin_token_notice(services.admin_token_issued), file=sys.stderr, flush=True)
    finally:
        services.close()


def held_by_another(db: str) -> None:
    """End ``serve`` in one line when another process holds ``db`` (the app would fail to start
    with DuckDB's traceback)."""
    import duckdb

    try:
        duckdb.connect(db).close()
    except duckdb.IOException as exc:
        fail(cli("store-busy", db=db, exc=exc))


def main() -> None:
    app()
