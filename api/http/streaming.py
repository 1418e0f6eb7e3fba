"""Live streams of new events as Server-Sent Events, fed by the recorder's append listeners.

The recorder calls its listeners from the writing thread; the hub hands each append over to the
event loop with ``call_soon_threadsafe``. Each client keeps a cursor (the last seq it was sent)
and a wake-up flag rather than a queue of events: the log is the queue, so a slow client costs
no memory and misses nothing, and resuming from ``Last-Event-ID`` is the same code path.

A message for raw seq N in given eyes and language never changes once the log holds N (the log is append-only),
so the hub keeps encoded messages in a bounded cache, and one stream of a game at a time builds
what is missing: a hundred clients reconnecting with ``since=0`` fold the backlog once, not a
hundred times over, and leave the worker threads (and the GIL) to everyone else.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from api import i18n
from events.log import AppendResult
from projections.locks import AsyncKeyedLocks
from replay.frames import Frame, Perspective

#: what the cache of encoded messages may hold (a Lost Cities message is ~1 KB)
CACHE_BYTES = 64 << 20


@dataclass(eq=False)
class Subscription:
    game_id: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """Wakes the streams of a game when the recorder appends to it; closes them all on shutdown;
    keeps the messages they send."""

    def __init__(self, cache_bytes: int = CACHE_BYTES) -> None:
        self.messages = Messages(cache_bytes)
        #: one stream per game builds messages at a time (the others then find them cached)
        self.turns = AsyncKeyedLocks()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subs: dict[str, set[Subscription]] = {}
        self._unsubscribe: Callable[[], None] | None = None
        self.closing = False

    def start(self, loop: asyncio.AbstractEventLoop, subscribe: Callable[[Callable], Callable[[], None]]) -> None:
        self._loop = loop
        self._unsubscribe = subscribe(self.appended)

    def appended(self, game_id: str, result: AppendResult) -> None:
        """The recorder's listener: runs in the writing thread, or on the loop for an async write."""
        loop = self._loop
        if loop is None or game_id not in self._subs:  # most games have no spectators
            return
        try:
            loop.call_soon_threadsafe(self._wake, game_id)
        except RuntimeError:  # the loop has closed: the server is stopping
            pass

    def _wake(self, game_id: str) -> None:
        for sub in self._subs.get(game_id, ()):
            sub.wake.set()

    def subscribe(self, game_id: str) -> Subscription:
        sub = Subscription(game_id)
        self._subs.setdefault(game_id, set()).add(sub)
        if self.closing:
            sub.wake.set()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.game_id]

    def close(self) -> None:
        """End every stream (the server is shutting down). Safe to call from any thread."""
        self.closing = True
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._wake_all)
        except RuntimeError:
            pass

    def _wake_all(self) -> None:
        for subs in self._subs.values():
            for sub in subs:
                sub.wake.set()


_encoder = msgspec.json.Encoder()


def frame_out(frame: Frame, lang: str) -> dict[str, Any]:
    """A frame as the API sends it: its sentence and status said in ``lang`` (``text``, ``status``)."""
    out = msgspec.structs.asdict(frame)
    words, standing = out.pop("sentence"), out.pop("status_words")
    if lang == i18n.DEFAULT:
        return out  # the frame's own words are the English ones
    if words is not None:
        out["text"] = i18n.sentence(words, lang)
    if standing is not None:
        out["status"] = i18n.sentence(standing, lang)
    return out


def sse_message(frame: Frame, lang: str = i18n.DEFAULT) -> bytes:
    """One SSE message: ``id`` is the raw seq, ``data`` the frame as JSON (its text in ``lang``)."""
    return b"id: %d\ndata: %s\n\n" % (frame.seq, _encoder.encode(frame_out(frame, lang)))


def sse_notice(event: str, data: dict[str, Any]) -> bytes:
    """A named SSE event without an ``id``: a browser's ``onmessage`` ignores it and its
    ``Last-Event-ID`` stays the last frame's seq."""
    return b"event: %s\ndata: %s\n\n" % (event.encode(), _encoder.encode(data))


class Messages:
    """Encoded stream messages by (game, eyes, language, raw seq), least recently used out first."""

    def __init__(self, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        self._bytes = 0
        self._lock = threading.Lock()
        self._cached: OrderedDict[tuple[str, Perspective, str, int], bytes] = OrderedDict()

    def cached(self, game_id: str, eyes: Perspective, first: int, last: int, lang: str = i18n.DEFAULT) -> bytes | None:
        """The messages for raw seqs ``first..last`` if all of them are cached (no query)."""
        found = self._found(game_id, eyes, lang, first, last)
        return b"".join(found) if len(found) == last - first + 1 else None

    def read(
        self,
        game_id: str,
        eyes: Perspective,
        first: int,
        last: int,
        build: Callable[[int, int], list[Frame]],
        lang: str = i18n.DEFAULT,
    ) -> bytes:
        """The messages for raw seqs ``first..last``; ``build`` makes the frames not cached."""
        found = self._found(game_id, eyes, lang, first, last)
        if first + len(found) <= last:
            built = [(frame.seq, sse_message(frame, lang)) for frame in build(first + len(found), last)]
            found.extend(message for _, message in built)
            self._keep(game_id, eyes, lang, built)
        return b"".join(found)

    def _found(self, game_id: str, eyes: Perspective, lang: str, first: int, last: int) -> list[bytes]:
        """The cached messages from ``first`` on, up to the first one missing."""
        found: list[bytes] = []
        with self._lock:
            for seq in range(first, last + 1):
                message = self._cached.get((game_id, eyes, lang, seq))
                if message is None:
                    break
                self._cached.move_to_end((game_id, eyes, lang, seq))
                found.append(message)
        return found

    def _keep(self, game_id: str, eyes: Perspective, lang: str, built: list[tuple[int, bytes]]) -> None:
        with self._lock:
            for seq, message in built:
                old = self._cached.pop((game_id, eyes, lang, seq), None)
                self._bytes += len(message) - (len(old) if old is not None else 0)
                self._cached[(game_id, eyes, lang, seq)] = message
            while self._bytes > self._max_bytes and self._cached:
                _, evicted = self._cached.popitem(last=False)
                self._bytes -= len(evicted)


async def stream(
    hub: Hub,
    game_id: str,
    cursor: int,
    last_seq: Callable[[], Awaitable[int]],
    messages: Callable[[int, int], Awaitable[bytes]],
    *,
    batch: int,
    ping_s: float,
) -> AsyncIterator[bytes]:
    """Messages for every event after ``cursor``, as they are appended, until the hub closes.

    ``last_seq`` and ``messages`` (the encoded messages of raw seqs ``first..last``) read the
    database off the event loop, unless what they need is in memory.
    """
    sub = hub.subscribe(game_id)
    try:
        yield b"retry: 1000\n\n"
        while not hub.closing:
            last = await last_seq()
            if last > cursor:
                upto = min(last, cursor + batch)
                async with hub.turns(game_id):
                    chunk = await messages(cursor + 1, upto)
                yield chunk  # one write for the batch
                cursor = upto
                continue
            try:
                await asyncio.wait_for(sub.wake.wait(), ping_s)
            except asyncio.TimeoutError:
                yield b": ping\n\n"  # keeps proxies from closing an idle stream
            sub.wake.clear()
    finally:
        hub.unsubscribe(sub)
