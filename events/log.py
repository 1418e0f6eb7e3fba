"""The append-only event log: its interface, its stored form, and the hash chain.

Nothing here updates or deletes an event. Undo, redo, amendments and forks are events too.
"""

from __future__ import annotations

import hashlib
import os
import time
from datetime import UTC, datetime, timedelta
from typing import Any, Iterable, Protocol, Sequence

import msgspec

from events.base import Event

GENESIS_HASH = bytes(32)


class StoredEvent(msgspec.Struct, frozen=True):
    """An event as the log holds it: the envelope around one body."""

    game_id: str
    seq: int
    recorded_at: datetime
    actor: str
    body: Event
    prev_hash: str
    hash: str


class AppendResult(msgspec.Struct, frozen=True):
    """What an append wrote (or, for a retried idempotency key, what it had written)."""

    game_id: str
    first_seq: int
    last_seq: int
    replayed: bool = False
    #: the tags of the appended events, in seq order (empty for a replayed result)
    types: tuple[str, ...] = ()


class VerifyReport(msgspec.Struct, frozen=True):
    """Outcome of checking a game's hash chain; ``first_bad_seq`` names the first altered event."""

    game_id: str
    events: int
    ok: bool
    first_bad_seq: int | None = None
    reason: str | None = None
    #: the event at ``first_bad_seq`` is as recorded, but this code cannot read it (not tampering)
    unreadable: bool = False


class EventLog(Protocol):
    """An append-only log of events per game, with optimistic concurrency: what the layers above
    use of a store (``DuckDBEventLog`` and ``PostgresEventLog`` each are one, opened by
    ``events.stores.open_log``)."""

    #: whether other processes may write the same store (then nothing of a game is cached)
    shared: bool
    #: the connection of the tables every process shares (tokens, keys, packs)
    store: Any
    #: a DuckDB connection holding the events for the read models (on PostgreSQL, its mirror)
    con: Any

    def append(
        self,
        game_id: str,
        events: Sequence[Event],
        expected_seq: int,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """Append after ``expected_seq`` (0 for a new game); raises ConcurrencyConflict when stale."""

    def read(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        """Events of one game in seq order; raises UnknownGame."""

    def last_seq(self, game_id: str) -> int:
        """0 for a game with no events."""

    def verify(self, game_id: str) -> VerifyReport: ...

    def seal(self, message: bytes) -> bytes:
        """``message`` sealed with the store's key: what only this store can make and check."""

    def verify_many(self, game_ids: Sequence[str]) -> list[VerifyReport]:
        """``verify`` of many games in a few queries."""

    def now(self) -> datetime:
        """The time this log stamps events with."""

    def game_ids(self) -> list[str]: ...

    def import_games(self, games: Iterable[tuple[str, Sequence[Event]]], actor: str = "import") -> int:
        """Bulk-append whole new games in one statement; returns the number of events."""

    async def append_async(
        self,
        game_id: str,
        events: Sequence[Event],
        expected_seq: int,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """``append`` without holding the event loop while the commit is in flight."""

    def read_bodies(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[Event]:
        """The bodies alone of ``read``."""

    def read_checked(self, game_id: str) -> list[Event]:
        """Every body of one game once its chain and anchor are checked; raises ChainBroken."""

    def replayed(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """What an earlier append with this idempotency key wrote, if any."""

    def exists(self, game_id: str) -> bool: ...

    def cached_seq(self, game_id: str) -> int | None:
        """The last seq this process knows without asking the store; None when it does not."""

    def recorded_times(self, game_id: str, seqs: Sequence[int]) -> dict[int, datetime]: ...

    def reader(self) -> Any:
        """A DuckDB connection that reads the log's tables (and the read models beside them)."""

    def cursor(self) -> Any:
        """A cursor of ``reader`` for one thread."""

    def sync(self) -> int:
        """Bring ``con`` up to what other processes committed; returns how many events it copied."""

    def restore(self, table: Any) -> int:
        """Add whole games exactly as another store recorded them (an Arrow table of ``rows.COLUMNS``)."""

    def stats(self) -> dict[str, int]:
        """Appends, commits and events written by this process."""

    def ping(self) -> None:
        """Raise if the store does not answer."""

    def close(self) -> None:
        """Commit what is queued, then let go of the store."""


def thread_cursor(local: Any, lock: Any, con: Any) -> Any:
    """This thread's own cursor on a DuckDB connection, made once under ``lock`` (a DuckDB
    connection is not shared between threads; its cursors are)."""
    cursor = getattr(local, "cursor", None)
    if cursor is None:
        with lock:
            cursor = local.cursor = con.cursor()
    return cursor


def utc_now() -> datetime:
    """UTC wall clock, truncated to what the store keeps (microseconds, naive UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


def naive_utc(moment: datetime | None) -> datetime | None:
    """A bound as the store keeps times (naive UTC); an aware one is converted."""
    if moment is None or moment.tzinfo is None:
        return moment
    try:
        return moment.astimezone(UTC).replace(tzinfo=None)
    except OverflowError:  # a moment at the very edge of the calendar: no game is older or newer
        return datetime.min if moment.year == datetime.min.year else datetime.max


def micros(moment: datetime) -> int:
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(at: int) -> datetime:
    """The naive UTC time ``micros`` made ``at`` from (what the store's TIMESTAMP reads back as)."""
    return _EPOCH + timedelta(microseconds=at)


_EPOCH = datetime(1970, 1, 1)


def chain_hash(prev_hash: bytes, game_id: str, seq: int, at_micros: int, actor: str, body: bytes) -> bytes:
    """The hash of one stored event, chained to the previous event's hash."""
    return hashlib.sha256(
        b"".join(
            (
                prev_hash,
                game_id.encode(),
                b"\x00",
                seq.to_bytes(8, "big"),
                at_micros.to_bytes(8, "big", signed=True),
                actor.encode(),
                b"\x00",
                body,
            )
        )
    ).digest()


_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"


def new_game_id(now_ms: int | None = None, entropy: bytes | None = None) -> str:
    """A 26-character id that sorts by creation time (ULID layout, lower case).

    Time-ordered ids keep a game's rows close together in the store, so DuckDB's zone maps
    skip most of the table when one game is read.
    """
    ms = int(time.time() * 1000) if now_ms is None else now_ms
    rand = int.from_bytes(entropy if entropy is not None else os.urandom(10), "big")
    value = (ms << 80) | rand
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))
