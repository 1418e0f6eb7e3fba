"""The ``tabletape`` command line. Every command but ``serve`` works directly on the DuckDB file
(``--db``). DuckDB lets one process hold a file, so while ``tabletape serve`` holds it (found
from the discovery file it writes beside the database, or named with ``--url``) a command goes
through the service's HTTP API instead, or says in one line what to do (``api.remote``)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional
from urllib.parse import quote

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from api.cli.common import (
    DEFAULT_DB, Db, answered, cli, command_name, console, created, fail, layers, option_value, progress_bar, reported,
    service, shown, unreadable_rows,
)
from api.cli.demo import register as _register_demo
from api.cli.help import FlowingGroup
from api.cli.packs import register as _register_packs
from api.cli.ratings import register as _register_ratings
from api.cli.seasons import register as _register_seasons
from api.cli.share import register as _register_share
from api.cli.stats import register as _register_stats

app = typer.Typer(
    help="tabletape: record board games move by move, replay and query them.", no_args_is_help=True, cls=FlowingGroup
)


@app.callback()
def speak(
    ctx: typer.Context,
    lang: Optional[str] = typer.Option(
        None, "--lang", help="language of messages and errors: en, es or ja (default: LC_ALL, LC_MESSAGES, LANG)"
    ),
    url: Optional[str] = typer.Option(
        None, "--url", envvar="TABLETAPE_URL",
        help="go through the service at this URL (default: the one holding --db, if it runs)",
    ),
) -> None:
    """tabletape: record board games move by move, replay and query them."""
    from api import i18n, remote

    if lang is not None and lang not in i18n.LANGS:
        fail(i18n.text("cli", "bad-lang", i18n.locale_lang(os.environ), langs=", ".join(i18n.LANGS), lang=lang))
    i18n.cli_lang = lang or i18n.locale_lang(os.environ)
    remote.given_url = url
    from api.cli.help import localise_help

    localise_help(ctx.command, i18n.cli_lang)

# -- games --------------------------------------------------------------------------------------


@app.command()
def new(
    title: str = typer.Argument(..., help="title id, e.g. lost-cities"),
    players: list[str] = typer.Argument(..., help="player names in seat order"),
    option: list[str] = typer.Option([], "--option", "-o", help="a title option as key=value (repeatable)"),
    seed: Optional[int] = typer.Option(None, help="digital play: chance drawn from this seed"),
    actor: str = typer.Option(os.environ.get("USER", "cli"), help="who records"),
    db: str = Db,
) -> None:
    """Start a game; prints its id and its tokens (shown only now)."""
    options: dict[str, Any] = {}
    for pair in option:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            fail(cli("msgs/option-not-pair", pair=pair))
        options[key] = option_value(value)
    out = console()
    with reported(), created(db, title, list(players), options, seed, actor) as (game_id, pinned, write, seats, _):
        print_created(out, game_id, pinned, write, seats)


def print_created(out: Console, game_id: str, options: dict[str, Any], write: str, seats: list[tuple[str, str]]) -> None:
    out.print(cli("game-created", game_id=game_id))
    if isinstance(options.get("content"), dict):
        pack = options["content"]
        out.print(cli("content-pack", pack_id=escape(str(pack.get("id"))), hash=pack.get("hash")))
    print_tokens(out, write, seats)


def print_tokens(out: Console, write: str, seats: list[tuple[str, str]]) -> None:
    out.print(cli("write-token", token=write))
    for seat, (player, token) in enumerate(seats):
        out.print(cli("seat-token", seat=seat, player=escape(player), token=token))


@app.command()
def games(
    title: Optional[str] = typer.Option(None, help="only this title"),
    player: Optional[str] = typer.Option(None, help="only games with this player (any case)"),
    status: Optional[str] = typer.Option(None, help="in-progress or ended"),
    limit: int = typer.Option(50, help="at most this many"),
    db: str = Db,
) -> None:
    """List games, newest first."""
    from datetime import datetime

    from projections.catalog import GameFilter, list_games

    running = service(db)
    if running is not None:
        with reported():
            found = running.get("/games", [("title", title), ("player", player), ("status", status), ("limit", limit)])
        listed = [
            (g["game_id"], g["title"], g["players"], g["status"], datetime.fromisoformat(g["created_at"]),
             g["parent_id"], g["forked_at"])
            for g in found["games"]
        ]
        unreadable = unreadable_rows(found)
        return print_games(listed, found["total"], unreadable)
    with layers(db) as lay:
        rows, total = list_games(lay.log.con, GameFilter(title, player, status), limit, 0)
        unreadable = lay.projector.quarantine.rows()
    print_games(
        [(r.game_id, r.title, r.players, r.status, r.created_at, r.parent_id, r.forked_at) for r in rows], total, unreadable
    )


def print_games(rows: list[tuple[Any, ...]], total: int, unreadable: list[tuple[str, int, str]] = ()) -> None:
    if not rows:
        console().print(escape(cli("games-none")))
    else:
        print_games_table(rows, total)
    for game_id, seq, reason in unreadable:  # left out of the catalogue: named, so that none goes unseen
        console().print(cli("games-unreadable", game_id=game_id, seq=seq, reason=shown(reason)), markup=False)


def print_games_table(rows: list[tuple[Any, ...]], total: int) -> None:
    from api import i18n

    texts = i18n.catalogue(i18n.cli_lang)["cli"]
    table = Table(title=escape(cli("games/list-title", count=len(rows), total=total)))
    table.add_column(escape(cli("games/col-game")), no_wrap=True, min_width=26)
    for column in ("title", "players", "status", "created", "fork"):
        table.add_column(escape(cli(f"games/col-{column}")))
    for game_id, title, players, status, created_at, parent_id, forked_at in rows:
        fork = f"{parent_id} @{forked_at}" if parent_id else ""
        created = created_at.strftime("%Y-%m-%d %H:%M")
        said_status = texts.get(f"games/status/{status}", status)
        table.add_row(game_id, shown(title), shown(", ".join(players)), escape(said_status), created, fork)
    console().print(table)


Token = typer.Option(None, "--token", help="through a running service: the game's write token (a seat's, for its view)")


def through_with_token(db: str, token: Optional[str]) -> Any:
    """The running service to go through with the game's token, or None (work on the file); a
    service without a token given ends the command with what to do."""
    running = service(db)
    if running is not None and not token:
        fail(cli("service-token", db=db, url=running.url, command=command_name()))
    return None if running is None else running.with_token(token)


@app.command()
def tokens(game_id: str = typer.Argument(..., help="the game"), token: Optional[str] = Token, db: str = Db) -> None:
    """Issue new tokens for a game (an imported game, or lost tokens); the old ones stop working."""
    out = console()
    running = through_with_token(db, token)
    if running is not None:
        with reported():
            issued = running.post(f"/games/{quote(game_id, safe='')}/tokens", None)
        return print_tokens(out, issued["write_token"], [(t["player"], t["token"]) for t in issued["seat_tokens"]])
    with layers(db) as lay, reported():
        game = lay.projector.state(game_id)
        issued = lay.tokens.issue(game_id, len(game.players))
        print_tokens(out, issued.write, list(zip(game.players, issued.seats)))


# -- recording and replay ------------------------------------------------------------------------


@app.command()
def record(
    game_id: str = typer.Argument(..., help="the game"),
    actor: str = typer.Option(os.environ.get("USER", "cli"), help="who records"),
    token: Optional[str] = Token,
    db: str = Db,
) -> None:
    """Record a game at the table, interactively: moves in notation, undo, redo, quit."""
    from api.cli.recording import LocalDesk, RemoteDesk, TableRecorder

    out = console()
    running = through_with_token(db, token)
    if running is not None:
        with reported():
            desk = RemoteDesk(running, game_id, actor)
            desk.look()  # an unknown game or a wrong token ends here, with its message
            TableRecorder(desk, out).run(lambda: out.input("> "))
        return
    with layers(db) as lay, reported():
        lay.projector.state(game_id)  # an unknown game ends here, with its message
        TableRecorder(LocalDesk(lay.recorder, game_id, actor), out).run(lambda: out.input("> "))


@app.command()
def note(
    game_id: str = typer.Argument(..., help="the game"),
    step: int = typer.Argument(..., help="the step as the replay numbers it (0: the game's creation)"),
    text: str = typer.Argument(..., help="the note (at most 500 characters)"),
    actor: str = typer.Option(os.environ.get("USER", "cli"), help="who writes it"),
    token: Optional[str] = Token,
    db: str = Db,
) -> None:
    """Write a note on a step: it changes nothing in the game and is not a move. It shows in the
    replay and every export; tabletape log lists it, undo removes it."""
    running = through_with_token(db, token)
    if running is not None:
        path = f"/games/{quote(game_id, safe='')}"
        with reported():
            last = running.get(path)["last_seq"]
            written = running.post(f"{path}/notes", {"step": step, "text": text, "expected_seq": last, "actor": actor})
        console().print(cli("note-written", step=step, seq=written["first_seq"]))
        return
    with layers(db) as lay, reported():
        result = lay.recorder.note(game_id, step, text, actor=actor)
    console().print(cli("note-written", step=step, seq=result.first_seq))


@app.command()
def replay(
    game_id: str = typer.Argument(..., help="the game"),
    at: Optional[int] = typer.Option(None, help="the table after this raw seq (default: now)"),
    seat: Optional[int] = typer.Option(None, help="through this seat's eyes"),
    full: bool = typer.Option(False, help="everything the log knows"),
    token: Optional[str] = typer.Option(None, "--token", help="through a running service: the seat's token (--seat)"),
    as_json: bool = typer.Option(False, "--json", help="print the title's view as JSON instead of the picture"),
    race: bool = typer.Option(False, "--race", help="the score race instead: each player's score after every step, the turning point, the biggest swing"),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="with --race: write the chart to this .svg or .png file"),
    think_time: bool = typer.Option(False, "--think-time", help="the think time instead: how long each player took per decision and per turn, the slowest decision"),
    bgstats_link: bool = typer.Option(False, "--bgstats", help="an ended game's BG Stats link instead: opening it adds the play to BG Stats"),
    db: str = Db,
) -> None:
    """Draw the table at a point of the game: each player's board, the shared board, the hand the
    eyes may see, whose turn (public unless --seat / --full). With --race: the score race (public
    scores until the end, whatever the eyes)."""
    from api import i18n
    from projections.fold import status_words
    from replay.frames import Perspective, notes_listed

    if race:
        return print_race(game_id, db, as_json, out)
    if think_time or bgstats_link:
        return print_think_time(game_id, db, as_json) if think_time else print_bgstats_link(game_id, db, as_json)
    running = service(db)
    if running is not None:
        with reported():
            through = running.with_token(token)
            now = through.get(
                f"/games/{quote(game_id, safe='')}/state", [("at", at), ("seat", seat), ("full", full or None)]
            )
            content = None if as_json else through.get(f"/games/{quote(game_id, safe='')}/content")
        return print_table(
            game_id, now["at"], now["perspective"], now["view"], content, now["status_line"], as_json, now.get("notes", [])
        )
    with layers(db) as lay, reported():
        last = lay.projector.history(game_id).last_seq
        if at is not None and not 0 <= at <= last:
            fail(cli("msgs/at-outside", at=at, last=last))
        game = lay.projector.state_at(game_id, at)
        eyes = Perspective(seat=seat, full=full)
        view = eyes.see(game)
        status = i18n.sentence(status_words(game), i18n.cli_lang)
        content = game.title.table_content(game.state)
        notes = notes_listed(lay.projector.history(game_id), at)
    print_table(game_id, last if at is None else at, eyes.name, view, content, status, as_json, notes)


def print_race(game_id: str, db: str, as_json: bool, out: Optional[str]) -> None:
    """``replay --race``: the race as lines, as JSON, or as a chart written to ``out``."""
    from api import i18n
    from api.race import race_lines, race_out

    fmt = None if out is None else out.rsplit(".", 1)[-1].lower()
    if fmt not in (None, "svg", "png"):
        fail(cli("msgs/race-chart-format", out=out))
    path = f"/games/{quote(game_id, safe='')}/race"

    def through(running: Any) -> tuple[Any, bytes | None]:
        answer = running.get(path, [("lang", i18n.cli_lang)])
        return answer, running.request("GET", path, [("lang", i18n.cli_lang), ("format", fmt)])[0] if fmt else None

    def here(lay: Any) -> tuple[Any, bytes | None]:
        answer = race_out(lay, game_id, i18n.cli_lang)
        if not fmt:
            return answer, None
        from replay.race_chart import draw

        return answer, draw(answer, fmt)

    answer, image = answered(db, through, here)
    if fmt:
        Path(out).write_bytes(image)
    _lines_or_json(answer, as_json, race_lines)


def _lines_or_json(answer: Any, as_json: bool, lines: Callable[[Any, str], list[str]]) -> None:
    """A route's answer as its JSON, or as the lines ``lines`` words it in."""
    from api import i18n

    if as_json:
        sys.stdout.write(json.dumps(answer, ensure_ascii=False, indent=1) + "\n")
        return
    console().print("\n".join(lines(answer, i18n.cli_lang)), soft_wrap=True, markup=False, highlight=False)


