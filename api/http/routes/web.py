"""The web page for the table, and the few reads it needs that the rest of the API lacks.

- ``GET /`` serves the page (``api/web/static/index.html``); ``/static/...`` its modules and CSS.
  Plain HTML, ES modules and CSS: nothing to build.
- ``GET /titles/details``: each title with its player counts and its options as a JSON schema
  (derived from the title's ``Options`` struct), so the page builds the start form from data.
- ``GET /titles/{title_id}/content``: the title's content pack (map, cards, tiles), for drawing;
  ``GET /games/{game_id}/content``: the content one game is drawn with (its pinned pack, plus the
  map components its log has described: Marco Polo II's map is not public).
- ``GET /games/{game_id}/chance``: the fact the table must report now (a deal, a roll, a draw),
  so the page offers a form for it when no seat is to move.
- ``POST /games/{game_id}/chance``: the move that records a chance outcome (dice values, cards in
  order), in notation, built by the title; nothing is written (record it with ``/moves``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import msgspec
from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from api import i18n
from api.http.auth import Credentials, Svc, require_ended_or_write
from api.http.models import Seq, Strict
from api.http.routes import NamesLanguage, errors
from api.http.routes.record import StatusLanguage, check_seq, said_status
from events import codec
from events.errors import IllegalMove, TabletapeError
from replay.frames import notation
from rules import get_title, titles
from events.messages import phrase
from projections.fold import status_words

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"

router = APIRouter(tags=["web"])


class PlayersRange(BaseModel):
    min: int
    max: int


class TitleDetailOut(BaseModel):
    id: str
    name: str
    players: PlayersRange = Field(description="how many players the title accepts")
    options: dict[str, Any] = Field(description="the title's options as a JSON schema (object with properties)")
    options_doc: str = Field("", description="what the options mean, as the title documents them")
    has_content: bool = Field(description="a content pack (map, cards, tiles) is served at /titles/{id}/content")


class ChanceOut(BaseModel):
    game_id: str
    at: int
    to_move: int | None = None
    status_line: str
    kind: str | None = Field(None, description="'dice' or 'shuffle' when the table must report a fact, else null")
    items: list[str] = Field(default_factory=list, description="shuffle: the items chance orders")
    count: int = Field(0, description="dice: how many values")
    sides: int = 6
    groups: list[int] | None = Field(None, description="dice: how many values each seat rolls, in seat order")


class ChanceIn(Strict):
    outcome: Annotated[list[int | Annotated[str, Field(max_length=64)]], Field(max_length=200)] = Field(
        description="dice values, or items in the order chance put them"
    )
    at: Seq | None = Field(None, description="after this raw seq (default: now)")


class ComposedOut(BaseModel):
    notation: str | None
    move: dict[str, Any]


def _players_range(title: Any) -> PlayersRange:
    fits = []
    for n in range(1, 9):
        try:
            title.setup(tuple(f"P{i}" for i in range(n)), {})
        except Exception:  # noqa: BLE001 - InvalidOptions names the rule; any refusal: not that count
            continue
        fits.append(n)
    return PlayersRange(min=min(fits, default=2), max=max(fits, default=4))


def _options_schema(title: Any) -> tuple[dict[str, Any], str]:
    options = title.options_type
    if options is None:
        return {"type": "object", "properties": {}}, ""
    _, components = msgspec.json.schema_components([options], ref_template="#/$defs/{name}")
    schema = components.get(options.__name__, {"type": "object", "properties": {}})
    doc = " ".join((options.__doc__ or "").split())
    return schema, doc


_DETAILS: list[TitleDetailOut] | None = None


def _table_content(title: Any, state: Any = None) -> dict[str, Any] | None:
    """What the title says a game (or, without a state, any game) is drawn with; None: nothing."""
    return title.table_content(state)


@router.get("/", include_in_schema=False)
def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/titles/details", response_model=list[TitleDetailOut], responses=errors(422))
def title_details(accept_language: NamesLanguage = None) -> list[TitleDetailOut]:
    """Each title with its player counts and its options (a JSON schema), to build a start form;
    its name in the language ``Accept-Language`` asks for."""
    lang = i18n.negotiate(accept_language)
    return [d.model_copy(update={"name": i18n.title_name(get_title(d.id), lang)}) for d in _details()]


def _details() -> list[TitleDetailOut]:
    global _DETAILS
    if _DETAILS is None or len(_DETAILS) != len(titles()):
        out = []
        for title in titles().values():
            schema, doc = _options_schema(title)
            out.append(
                TitleDetailOut(
                    id=title.id,
                    name=title.name,
                    players=_players_range(title),
                    options=schema,
                    options_doc=doc,
                    has_content=_table_content(title) is not None,
                )
            )
        _DETAILS = out
    return _DETAILS


@router.get("/titles/{title_id}/content", responses=errors(422))
def title_content(title_id: str) -> JSONResponse:
    """The title's content pack (map, routes, cards, tiles) as plain data; ``{}`` if it has none."""
    pack = _table_content(get_title(title_id))
    return JSONResponse(pack or {}, headers={"Cache-Control": "max-age=3600"})


