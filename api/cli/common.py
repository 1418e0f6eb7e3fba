"""What every ``tabletape`` command shares: the ``--db`` option, the console, the real layers over
one database file (or the running service that holds it), and how a domain error ends a command.
Its own module so that the command groups (``stats_cli``, ``pack_cli``) and ``cli`` all import it,
and not each other."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional
from urllib.parse import quote

import typer
from rich.console import Console
from rich.markup import escape

from api.cli.refusals import refusal, rulebook_apart

DB_HELP = "DuckDB database file, or a PostgreSQL URL (postgresql://...)"
DEFAULT_DB = "data/tabletape.duckdb"
Db = typer.Option(DEFAULT_DB, "--db", help=DB_HELP)


def console(stderr: bool = False) -> Console:
    # made per command, so that the current stdout (a terminal, a pipe, a test runner) is used;
    # piped output is not squeezed to 80 columns
    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else 160
    # NO_COLOR: plain text, no bold or dim either (rich would still send those escape codes)
    plain = {"color_system": None} if os.environ.get("NO_COLOR") else {}
    return Console(highlight=False, soft_wrap=True, stderr=stderr, width=width, **plain)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error while it is a terminal (``tick(done, total)``); None
    otherwise, so piped and captured output stays clean."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(console=console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield tick


@dataclass
class Layers:
    log: Any
    projector: Any
    recorder: Any
    tokens: Any
    packs: Any


#: commands that cannot go through a service, and what they say instead of the generic line
_NOT_THROUGH = {
    "admin-token": "service-admin-token", "pack upload": "service-admin", "pack derive": "service-admin",
    "pack merge": "service-admin", "pack import": "service-admin",
}


def command_name() -> str:
    """The running command as a user types it after ``tabletape`` (``pack upload``)."""
    try:  # typer >= 0.20 runs on its own copy of click
        from typer._click.globals import get_current_context
    except ImportError:
        from click import get_current_context

    ctx, names = get_current_context(silent=True), []
    while ctx is not None and ctx.parent is not None:  # the root's name is how it was run (python -m api)
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(reversed(names)) or "..."


def service(db: str) -> Any:
    """The running service a command goes through (``--url``, or the one holding ``db``), or None."""
    from api import i18n, remote

    return remote.find(db, i18n.cli_lang)


@contextmanager
def layers(db: str, command: str | None = None) -> Iterator[Layers]:
    """The real layers over one database file, closed afterwards; while a service holds it, a
    command that reaches here (it has no way through the API) ends with what to do, naming it as
    ``command`` (default: as typed up to its arguments)."""
    running = service(db)
    if running is not None:
        command = command or command_name()
        fail(cli(_NOT_THROUGH.get(command, "service-no-route"), db=db, url=running.url, command=command))
    import rules  # noqa: F401  (registers every title's events)
    from events.errors import TabletapeError
    from events.stores import open_log
    from api.store import library, tokens
    from projections.projector import Projector
    from replay.recorder import Recorder

    import duckdb

    try:
        log = open_log(db)
    except TabletapeError as exc:  # e.g. a store whose secret file is gone
        fail(said(exc))
    except duckdb.IOException as exc:  # another process holds it: a service, a `record` session, anything
        fail(cli("store-busy", db=db, exc=exc))
    except Exception as exc:  # a PostgreSQL server that does not answer (psycopg's OperationalError)
        if type(exc).__module__.startswith("psycopg"):
            fail(f"{db.split('@')[-1]}: {str(exc).strip().splitlines()[0]}")
        raise
    try:
        packs = library(log, lambda: projector)  # before any game is folded: games pin its packs
        projector = Projector(log)
        recorder = Recorder(log, projector)
        recorder.subscribe(packs.appended)
        yield Layers(log, projector, recorder, tokens(log), packs)
    finally:
        log.close()


def said(exc: Any) -> str:
    """A domain error as the CLI shows it: its code and its message in the CLI's language."""
    from api import i18n

    return i18n.cli("error", code=exc.code, message=refusal(exc))


def fail(message: str) -> None:
    console().print(f"[red]{escape(message)}[/]")
    raise typer.Exit(1)


