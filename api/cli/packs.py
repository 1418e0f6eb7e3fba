"""``tabletape pack ...`` (a title's content packs in the store) and ``tabletape admin-token``.

The command line works on the database file itself, so it writes packs without the admin token
(the token guards the HTTP service). While a service holds the file, the commands that read go
through its API; those that write say what to do."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional
from urllib.parse import quote

import typer
from rich.markup import escape
from rich.table import Table

from api import i18n, remote
from api.cli.common import Db, cli, console, fail, layers, reported, write_out

pack_app = typer.Typer(help="A title's content packs in the store: list, show, download, upload, derive, diff, merge, link, import.", no_args_is_help=True)
TITLE = typer.Option("marco-polo-2", "--title", "-t", help="the title")
HASH = typer.Option(None, "--hash", help="the pack's hash, when its id is ambiguous")


def _component(text: str, with_spec: bool) -> dict[str, Any]:
    """``kind:id={json spec}`` (or ``kind:id`` for a removal)."""
    head, eq, spec = text.partition("=")
    kind, colon, cid = head.partition(":")
    if not colon or not kind or not cid or (with_spec and not eq):
        form = "kind:id={spec as JSON}" if with_spec else "kind:id"
        fail(cli("pack/component-form", text=text, form=form, example="node:KAS" + ('={"kind": "city", "shield": "bow"}' if with_spec else "")))
    if not with_spec:
        return {"kind": kind, "id": cid}
    try:
        return {"kind": kind, "id": cid, "spec": json.loads(spec)}
    except ValueError as exc:
        fail(cli("pack/spec-not-json", text=text, exc=exc))
    raise AssertionError


def _json_file(path: str) -> Any:
    """A JSON file's data ('-': standard input); a file that cannot be read or is not JSON fails in words."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(cli("pack/cannot-read", path=path, why=exc.strerror if isinstance(exc, OSError) and exc.strerror else exc))
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:  # RecursionError: nested past Python's own limit
        fail(cli("pack/not-json", path=path, exc=exc))
    raise AssertionError


def _summary(lay: Any, entry: Any, pinned: dict[str, int]) -> dict[str, Any]:
    working = lay.packs.working(entry.title)
    return {
        "id": entry.id, "hash": entry.hash, "name": entry.name, "lineage": entry.lineage, "version": entry.version,
        "parent": entry.parent, "source": entry.source, "complete": lay.packs.complete(entry),
        "components": lay.packs.components(entry), "games": pinned.get(entry.hash, 0),
        "working": working is not None and working.hash == entry.hash, **entry.info,
    }


#: what ``pack show`` prints of the service's answer, as ``_summary`` has it on the file
_SHOWN = ("id", "hash", "name", "lineage", "version", "parent", "source", "complete", "components", "games", "working")


def _path(title: str, *parts: str) -> str:
    return "/".join(["/titles", quote(title, safe=""), "packs", *(quote(p, safe="") for p in parts)])


def _served(running: remote.Service, title: str, pack_id: str, hash: Optional[str]) -> dict[str, Any]:
    """One pack through the service: the fields ``_summary`` has, and its data under ``pack``."""
    got = running.get(_path(title, pack_id), [("hash", hash)])
    extra = {k: got[k] for k in ("grown_from", "conflicts") if got.get(k) is not None}
    return {**{k: got[k] for k in _SHOWN}, **extra, "pack": got["pack"]}


def _source(source: str) -> str:
    """Where a pack came from, in the CLI's language (the word itself where the catalogue has none)."""
    from api import i18n

    return escape(i18n.catalogue(i18n.cli_lang)["cli"].get(f"pack/source/{source}", source))


@pack_app.command("list")
def list_packs(title: str = TITLE, db: str = Db) -> None:
    """The title's packs: built in, uploaded, derived, grown, imported; * marks the working one."""
    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            rows = running.get(_path(title))["packs"]
        return _print_list(title, rows)
    with layers(db) as lay, reported():
        entries = lay.packs.entries(title)
        pinned = lay.packs.games_pinned(title)
        rows = [_summary(lay, e, pinned) for e in entries]
    _print_list(title, rows)