@router.get("/games/{game_id}/content", responses=errors(404, 422))
def game_content(game_id: str, svc: Svc) -> JSONResponse:
    """The content this game is drawn with: its title's content pack (map, cards, tiles), and the
    map components its log has described; ``{}`` if the title has none."""
    game = svc.projector.state(game_id)
    return JSONResponse(_table_content(game.title, game.state) or {})


def _chance_state(svc: Any, game_id: str, creds: Any, at: int | None) -> tuple[Any, int]:
    game = svc.projector.state(game_id)
    require_ended_or_write(svc, game_id, game, creds, phrase("what/chance-awaited", "the chance awaited"))
    at = check_seq(svc, game_id, at)
    return svc.projector.state_at(game_id, at), at


@router.get("/games/{game_id}/chance", response_model=ChanceOut, responses=errors(401, 403, 404, 422))
def read_chance(
    game_id: str, svc: Svc, creds: Credentials, at: Seq | None = None, accept_language: StatusLanguage = None
) -> ChanceOut:
    """What the table must report now (or after raw seq ``at``): a deal, a roll, a drawn card. Like
    the legal moves, it can name unseen cards, so before the end it needs the write token. The
    status line is in the language ``Accept-Language`` asks for."""
    then, at = _chance_state(svc, game_id, creds, at)
    title, state = then.title, then.state
    chance = None if then.ended is not None else title.chance(state)
    out = ChanceOut(
        game_id=game_id, at=at, to_move=title.to_move(state), status_line=said_status(then, i18n.negotiate(accept_language))
    )
    if chance is None:
        return out
    out.kind = chance.kind
    out.items = list(chance.items)
    out.count = chance.count
    out.sides = chance.sides
    if chance.kind == "dice" and chance.count > 1:
        try:
            groups = title.dice_groups(state)
            out.groups = [int(n) for n in groups] if groups is not None else None
        except Exception:  # noqa: BLE001 - groups are a convenience
            out.groups = None
    return out


@router.post("/games/{game_id}/chance", response_model=ComposedOut, responses=errors(401, 403, 404, 422))
def compose_chance(game_id: str, body: ChanceIn, svc: Svc, creds: Credentials) -> ComposedOut:
    """The move that records this chance outcome (in notation and structured form), as the title
    builds it. Nothing is written: record it with ``POST /games/{id}/moves``."""
    then, _ = _chance_state(svc, game_id, creds, body.at)
    title = then.title
    chance = None if then.ended is not None else title.chance(then.state)
    if chance is None:
        raise IllegalMove("no chance outcome is awaited now: {status}", params=dict(status=status_words(then)), code="no-chance-awaited")
    _check_outcome(chance, body.outcome)
    try:
        event = title.chance_event(then.state, tuple(body.outcome))
        move = codec.to_builtins(event)
        text = notation(then, event)
    except TabletapeError:
        raise
    except Exception as exc:  # noqa: BLE001 - an outcome of the wrong shape for this title
        why = "this outcome does not fit what chance decides now: {exc}"
        raise IllegalMove(why, code="bad-chance-outcome", params=dict(exc=str(exc))) from None
    return ComposedOut(notation=text, move=move)


def _check_outcome(chance: Any, outcome: list[Any]) -> None:
    """Dice: ``count`` whole numbers in 1..sides. A shuffle: items of those chance orders (no more
    copies of one than there are)."""
    if chance.kind == "dice":
        ok = len(outcome) == chance.count and all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= chance.sides for v in outcome
        )
        why = phrase("why/dice-values", "{count} die value(s) from 1 to {sides}", count=chance.count, sides=chance.sides)
    else:
        left = Counter(chance.items)  # a deck may hold copies (Lost Cities: three wagers a colour)
        ok = bool(outcome) and all(isinstance(v, str) for v in outcome)
        if ok:
            left.subtract(outcome)
            ok = min(left.values(), default=0) >= 0
        why = phrase("why/chance-items", "items of those chance orders now, each at most as often as it is there (GET /games/{{id}}/chance)")
    if not ok:
        message = "this outcome does not fit what chance decides now: expected {why}"
        raise IllegalMove(message, code="bad-chance-outcome", params=dict(why=why))


class _Static(StaticFiles):
    """The page's files, revalidated on every load (a 304 when unchanged): after an upgrade no
    browser mixes old and new modules."""

    def file_response(self, *args: Any, **kwargs: Any) -> Any:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def install(app: FastAPI) -> None:
    """The page's routes and its static files."""
    app.include_router(router)
    app.mount("/static", _Static(directory=STATIC), name="static")