def print_think_time(game_id: str, db: str, as_json: bool) -> None:
    """``replay --think-time``: each player's think time as lines, or the route's JSON."""
    from api import i18n
    from api.think_time import think_lines, think_out

    answer = answered(
        db,
        lambda running: running.get(f"/games/{quote(game_id, safe='')}/think-time", [("lang", i18n.cli_lang)]),
        lambda lay: think_out(lay, game_id, i18n.cli_lang),
    )
    _lines_or_json(answer, as_json, think_lines)


def print_bgstats_link(game_id: str, db: str, as_json: bool) -> None:
    """``replay --bgstats``: the link that adds an ended game to BG Stats (the play as JSON with --json)."""
    answer = answered(
        db,
        lambda running: running.get(f"/games/{quote(game_id, safe='')}/bgstats-play", []),
        lambda lay: _bgstats_play(lay, game_id),
    )
    if as_json:
        sys.stdout.write(json.dumps(answer["play"], ensure_ascii=False, indent=1) + "\n")
        return
    if answer["url"] is None:
        fail(cli("msgs/bgstats-not-offered"))
    sys.stdout.write(answer["url"] + "\n")


def _bgstats_play(lay: Any, game_id: str) -> dict[str, Any]:
    """The ``bgstats-play`` route's answer, read from the file."""
    from api.errors import NotYetVisible
    from api.formats import bgstats
    from events.messages import phrase
    from replay.play_record import play_record

    record = play_record(lay.projector, lay.log, game_id)
    if record is None:
        what = phrase("what/bgstats-play", "the play for BG Stats")
        raise NotYetVisible(
            "{what} is open to everyone once the game has ended, and to no one before", params=dict(what=what),
            code="bgstats-play-before-end", game_id=game_id,
        )
    play = bgstats.push_play(record)
    offered = not record.forked and record.source != bgstats.SOURCE
    return {"offered": offered, "url": bgstats.push_links(play)[0] if offered else None, "play": play}


