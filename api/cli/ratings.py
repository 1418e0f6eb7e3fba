"""``tabletape ratings``: a title's rating table, one player's rating history, or who is
favourite at a table of chosen players (through the service when one holds the store)."""

from __future__ import annotations

import json
from typing import Any, Optional

import typer

from api import i18n, remote
from api.cli.common import Db, layers, reported


def ratings(
    title: str = typer.Option(..., help="the title (ratings are per title)"),
    player: Optional[str] = typer.Option(None, help="this player's rating after each game instead"),
    favourite: list[str] = typer.Option([], "--favourite", "-f", help="a player at tonight's table (repeat: 2 to 8)"),
    limit: int = typer.Option(100, min=1, max=1000, help="at most this many rows of the table (1 to 1,000)"),
    rebuild: bool = typer.Option(False, "--rebuild", help="rate every game anew from the start first"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
    db: str = Db,
) -> None:
    """Ratings per title from every finished game (openskill, Plackett-Luce): the table ordered by
    mu - 3 sigma, a player's history, or each chosen player's chance of winning tonight."""
    from api.cli.stats import print_rows

    running = remote.find(db, i18n.cli_lang) if not rebuild else None
    if running is not None:
        with reported():
            answer = _ask_service(running, title, player, favourite, limit)
    else:
        from projections.stats.ratings import Ratings

        with layers(db, command="ratings") as lay, reported():
            rated = Ratings(lay.projector.read_models)
            if rebuild:
                rated.rebuild()
            if favourite:
                answer = rated.favourite(title, favourite)
            elif player is not None:
                answer = rated.history(title, player)
            else:
                answer = rated.table(title, limit)
    if as_json:
        typer.echo(json.dumps(answer, indent=2))
        return
    name = "favourite" if favourite else "rating history" if player is not None else "ratings"
    print_rows(f"{name} ({title})", [_shown(r) for r in answer], title)


def _ask_service(running: remote.Service, title: str, player: str | None, favourite: list[str], limit: int) -> Any:
    if favourite:
        return running.get("/stats/ratings/favourite", [("title", title), *(("player", p) for p in favourite)])["rows"]
    if player is not None:
        return running.get("/stats/ratings/history", [("title", title), ("name", player)])["rows"]
    return running.get("/stats/ratings", [("title", title), ("limit", limit)])["rows"]


def _shown(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the table prints it: chances as percentages, ratings to one decimal."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key in ("game_id", "mu_before", "sigma_before"):
            continue
        if key == "win_probability":
            value = f"{value:.1%}"
        elif isinstance(value, float):
            value = f"{value:.1f}"
        out[key] = value
    return out


def register(app: typer.Typer) -> None:
    app.command("ratings")(ratings)
