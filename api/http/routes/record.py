"""Recording: moves, undo, redo, amendments, and the legal moves the recorder picks from.

Every write names ``expected_seq`` (the log's last seq as the writer knows it) and may carry an
idempotency key, in the body or as the ``Idempotency-Key`` header.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, NamedTuple, Protocol

from fastapi import APIRouter, Depends, Header, Request, Response, status
from fastapi.security import HTTPAuthorizationCredentials
from starlette.concurrency import run_in_threadpool

from api import i18n
from api.http.auth import Credentials, Svc, require_ended_or_write, require_write
from api.http.by_hand import bearer_token, validated_body, validated_header
from api.errors import MalformedRequest
from api.http.openapi import read_by_hand
from api.http.models import (
    AmendIn,
    AppendedEvent,
    AppendOut,
    IdempotencyKey,
    LegalMove,
    LegalMovesOut,
    MoveFields,
    MoveIn,
    NoteIn,
    RedoIn,
    Seq,
    UndoIn,
)
from api.http.routes import errors
from api.http.services import Services
from events import codec
from events.base import Event
from events.lifecycle import Noted
from events.log import AppendResult
from events.messages import phrase
from projections.fold import GameState, status_words
from replay.frames import describe_as_seen, notation, state_before, take_back_moves

router = APIRouter(tags=["recording"])

IdempotencyHeader = Annotated[IdempotencyKey | None, Header(alias="Idempotency-Key")]
StatusLanguage = Annotated[str | None, Header(description="the language of the status line (en, es, ja)")]
WRITE_ERRORS = {
    200: {"model": AppendOut, "description": "replayed: the idempotency key had already done this"},
    **errors(401, 403, 404, 409, 422),
}


class Keyed(Protocol):
    """A write's body: it may carry the idempotency key itself."""

    idempotency_key: str | None


def idempotency_key(body: Keyed, header: str | None) -> str | None:
    """The request's key, from the body or the ``Idempotency-Key`` header (which must agree)."""
    if header is not None and body.idempotency_key is not None and header != body.idempotency_key:
        raise MalformedRequest(
            "the Idempotency-Key header and the body's idempotency_key differ", code="idempotency-key-mismatch"
        )
    return body.idempotency_key if body.idempotency_key is not None else header


def check_seq(svc: Services, game_id: str, at: int | None) -> int:
    """``at`` as a raw seq of this game's log (default: its last); 0 reads as the creation."""
    last = svc.projector.history(game_id).last_seq
    if at is None:
        return last
    if at > last:
        raise MalformedRequest("seq {at} is past the end of the log (0..{last})", params=dict(at=at, last=last), code="seq-out-of-range", at=at)
    return at


def written(svc: Services, game_id: str, result: AppendResult, accept_language: str | None = None) -> Response:
    """What a write appended, and where the game stands now (its status line in the language
    ``Accept-Language`` asks for).

    Encoded here rather than by FastAPI: the model was built from trusted values, and skipping
    a second validation pass is measurable on the busiest route.
    """
    types = result.types or tuple(
        codec.tag_of(type(b)) for b in svc.log.read_bodies(game_id, result.first_seq, result.last_seq)
    )
    game = svc.projector.state(game_id)
    out = AppendOut(
        game_id=game_id,
        first_seq=result.first_seq,
        last_seq=result.last_seq,
        replayed=result.replayed,
        events=[AppendedEvent(seq=s, type=t) for s, t in enumerate(types, result.first_seq)],
        status_line=said_status(game, i18n.negotiate(accept_language)),
        to_move=game.title.to_move(game.state),
        ended=game.ended is not None,
    )
    return Response(
        content=out.model_dump_json(),
        status_code=status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED,
        media_type="application/json",
    )


def said_status(game: GameState, lang: str) -> str:
    """The game's status line in ``lang``."""
    if lang == i18n.DEFAULT and game.score_only is None:  # the busiest route's English, as the title words it
        return game.title.status(game.state)
    return i18n.sentence(status_words(game), lang)


async def loaded(svc: Services, game_id: str) -> None:
    """Bring the game and its tokens into memory off the event loop, unless they are there.

    The write routes run on the event loop (a worker-thread hop per request was a large part of
    an append's cost); this keeps a cold game's first read from stalling every other request.
    """
    if not (svc.projector.cached(game_id) and svc.tokens.cached(game_id)):
        await run_in_threadpool(load_game, svc, game_id)


def load_game(svc: Services, game_id: str) -> None:
    svc.projector.history(game_id)  # raises UnknownGame
    svc.tokens.has_tokens(game_id)


def move_event(game: GameState, body: MoveFields) -> Event:
    """The request's move as an event: parsed from notation against ``game``, or decoded."""
    if body.notation is not None:
        return game.title.parse_move(game.state, body.notation)
    return codec.from_wire(body.move)


