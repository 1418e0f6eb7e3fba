"""The statistics commands of ``tabletape``: ``stats``, ``sql``, ``chart``, and the Parquet side
of ``export`` / ``import``. Registered on the main app by ``register``."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from api import i18n, remote
from api.cli.common import Db, cli, console, fail, layers, option_value, reported, unreadable_rows


class Question(str, Enum):
    leaderboard = "leaderboard"
    head_to_head = "head-to-head"
    seats = "seats"
    scores = "scores"
    sources = "sources"
    wagers = "wagers"
    bonus = "bonus"
    rounds = "rounds"
    characters = "characters"
    beijing = "beijing"
    contracts = "contracts"
    views = "views"
    rebuild = "rebuild"


#: a title's own questions, and the title asked when none is given
TITLE_QUESTIONS = {"wagers": "lost-cities", "bonus": "lost-cities", "rounds": "lost-cities",
                   "characters": "marco-polo", "beijing": "marco-polo", "contracts": "marco-polo"}


def make_filters(
    title: str | None, player: str | None, date_from: datetime | None, date_to: datetime | None,
    option: list[str], forks: bool,
):
    from projections.stats.questions import Filters

    pairs = []
    for text in option:
        key, eq, value = text.partition("=")
        if not eq or not key:
            fail(cli("stats/option-form", text=text))
        pairs.append((key, option_value(value)))
    return Filters(title, player, date_from, date_to, tuple(pairs), forks)


def _unsigned_zero(value: float, digits: int) -> float:
    # a share of no points at all comes out as -0.0 (0 / a negative total), and a tiny negative
    # figure rounds to it: neither is worth a minus sign
    return round(value, digits) + 0.0


def _cell(key: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if key.endswith("rate") or key in ("share", "per_expedition", "per_side_round", "per_match"):
            return f"{_unsigned_zero(value, 3):.1%}"
        return f"{_unsigned_zero(value, 2):.2f}"
    return escape(str(value))


#: where the service answers each question, and what of its answer is the question's own
ROUTES = {
    "leaderboard": ("/stats/leaderboard", "rows"), "head-to-head": ("/stats/head-to-head", "rows"),
    "seats": ("/stats/seats", None), "scores": ("/stats/scores", None), "sources": ("/stats/sources", "rows"),
    "wagers": ("/stats/lost-cities/wagers", "rows"), "bonus": ("/stats/lost-cities/bonus", None),
    "rounds": ("/stats/lost-cities/rounds", "rows"), "characters": ("/stats/{title}/characters", "rows"),
    "beijing": ("/stats/{title}/beijing", None), "contracts": ("/stats/{title}/contracts", None),
}


def filter_params(keep: Any, with_title: bool = True) -> list[tuple[str, Any]]:
    """The query string of the service's filters (``api.http.routes.stats.filters``)."""
    params: list[tuple[str, Any]] = [("title", keep.title)] if with_title else []
    params += [("player", keep.player), ("date_from", keep.date_from), ("date_to", keep.date_to)]
    params += [("option", f"{k}={json.dumps(v) if not isinstance(v, str) else v}") for k, v in keep.options]
    return params + [("include_forks", keep.include_forks or None)]


def ask_service(running: remote.Service, name: str, keep: Any, opponent: str | None, bin_width: int | None,
                limit: int) -> Any:
    """A question through the service, as ``Questions`` answers it on the file."""
    from urllib.parse import quote

    path, part = ROUTES[name]
    in_path = "{title}" in path or path.startswith("/stats/lost-cities/")
    params = filter_params(keep, with_title=not in_path)
    if name in ("leaderboard", "head-to-head"):
        params.append(("limit", limit))
    params += [("opponent", opponent if name == "head-to-head" else None), ("bin_width", bin_width if name == "scores" else None)]
    answer = running.get(path.format(title=quote(keep.title or "", safe="")), params)
    if part is not None:
        return answer[part]
    if "{title}" in path:
        answer.pop("title", None)
    return answer


def _header(column: str) -> str:
    """A column's heading in the CLI's language (its name, spaced, where the catalogue has none)."""
    from api import i18n

    return i18n.catalogue(i18n.cli_lang)["cli"].get(f"stats/col/{column}", column.replace("_", " "))


def _character(title: str | None, character: Any) -> Any:
    """A character's full name in the CLI's language (``terms``), its id where there is none."""
    from api import i18n

    names = i18n.catalogue(i18n.cli_lang)["terms"].get(title or "", {}).get("character", {})
    return names.get(character, character) if isinstance(character, str) else character