@contextmanager
def reported() -> Iterator[None]:
    """A domain error, or a service's refusal, ends the command with its code and message, not a traceback."""
    from api import remote
    from events.errors import TabletapeError

    try:
        yield
    except TabletapeError as exc:
        fail(said(exc))
    except remote.Refused as exc:
        fail(cli("error", code=exc.code, message=rulebook_apart(exc.message, exc.rulebook)))
    except remote.NotTabletape as exc:
        fail(cli("msgs/not-tabletape", url=exc.url))
    except remote.Unreachable as exc:
        fail(cli("service-unreachable", url=exc.url, reason=exc.reason))


def answered(db: str, through: Callable[[Any], Any], here: Callable[[Layers], Any]) -> Any:
    """What a command shows: ``through(service)`` while a service holds ``db``, else ``here(layers)``
    on the file; a refusal either way ends the command in one line."""
    running = service(db)
    if running is not None:
        with reported():
            return through(running)
    with layers(db) as lay, reported():
        return here(lay)


def write_out(out: str, text: str) -> bool:
    """``text`` to standard output (``out`` "-") or to the file ``out``, refused in one line when it
    cannot be written; True when a file was written (the caller then says so)."""
    if out == "-":
        sys.stdout.write(text)
        return False
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(cli("pack/cannot-write", out=out, why=exc.strerror or exc))
    return True


def cli(key: str, /, **params: Any) -> str:
    """One of the CLI's own messages (``api/i18n``'s ``cli`` section) in its language."""
    from api import i18n

    return i18n.cli(key, **params)


def shown(text: str) -> str:
    """Text from the log as a terminal should show it: its markup and its control characters
    (a name stored before they were refused) printed, not obeyed."""
    from events.names import control_character

    if control_character(text) is not None:
        text = "".join(c.encode("unicode_escape").decode() if control_character(c) else c for c in text)
    return escape(text)


def option_value(text: str) -> Any:
    """``k=v`` option values: JSON when they parse (numbers, true, lists), else text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def unreadable_rows(answer: dict[str, Any]) -> list[tuple[str, int, str]]:
    """(game id, seq, reason) of the games a service's answer names as unreadable."""
    return [(g["game_id"], g["seq"], g["reason"]) for g in answer.get("unreadable", [])]


@contextmanager
def created(
    db: str, title: str, players: list[str], options: dict[str, Any], seed: Optional[int], actor: str
) -> Iterator[tuple[str, dict[str, Any], str, list[tuple[str, str]], Any]]:
    """A new game on the file or through the service holding it: its id, pinned options, write
    token and seat tokens, and the desk (``api.cli.recording``) that records its moves meanwhile."""
    from api.cli.recording import LocalDesk, RemoteDesk

    running = service(db)
    if running is not None:
        made = running.post("/games", {"title": title, "players": players, "options": options, "seed": seed, "actor": actor})
        pinned = running.get(f"/games/{quote(made['game_id'], safe='')}")["options"]
        tokens = made["tokens"]
        seats = [(t["player"], t["token"]) for t in tokens["seat_tokens"]]
        desk = RemoteDesk(running.with_token(tokens["write_token"]), made["game_id"], actor)
        yield made["game_id"], pinned, tokens["write_token"], seats, desk
        return
    with layers(db) as lay:
        from events.log import new_game_id

        from projections.fold import start
        from events.lifecycle import GameCreated

        game_id = new_game_id()
        with lay.packs.creating(title):  # on a shared store, no other process grows the pack meanwhile
            options, growth = lay.packs.prepare(title, options)  # pinned to a pack of this store
            start(GameCreated(title=title, players=tuple(players), options=options, seed=seed))
            issued = lay.tokens.issue(game_id, len(players))
            try:
                lay.packs.commit(growth)
                lay.recorder.create(title, players, options, seed=seed, actor=actor, game_id=game_id)
            except BaseException:
                lay.tokens.revoke(game_id)
                raise
        yield game_id, options, issued.write, list(zip(players, issued.seats)), LocalDesk(lay.recorder, game_id, actor)