def _print_list(title: str, rows: list[dict[str, Any]]) -> None:
    table = Table(title=escape(cli("pack/list-title", count=len(rows), title=title)))
    table.add_column("")
    for column in ("id", "hash", "source", "version", "components", "games", "complete"):
        table.add_column(cli(f"pack/col-{column}"))
    for r in rows:
        table.add_row(
            "*" if r["working"] else "", escape(r["id"]), r["hash"][:12], _source(r["source"]), str(r["version"]),
            str(sum(r["components"].values())), str(r["games"]), cli("pack/yes") if r["complete"] else cli("pack/no"),
        )
    console().print(table)


@pack_app.command()
def show(pack_id: str = typer.Argument(..., help="the pack's id (or its hash)"), title: str = TITLE,
         hash: Optional[str] = HASH, db: str = Db) -> None:
    """What the library knows of one pack, as JSON (its data: ``pack download``)."""
    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            out = _served(running, title, pack_id, hash)
        out.pop("pack")
        typer.echo(json.dumps(out, indent=1, ensure_ascii=False, default=str))
        return
    with layers(db) as lay, reported():
        entry = lay.packs.get(title, pack_id, hash)
        out = _summary(lay, entry, lay.packs.games_pinned(title))
    typer.echo(json.dumps(out, indent=1, ensure_ascii=False, default=str))


@pack_app.command()
def download(pack_id: str = typer.Argument(..., help="the pack's id (or its hash)"), title: str = TITLE,
             hash: Optional[str] = HASH, out: str = typer.Option("-", "--out", "-o", help="file ('-': standard output)"),
             db: str = Db) -> None:
    """The pack file: upload it into another store (the same content has the same hash there)."""
    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            got = _served(running, title, pack_id, hash)
        entry_id, entry_hash, data = got["id"], got["hash"], got["pack"]
    else:
        with layers(db) as lay, reported():
            entry = lay.packs.get(title, pack_id, hash)
        entry_id, entry_hash, data = entry.id, entry.hash, entry.data
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if write_out(out, text):
        console(stderr=True).print(escape(cli("pack/wrote", id=entry_id, hash=entry_hash, out=out)))


@pack_app.command()
def upload(path: str = typer.Argument(..., help="a pack file ('-': standard input)"), title: str = TITLE,
           working: bool = typer.Option(False, "--working", help="make it the title's working pack"), db: str = Db) -> None:
    """Add a pack file: validated (a bad field is named); the same content again is the pack already there."""
    data = _json_file(path)
    with layers(db) as lay, reported():
        entry, added = lay.packs.upload(title, data, working=working)
    console().print(escape(cli("pack/added" if added else "pack/already-there", id=entry.id, hash=entry.hash, working=working)))


@pack_app.command()
def derive(
    pack_id: str = typer.Argument(..., help="the pack the new version starts from"),
    add: list[str] = typer.Option([], "--add", help="a component kind:id={spec}, e.g. node:KAS='{\"kind\": \"city\", \"shield\": \"bow\"}'"),
    replace: list[str] = typer.Option([], "--replace", help="a component kind:id={spec} in place of the pack's"),
    remove: list[str] = typer.Option([], "--remove", help="a component kind:id to leave out"),
    changes: Optional[str] = typer.Option(None, "--changes", help='a JSON file {"add": [...], "replace": [...], "remove": [...]}'),
    name: Optional[str] = typer.Option(None, help="the new version's name"),
    working: bool = typer.Option(True, "--working/--not-working", help="make the new version the working pack"),
    title: str = TITLE, hash: Optional[str] = HASH, db: str = Db,
) -> None:
    """A new version of a pack with components added, replaced or removed (``<lineage>-v<n>``)."""
    body: dict[str, list] = {"add": [], "replace": [], "remove": []}
    if changes is not None:
        loaded = _json_file(changes)
        if not isinstance(loaded, dict) or set(loaded) - set(body) or not all(isinstance(v, list) for v in loaded.values()):
            fail(cli("pack/changes-shape", changes=changes))
        body = {k: list(loaded.get(k, [])) for k in body}
    body["add"] += [_component(c, True) for c in add]
    body["replace"] += [_component(c, True) for c in replace]
    body["remove"] += [_component(c, False) for c in remove]
    with layers(db) as lay, reported():
        parent = lay.packs.get(title, pack_id, hash)
        entry = lay.packs.derive(title, parent, body["add"], body["replace"], body["remove"], name, working)
    console().print(escape(cli("pack/derived", id=entry.id, hash=entry.hash, parent=parent.id, working=working)))


