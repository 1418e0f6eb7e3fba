"""Games: create, list, get, fork; and the titles that can be played."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Header, Query, Response, status

from api import i18n
from api.http.auth import Credentials, Svc, ended, require_write
from api.http.models import (
    MAX_SEQ,
    CreateGame,
    ForkIn,
    ForkOut,
    GameCreatedOut,
    GameListOut,
    GameOut,
    GameSummary,
    Moment,
    Outcome,
    ResultDiffersOut,
    SeatToken,
    TitleOut,
    Tokens,
)
from api.http.routes import NamesLanguage, errors
from api.http.routes.record import IdempotencyHeader, idempotency_key, said_status
from api.http.services import Services
from events.creation_keys import CREATION, fork_scope
from events.errors import ConcurrencyConflict
from events.lifecycle import GameCreated
from events.log import AppendResult, new_game_id
from events.tokens import IssuedTokens, derived_tokens
from projections import catalog
from projections.fold import GameState, start
from rules import titles
from events.messages import phrase

router = APIRouter(tags=["games"])

REPLAYED = "replayed: this idempotency key had already done it with the same request; the first answer again"


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
        score_only=row.score_only,
    )


@router.get("/titles", response_model=list[TitleOut], responses=errors(422))
def list_titles(
    accept_language: NamesLanguage = None,
) -> list[TitleOut]:
    """The titles this service can record, each named as its edition in the language
    ``Accept-Language`` asks for does (the ``id`` is the same in every language)."""
    lang = i18n.negotiate(accept_language)
    return [TitleOut(id=t.id, name=i18n.title_name(t, lang)) for t in titles().values()]


def canonical(body: CreateGame | ForkIn) -> bytes:
    """The request as validated (defaults filled in), without its key: what a retry must repeat."""
    fields = body.model_dump(mode="json", exclude={"idempotency_key"})
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def settle_failed(svc: Services, game_id: str, scope: str, key: str | None, exc: BaseException) -> None:
    """After a creation or fork failed: return if a retry under the same key wrote the game
    meanwhile (the caller answers as that retry); else leave nothing of it behind (its tokens,
    the key's claim) and raise. An existing game's tokens are never revoked."""
    if svc.log.exists(game_id):
        if key is not None and isinstance(exc, ConcurrencyConflict):
            return
        raise exc
    svc.tokens.revoke(game_id)
    if key is not None:
        svc.creation_keys.release(scope, key)
    raise exc


def replayed(response: Response) -> None:
    """A retry answers what the key did first, with 200 instead of 201."""
    response.status_code = status.HTTP_200_OK


@router.post(
    "/games",
    status_code=status.HTTP_201_CREATED,
    response_model=GameCreatedOut,
    responses={200: {"model": GameCreatedOut, "description": REPLAYED}, **errors(409, 422, 503)},
)
def create_game(
    body: CreateGame, svc: Svc, response: Response, key: IdempotencyHeader = None
) -> GameCreatedOut:
    """Start a game; the answer holds its write token and one token per seat, shown only now
    (and to a retry with the same idempotency key and the same request)."""
    with svc.packs.creating(body.title):
        return _create_game(body, svc, response, key)


def _create_game(body: CreateGame, svc: Services, response: Response, key: str | None) -> GameCreatedOut:
    # a game of a title with packs is pinned to {id, hash} of one this store holds (the working
    # pack when it names none); the request as sent is what a retry must repeat
    options, growth = svc.packs.prepare(body.title, body.options)
    created = GameCreated(title=body.title, players=tuple(body.players), options=options, seed=body.seed)
    start(created)  # the title checks players and options before any token or key is written
    key = idempotency_key(body, key)
    if key is None:
        game_id, issued = new_game_id(), None
    else:
        claim = svc.creation_keys.claim(CREATION, key, canonical(body), new_game_id())
        game_id, issued = claim.game_id, derived_tokens(claim.secret, len(body.players))
    result = None
    if key is None or not svc.log.exists(game_id):
        issued = svc.tokens.issue(game_id, len(body.players), issued)
        try:
            svc.packs.commit(growth)
            _, result = svc.recorder.create(
                body.title, body.players, options, seed=body.seed, actor=body.actor, game_id=game_id
            )
        except BaseException as exc:
            settle_failed(svc, game_id, CREATION, key, exc)  # returns if a retry created it meanwhile
    if result is None:
        result, _ = svc.recorder.first_append(game_id)
        replayed(response)
    assert issued is not None
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
    created_from: Annotated[Moment | None, Query(description="created at or after (UTC if no offset)")] = None,
    created_to: Annotated[Moment | None, Query(description="created before (exclusive)")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    accept_language: NamesLanguage = None,
) -> GameListOut:
    """Games newest first, filtered by title, player, status and creation date; ``unreadable`` names
    the stored games left out because this code cannot read them."""
    keep = catalog.GameFilter(title, player, status, created_from, created_to)
    caught_up(svc)
    rows, total = catalog.list_games(svc.log.con, keep, limit, offset)
    return GameListOut(
        games=[summary(r) for r in rows], total=total, limit=limit, offset=offset,
        unreadable=svc.unreadable(i18n.negotiate(accept_language)),
    )


def caught_up(svc: Services) -> None:
    """On a store other workers write (PostgreSQL), bring the catalogue up to their appends."""
    if svc.log.shared and svc.projector.read_models is not None:
        svc.projector.read_models.catch_up()


def _row_now(svc: Services, game_id: str, game: GameState) -> catalog.GameRow:
    """The catalogue row; a game the read model has not seen yet (an import) is described from its log."""
    caught_up(svc)
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
        game.score_only is not None,
    )


@router.get("/games/{game_id}", response_model=GameOut, responses=errors(404, 409, 422))
def get_game(
    game_id: str,
    svc: Svc,
    accept_language: Annotated[str | None, Header(description="the language of the status line")] = None,
) -> GameOut:
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
        status_line=said_status(game, i18n.negotiate(accept_language)),
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
    responses={200: {"model": ForkOut, "description": REPLAYED}, **errors(401, 403, 404, 409, 422)},
)
def fork_game(
    game_id: str, body: ForkIn, svc: Svc, creds: Credentials, response: Response, key: IdempotencyHeader = None
) -> ForkOut:
    """A new game whose history starts as this game's effective history up to ``at_seq``.

    An idempotency key forks a game once: its retry answers that fork again."""
    parent = svc.projector.state(game_id)
    over = ended(parent)
    if not over:
        require_write(svc, game_id, creds, phrase("what/forking", "forking a game in progress"))
    key = idempotency_key(body, key)
    if key is None:
        child_id, derived = new_game_id(), None
    else:
        claim = svc.creation_keys.claim(fork_scope(game_id), key, canonical(body), new_game_id())
        child_id, derived = claim.game_id, derived_tokens(claim.secret, len(parent.players))
    if key is None or not svc.log.exists(child_id):
        # the tokens come first, as for a new game: a fork is never in the log without them
        issued = svc.tokens.issue(child_id, len(parent.players), derived) if over else None
        if not over:
            svc.tokens.inherit(game_id, child_id)
        at_seq = svc.projector.history(game_id).last_seq if body.at_seq is None else body.at_seq
        try:
            _, result = svc.recorder.fork(game_id, at_seq, actor=body.actor, new_id=child_id)
        except BaseException as exc:
            settle_failed(svc, child_id, fork_scope(game_id), key, exc)  # returns if a retry forked it meanwhile
        else:
            return fork_out(game_id, child_id, at_seq, result, parent.players, issued)
    result, forked = svc.recorder.first_append(child_id)
    assert forked is not None and derived is not None
    replayed(response)
    issued = derived if svc.tokens.holds(child_id, derived) else None  # else it inherited the parent's
    return fork_out(game_id, child_id, forked.at_seq, result, parent.players, issued)


def fork_out(
    parent_id: str, child_id: str, at_seq: int, result: AppendResult, players: tuple[str, ...],
    issued: IssuedTokens | None,
) -> ForkOut:
    """A fork's answer: its new tokens (a fork of an ended game), or none (it has the parent's)."""
    return ForkOut(
        game_id=child_id,
        parent_id=parent_id,
        at_seq=at_seq,
        last_seq=result.last_seq,
        tokens_inherited=issued is None,
        tokens=None if issued is None else tokens_out(players, issued),
    )
