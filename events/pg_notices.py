"""Notifications and locks shared by every process of a PostgreSQL store (``PostgresNotices`` is a
part of ``PostgresEventLog``): each append's ``NOTIFY``, other layers' channels, advisory locks."""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any, Callable, Iterator

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from events.log import AppendResult

_logger = logging.getLogger("tabletape.events")

#: each committed append's ``game_id first_seq last_seq``
CHANNEL = "tabletape_events"
#: one lock for every process creating the schema (CREATE ... IF NOT EXISTS races otherwise)
SCHEMA_LOCK = 0x7461626C  # "tabl"


class PostgresNotices:
    """What every process of the store hears and holds: notifications and advisory locks."""

    dsn: str
    _pool: ConnectionPool
    _listeners: list[Callable[[str, AppendResult], None]]
    _channels: dict[str, list[Callable[[str], None]]]
    _listening: set[str]
    _listener: threading.Thread | None
    _closing: bool

    def subscribe(self, listener: Callable[[str, AppendResult], None]) -> Callable[[], None]:
        """Call ``listener(game_id, result)`` for every append any process commits (from a
        thread that LISTENs); returns the function that stops it."""
        self._listeners.append(listener)
        self._start_listening()
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def listen(self, channel: str, listener: Callable[[str], None]) -> Callable[[], None]:
        """Call ``listener(payload)`` for every ``notify`` on ``channel`` by any process (this
        one's too), from the listening thread; returns the function that stops it."""
        listeners = self._channels.setdefault(channel, [])
        listeners.append(listener)
        self._start_listening()
        return lambda: listeners.remove(listener) if listener in listeners else None

    def notify(self, channel: str, payload: str) -> None:
        """Tell every process listening on ``channel`` (a change another layer committed)."""
        with self._pool.connection() as conn:
            conn.execute("SELECT pg_notify(%s, %s)", [channel, payload])

    @contextlib.contextmanager
    def exclusive(self, name: str, timeout: float | None = None) -> Iterator[None]:
        """Held by one process of the store at a time (an advisory lock named ``name``): around a
        change that reads what the others wrote and then writes what follows from it. Waiting
        longer than ``timeout`` seconds (for a connection or the lock) raises TimeoutError."""
        with contextlib.ExitStack() as stack:
            try:
                conn = stack.enter_context(self._pool.connection(timeout=timeout))
            except PoolTimeout:
                raise TimeoutError(f"no connection for the lock {name!r} within {timeout} s") from None
            # the two-key form: a space of its own, apart from the schema's one-key lock; named in
            # the store's schema, as two stores may share one database
            key = [SCHEMA_LOCK, name]
            _lock_within(conn, "SELECT pg_advisory_lock(%s, hashtext(current_schema() || ':' || %s))", key, timeout)
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s, hashtext(current_schema() || ':' || %s))", key)

    def _start_listening(self) -> None:
        if self._listener is None:
            self._listener = threading.Thread(target=self._listen, name="tabletape-listen", daemon=True)
            self._listener.start()

    def _listen(self) -> None:
        while not self._closing:
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._listening = set()
                    while not self._closing:
                        for channel in set(self._channels) - self._listening:  # named since the last wait
                            conn.execute(f'LISTEN "{channel}"')
                            self._listening.add(channel)
                        for note in conn.notifies(timeout=0.5):
                            if note.channel != CHANNEL:
                                for other in list(self._channels.get(note.channel, ())):
                                    other(note.payload)
                                continue
                            game_id, first, last = note.payload.rsplit(" ", 2)
                            result = AppendResult(game_id, int(first), int(last))
                            for listener in list(self._listeners):
                                listener(game_id, result)
            except psycopg.OperationalError:  # the server went away: listen again when it is back
                if not self._closing:
                    _logger.warning("lost the PostgreSQL notifications; reconnecting")
                    threading.Event().wait(1.0)


def _lock_within(conn: psycopg.Connection, sql: str, params: list[Any], timeout: float | None) -> None:
    """Run a statement that waits for a lock, for at most ``timeout`` seconds (TimeoutError after)."""
    if timeout is None:
        conn.execute(sql, params)
        return
    # lock_timeout 0 would wait forever: the shortest wait is a millisecond
    conn.execute("SELECT set_config('lock_timeout', %s, false)", [f"{max(1, int(timeout * 1000))}ms"])
    try:
        conn.execute(sql, params)
    except psycopg.errors.LockNotAvailable:
        raise TimeoutError(f"the lock was not free within {timeout} s") from None
    finally:
        conn.execute("SET lock_timeout TO DEFAULT")