@router.post(
    "/games/{game_id}/moves",
    status_code=status.HTTP_201_CREATED,
    response_model=AppendOut,
    responses=WRITE_ERRORS,
    openapi_extra=read_by_hand(MoveIn, security=True, headers={"Idempotency-Key": IdempotencyKey}),
)
async def record_move(game_id: str, request: Request) -> Response:
    """Record a move; the rules decide it, and the end or a digital game's chance follow it."""
    # api.http.fast_lane answers this path before routing; this route documents it and stays correct
    # wherever the lane is not in front (an app mounted under a prefix)
    svc = request.app.state.services
    await writer(svc, game_id, request.headers.get("authorization"))
    return await append_move(
        svc, game_id, await request.body(), request.headers.get("idempotency-key"), request.headers.get("accept-language")
    )


async def writer(svc: Services, game_id: str, authorization: str | None) -> None:
    """The game exists and ``authorization`` holds its write token: checked before the body is
    read, so a stranger's request costs no parsing."""
    await loaded(svc, game_id)
    require_write(svc, game_id, bearer_token(authorization))


async def append_move(
    svc: Services, game_id: str, raw: bytes, key_header: str | None, accept_language: str | None = None
) -> Response:
    """The moves route's work, from the raw body and its key header, once ``writer`` has passed.

    The busiest route reads its body, token and key itself, validated by the same models the
    schema documents: FastAPI's dependency solving was a quarter of an append's server CPU.
    """
    body = validated_body(MoveIn, raw)
    key = validated_header(key_header, "Idempotency-Key", IdempotencyKey)
    move = move_event(svc.projector.state(game_id), body)
    result = await svc.recorder.record_async(
        game_id, move, body.expected_seq, idempotency_key=idempotency_key(body, key), actor=body.actor
    )
    return written(svc, game_id, result, accept_language)


def writer_blocking(svc: Services, game_id: str, authorization: str | None) -> None:
    """``writer`` in a worker thread: on a store other processes write (PostgreSQL) the game's
    seq and tokens are asked of the database on every request, which must not stall the loop."""
    load_game(svc, game_id)
    require_write(svc, game_id, bearer_token(authorization))


def append_move_blocking(
    svc: Services, game_id: str, raw: bytes, key_header: str | None, accept_language: str | None = None
) -> Response:
    """``append_move`` in a worker thread, for the same reason as ``writer_blocking``."""
    body = validated_body(MoveIn, raw)
    key = validated_header(key_header, "Idempotency-Key", IdempotencyKey)
    move = move_event(svc.projector.state(game_id), body)
    result = svc.recorder.record(
        game_id, move, body.expected_seq, idempotency_key=idempotency_key(body, key), actor=body.actor
    )
    return written(svc, game_id, result, accept_language)


class HistoryEdit(NamedTuple):
    """What an undo or a redo takes beside its body: the services, the credentials, the
    ``Idempotency-Key`` header and the status line's language."""

    svc: Services
    creds: HTTPAuthorizationCredentials | None
    key: str | None
    accept_language: str | None


def history_edit(
    svc: Svc, creds: Credentials, key: IdempotencyHeader = None, accept_language: StatusLanguage = None
) -> HistoryEdit:
    return HistoryEdit(svc, creds, key, accept_language)


Edit = Annotated[HistoryEdit, Depends(history_edit)]


async def edited(
    edit: HistoryEdit, game_id: str, body: Keyed, step: Callable[..., AppendResult],
    step_async: Callable[..., Awaitable[AppendResult]], args: Callable[[], tuple[int | None, ...]],
) -> Response:
    """An undo's or a redo's work: the game loaded, the write token checked, then the recorder's
    ``step_async`` with ``args()`` on the loop; on a store other processes write (PostgreSQL) all
    of it, with ``step``, in a worker thread (see ``writer_blocking``)."""
    if edit.svc.log.shared:
        return await run_in_threadpool(edited_blocking, edit, game_id, body, step, args)
    await loaded(edit.svc, game_id)
    require_write(edit.svc, game_id, edit.creds)
    result = await step_async(game_id, *args(), idempotency_key=idempotency_key(body, edit.key), actor=body.actor)
    return written(edit.svc, game_id, result, edit.accept_language)


def edited_blocking(
    edit: HistoryEdit, game_id: str, body: Keyed, step: Callable[..., AppendResult],
    args: Callable[[], tuple[int | None, ...]],
) -> Response:
    load_game(edit.svc, game_id)
    require_write(edit.svc, game_id, edit.creds)
    result = step(game_id, *args(), idempotency_key=idempotency_key(body, edit.key), actor=body.actor)
    return written(edit.svc, game_id, result, edit.accept_language)


