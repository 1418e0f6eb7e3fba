"""One lock per key (a game id), created on first use."""

from __future__ import annotations

import asyncio
import threading
from contextlib import asynccontextmanager
from typing import AsyncIterator


class KeyedLocks:
    """Locks by key (re-entrant unless asked otherwise), so that work on different games never
    waits on each other.

    A key's lock lives while someone has asked for it and not yet released it, so the table
    holds only the games being worked on now, not every game ever touched. Each call is paired
    with one release (``with locks(key):``, or ``acquire`` then ``release``).
    """

    def __init__(self, reentrant: bool = True) -> None:
        self._locks: dict[str, _KeyedLock] = {}
        self._guard = threading.Lock()
        self._new = threading.RLock if reentrant else threading.Lock

    def __call__(self, key: str) -> "_KeyedLock":
        with self._guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = _KeyedLock(self, key, self._new())
            lock.users += 1
            return lock

    def __len__(self) -> int:
        """How many keys have a lock now (those asked for and not released)."""
        return len(self._locks)

    def _released(self, lock: "_KeyedLock") -> None:
        with self._guard:
            lock.users -= 1
            if lock.users == 0 and self._locks.get(lock.key) is lock:
                del self._locks[lock.key]


class _KeyedLock:
    """One key's lock, counted by the calls that asked for it."""

    __slots__ = ("owner", "key", "lock", "users")

    def __init__(self, owner: KeyedLocks, key: str, lock: "threading.Lock | threading.RLock") -> None:
        self.owner, self.key, self.lock, self.users = owner, key, lock, 0

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        return self.lock.acquire(blocking, timeout)

    def release(self) -> None:
        self.lock.release()
        self.owner._released(self)

    def __enter__(self) -> bool:
        return self.lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


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
