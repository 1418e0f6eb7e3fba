"""The ``tabletape`` command line."""

from __future__ import annotations

import typer

app = typer.Typer(help="tabletape: record board games move by move, replay and query them.", no_args_is_help=True)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on"),
    db: str = typer.Option("data/tabletape.duckdb", help="DuckDB database file (':memory:' for none)"),
) -> None:
    """Run the HTTP service on the embedded DuckDB database."""
    import uvicorn

    from api.app import create_app
    from api.settings import Settings

    uvicorn.run(create_app(Settings(db_path=db, host=host, port=port)), host=host, port=port)


@app.command()
def verify(
    game_id: str = typer.Argument(None, help="one game; all games when omitted"),
    db: str = typer.Option("data/tabletape.duckdb", help="DuckDB database file"),
) -> None:
    """Check the hash chains; exit 1 naming the first altered event."""
    import rules  # noqa: F401  (registers every title's events)
    from events.duckdb_log import DuckDBEventLog

    log = DuckDBEventLog(db)
    bad = 0
    for gid in [game_id] if game_id else log.game_ids():
        report = log.verify(gid)
        if report.ok:
            typer.echo(f"{gid}: ok ({report.events} events)")
        else:
            bad += 1
            typer.echo(f"{gid}: ALTERED at seq {report.first_bad_seq}: {report.reason}")
    raise typer.Exit(1 if bad else 0)


def main() -> None:
    app()
