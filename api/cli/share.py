"""``tabletape share`` (make or withdraw a game's read-only link) and ``tabletape check-slip``
(whether an end-of-game slip matches the stored, verified log)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional
from urllib.parse import quote

import typer

from api.cli.common import Db, answered, cli, console, fail, layers, reported, service

#: the most a slip file may hold (a slip is one line of some 150 characters)
SLIP_FILE_BYTES = 64 * 1024


def register(app: typer.Typer) -> None:
    app.command("share")(share)
    app.command("slip")(slip)
    app.command("check-slip")(check_slip)


def share(
    game_id: str = typer.Argument(..., help="the game"),
    at: Optional[int] = typer.Option(None, "--at", min=0, max=1_000_000, help="the replay's step the link opens at (default: the end)"),
    withdraw: Optional[str] = typer.Option(None, "--withdraw", help="withdraw this link (its token) instead"),
    withdraw_all: bool = typer.Option(False, "--withdraw-all", help="withdraw every link of the game instead"),
    token: Optional[str] = typer.Option(None, "--token", help="through a running service: the game's write token"),
    db: str = Db,
) -> None:
    """Make a read-only link to a game: it opens the replay with no token once the game has ended
    (and shows nothing while it goes on); with --withdraw, take a link back."""
    from api.errors import UnknownShare

    game = quote(game_id, safe="")
    running = service(db)
    if running is not None and not token:
        fail(cli("service-token", db=db, url=running.url, command="share"))
    out = console()
    if running is not None:
        through = running.with_token(token)
        with reported():
            if withdraw is not None or withdraw_all:
                path = f"/games/{game}/shares" + ("" if withdraw_all else f"/{quote(withdraw or '', safe='')}")
                answer = json.loads(through.request("DELETE", path)[0])
                return out.print(cli("share-withdrawn", count=answer["withdrawn"]), markup=False)
            made = through.post(f"/games/{game}/shares", {"at": at})
        return _print_made(made["share"], running.url.rstrip("/"))
    with layers(db) as lay, reported():
        lay.projector.state(game_id)  # an unknown game ends here, with its message
        from events.shares import ShareLinks

        links = ShareLinks(lay.log.store)
        if withdraw is not None or withdraw_all:
            if withdraw is not None:
                found = links.find(withdraw) if len(withdraw) <= 64 else None
                if found is None or found.game_id != game_id:
                    raise UnknownShare("no share link of this store has this token", params={})
            count = links.withdraw(game_id, withdraw)
            return out.print(cli("share-withdrawn", count=count), markup=False)
        made_token = links.make(game_id, at)
    _print_made(made_token, "")


def _print_made(token: str, base: str) -> None:
    out = console()
    out.print(cli("share-made", link=f"{base}/?share={token}"), markup=False, soft_wrap=True)
    out.print(cli("share-embed", embed=f"{base}/embed/{token}"), markup=False, soft_wrap=True)
    out.print(cli("share-picture", picture=f"{base}/shared/{token}/picture?format=png"), markup=False, soft_wrap=True)
    out.print(cli("share-token", token=token), markup=False, soft_wrap=True)


def slip(
    game_id: str = typer.Argument(..., help="an ended game"),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="also write the slip as a picture to this .png file (or its QR code to this .svg)"),
    db: str = Db,
) -> None:
    """Print an ended game's result slip: one line with its id, final scores and log head hash,
    sealed with the store's key (what its QR code holds); tabletape check-slip checks it."""
    from api import i18n

    fmt = None if out is None else out.rsplit(".", 1)[-1].lower()
    if fmt not in (None, "svg", "png"):
        fail(cli("msgs/slip-picture-format", out=out))
    running = service(db)
    game = quote(game_id, safe="")
    if running is not None:
        with reported():
            text = running.get(f"/games/{game}/slip")["text"]
            image = running.request("GET", f"/games/{game}/slip", [("format", fmt), ("lang", i18n.cli_lang)])[0] if fmt else None
    else:
        from api.errors import NotYetVisible
        from api.share import card, slip_out
        from events.messages import phrase

        with layers(db) as lay, reported():
            state = lay.projector.state(game_id)
            if state.ended is None:
                raise NotYetVisible(
                    "{what} is open to everyone once the game has ended, and to no one before",
                    params=dict(what=phrase("what/slip", "the end-of-game slip")), code="slip-before-end",
                )
            text = slip_out(lay, game_id, state)["text"]
            image = None
            if fmt == "png":
                from replay.table_picture import draw

                image = draw(card(lay, game_id, state, i18n.cli_lang), "png", text)
            elif fmt == "svg":
                from replay.table_picture import qr_svg

                image = qr_svg(text)
    if out is not None and image is not None:
        Path(out).write_bytes(image)
    typer.echo(text)


def _slip_text(given: str) -> str:
    """The slip itself, or the text of the file it names."""
    path = Path(given)
    try:
        is_file = len(given) < 4096 and path.is_file()
    except OSError:
        is_file = False
    if not is_file:
        return given
    try:
        with path.open("rb") as handle:
            raw = handle.read(SLIP_FILE_BYTES + 1)
    except OSError as exc:
        fail(cli("msgs/slip-file-unreadable", path=given, exc=exc.strerror or exc))
    if len(raw) > SLIP_FILE_BYTES:
        fail(cli("msgs/slip-file-too-large", path=given, limit=SLIP_FILE_BYTES))
    return raw.decode("utf-8", "replace")


def check_slip(
    slip: str = typer.Argument(..., help="the slip's line (as its QR code holds it), or a file holding it"),
    as_json: bool = typer.Option(False, "--json", help="print the verdict as JSON"),
    db: str = Db,
) -> None:
    """Say whether an end-of-game slip matches this store's stored, verified log, part by part;
    exit 1 when it does not."""
    from api import i18n
    from api.share import check_out

    text = _slip_text(slip)
    answer = answered(
        db,
        lambda running: running.post("/slips/check", {"slip": text[: 4 * 600 + 1]}, [("lang", i18n.cli_lang)]),
        lambda lay: check_out(lay, text, i18n.cli_lang),
    )
    if as_json:
        sys.stdout.write(json.dumps(answer, ensure_ascii=False, indent=1) + "\n")
    else:
        lines = [answer["words"]]
        marks = {True: "✓", False: "✗", None: "·"}
        lines += [f"  {marks[p['ok']]} {p['words']}" for p in answer["parts"]]
        if answer["since_words"]:
            lines.append(answer["since_words"])
        console().print("\n".join(lines), markup=False, soft_wrap=True, highlight=False)
    raise typer.Exit(0 if answer["matches"] else 1)