def print_rows(title: str, rows: list[dict[str, Any]], game: str | None = None) -> None:
    if not rows:  # a table without columns prints as blank lines
        console().print(escape(cli("stats/none", title=title)))
        return
    table = Table(title=title)
    columns = list(rows[0]) if rows else []
    rows = [{**r, "character": _character(game, r["character"])} if "character" in r else r for r in rows]
    for column in columns:
        table.add_column(_header(column), justify="left" if column in ("player", "opponent", "source",
                                                                              "character", "name", "description") else "right")
    for row in rows:
        table.add_row(*(_cell(c, row[c]) for c in columns))
    console().print(table)


def print_answer(name: str, answer: Any, game: str | None = None) -> None:
    """Lists as one table; a dict's lists each as a table, its other figures as lines."""
    if isinstance(answer, list):
        print_rows(name, answer, game)
        return
    for key, value in answer.items():
        if isinstance(value, list):
            print_rows(f"{name}: {_header(key)}", value, game)
        elif isinstance(value, dict):
            print_rows(f"{name}: {_header(key)}", [value], game)
        else:
            console().print(f"{escape(_header(key))}: {_cell(key, value)}")


def stats(
    question: Question = typer.Argument(..., help="what to ask"),
    title: Optional[str] = typer.Option(None, help="only this title (per-title questions need one)"),
    player: Optional[str] = typer.Option(None, help="a player (any case): their games / their seats"),
    date_from: Optional[datetime] = typer.Option(None, "--from", help="games created at or after (UTC)"),
    date_to: Optional[datetime] = typer.Option(None, "--to", help="games created before (UTC, exclusive)"),
    option: list[str] = typer.Option([], "--option", "-o", help="a game option as key=value (repeatable)"),
    forks: bool = typer.Option(False, "--forks", help="count forked games too"),
    opponent: Optional[str] = typer.Option(None, help="head-to-head: only against this player"),
    bin_width: Optional[int] = typer.Option(None, help="scores: histogram bin width"),
    limit: int = typer.Option(50, help="leaderboard / head-to-head: at most this many rows"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of tables"),
    db: str = Db,
) -> None:
    """Ask the play history a question: leaderboard, head-to-head, seats, scores, sources; Lost
    Cities' wagers, bonus, rounds; Marco Polo's characters, beijing, contracts. Also: views (what
    `tabletape sql` can read) and rebuild (recreate every read model from the log)."""
    from projections.stats.questions import Questions
    from projections.stats.sql import views

    name = question.value
    if name == "views":
        print_rows(cli("stats/views"), [{"name": n, "description": d} for n, (_, d) in sorted(views().items())])
        return
    if name in TITLE_QUESTIONS and title is None:
        title = TITLE_QUESTIONS[name]
    keep = make_filters(title, player, date_from, date_to, option, forks)
    running = remote.find(db, i18n.cli_lang) if name != "rebuild" else None
    if running is not None:
        with reported():
            answer = ask_service(running, name, keep, opponent, bin_width, limit)
            unreadable = unreadable_rows(running.get("/health", []))
        show_answer(name, keep, answer, as_json)
        return say_left_out(unreadable)
    with layers(db, command=f"stats {name}") as lay, reported():
        read_models = lay.projector.read_models
        if name == "rebuild":
            started = datetime.now()
            count = read_models.rebuild()
            seconds = (datetime.now() - started).total_seconds()
            console().print(escape(cli("stats/rebuilt", count=count, seconds=f"{seconds:.1f}")))
            return
        ask = Questions(read_models)
        if name == "leaderboard":
            answer: Any = ask.leaderboard(keep, limit)
        elif name == "head-to-head":
            answer = ask.head_to_head(keep, opponent, limit)
        elif name == "seats":
            answer = ask.seats(keep)
        elif name == "scores":
            answer = ask.scores(keep, bin_width)
        elif name == "sources":
            answer = ask.sources(keep)
        else:
            answer = ask.title_question(keep, name)
        unreadable = lay.projector.quarantine.rows()
    show_answer(name, keep, answer, as_json)
    say_left_out(unreadable)


def say_left_out(unreadable: list[tuple[str, int, str]]) -> None:
    """Name on stderr each game the answer leaves out because this code cannot read it."""
    for game_id, seq, reason in unreadable:
        console(stderr=True).print(escape(cli("stats-left-out", game_id=game_id, seq=seq, reason=reason)))


def show_answer(name: str, keep: Any, answer: Any, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(answer, default=str, indent=2))
    else:
        print_answer(name + (f" ({keep.title})" if keep.title else ""), answer, keep.title)


def sql(
    query: str = typer.Argument(..., help="one SELECT over the views (`tabletape stats views`); '-': stdin"),
    row_limit: int = typer.Option(1_000, help="at most this many rows"),
    time_limit: float = typer.Option(5.0, help="stop the query after this many seconds"),
    as_json: bool = typer.Option(False, "--json", help="print JSON rows instead of a table"),
    db: str = Db,
) -> None:
    """Run one read-only SQL query over the documented views, in a sandbox (no files, no writes)."""
    from projections.stats import sql as sandbox

    text = sys.stdin.read() if query == "-" else query
    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            got = running.post("/sql", {"query": text, "row_limit": row_limit, "time_limit_s": time_limit})
        return print_sql(got["columns"], got["rows"], got["truncated"], got["elapsed_ms"], as_json)
    with layers(db) as lay, reported():
        answer = sandbox.run(lay.projector.read_models, text, row_limit, time_limit)
    print_sql(answer.columns, answer.rows, answer.truncated, answer.elapsed_ms, as_json)


def print_sql(columns: list[str], rows: list[Any], truncated: bool, elapsed_ms: float, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps([dict(zip(columns, row)) for row in rows], indent=2))
        return
    table = Table(title=cli("stats/rows", count=len(rows), truncated=truncated, ms=f"{elapsed_ms:.0f}"))
    for column in columns:
        table.add_column(escape(column))
    for row in rows:
        table.add_row(*(escape("" if v is None else str(v)) for v in row))
    console().print(table)


class Chart(str, Enum):
    scores = "scores"
    seats = "seats"
    characters = "characters"


def chart(
    kind: Chart = typer.Argument(..., help="scores, seats or characters"),
    out: str = typer.Option(..., "--out", "-o", help="image file: .svg or .png"),
    title: Optional[str] = typer.Option(None, help="the title (characters: marco-polo by default)"),
    player: Optional[str] = typer.Option(None, help="only this player's seats"),
    date_from: Optional[datetime] = typer.Option(None, "--from", help="games created at or after (UTC)"),
    date_to: Optional[datetime] = typer.Option(None, "--to", help="games created before (UTC, exclusive)"),
    option: list[str] = typer.Option([], "--option", help="a game option as key=value (repeatable)"),
    forks: bool = typer.Option(False, "--forks", help="count forked games too"),
    db: str = Db,
) -> None:
    """Draw a chart of a question: score distribution, win rate by seat or by character."""
    from projections.stats import charts
    from projections.stats.questions import Questions

    fmt = Path(out).suffix.lstrip(".").lower()
    if fmt not in ("svg", "png"):
        fail(cli("stats/bad-out", out=out))
    if kind is Chart.characters and title is None:
        title = "marco-polo"
    keep = make_filters(title, player, date_from, date_to, option, forks)
    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            data, _ = running.request("GET", f"/stats/charts/{kind.value}", [("format", fmt), *filter_params(keep)])
        return write_chart(out, data)
    with layers(db) as lay, reported():
        ask = Questions(lay.projector.read_models)
        if kind is Chart.scores:
            data = charts.scores(ask.scores(keep), fmt)  # type: ignore[arg-type]
        elif kind is Chart.seats:
            data = charts.seats(ask.seats(keep), fmt)  # type: ignore[arg-type]
        else:
            data = charts.characters(ask.title_question(keep, "characters"), title or "", fmt)  # type: ignore[arg-type]
    write_chart(out, data)


def write_chart(out: str, data: bytes) -> None:
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_bytes(data)
    console(stderr=True).print(escape(cli("stats/wrote", out=out)))


def export_parquet(db: str, folder: str) -> None:
    """``tabletape export --format parquet DIR``."""
    from projections.seasons import Seasons, export_parquet as export_seasons
    from projections.stats import parquet

    with layers(db) as lay, reported():
        report = parquet.export(lay.projector.read_models, folder)
        carried = lay.packs.packs_of(parquet.ended_game_ids(lay.projector.read_models))
        packs = parquet.export_packs(folder, [(e.title, e.id, e.hash, e.data) for e in carried])
        export_seasons(Seasons(lay.log, lay.projector.read_models), folder)
    said = cli("stats/exported-parquet", events=report.events, games=report.games, views=len(report.tables) - 1, folder=folder)
    console(stderr=True).print(escape(said + (cli("stats/with-packs", packs=packs) if packs else "")))
    if report.in_progress:
        console(stderr=True).print(escape(cli("left-out", count=report.in_progress)))


def import_parquet(db: str, folder: str) -> None:
    """``tabletape import DIR``: a Parquet export, events unchanged, every game checked."""
    from api.formats.jsonl import check_games
    from projections.stats import parquet

    with layers(db) as lay, reported():
        staged = []
        for title, digest, data in parquet.read_packs(folder):
            staged.append(lay.packs.stage(title, data, digest))
        added: list = []

        def check(games: list) -> None:
            check_games(games)
            added.extend(lay.packs.keep(staged))  # the games pin them: stored before the games

        try:
            games, events = parquet.restore(lay.projector.read_models, folder, check=check)
        except BaseException:
            lay.packs.forget(added)
            raise
        lay.projector.read_models.refresh()
    console().print(escape(cli("stats/imported-parquet", events=events, games=games)))


def register(app: typer.Typer) -> None:
    app.command("stats")(stats)
    app.command("sql")(sql)
    app.command("chart")(chart)
