"""``POST /games/{game_id}/moves`` answered ahead of FastAPI's routing.

Recording moves is the service's hot path. Routing through every registered route, FastAPI's
request wrapper and the inner middleware cost about a quarter of an append's server CPU under
the sustained HTTP benchmark; the lane does the route's own work (``append_move``) and answers
its errors with the same bodies as the registered handlers. It sits inside FastAPI's error
middleware, so an unexpected error is still logged and answered as a JSON 500. Every other
request, and this path under a ``root_path``, goes on to FastAPI untouched.
"""

from __future__ import annotations

from fastapi.exceptions import RequestValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import malformed, refused
from api.routes.record import append_move
from events.errors import TabletapeError

_PREFIX, _SUFFIX = "/games/", "/moves"


def moves_game_id(path: str) -> str | None:
    """The game id when ``path`` is ``/games/{game_id}/moves`` (one non-empty segment, as routed)."""
    if not (path.startswith(_PREFIX) and path.endswith(_SUFFIX)):
        return None
    game_id = path[len(_PREFIX) : -len(_SUFFIX)]
    return game_id if game_id and "/" not in game_id else None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:  # ASGI servers give lower-case names; the first one counts, as in Starlette
            return value.decode("latin-1")
    return None


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


class MovesLane:
    """ASGI middleware: the moves route without the router in front of it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        game_id = None
        if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path"):
            game_id = moves_game_id(scope["path"])
        if game_id is None:
            await self.app(scope, receive, send)
            return
        raw = await _body(receive)
        if raw is None:
            return
        services = scope["app"].state.services
        try:
            response = await append_move(
                services, game_id, raw, _header(scope, b"authorization"), _header(scope, b"idempotency-key")
            )
        except TabletapeError as exc:
            response = refused(exc)
        except RequestValidationError as exc:
            response = malformed(exc)
        await response(scope, receive, send)