@pack_app.command()
def diff(a: str = typer.Argument(..., help="a pack (id or hash)"), b: str = typer.Argument(..., help="another"),
         title: str = TITLE, db: str = Db) -> None:
    """What turns pack A into pack B: components added, removed, changed (JSON)."""
    from rules import GrowingPacks, get_title

    running = remote.find(db, i18n.cli_lang)
    if running is not None:
        with reported():
            out = running.get(_path(title, a, "diff", b))
        typer.echo(json.dumps(out, indent=1, ensure_ascii=False))
        return
    with layers(db) as lay, reported():
        first, second = lay.packs.get(title, a), lay.packs.get(title, b)
        found = get_title(title)
        if not isinstance(found, GrowingPacks):
            fail(cli("pack/one-built-in", title=title))
        out = found.diff_packs(first.data, second.data)
    typer.echo(json.dumps(out, indent=1, ensure_ascii=False))


def _keep(text: str) -> dict[str, str]:
    """``kind:id=a`` (or ``=b``): which side of a clash to keep."""
    head, eq, side = text.partition("=")
    kind, colon, cid = head.partition(":")
    if not eq or not colon or not kind or not cid or side not in ("a", "b"):
        fail(cli("pack/keep-form", text=text))
    return {"kind": kind, "id": cid, "side": side}


def _print_clashes(clashes: list[dict[str, Any]], a: str, b: str) -> None:
    """The clashes side by side: each component, as pack A has it and as pack B has it."""
    table = Table(title=escape(cli("pack/clashes-title", count=len(clashes))))
    table.add_column(cli("pack/col-component"))
    table.add_column(escape(cli("pack/col-in", pack=a)))
    table.add_column(escape(cli("pack/col-in", pack=b)))
    table.add_column(cli("pack/col-kept"))
    said = lambda spec: escape(json.dumps(spec, ensure_ascii=False, sort_keys=True))  # noqa: E731
    for c in clashes:
        table.add_row(escape(f"{c['kind']}:{c['id']}"), said(c["a"]), said(c["b"]), c.get("kept") or "")
    console().print(table)


@pack_app.command()
def merge(
    a: str = typer.Argument(..., help="a pack (id or hash): the merged pack is a new version of its lineage"),
    b: str = typer.Argument(..., help="the pack merged into it (id or hash)"),
    keep: list[str] = typer.Option([], "--keep", help="a clash resolved: kind:id=a or kind:id=b (the side kept)"),
    name: Optional[str] = typer.Option(None, help="the merged version's name"),
    working: bool = typer.Option(True, "--working/--not-working", help="make the merged version the working pack"),
    plan: bool = typer.Option(False, "--plan", help="only show the clashes and what each pack brings; write nothing"),
    title: str = TITLE, a_hash: Optional[str] = typer.Option(None, "--a-hash", help="pack A's hash, when its id is ambiguous"),
    b_hash: Optional[str] = typer.Option(None, "--b-hash", help="pack B's hash, when its id is ambiguous"), db: str = Db,
) -> None:
    """Merge two packs: every component of either; a clash (one id, two contents) is shown side by
    side and needs ``--keep`` (nothing is written while one is left)."""
    chosen = [_keep(k) for k in keep]
    if plan:
        running = remote.find(db, i18n.cli_lang)
        if running is not None:
            with reported():
                out = running.get(_path(title, a, "merge", b), [("a_hash", a_hash), ("b_hash", b_hash)])
        else:
            with layers(db) as lay, reported():
                first, second = lay.packs.get(title, a, a_hash), lay.packs.get(title, b, b_hash)
                out = {k: v for k, v in lay.packs.merge_plan(title, first, second).items() if k != "data"}
        _print_clashes(out["clashes"], a, b)
        console().print(escape(cli("pack/merge-plan", a=a, b=b, from_a=len(out["from_a"]), from_b=len(out["from_b"]), same=out["same"])))
        return
    from events.errors import PackRefused

    with layers(db) as lay, reported():
        first, second = lay.packs.get(title, a, a_hash), lay.packs.get(title, b, b_hash)
        try:
            entry, added = lay.packs.merge(title, first, second, chosen, name, working)
        except PackRefused as exc:
            if exc.code == "pack-merge-clash":
                _print_clashes(exc.details["clashes"], a, b)
            raise
    console().print(escape(cli("pack/merged" if added else "pack/already-there", id=entry.id, hash=entry.hash, a=first.id, b=second.id, working=working)))


