"""``tabletape season ...``: define, amend, list and show seasons and write their standings as
CSV. The commands that read go through the service while one holds the store; those that write
work on the store's file (the admin token guards the HTTP service), as ``tabletape pack`` does."""

from __future__ import annotations

import json
from typing import Any, Optional
from urllib.parse import quote

import typer
from rich.markup import escape

from api import i18n, remote
from api.cli.common import Db, cli, console, fail, layers, reported, write_out

season_app = typer.Typer(help="Seasons: a name, titles, a first and last day, members; and their standings.", no_args_is_help=True)
TITLES = typer.Option(..., "--title", "-t", help="a title the season counts (repeat)")
MEMBERS = typer.Option(..., "--member", "-m", help="a member's name (repeat)")


def _seasons(lay: Any) -> Any:
    from projections.seasons import Seasons

    return Seasons(lay.log, lay.projector.read_models)


def _find(seasons: Any, which: str) -> Any:
    """A season by its id or its name (any case)."""
    from events.names import same_name_key
    from events.seasons import is_season

    if is_season(which):
        return seasons.get(which)
    for season in seasons.all():
        if same_name_key(season.name) == same_name_key(which):
            return season
    return seasons.get(which)  # refused, naming it


@season_app.command()
def create(
    name: str = typer.Argument(..., help="the season's name"),
    title: list[str] = TITLES,
    starts: str = typer.Option(..., "--starts", help="its first day, YYYY-MM-DD (UTC)"),
    ends: str = typer.Option(..., "--ends", help="its last day, YYYY-MM-DD (UTC)"),
    member: list[str] = MEMBERS,
    db: str = Db,
) -> None:
    """Define a season; a refusal names the rule, and nothing is written."""
    from replay import seasons as write

    with layers(db, command="season create") as lay, reported():
        season = write.define(_seasons(lay), name, title, starts, ends, member, actor="cli")
    console().print(escape(cli("season/created", name=season.name, season_id=season.season_id)))


@season_app.command()
def amend(
    season: str = typer.Argument(..., help="the season (its name or id)"),
    name: Optional[str] = typer.Option(None, "--name", help="its new name"),
    title: list[str] = typer.Option([], "--title", "-t", help="its titles instead (repeat)"),
    starts: Optional[str] = typer.Option(None, "--starts", help="its new first day"),
    ends: Optional[str] = typer.Option(None, "--ends", help="its new last day"),
    member: list[str] = typer.Option([], "--member", "-m", help="its members instead (repeat)"),
    db: str = Db,
) -> None:
    """Correct a season: the fields given replace those in force (appended, never rewritten)."""
    from replay import seasons as write

    with layers(db, command="season amend") as lay, reported():
        seasons = _seasons(lay)
        found = _find(seasons, season)
        changed = write.amend(seasons, found.season_id, actor="cli", name=name, titles=title or None, starts=starts,
                              ends=ends, members=member or None)
    console().print(escape(cli("season/amended", name=changed.name, season_id=changed.season_id)))


@season_app.command("list")
def list_seasons(as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"), db: str = Db) -> None:
    """Every season, the latest first."""
    from api.cli.stats import print_rows

    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            rows = running.get("/seasons")["seasons"]
    else:
        with layers(db, command="season list") as lay, reported():
            rows = [s.as_dict() for s in _seasons(lay).all()]
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    shown = [{"name": r["name"], "titles": ", ".join(r["titles"]), "starts": r["starts"], "ends": r["ends"],
              "members": len(r["members"]), "season_id": r["season_id"]} for r in rows]
    print_rows(cli("season/list"), shown)


def _standings(db: str, season: str) -> tuple[dict[str, Any], str]:
    """The season with its standings, and its CSV."""
    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            found = _remote_find(running, season)
            shown = running.get(f"/seasons/{quote(found, safe='')}")
            data, _ = running.request("GET", f"/seasons/{quote(found, safe='')}.csv")
        return shown, data.decode("utf-8")
    from projections.seasons import csv_text

    with layers(db, command="season show") as lay, reported():
        seasons = _seasons(lay)
        found = _find(seasons, season)
        standings = seasons.standings(found)
        return {**found.as_dict(), "standings": standings}, csv_text(found, standings)


def _remote_find(running: remote.Service, season: str) -> str:
    from events.names import same_name_key

    for row in running.get("/seasons")["seasons"]:
        if season in (row["season_id"],) or same_name_key(row["name"]) == same_name_key(season):
            return row["season_id"]
    return season


@season_app.command()
def show(
    season: str = typer.Argument(..., help="the season (its name or id)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of tables"),
    db: str = Db,
) -> None:
    """A season's standings per title: position, rating over the season's games alone, games,
    wins, points and the title's tie-break."""
    from api.cli.stats import print_rows

    shown, _ = _standings(db, season)
    if as_json:
        typer.echo(json.dumps(shown, indent=2, ensure_ascii=False, default=str))
        return
    console().print(escape(cli("season/header", name=shown["name"], starts=shown["starts"], ends=shown["ends"])))
    for table in shown["standings"]:
        rows = [{k: (f"{v:.1f}" if isinstance(v, float) else "" if v is None else v) for k, v in r.items() if k not in ("mu", "sigma")}
                for r in table["rows"]]
        print_rows(table["title"], rows, table["title"])


@season_app.command("csv")
def csv_command(
    season: str = typer.Argument(..., help="the season (its name or id)"),
    out: str = typer.Option("-", "--out", "-o", help="the CSV file ('-': standard output)"),
    db: str = Db,
) -> None:
    """A season's standings as CSV, one row per title and member."""
    _, text = _standings(db, season)
    if write_out(out, text):
        console(stderr=True).print(escape(cli("stats/wrote", out=out)))


def register(app: typer.Typer) -> None:
    app.add_typer(season_app, name="season")
