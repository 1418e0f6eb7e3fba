"""Games: create, list, get, fork; and the titles that can be played."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, status

from api.auth import Credentials, Svc, ended, require_write
from api.models import (
    MAX_SEQ,
    CreateGame,
    ForkIn,
    ForkOut,
    GameCreatedOut,
    GameListOut,
    GameOut,
    GameSummary,
    Outcome,
    ResultDiffersOut,
    SeatToken,
    TitleOut,
    Tokens,
)
from api.routes import errors
from api.services import Services
from events.lifecycle import GameCreated
from events.log import new_game_id
from events.tokens import IssuedTokens
from projections import catalog
from projections.fold import GameState, start
from rules import titles

router = APIRouter(tags=["games"])


def tokens_out(players: tuple[str, ...], issued: IssuedTokens) -> Tokens:
    return Tokens(
        write_token=issued.write,
        seat_tokens=[SeatToken(seat=s, player=p, token=t) for s, (p, t) in enumerate(zip(players, issued.seats))],
    )


def outcome_of(game: GameState) -> Outcome | None:
    if game.ended is None:
        return None
    return Outcome(scores=list(game.ended.scores), ranks=list(game.ended.ranks), winners=list(game.ended.winners))


def result_differs_of(svc: Services, game_id: str) -> ResultDiffersOut | None:
    differs = svc.projector.result_differs(game_id)
    if differs is None:
        return None
    today = differs.today
    if today is not None:
        today = Outcome(scores=list(today.scores), ranks=list(today.ranks), winners=list(today.winners))
    return ResultDiffersOut(message=differs.reason, today=today)


def _utc(moment: datetime | None) -> datetime | None:
    """The store keeps naive UTC; the wire says so."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def summary(row: catalog.GameRow) -> GameSummary:
    return GameSummary(
        game_id=row.game_id,
        title=row.title,
        players=list(row.players),
        options=row.options,
        status=row.status,  # type: ignore[arg-type]
        created_at=_utc(row.created_at),
        ended_at=_utc(row.ended_at),
        duration_s=row.duration_s,
        parent_id=row.parent_id,
        forked_at=row.forked_at,
    )


@router.get("/titles", response_model=list[TitleOut])
def list_titles() -> list[TitleOut]:
    """The titles this service can record."""
    return [TitleOut(id=t.id, name=t.name) for t in titles().values()]


@router.post("/games", status_code=status.HTTP_201_CREATED, response_model=GameCreatedOut, responses=errors(409, 422))
def create_game(body: CreateGame, svc: Svc) -> GameCreatedOut:
    """Start a game; the answer holds its write token and one token per seat, shown only now."""
    created = GameCreated(title=body.title, players=tuple(body.players), options=body.options, seed=body.seed)
    start(created)  # the title checks players and options before any token is written
    game_id = new_game_id()
    issued = svc.tokens.issue(game_id, len(body.players))
    try:
        game_id, result = svc.recorder.create(
            body.title, body.players, body.options, seed=body.seed, actor=body.actor, game_id=game_id
        )
    except BaseException:
        svc.tokens.revoke(game_id)
        raise
    return GameCreatedOut(
        game_id=game_id,
        title=body.title,
        players=list(body.players),
        last_seq=result.last_seq,
        tokens=tokens_out(tuple(body.players), issued),
    )


@router.get("/games", response_model=GameListOut, responses=errors(422))
def list_games(
    svc: Svc,
    title: Annotated[str | None, Query(max_length=64)] = None,
    player: Annotated[str | None, Query(max_length=64, description="a player's name, any case")] = None,
    status: Literal["in-progress", "ended"] | None = None,
    created_from: Annotated[datetime | None, Query(description="created at or after (UTC if no offset)")] = None,
    created_to: Annotated[datetime | None, Query(description="created before (exclusive)")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
) -> GameListOut:
    """Games newest first, filtered by title, player, status and creation date."""
    keep = catalog.GameFilter(title, player, status, created_from, created_to)
    rows, total = catalog.list_games(svc.log.con, keep, limit, offset)
    return GameListOut(games=[summary(r) for r in rows], total=total, limit=limit, offset=offset)


def _row_now(svc: Services, game_id: str, game: GameState) -> catalog.GameRow:
    """The catalogue row; a game the read model has not seen yet (an import) is described from its log."""
    row = catalog.get_game(svc.log.con, game_id)
    if row is not None:
        return row
    first = svc.log.read(game_id, 1, 1)[0]
    return catalog.GameRow(
        game_id,
        game.created.title,
        game.players,
        dict(game.created.options),
        "ended" if game.ended else "in-progress",
        first.recorded_at,
        None,
        None,
        game.forked.parent_id if game.forked else None,
        game.forked.at_seq if game.forked else None,
    )


@router.get("/games/{game_id}", response_model=GameOut, responses=errors(404, 409, 422))
def get_game(game_id: str, svc: Svc) -> GameOut:
    """One game: its catalogue entry, where its log stands, whose turn it is, and its result (with
    ``result_differs`` when today's rules compute another one). A game whose stored log was altered
    is refused with ``chain-broken``, naming the seq."""
    game = svc.projector.state(game_id)
    history = svc.projector.history(game_id)
    seat = game.title.to_move(game.state)
    over = ended(game)
    return GameOut(
        **summary(_row_now(svc, game_id, game)).model_dump(),
        last_seq=history.last_seq,
        steps=game.length,
        to_move=seat,
        to_move_player=game.players[seat] if seat is not None and 0 <= seat < len(game.players) else None,
        status_line=game.title.status(game.state),
        can_redo=history.can_redo(),
        digital=game.created.seed is not None,
        seed=game.created.seed if over else None,
        outcome=outcome_of(game),
        result_differs=result_differs_of(svc, game_id) if over else None,
    )


@router.post(
    "/games/{game_id}/fork",
    status_code=status.HTTP_201_CREATED,
    response_model=ForkOut,
    responses=errors(401, 403, 404, 409, 422),
)
def fork_game(game_id: str, body: ForkIn, svc: Svc, creds: Credentials) -> ForkOut:
    """A new game whose history starts as this game's effective history up to ``at_seq``."""
    parent = svc.projector.state(game_id)
    over = ended(parent)
    if not over:
        require_write(svc, game_id, creds, "forking a game in progress")
    at_seq = svc.projector.history(game_id).last_seq if body.at_seq is None else body.at_seq
    child_id, result = svc.recorder.fork(game_id, at_seq, actor=body.actor)
    if over:
        tokens = tokens_out(parent.players, svc.tokens.issue(child_id, len(parent.players)))
    else:
        svc.tokens.inherit(game_id, child_id)
        tokens = None
    return ForkOut(
        game_id=child_id,
        parent_id=game_id,
        at_seq=at_seq,
        last_seq=result.last_seq,
        tokens_inherited=not over,
        tokens=tokens,
    )
