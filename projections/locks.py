"""One lock per key (a game id), created on first use."""

from __future__ import annotations

import asyncio
import threading
from contextlib import asynccontextmanager
from typing import AsyncIterator


class KeyedLocks:
    """Locks by key (re-entrant unless asked otherwise), so that work on different games never
    waits on each other."""

    def __init__(self, reentrant: bool = True) -> None:
        self._locks: dict[str, threading.Lock | threading.RLock] = {}
        self._guard = threading.Lock()
        self._new = threading.RLock if reentrant else threading.Lock

    def __call__(self, key: str) -> threading.Lock | threading.RLock:
        with self._guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = self._new()
            return lock

    def discard(self, key: str) -> None:
        with self._guard:
            self._locks.pop(key, None)


class AsyncKeyedLocks:
    """asyncio locks by key for the tasks of one event loop; a key's lock lives while in use."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def __call__(self, key: str) -> AsyncIterator[None]:
        entry = self._locks.get(key)
        if entry is None:
            entry = self._locks[key] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._locks[key]


async def acquire_from_loop(lock: threading.Lock) -> None:
    """Take a thread lock from a task without blocking its event loop.

    If the task is cancelled while a worker thread waits for the lock, the lock is released as
    soon as that thread gets it, so a hung-up client never leaves a game locked.
    """
    if lock.acquire(blocking=False):
        return
    loop = asyncio.get_running_loop()
    taken: asyncio.Future[None] = loop.create_future()

    def hand_over() -> None:
        if taken.cancelled():
            lock.release()
        else:
            taken.set_result(None)

    def wait() -> None:
        lock.acquire()
        loop.call_soon_threadsafe(hand_over)

    loop.run_in_executor(None, wait)
    await taken