def print_table(
    game_id: str, seq: int, eyes: str, view: dict[str, Any], content: Any, status: str, as_json: bool,
    notes: list[dict[str, Any]] = (),  # type: ignore[assignment]
) -> None:
    """``replay``'s answer: the picture (``api.cli.table``) and the notes on the steps so far, or
    both as JSON."""
    if as_json:
        answer = {"game_id": game_id, "at": seq, "perspective": eyes, "status_line": status, "view": view, "notes": list(notes)}
        sys.stdout.write(json.dumps(answer, ensure_ascii=False, indent=1) + "\n")
        return
    from api.cli.table import picture

    label = cli("msgs/view-label", game_id=game_id, seq=seq, eyes=cli(f"msgs/eyes/{eyes}"))
    out = console()
    out.print(picture(view, content, label, status), soft_wrap=False)
    if notes:
        out.print(cli("msgs/notes-heading"), markup=False, highlight=False)
        for written in notes:
            out.print(cli("msgs/note-line", step=written["step"], text=written["text"]), markup=False, highlight=False, soft_wrap=True)


@app.command("log")
def show_log(game_id: str = typer.Argument(..., help="the game"), db: str = Db) -> None:
    """Print every event of a game's log, marking what undo and amendments no longer count."""
    from api.cli.console import log_table

    with layers(db) as lay, reported():
        events = lay.log.read(game_id)
        table = log_table(lay.projector.state(game_id), lay.projector.history(game_id), events)
    console().print(table)


