"""Reading a game back: its log, its state at any seq, replay frames, and the live stream."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec
from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api import i18n
from api.http.auth import Credentials, Svc, perspective, require_ended
from api.errors import MalformedRequest, NotYetVisible, TokenMissing, TokenWrong
from api.formats.jsonl import event_line
from api.http.models import EventsOut, FramesOut, Seq, StateOut
from api.http.routes import errors
from api.http.routes.games import outcome_of
from api.http.routes.record import check_seq, loaded, said_status
from api.http.services import Services
from api.http.streaming import frame_out, sse_notice, stream
from events.errors import TabletapeError
from replay import frames as replay_frames
from events.messages import phrase

router = APIRouter(tags=["replay"])

MSGPACK = "application/msgpack"
_json = msgspec.json.Encoder()
SeatQuery = Annotated[int | None, Query(ge=0, le=1000, description="a seat's view (needs that seat's token)")]
LastEventId = Annotated[str | None, Header(alias="Last-Event-ID", description="the last seq a client got (a reconnect)")]
FullQuery = Annotated[bool, Query(description="everything the log knows (only once the game has ended)")]
AcceptLanguage = Annotated[str | None, Header(description="the language of the frames' sentences (en, es, ja)")]
LangQuery = Annotated[
    str | None,
    Query(
        max_length=35,
        description="the language of the frames' sentences (en, es, ja): EventSource sends no headers of its own",
    ),
]


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
    require_ended(game_id, game, phrase("what/raw-log", "the raw log"), "log-before-end")
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
    accept_language: AcceptLanguage = None,
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
        status_line=said_status(game, i18n.negotiate(accept_language)),
        to_move=game.title.to_move(game.state),
        ended=game.ended is not None,
        outcome=outcome_of(game),
        view=eyes.see(game),
        notes=replay_frames.notes_listed(svc.projector.history(game_id), at),
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
    accept_language: AcceptLanguage = None,
) -> Response:
    """Replay frames for scrubbing: each step with who moved, the move, and the table after it
    (its ``text`` in the language ``Accept-Language`` asks for)."""
    now = svc.projector.state(game_id)
    eyes = perspective(svc, game_id, now, seat, full, creds)
    at = check_seq(svc, game_id, at)
    steps = replay_frames.frames(
        svc.projector, game_id, at=at, from_seq=from_seq, to_seq=to_seq, perspective=eyes, diff=mode == "diff"
    )
    lang = i18n.negotiate(accept_language)
    said = [frame_out(step, lang) for step in steps]
    payload = {"game_id": game_id, "at": at, "perspective": eyes.name, "seat": eyes.seat, "mode": mode, "frames": said}
    headers = {"Content-Language": lang, "Vary": "Accept-Language"}
    return Response(_json.encode(payload), media_type="application/json", headers=headers)


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


class Eyes:
    """What a live stream shows: the eyes it asked for while they are open, else the public view.

    Opening refuses eyes that are not open (as every read does); afterwards they are looked at
    again before every batch, and a change is announced by a ``perspective`` event."""

    def __init__(self, svc: Services, game_id: str, seat: int | None, full: bool, creds: Any) -> None:
        self._asked = (svc, game_id, seat, full, creds)
        self.shown = perspective(svc, game_id, svc.projector.state(game_id), seat, full, creds)

    def look(self, first: int) -> tuple[replay_frames.Perspective, bytes]:
        """The eyes of the frames from raw seq ``first`` on, and the notice if they changed.

        Called after the batch's last seq was read: the state it looks at holds every event of
        the batch, so an undo (or the end) among them decides for the whole batch."""
        svc, game_id, seat, full, creds = self._asked
        game = svc.projector.state(game_id)
        refusal: TabletapeError | None = None
        try:
            now = perspective(svc, game_id, game, seat, full, creds)
        except (TokenMissing, TokenWrong, NotYetVisible) as closed:  # since the stream opened
            now, refusal = perspective(svc, game_id, game, None, False, None), closed
        notice = b""
        if (now.seat, now.full) != (self.shown.seat, self.shown.full):
            notice = _perspective_notice(now, first, refusal)
        self.shown = now
        return now, notice


def _perspective_notice(eyes: replay_frames.Perspective, from_seq: int, refusal: TabletapeError | None) -> bytes:
    """The ``perspective`` event: the eyes of the frames from ``from_seq`` on, and why."""
    data = {"perspective": eyes.name, "seat": eyes.seat, "from_seq": from_seq, "code": None}
    if refusal is not None:
        data.update(code=refusal.code, message=f"the stream goes on in the public view: {refusal.message}")
    else:
        data["message"] = f"the stream shows the {eyes.name} view again"
    return sse_notice("perspective", data)


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
    last_event_id: LastEventId = None,
    lang: LangQuery = None,
    accept_language: AcceptLanguage = None,
) -> StreamingResponse:
    """New events as they are appended (Server-Sent Events, ``id`` = raw seq, ``data`` = a frame
    with the view after the event). Reconnecting with ``Last-Event-ID`` resumes without a gap.

    The stream checks its eyes again before every batch: when an undo takes an ended game back
    into play (the full view, or a seat's view without its token, closes) or a seat's token is
    re-issued, it goes on in the public view, announced by a ``perspective`` event (no ``id``).
    The frames' sentences are in the language ``lang`` names, else ``Accept-Language``."""
    language = i18n.negotiate(lang if lang is not None else accept_language)
    svc = request.app.state.services
    await loaded(svc, game_id)  # the game and its tokens in memory: the checks below need no query
    eyes = Eyes(svc, game_id, seat, full, creds)
    cursor = _resume_from(last_event_id, since, svc.log.last_seq(game_id))

    def in_memory() -> bool:
        return svc.projector.cached(game_id) and svc.tokens.cached(game_id)

    async def last_seq() -> int:
        seq = svc.log.cached_seq(game_id)
        return seq if seq is not None else await run_in_threadpool(svc.log.last_seq, game_id)

    def build(now: replay_frames.Perspective) -> Callable[[int, int], list[replay_frames.Frame]]:
        return lambda first, last: replay_frames.raw_frames(svc.projector, game_id, first, last, now)

    def read(first: int, last: int) -> bytes:
        now, notice = eyes.look(first)
        return notice + svc.hub.messages.read(game_id, now, first, last, build(now), language)

    async def messages(first: int, last: int) -> bytes:
        # cached messages are sent from the loop; folding a backlog goes to a worker thread
        if not in_memory():
            return await run_in_threadpool(read, first, last)
        now, notice = eyes.look(first)
        chunk = svc.hub.messages.cached(game_id, now, first, last, language)
        if chunk is None:
            chunk = await run_in_threadpool(svc.hub.messages.read, game_id, now, first, last, build(now), language)
        return notice + chunk

    body = stream(
        svc.hub, game_id, cursor, last_seq, messages, batch=svc.settings.stream_batch, ping_s=svc.settings.stream_ping_s
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Content-Language": language}
    return StreamingResponse(body, media_type="text/event-stream", headers=headers)
