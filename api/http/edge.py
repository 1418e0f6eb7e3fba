"""The edge: its size limits, and who may frame the page.

A request body larger than its route allows is refused with a 413
before the rest of it is read.

Each route has its own limit (``BODY_LIMITS``, settable: ``Settings.body_limits``). A body that
declares its length is judged by ``Content-Length`` alone, before a byte of it is read (the
server then delivers exactly that many bytes, so nothing needs counting); a chunked body is
read into memory up to the limit and refused as soon as it passes it. A refusal closes the
connection, so the rest of an oversized upload is never read.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import i18n
from events.messages import Templated

KiB = 1024
MiB = 1024 * KiB

#: bytes a request body may hold, by route (``other``: every route not named)
BODY_LIMITS: dict[str, int] = {
    "moves": 64 * KiB,
    "amend": 256 * KiB,
    "games": 256 * KiB,
    "undo": 16 * KiB,
    "redo": 16 * KiB,
    "fork": 16 * KiB,
    "chance": 16 * KiB,
    # the longest query SqlIn allows, 20,000 characters, each as a JSON escape pair of 12 bytes
    "sql": 256 * KiB,
    "packs": 1 * MiB,
    # a BG Stats export of 20,000 plays is about 5 MiB
    "bgstats": 32 * MiB,
    "other": 16 * KiB,
}
_GAME_ROUTES = frozenset(("moves", "amend", "undo", "redo", "fork", "chance"))
_SIZE = re.compile(r"^\s*(\d+)\s*(|b|kib|kb|k|mib|mb|m)\s*$", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": KiB, "kb": KiB, "kib": KiB, "m": MiB, "mb": MiB, "mib": MiB}


class SettingError(Templated):
    """A setting that cannot be read: its ``edge`` catalogue key, English template and parameters
    (``api.i18n.text`` writes it in another language)."""

    def __init__(self, key: str, template: str, **params: Any) -> None:
        self.key = key
        super().__init__(template, params)


def size(text: str) -> int:
    """``65536``, ``64KiB`` or ``1MiB`` as bytes."""
    match = _SIZE.match(text)
    if match is None:
        raise SettingError("limits/not-a-size", "{text!r} is not a size (bytes, or a number with KiB or MiB)", text=text)
    return int(match[1]) * _UNITS[match[2].lower()]


def parse_limits(text: str) -> dict[str, int]:
    """``moves=64KiB,games=1MiB`` as a dict of route names to bytes (names from ``BODY_LIMITS``)."""
    limits = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        route, eq, value = pair.partition("=")
        route = route.strip()
        if not eq or route not in BODY_LIMITS:
            raise SettingError(
                "limits/not-a-pair", "{pair!r}: a body limit is route=size, route one of {routes}", pair=pair, routes=", ".join(BODY_LIMITS)
            )
        limits[route] = size(value)
    return limits


def route_of(method: str, path: str) -> str:
    """The ``BODY_LIMITS`` name of the route a request goes to."""
    if method != "POST":
        return "other"
    if path == "/games":
        return "games"
    if path == "/sql":
        return "sql"
    if path.startswith("/titles/"):
        return "packs"
    if path == "/import/bgstats":
        return "bgstats"
    if path.startswith("/games/"):
        game, _, action = path[7:].partition("/")
        if game and action in _GAME_ROUTES:
            return action
    return "other"


def too_large(route: str, limit: int, accept_language: str | None = None) -> bytes:
    """The 413's body ``{code, message, limit}``, the message in the language ``Accept-Language`` asks for."""
    lang = i18n.negotiate(accept_language)
    message = i18n.text("edge", "msgs/body-too-large", lang, route=route, limit=limit)
    return json.dumps({"code": "body-too-large", "message": message, "limit": limit}, ensure_ascii=False, separators=(",", ":")).encode()


def header(scope: Scope, name: bytes) -> str | None:
    """A request header from an ASGI scope (``name`` in lower case, as ASGI servers give it; the
    first one counts, as in Starlette)."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def accept_language(scope: Scope) -> str | None:
    """The request's ``Accept-Language`` header, from an ASGI scope."""
    return header(scope, b"accept-language")


async def refuse_too_large(send: Send, route: str, limit: int, language: str | None = None) -> None:
    """The 413, closing the connection so the rest of the body is never read."""
    body = too_large(route, limit, language)
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimits:
    """ASGI middleware: every request body within its route's limit, or a 413."""

    def __init__(self, app: ASGIApp, limits: dict[str, int] | None = None) -> None:
        self.app = app
        self.limits = {**BODY_LIMITS, **(limits or {})}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = chunked = None
        for key, value in scope["headers"]:
            if key == b"content-length":
                length = value
            elif key == b"transfer-encoding":
                chunked = value
        if length is None and chunked is None:  # no body (a GET): the common case costs one scan
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        root = scope.get("root_path", "")
        route = route_of(scope["method"], path[len(root) :] if root and path.startswith(root) else path)
        limit = self.limits[route]
        if chunked is None:
            if length.isdigit() and int(length) > limit:  # the server refuses one that is not a number
                await refuse_too_large(send, route, limit, accept_language(scope))
                return
            await self.app(scope, receive, send)
            return
        body = await _read_up_to(receive, limit)
        if body is None:
            return  # the client left
        if body is False:
            await refuse_too_large(send, route, limit, accept_language(scope))
            return
        await self.app(scope, _replay(body, receive), send)


async def _read_up_to(receive: Receive, limit: int) -> bytes | None | bool:
    """The whole body; False once it passes ``limit`` bytes; None when the client left."""
    chunks, total = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        total += len(chunk)
        if total > limit:
            return False
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read ahead, then whatever the connection says next."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


#: only the embed frame page may be framed, by any site; every other page by none (clickjacking)
_FRAMED = [(b"content-security-policy", b"frame-ancestors *")]
_NOT_FRAMED = [(b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'")]


class FrameGuard:
    """ASGI middleware: the framing headers of every GET answer (the documents a browser could
    frame; the writes' JSON is never a document)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        extra = _FRAMED if scope["path"].startswith("/embed/") else _NOT_FRAMED

        async def framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, framed)