# -- moving games between databases -----------------------------------------------------------


@app.command("export")
def export_games(
    game_ids: Optional[list[str]] = typer.Argument(None, help="games to export (default: all); parquet: the DIR"),
    out: str = typer.Option("-", "--out", "-o", help="JSONL file ('-': standard output); parquet: the DIR"),
    format: str = typer.Option(
        "jsonl", "--format", help="jsonl, parquet (the log and every view, by title and month), or bgstats (BG Stats' JSON)"
    ),
    db: str = Db,
) -> None:
    """Write whole ended games as JSON Lines, one event per line with its envelope (after the content
    packs they pin); or everything as Parquet; or the finished plays as a BG Stats export. A game in
    progress is left out (named, it is refused): its log holds hidden cards."""
    from api.formats.jsonl import ended_games, export_lines

    if format == "bgstats":
        return export_bgstats(db, out, game_ids)
    if format == "parquet":
        from api.cli.stats import export_parquet

        folder = out if out != "-" else (game_ids[0] if game_ids and len(game_ids) == 1 else None)
        if folder is None:
            fail("parquet export: name one folder (tabletape export --format parquet DIR)")
        return export_parquet(db, folder)
    if format != "jsonl":
        fail(cli("msgs/format-unknown", format=format))

    left_out: list[str] = []
    with layers(db) as lay, reported():
        ids = game_ids or lay.log.game_ids()
        if not game_ids:
            ids, left_out = ended_games(lay.projector, ids)
        lines = export_lines(lay.log, lay.projector, ids, lay.packs)
        if out == "-":
            for line in lines:
                sys.stdout.write(line + "\n")
            return
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w", encoding="utf-8") as handle:
            count = sum(1 for line in lines if handle.write(line + "\n"))
    console(stderr=True).print(cli("exported", count=count, games=len(ids), out=escape(out)))
    if left_out:
        console(stderr=True).print(cli("left-out", count=len(left_out)))