@router.post(
    "/games/{game_id}/undo", status_code=status.HTTP_201_CREATED, response_model=AppendOut, responses=WRITE_ERRORS
)
async def undo(game_id: str, body: UndoIn, edit: Edit) -> Response:
    """Back to the state after raw seq ``to_seq`` (any point down to 0), or take back the last move."""
    def args() -> tuple[int, int | None]:  # asked once the game is loaded: ``undo_to`` reads its history
        return undo_to(edit.svc, game_id, body), body.expected_seq

    recorder = edit.svc.recorder
    return await edited(edit, game_id, body, recorder.undo, recorder.undo_async, args)


def undo_to(svc: Services, game_id: str, body: UndoIn) -> int:
    """The raw seq an undo goes back to: ``to_seq``, else before the last ``moves`` moves."""
    if body.to_seq is not None:
        return body.to_seq
    live = svc.projector.live(game_id)
    return take_back_moves(live.history.entries(), live.head_state.created.seed is not None, body.moves or 1)


@router.post(
    "/games/{game_id}/redo", status_code=status.HTTP_201_CREATED, response_model=AppendOut, responses=WRITE_ERRORS
)
async def redo(game_id: str, body: RedoIn, edit: Edit) -> Response:
    """Re-apply what the last undo removed (while nothing new was recorded since)."""
    recorder = edit.svc.recorder
    return await edited(edit, game_id, body, recorder.redo, recorder.redo_async, lambda: (body.expected_seq,))


@router.post(
    "/games/{game_id}/notes", status_code=status.HTTP_201_CREATED, response_model=AppendOut, responses=WRITE_ERRORS
)
async def note(game_id: str, body: NoteIn, edit: Edit) -> Response:
    """Write a note on a step (``game.annotated``): it changes nothing in the game and is not a move.
    Correct it with ``/amend`` (``move`` a ``game.annotated``), remove it with ``/undo``."""
    recorder = edit.svc.recorder
    return await edited(edit, game_id, body, recorder.note, recorder.note_async, lambda: (body.step, body.text, body.expected_seq))


@router.post(
    "/games/{game_id}/amend", status_code=status.HTTP_201_CREATED, response_model=AppendOut, responses=WRITE_ERRORS
)
def amend(
    game_id: str, body: AmendIn, svc: Svc, creds: Credentials, key: IdempotencyHeader = None,
    accept_language: StatusLanguage = None,
) -> AppendOut:
    """Replace the event at raw ``seq``; refused (409, with ``breaking_seq``) if a later event breaks."""
    require_write(svc, game_id, creds)
    if any(note.seq == body.seq for note in svc.projector.history(game_id).notes_at()):
        move = note_amendment(body)
    else:
        move = move_event(state_before(svc.projector, game_id, body.seq), body)
    result = svc.recorder.amend(
        game_id, body.seq, move, body.expected_seq, idempotency_key=idempotency_key(body, key), actor=body.actor
    )
    return written(svc, game_id, result, accept_language)


def note_amendment(body: AmendIn) -> Event:
    """The new note of an amendment at a note's seq: a ``game.annotated`` as ``move`` (a note has no
    notation)."""
    move = codec.from_wire(body.move) if body.move is not None else None
    if not isinstance(move, Noted):
        raise MalformedRequest(
            "seq {seq} is a note: amend it with a move of type game.annotated", params=dict(seq=body.seq), code="amend-note-shape"
        )
    return move


def _legal(game: GameState, move: Event) -> LegalMove:
    return LegalMove(notation=notation(game, move), move=codec.to_builtins(move))


@router.get("/games/{game_id}/legal-moves", response_model=LegalMovesOut, responses=errors(401, 403, 404, 422))
def legal_moves(
    game_id: str,
    svc: Svc,
    creds: Credentials,
    at: Seq | None = None,
    accept_language: StatusLanguage = None,
) -> LegalMovesOut:
    """The moves the recorder may pick now, or after raw seq ``at``. They can show the hand of the
    seat to move, so before the end they need the write token. The status line is in the language
    ``Accept-Language`` asks for."""
    game = svc.projector.state(game_id)
    require_ended_or_write(svc, game_id, game, creds, phrase("what/legal-moves", "legal moves"))
    at = check_seq(svc, game_id, at)
    then = svc.projector.state_at(game_id, at)
    moves = [] if then.ended is not None else then.title.legal_moves(then.state)
    node = svc.projector.history(game_id).at(at)
    return LegalMovesOut(
        game_id=game_id,
        at=at,
        to_move=then.title.to_move(then.state),
        status_line=said_status(then, i18n.negotiate(accept_language)),
        moves=[_legal(then, m) for m in moves],
        ended=then.ended is not None,
        last=describe_as_seen(then, node.entries()[-1].body, game.ended is not None) if node is not None else None,
    )
