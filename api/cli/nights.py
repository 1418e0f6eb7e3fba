"""``tabletape night ...``: open a tournament night, draw its rounds, seat late players and drops,
and show its standings and tables. Beside a running service each command goes through its HTTP
API; with the service stopped it works on the store's file."""

from __future__ import annotations

import json
from typing import Any, Callable, Optional
from urllib.parse import quote

import typer
from rich.markup import escape

from api import i18n, remote
from api.cli.common import Db, cli, console, layers, options_of, reported

night_app = typer.Typer(help="Tournament nights: tables drawn round by round, standings as the games end.", no_args_is_help=True)
TOKEN = typer.Option(..., "--token", help="the night's token (printed when it was opened)")


def _answer(db: str, command: str, method: str, path: str, body: Any, token: str | None,
            local: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """The night as the service answers ``method path`` (when one holds the store), or as
    ``local`` makes it on the store's file."""
    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            raw, _ = running.with_token(token).request(method, path, body=body)
            return json.loads(raw)
    with layers(db, command=command) as lay, reported():
        return local(lay)


def _view(lay: Any, night: Any, token: str | None = None) -> dict[str, Any]:
    from api import nights as door

    return door.view(lay, night, token)


@night_app.command("open")
def open_command(
    name: str = typer.Argument(..., help="the night's name"),
    title: str = typer.Option(..., "--title", "-t", help="the title every table plays: lost-cities, marco-polo, marco-polo-2"),
    rounds: int = typer.Option(..., "--rounds", "-r", help="how many rounds"),
    player: list[str] = typer.Option([], "--player", "-p", help="a player's name (repeat)"),
    season: Optional[str] = typer.Option(None, "--season", help="instead of players: this season's members (its name or id)"),
    seed: Optional[str] = typer.Option(None, "--seed", help="the draws' seed (drawn when left out)"),
    option: list[str] = typer.Option([], "--option", "-o", help="every table's game option as key=value (repeatable)"),
    db: str = Db,
) -> None:
    """Open a night; prints its id and its token (shown only now)."""
    options = options_of(option)
    running = remote.find(db, i18n.cli_lang) if season else None
    if running is not None:
        from api.cli.seasons import _remote_find

        with reported():
            season = _remote_find(running, season)  # type: ignore[arg-type]
    body = {"name": name, "title": title, "rounds": rounds, "players": player, "season_id": season, "seed": seed, "options": options}

    def local(lay: Any) -> dict[str, Any]:
        from api import nights as door
        from api.cli.seasons import _find, _seasons

        players = list(_find(_seasons(lay), season).members) if season else player
        night, token = door.open_night(lay, name, title, rounds, players, seed, options, actor="cli")
        return {**night.as_dict(), "token": token}

    out = _answer(db, "night open", "POST", "/nights", body, None, local)
    console().print(escape(cli("night/opened", name=out["name"], night_id=out["night_id"])))
    console().print(escape(cli("night/token", token=out["token"])))


def _print_round(out: dict[str, Any]) -> None:
    drawn = out["draws"][-1]
    console().print(escape(cli("night/round", round=drawn["round"], rounds=out["rounds"])))
    for table in drawn["tables"]:
        console().print(escape(cli("night/table", table=table["table"], players=", ".join(table["players"]), game_id=table["game_id"])))
        if table.get("write_token"):
            console().print(escape(cli("write-token", token=table["write_token"])))
    for bye in drawn["byes"]:
        console().print(escape(cli("night/bye", player=bye)))


@night_app.command()
def draw(night: str = typer.Argument(..., help="the night's id"), token: str = TOKEN, db: str = Db) -> None:
    """Draw the next round: each table's game is created; prints the tables, their games and write tokens."""

    def local(lay: Any) -> dict[str, Any]:
        from api import nights as door

        return _view(lay, door.draw_round(lay, night, token, actor="cli"), token)

    _print_round(_answer(db, "night draw", "POST", f"/nights/{quote(night, safe='')}/rounds", None, token, local))


@night_app.command()
def join(night: str = typer.Argument(..., help="the night's id"), player: str = typer.Argument(..., help="the late player's name"),
         token: str = TOKEN, db: str = Db) -> None:
    """Seat a late player (or one coming back) from the next round on."""

    _seat_changed(db, night, player, token, "join", "players")
    console().print(escape(cli("night/joined", player=player)))


@night_app.command()
def drop(night: str = typer.Argument(..., help="the night's id"), player: str = typer.Argument(..., help="the player who leaves"),
         token: str = TOKEN, db: str = Db) -> None:
    """Drop a player from the next round on (a game at a table goes on)."""

    _seat_changed(db, night, player, token, "drop", "drops")
    console().print(escape(cli("night/dropped", player=player)))


def _seat_changed(db: str, night: str, player: str, token: str | None, verb: str, path: str) -> None:
    """A late join or a drop, through the service or on the file."""

    def local(lay: Any) -> dict[str, Any]:
        from api import nights as door
        from replay import nights as write

        nights = door.nights_of(lay)
        nights.get(night)
        door.check_token(lay, night, token)
        return _view(lay, getattr(write, verb)(nights, night, player, actor="cli"))

    _answer(db, f"night {verb}", "POST", f"/nights/{quote(night, safe='')}/{path}", {"player": player}, token, local)


@night_app.command()
def show(
    night: str = typer.Argument(..., help="the night's id"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of tables"),
    db: str = Db,
) -> None:
    """A night's standings and every round's tables."""
    from api.cli.stats import print_rows

    def local(lay: Any) -> dict[str, Any]:
        from api import nights as door

        return _view(lay, door.nights_of(lay).get(night))

    out = _answer(db, "night show", "GET", f"/nights/{quote(night, safe='')}", None, None, local)
    if as_json:
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False, default=str))
        return
    console().print(escape(cli("night/header", name=out["name"], drawn=out["rounds_drawn"], rounds=out["rounds"])))
    print_rows(cli("night/standings"), [{k: v for k, v in r.items() if k != "dropped"} for r in out["standings"]])
    for drawn in out["draws"]:
        rows = [{"table": t["table"], "players": ", ".join(t["players"]),
                 "scores": ", ".join(map(str, t["scores"])) if t["scores"] is not None else cli("night/playing")}
                for t in drawn["tables"]]
        print_rows(cli("night/round", round=drawn["round"], rounds=out["rounds"]), rows)


def register(app: typer.Typer) -> None:
    app.add_typer(night_app, name="night")