@app.command("import")
def import_games(
    path: str = typer.Argument(..., help="JSONL file ('-': standard input), or a Parquet export's folder"),
    format: str = typer.Option("jsonl", "--format", help="jsonl (or a Parquet folder), or bgstats (a BG Stats export)"),
    db: str = Db,
) -> None:
    """Add whole games from JSON Lines (or a Parquet export): each is checked by its rules, appended,
    and verified. ``--format bgstats``: a BG Stats export's plays of the three titles, as score-only
    games (no moves), each play once; prints what it skipped and why."""
    from api.formats import jsonl

    if format == "bgstats":
        return import_bgstats(db, path)
    if format != "jsonl":
        fail(cli("bad-format", format=format))
    if path != "-" and Path(path).is_dir():
        from api.cli.stats import import_parquet

        return import_parquet(db, path)

    with layers(db) as lay, reported():
        if path == "-":
            packs_read, games_read = jsonl.read_export(sys.stdin)
        else:
            with open(path, encoding="utf-8") as handle:
                packs_read, games_read = jsonl.read_export(handle)
        count = jsonl.import_games(lay.log, lay.projector, games_read, packs_read, lay.packs)
    if packs_read:
        console().print(cli("imported-with-packs", count=count, games=len(games_read), packs=len(packs_read)))
    else:
        console().print(cli("imported", count=count, games=len(games_read)))


