"""Live streams of new events as Server-Sent Events, fed by the recorder's append listeners.

The recorder calls its listeners from the writing thread; the hub hands each append over to the
event loop with ``call_soon_threadsafe``. Each client keeps a cursor (the last seq it was sent)
and a wake-up flag rather than a queue of events: the log is the queue, so a slow client costs
no memory and misses nothing, and resuming from ``Last-Event-ID`` is the same code path.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import msgspec

from events.log import AppendResult
from replay.frames import Frame


@dataclass(eq=False)
class Subscription:
    game_id: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """Wakes the streams of a game when the recorder appends to it; closes them all on shutdown."""

    def __init__(self) -> None:
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


def sse_message(frame: Frame) -> bytes:
    """One SSE message: ``id`` is the raw seq, ``data`` the frame as JSON."""
    return b"id: %d\ndata: %s\n\n" % (frame.seq, _encoder.encode(frame))


async def stream(
    hub: Hub,
    game_id: str,
    cursor: int,
    last_seq: Callable[[], int],
    frames: Callable[[int, int], list[Frame]],
    *,
    batch: int,
    ping_s: float,
    run: Callable,
) -> AsyncIterator[bytes]:
    """Messages for every event after ``cursor``, as they are appended, until the hub closes.

    ``last_seq`` and ``frames`` read the database; ``run`` moves them off the event loop.
    """
    sub = hub.subscribe(game_id)
    try:
        yield b"retry: 1000\n\n"
        while not hub.closing:
            last = await run(last_seq)
            if last > cursor:
                upto = min(last, cursor + batch)
                for frame in await run(frames, cursor + 1, upto):
                    yield sse_message(frame)
                cursor = upto
                continue
            try:
                await asyncio.wait_for(sub.wake.wait(), ping_s)
            except asyncio.TimeoutError:
                yield b": ping\n\n"  # keeps proxies from closing an idle stream
            sub.wake.clear()
    finally:
        hub.unsubscribe(sub)
