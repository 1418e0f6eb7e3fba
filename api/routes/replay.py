"""Reading a game back: its log, its state at any seq, replay frames, and the live stream."""

from __future__ import annotations

import re
from typing import Annotated, Literal

import msgspec
from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.auth import Credentials, Svc, ended, perspective, require_ended
from api.errors import MalformedRequest
from api.jsonl import event_line
from api.models import EventsOut, FramesOut, Seq, StateOut
from api.routes import errors
from api.routes.games import outcome_of
from api.routes.record import check_seq
from api.streaming import stream
from replay import frames as replay_frames

router = APIRouter(tags=["replay"])

MSGPACK = "application/msgpack"
_json = msgspec.json.Encoder()
SeatQuery = Annotated[int | None, Query(ge=0, le=1000, description="a seat's view (needs that seat's token)")]
FullQuery = Annotated[bool, Query(description="everything the log knows (only once the game has ended)")]


def _wants_msgpack(accept: str | None) -> bool:
    return accept is not None and ("application/msgpack" in accept or "application/x-msgpack" in accept)


@router.get(
    "/games/{game_id}/events",
    response_model=EventsOut,
    responses={200: {"content": {MSGPACK: {}}}, **errors(403, 404, 422)},
)
def read_events(
    game_id: str,
    svc: Svc,
    from_seq: Annotated[int, Query(ge=1, le=2**31 - 1)] = 1,
    to_seq: Seq | None = None,
    accept: Annotated[str | None, Header()] = None,
) -> Response:
    """The raw log: every event with its envelope and hash chain (msgpack with ``Accept:
    application/msgpack``). It holds every secret, so it opens once the game has ended."""
    game = svc.projector.state(game_id)
    require_ended(game_id, game, "the raw log", "log-before-end")
    events = [event_line(e) for e in svc.log.read(game_id, from_seq, to_seq)]
    payload = {"game_id": game_id, "last_seq": svc.log.last_seq(game_id), "events": events}
    if _wants_msgpack(accept):
        return Response(msgspec.msgpack.encode(payload), media_type=MSGPACK)
    return Response(_json.encode(payload), media_type="application/json")


@router.get("/games/{game_id}/state", response_model=StateOut, responses=errors(401, 403, 404, 422))
def read_state(
    game_id: str,
    svc: Svc,
    creds: Credentials,
    at: Seq | None = None,
    seat: SeatQuery = None,
    full: FullQuery = False,
) -> StateOut:
    """The table after raw seq ``at`` (default: now): the public view, a seat's view, or the full view."""
    now = svc.projector.state(game_id)
    eyes = perspective(svc, game_id, now, seat, full, creds)
    at = check_seq(svc, game_id, at)
    game = svc.projector.state_at(game_id, at)
    return StateOut(
        game_id=game_id,
        at=at,
        last_seq=svc.projector.history(game_id).last_seq,
        steps=game.length,
        perspective=eyes.name,  # type: ignore[arg-type]
        seat=eyes.seat,
        status_line=game.title.status(game.state),
        to_move=game.title.to_move(game.state),
        ended=game.ended is not None,
        outcome=outcome_of(game),
        view=eyes.see(game),
    )


@router.get("/games/{game_id}/frames", response_model=FramesOut, responses=errors(401, 403, 404, 422))
def read_frames(
    game_id: str,
    svc: Svc,
    creds: Credentials,
    at: Annotated[Seq | None, Query(description="the effective history after this raw seq (default: now)")] = None,
    from_seq: Annotated[Seq | None, Query(description="first step's raw seq")] = None,
    to_seq: Annotated[Seq | None, Query(description="last step's raw seq")] = None,
    seat: SeatQuery = None,
    full: FullQuery = False,
    mode: Annotated[Literal["view", "diff"], Query(description="diff: views after the first as JSON-patch")] = "view",
) -> Response:
    """Replay frames for scrubbing: each step with who moved, the move, and the table after it."""
    now = svc.projector.state(game_id)
    eyes = perspective(svc, game_id, now, seat, full, creds)
    at = check_seq(svc, game_id, at)
    steps = replay_frames.frames(
        svc.projector, game_id, at=at, from_seq=from_seq, to_seq=to_seq, perspective=eyes, diff=mode == "diff"
    )
    payload = {"game_id": game_id, "at": at, "perspective": eyes.name, "seat": eyes.seat, "mode": mode, "frames": steps}
    return Response(_json.encode(payload), media_type="application/json")


_SEQ = re.compile(r"[0-9]{1,20}")


def _resume_from(last_event_id: str | None, since: int | None, last: int) -> int:
    """The seq a stream starts after: ``Last-Event-ID`` (a reconnect), ``since``, or now."""
    if last_event_id is not None:
        # ASCII digits only: str.isdigit() also accepts "²", which int() refuses
        if _SEQ.fullmatch(last_event_id.strip()) is None:
            raise MalformedRequest("Last-Event-ID must be a seq (a whole number)", code="bad-last-event-id")
        return min(int(last_event_id), last)
    if since is not None:
        return min(since, last)
    return last


@router.get(
    "/games/{game_id}/stream",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "Server-Sent Events"},
        **errors(401, 403, 404, 422),
    },
)
async def live_stream(
    game_id: str,
    request: Request,
    creds: Credentials,
    since: Annotated[Seq | None, Query(description="send events after this raw seq first")] = None,
    seat: SeatQuery = None,
    full: FullQuery = False,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", description="the last seq a client got (a reconnect)")] = None,
) -> StreamingResponse:
    """New events as they are appended (Server-Sent Events, ``id`` = raw seq, ``data`` = a frame
    with the view after the event). Reconnecting with ``Last-Event-ID`` resumes without a gap."""
    svc = request.app.state.services

    def opening() -> tuple[replay_frames.Perspective, int]:
        eyes = perspective(svc, game_id, svc.projector.state(game_id), seat, full, creds)
        return eyes, _resume_from(last_event_id, since, svc.log.last_seq(game_id))

    eyes, cursor = await run_in_threadpool(opening)

    def frames(first: int, last: int) -> list[replay_frames.Frame]:
        # the end of the game opens every move: look again at each batch
        over = ended(svc.projector.state(game_id))
        eyes_now = replay_frames.Perspective(seat=eyes.seat, full=eyes.full, all_moves=eyes.all_moves or over)
        return replay_frames.raw_frames(svc.projector, game_id, first, last, eyes_now)

    body = stream(
        svc.hub,
        game_id,
        cursor,
        lambda: svc.log.last_seq(game_id),
        frames,
        batch=svc.settings.stream_batch,
        ping_s=svc.settings.stream_ping_s,
        run=run_in_threadpool,
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(body, media_type="text/event-stream", headers=headers)