@pack_app.command()
def link(pack_id: str = typer.Argument(..., help="the pack's id (or its hash)"), title: str = TITLE, hash: Optional[str] = HASH,
         qr: Optional[str] = typer.Option(None, "--qr", help="also write the link's QR code (SVG) to this file"), db: str = Db) -> None:
    """The pack's share link (served by the running service): another group's store imports from it
    (``pack import LINK``, or the link opened on its page)."""
    running = remote.find(db, i18n.cli_lang)
    if running is None:
        fail(cli("pack/link-needs-service", db=db))
    with reported():
        out = running.get(_path(title, pack_id, "share"), [("hash", hash)])
    typer.echo(out["link"])
    if qr is not None:
        from replay.table_picture import qr_svg

        try:
            Path(qr).write_bytes(qr_svg(out["link"]))
        except OSError as exc:
            fail(cli("pack/cannot-write", out=qr, why=exc.strerror or exc))
        except ImportError:
            fail(cli("pack/qr-needs-charts"))


#: a share link's answer is read up to this many bytes (a pack is at most 512 KiB as canonical JSON)
_FETCH_LIMIT = 4 * 1024 * 1024


def _linked(source: str) -> tuple[str, Optional[str]]:
    """The file a share link leads to and the hash it names (a file's own URL: the hash in its path)."""
    import re
    from urllib.parse import parse_qs, urlsplit

    query = parse_qs(urlsplit(source).query)
    file = query.get("import", [source])[0]
    digest = query.get("hash", [None])[0]
    if digest is None:
        m = re.search(r"/packs/([0-9a-f]{64})(?:[/?]|$)", urlsplit(file).path + "?")
        digest = m.group(1) if m else None
    return file, digest


def _fetch(url: str) -> Any:
    """The JSON a URL answers, read with a timeout and a size limit; a failure ends in one line."""
    import urllib.error
    import urllib.request

    if not url.startswith(("http://", "https://")):
        fail(cli("pack/not-http", url=url))
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/json"}), timeout=remote.TIMEOUT_S) as got:
            body = got.read(_FETCH_LIMIT + 1)
    except urllib.error.HTTPError as exc:
        fail(cli("pack/cannot-fetch", url=url, why=f"HTTP {exc.code}"))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        fail(cli("pack/cannot-fetch", url=url, why=getattr(exc, "reason", None) or exc))
    if len(body) > _FETCH_LIMIT:
        fail(cli("pack/cannot-fetch", url=url, why=f"more than {_FETCH_LIMIT} bytes"))
    try:
        return json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        fail(cli("pack/not-json", path=url, exc=exc))
    raise AssertionError


@pack_app.command("import")
def import_(source: str = typer.Argument(..., help="a pack's share link, the URL of its file, or a pack file ('-': standard input)"),
            title: str = TITLE, working: bool = typer.Option(False, "--working", help="make it the title's working pack"),
            db: str = Db) -> None:
    """Add a pack another group passed on: its share link (the content checked against the hash the
    link names) or its file. An id this store has for other content is kept beside it."""
    if source.startswith(("http://", "https://")):
        file, digest = _linked(source)
        data = _fetch(file)
    else:
        data, digest = _json_file(source), None
    with layers(db) as lay, reported():
        entry, added = lay.packs.import_pack(title, data, digest, working=working)
    console().print(escape(cli("pack/added" if added else "pack/already-there", id=entry.id, hash=entry.hash, working=working)))


def admin_token(db: str = Db) -> None:
    """Make a new admin token for the store (it writes the pack library over HTTP); the old one stops working."""
    from events.tokens import AdminToken

    from events.stores import is_postgres

    if db != ":memory:" and not is_postgres(db) and not Path(db).exists():  # a mistyped path would get a store of its own
        fail(cli("pack/no-store", db=db))
    with layers(db) as lay, reported():
        token = AdminToken(lay.log.store).issue()
    console().print(escape(cli("pack/admin-token", token=token)))
    console(stderr=True).print(escape(cli("pack/shown-once")))


def register(app: typer.Typer) -> None:
    app.add_typer(pack_app, name="pack")
    app.command("admin-token")(admin_token)
