"""One lock per key (a game id), created on first use."""

from __future__ import annotations

import threading


class KeyedLocks:
    """Re-entrant locks by key, so that work on different games never waits on each other."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()

    def __call__(self, key: str) -> threading.RLock:
        with self._guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = threading.RLock()
            return lock

    def discard(self, key: str) -> None:
        with self._guard:
            self._locks.pop(key, None)
