"""``POST /games/{game_id}/moves`` answered ahead of FastAPI's routing, and the write token of
every other game write checked before its body is read.

Recording moves is the service's hot path. Routing through every registered route, FastAPI's
request wrapper and the inner middleware cost about a quarter of an append's server CPU under
the sustained HTTP benchmark; the lane does the route's own work (``append_move``) and answers
its errors with the same bodies as the registered handlers. It sits inside FastAPI's error
middleware, so an unexpected error is still logged and answered as a JSON 500. Every other
request, and these paths under a ``root_path``, goes on to FastAPI untouched.

FastAPI parses a body before it solves a route's dependencies (the token among them), so a
stranger could make it parse any body within the size limit; the lane refuses a write without
the game's token first, with the route's own error, and the route checks it again as usual.
"""

from __future__ import annotations

from fastapi.exceptions import RequestValidationError
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from api.http.auth import require_ended_or_write, require_write
from api.http.by_hand import bearer_token
from api.http.edge import accept_language, header
from api.errors import malformed, refused
from api.http.routes.record import append_move, append_move_blocking, load_game, loaded, writer, writer_blocking
from api.http.services import Services
from events.errors import TabletapeError
from events.messages import phrase

_PREFIX, _SUFFIX = "/games/", "/moves"
_WRITES = frozenset(("undo", "redo", "amend", "fork", "chance"))


def moves_game_id(path: str) -> str | None:
    """The game id when ``path`` is ``/games/{game_id}/moves`` (one non-empty segment, as routed)."""
    if not (path.startswith(_PREFIX) and path.endswith(_SUFFIX)):
        return None
    game_id = path[len(_PREFIX) : -len(_SUFFIX)]
    return game_id if game_id and "/" not in game_id else None


def game_write(path: str) -> tuple[str, str] | None:
    """``(game_id, action)`` when ``path`` is ``/games/{game_id}/{action}`` for a write but moves."""
    if not path.startswith(_PREFIX):
        return None
    game_id, _, action = path[len(_PREFIX) :].partition("/")
    return (game_id, action) if game_id and action in _WRITES else None


async def _body(receive: Receive) -> bytes | None:
    """The whole request body, or None when the client left before sending it."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _may_write(svc: Services, game_id: str, action: str, authorization: str | None) -> None:
    """The token check of the route ``action``, as the route itself makes it."""
    if svc.log.shared:  # PostgreSQL: the game's seq and tokens are queries (see ``writer_blocking``)
        await run_in_threadpool(_may_write_blocking, svc, game_id, action, authorization)
        return
    await loaded(svc, game_id)
    _check_write(svc, game_id, action, authorization)


def _may_write_blocking(svc: Services, game_id: str, action: str, authorization: str | None) -> None:
    load_game(svc, game_id)
    _check_write(svc, game_id, action, authorization)


def _check_write(svc: Services, game_id: str, action: str, authorization: str | None) -> None:
    creds = bearer_token(authorization)
    if action == "fork":
        if svc.projector.state(game_id).ended is None:
            require_write(svc, game_id, creds, phrase("what/forking", "forking a game in progress"))
    elif action == "chance":
        require_ended_or_write(svc, game_id, svc.projector.state(game_id), creds, phrase("what/chance-awaited", "the chance awaited"))
    else:
        require_write(svc, game_id, creds)


class MovesLane:
    """ASGI middleware: the moves route without the router in front of it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        game_id = moves_game_id(path)
        if game_id is None:
            await self._gated(scope, receive, send, game_write(path))
            return
        services = scope["app"].state.services
        shared = services.log.shared  # PostgreSQL: each step below asks the database
        lang = accept_language(scope)
        try:
            if shared:
                await run_in_threadpool(writer_blocking, services, game_id, header(scope, b"authorization"))
            else:
                await writer(services, game_id, header(scope, b"authorization"))
            raw = await _body(receive)
            if raw is None:
                return
            key = header(scope, b"idempotency-key")
            if shared:
                response = await run_in_threadpool(append_move_blocking, services, game_id, raw, key, lang)
            else:
                response = await append_move(services, game_id, raw, key, lang)
        except TabletapeError as exc:
            response = refused(exc, lang)
        except RequestValidationError as exc:
            response = malformed(exc, lang)
        await response(scope, receive, send)

    async def _gated(self, scope: Scope, receive: Receive, send: Send, write: tuple[str, str] | None) -> None:
        if write is not None:
            try:
                await _may_write(scope["app"].state.services, *write, header(scope, b"authorization"))
            except TabletapeError as exc:
                await refused(exc, accept_language(scope))(scope, receive, send)
                return
        await self.app(scope, receive, send)