def export_bgstats(db: str, out: str, game_ids: Optional[list[str]]) -> None:
    """``tabletape export --format bgstats [-o FILE]``: every finished game, as BG Stats' JSON."""
    from api.formats import bgstats

    if out == "-" and game_ids and len(game_ids) == 1 and game_ids[0].endswith(".json"):
        out = game_ids[0]
    elif game_ids:
        fail("bgstats export: it writes every finished game; name only the file (-o FILE)")
    running = service(db)
    if running is not None:
        with reported():
            document = running.get("/export/bgstats")
    else:
        with layers(db) as lay, reported():
            document = bgstats.export(lay.projector.read_models)
    text = json.dumps(document, ensure_ascii=False, indent=1)
    if out == "-":
        sys.stdout.write(text + "\n")
        return
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text + "\n", encoding="utf-8")
    console(stderr=True).print(cli("bgstats-exported", count=len(document["plays"]), out=escape(out)))


def import_bgstats(db: str, path: str) -> None:
    """``tabletape import --format bgstats FILE``: the plays of the three titles, as score-only games."""
    from api.formats import bgstats

    if path != "-" and not Path(path).is_file():
        fail(cli("bgstats-no-file", path=path))
    # bytes: the JSON reader finds their encoding, and refuses what is not text in one line
    text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    out = console()
    with layers(db) as lay, reported(), progress_bar(cli("bgstats-reading")) as tick:
        report = bgstats.import_document(lay.log, lay.projector, bgstats.read_document(text), progress=tick)
    out.print(
        cli("bgstats-imported", imported=len(report.imported), already=len(report.already), skipped=len(report.skipped))
    )
    if report.other_games:
        out.print(cli("bgstats-other-games", count=sum(report.other_games.values()), games=len(report.other_games)))
    for play, reason in report.skipped:
        out.print(cli("bgstats-skipped", play=shown(play), reason=shown(reason)))


@app.command()
def verify(
    game_id: str = typer.Argument(None, help="one game; all games when omitted"),
    rules: bool = typer.Option(
        False, "--rules", help="also refold each ended game with today's rules and pinned packs and compare its result"
    ),
    db: str = Db,
) -> None:
    """Check the hash chains and their keyed anchors; exit 1 naming the first altered event of each
    game (and, with --rules, each ended game whose recorded result today's rules compute
    differently). Nothing is rewritten."""
    from events.seasons import is_season
    from projections.rules_check import refold_differs

    bad = 0
    with layers(db) as lay, reported():
        if lay.log.anchored_on_open:
            typer.echo(cli("verify-anchored", count=lay.log.anchored_on_open))
        if lay.projector.read_models is not None:
            lay.projector.read_models.refresh()  # every game's rows made: one they cannot hold is named
        ids = [game_id] if game_id else sorted({*lay.log.game_ids(), *lay.log.anchored_game_ids()})
        for gid in ids:
            report = lay.log.verify(gid)
            if not report.ok and not report.unreadable:
                bad += 1
                typer.echo(cli("verify-altered", game_id=gid, seq=report.first_bad_seq, reason=report.reason))
                continue
            unreadable = unreadable_in(lay.projector, gid)
            if unreadable is not None:
                bad += 1
                details = unreadable.details
                typer.echo(cli("verify-unreadable", game_id=gid, seq=details["seq"], reason=details["reason"]))
                continue
            differs = refold_differs(lay.log.read_bodies(gid)) if rules and not is_season(gid) else None
            if differs is not None:
                bad += 1
                typer.echo(cli("verify-differs", game_id=gid, reason=differs.reason))
                continue
            typer.echo(cli("verify-ok", game_id=gid, events=report.events))
    raise typer.Exit(1 if bad else 0)


def unreadable_in(projector: Any, game_id: str) -> Any:
    """Why this code cannot read a game (its ``GameUnreadable``), or None."""
    from events.errors import GameUnreadable
    from events.seasons import is_season

    if is_season(game_id):
        return None  # a season's stream: its chain is all there is to check
    try:
        projector.state(game_id)
    except GameUnreadable as exc:
        return exc
    return None


_register_stats(app)
_register_ratings(app)
_register_seasons(app)
_register_share(app)
_register_packs(app)
_register_demo(app)


def main() -> None:
    app()
