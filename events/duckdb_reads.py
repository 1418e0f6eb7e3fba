"""What the DuckDB log reads: events, chains checked against their anchors, and the heads of
games it remembers between appends (``DuckDBReads`` is a part of ``DuckDBEventLog``)."""

from __future__ import annotations

import hmac
import threading
from collections import OrderedDict
from datetime import datetime
from typing import Sequence

import duckdb
import pyarrow as pa

from events import anchors, codec, group_commit
from events.base import Event
from events.anchors import chain_broken
from events.errors import UnknownGame
from events.log import GENESIS_HASH, AppendResult, StoredEvent, VerifyReport, thread_cursor

#: a game's head record, as ``anchors`` checks it
_HEAD_ROW = "SELECT last_seq, legacy_seq, mac FROM chain_heads WHERE game_id = ?"
#: a game's rows as ``anchors.check_chain`` reads them, each followed by the game's head record
_CHECK_ROWS_AND_HEAD = (
    f"SELECT {anchors.CHECK_COLUMNS}, last_seq, legacy_seq, head_mac FROM events LEFT JOIN "
    "(SELECT last_seq, legacy_seq, mac AS head_mac FROM chain_heads WHERE game_id = $1) ON true WHERE game_id = $1"
)


class Head(group_commit.Head):
    """What the log remembers of one game between appends."""

    __slots__ = ("anchored", "checked")

    def __init__(
        self, seq: int, hash_: bytes, keys: dict[str, tuple[int, int]], legacy: int = 0, anchored: bool = True
    ) -> None:
        super().__init__(seq, hash_, keys, legacy)
        #: whether the stored head record vouches for ``seq`` and ``hash``
        self.anchored = anchored
        #: whether every event up to ``seq`` was checked against its chain and anchors (or
        #: appended by this process); DuckDB's file lock keeps other writers out meanwhile
        self.checked = False

    def copy(self) -> "Head":
        head = Head(self.seq, self.hash, dict(self.keys), self.legacy, self.anchored)
        head.checked = self.checked
        return head


class DuckDBReads(anchors.Keyed):
    """The reading half of ``DuckDBEventLog``: its connection, cursors and cache of heads."""

    con: duckdb.DuckDBPyConnection
    _lock: threading.RLock
    _local: threading.local
    _heads_lock: threading.Lock
    _heads: OrderedDict[str, Head]
    _broken: dict[str, VerifyReport]
    _head_cache_size: int
    _head_cache_keys: int
    _cached_keys: int


    def reader(self) -> duckdb.DuckDBPyConnection:
        """This thread's own cursor on the database, for reads (sees every committed append)."""
        return thread_cursor(self._local, self._lock, self.con)

    def ping(self) -> None:
        """Raise if the database does not answer."""
        self.reader().execute("SELECT 1").fetchall()

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A new cursor on the same database, for a layer that keeps its own tables."""
        with self._lock:
            return self.con.cursor()

    @property
    def store(self) -> duckdb.DuckDBPyConnection:
        """The connection of the tables every process must share (tokens, keys): this file."""
        return self.con

    def sync(self) -> int:
        """Nothing to copy: the read models read this very database (see ``PostgresEventLog``)."""
        return 0

    def recorded_times(self, game_id: str, seqs: Sequence[int]) -> dict[int, datetime]:
        """When the events at ``seqs`` of a game were recorded."""
        marks = ", ".join("?" * len(seqs))
        return dict(self.reader().execute(
            f"SELECT seq, recorded_at FROM events WHERE game_id = ? AND seq IN ({marks})", [game_id, *seqs]
        ).fetchall())

    def replayed(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """The first result of an append made with this key, if there was one."""
        span = self._head(game_id).keys.get(idempotency_key)
        return AppendResult(game_id, span[0], span[1], replayed=True) if span else None

    def exists(self, game_id: str) -> bool:
        return self.last_seq(game_id) > 0

    def cached_seq(self, game_id: str) -> int | None:
        """The last seq if this process remembers it, else None (no query)."""
        head = self._heads.get(game_id)
        return None if head is None else head.seq

    def last_seq(self, game_id: str) -> int:
        return self._head(game_id).seq

    def read(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        rows = self.read_raw(game_id, from_seq, to_seq)
        decode = codec.decode
        return [
            StoredEvent(game_id, seq, at, actor, decode(body), prev.hex(), digest.hex())
            for seq, at, actor, body, prev, digest in rows
        ]

    def read_bodies(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[Event]:
        """Only the decoded bodies (the fast path for folding)."""
        # no ORDER BY: a game's rows come back in insertion order, checked below
        rows = self.reader().execute(
            "SELECT seq, body FROM events WHERE game_id = ? AND seq >= ? AND seq <= ?",
            [game_id, from_seq, to_seq if to_seq is not None else 2**31 - 1],
        ).fetchall()
        if not rows:
            if from_seq <= 1 and not self.exists(game_id):
                raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
            return []
        if rows[-1][0] - rows[0][0] != len(rows) - 1 or any(
            a[0] >= b[0] for a, b in zip(rows, rows[1:])
        ):
            rows.sort()
        return codec.decode_many([row[1] for row in rows])

    def read_raw(
        self, game_id: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[tuple[int, datetime, str, bytes, bytes, bytes]]:
        rows = self.reader().execute(
            "SELECT seq, recorded_at, actor, body, prev_hash, hash FROM events "
            "WHERE game_id = ? AND seq >= ? AND seq <= ? ORDER BY seq",
            [game_id, from_seq, to_seq if to_seq is not None else 2**31 - 1],
        ).fetchall()
        if not rows and not self._head(game_id).seq:
            raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
        return rows

    def game_ids(self) -> list[str]:
        return [r[0] for r in self.reader().execute("SELECT DISTINCT game_id FROM events ORDER BY 1").fetchall()]

    def verify(self, game_id: str) -> VerifyReport:
        """Check a game's hash chain and its keyed anchors; name the first seq that does not match."""
        report, _ = self._check(game_id)
        return report

    def read_checked(self, game_id: str) -> list[Event]:
        """The decoded bodies of a game whose chain and anchors check out; raises ChainBroken naming
        the first altered seq otherwise (the verdict is kept: writes to that game are refused)."""
        report = self._broken.get(game_id)
        if report is None:
            with self._heads_lock:
                head = self._heads.get(game_id)
            if head is not None and head.checked:
                return self.read_bodies(game_id)
            rows, stored_head = self._check_rows(game_id)
            report, bodies = anchors.check_chain(game_id, rows, stored_head, self._secret)
            if report.ok:
                # the rows just checked give the head too: a first load reads the game once
                head = head or self._head_from_rows(game_id, rows, stored_head)
                head.checked = report.events == head.seq
                return bodies
            self._broken[game_id] = report
        raise chain_broken(report)

    def _head_from_rows(self, game_id: str, rows: list[tuple], stored_head: tuple | None) -> Head:
        """The head of a game whose rows (``CHECK_COLUMNS``, in seq order) were just checked."""
        keys: dict[str, tuple[int, int]] = {}
        for row in rows:
            key = row[8]
            if key is not None:
                first = keys.get(key, (row[0], row[0]))[0]
                keys[key] = (first, row[0])
        seq, last_hash = rows[-1][0], bytes(rows[-1][7])
        legacy = stored_head[1] if stored_head is not None else 0
        return self._remember(game_id, Head(seq, last_hash, keys, legacy, anchored=stored_head is not None))

    def anchored_game_ids(self) -> list[str]:
        """Games that have a keyed head, with or without events left."""
        return [r[0] for r in self.reader().execute("SELECT game_id FROM chain_heads ORDER BY 1").fetchall()]

    def verify_many(self, game_ids: Sequence[str]) -> list[VerifyReport]:
        """``verify`` of many games in two queries (an import's thousands of games)."""
        reader = self.reader()
        reader.register("_verify_ids", pa.table({"game_id": pa.array(list(game_ids), pa.string())}))
        try:
            rows = reader.execute(
                f"SELECT game_id, {anchors.CHECK_COLUMNS} FROM events JOIN _verify_ids USING (game_id) ORDER BY game_id, seq"
            ).fetchall()
            heads = reader.execute(
                "SELECT game_id, last_seq, legacy_seq, mac FROM chain_heads JOIN _verify_ids USING (game_id)"
            ).fetchall()
        finally:
            reader.unregister("_verify_ids")
        return anchors.check_many(game_ids, rows, heads, self._secret)

    def _check(self, game_id: str) -> tuple[VerifyReport, list[Event]]:
        rows, head = self._check_rows(game_id)
        return anchors.check_chain(game_id, rows, head, self._secret)

    def _check_rows(self, game_id: str) -> tuple[list[tuple], tuple | None]:
        """A game's rows as ``check_chain`` reads them, in seq order, and its ``chain_heads`` row."""
        reader = self.reader()
        # no ORDER BY: a game's rows come back in insertion order (sorted here if not); the head
        # rides along on every row, as one query costs DuckDB less than two
        joined = reader.execute(_CHECK_ROWS_AND_HEAD, [game_id]).fetchall()
        width = len(joined[0]) - 3 if joined else 0
        rows = [row[:width] for row in joined]
        if any(a[0] >= b[0] for a, b in zip(rows, rows[1:])):
            rows.sort(key=lambda row: row[0])
        if joined:
            head = joined[0][width:] if joined[0][width] is not None else None
        else:  # no rows: the head alone tells a game cut back to nothing from no game
            head = next(iter(reader.execute(_HEAD_ROW, [game_id]).fetchall()), None)
        if not rows and head is None:
            raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
        return rows, head


    def _head(self, game_id: str) -> Head:
        with self._heads_lock:
            head = self._heads.get(game_id)
            if head is not None:
                self._heads.move_to_end(game_id)
                return head
        seq, last_hash, keys = 0, GENESIS_HASH, {}
        for key, first, last, digest in self.reader().execute(
            "SELECT idempotency_key, min(seq), max(seq), arg_max(hash, seq) FROM events "
            "WHERE game_id = ? GROUP BY idempotency_key",
            [game_id],
        ).fetchall():
            if key is not None:
                keys[key] = (first, last)
            if last > seq:
                seq, last_hash = last, bytes(digest)
        if not seq:
            return Head(seq, last_hash, keys)
        return self._remember(game_id, self._anchored_head(game_id, seq, last_hash, keys))

    def _anchored_head(self, game_id: str, seq: int, last_hash: bytes, keys: dict[str, tuple[int, int]]) -> Head:
        """The head as stored, checked against its keyed record (a cheap check: no event is read)."""
        row = next(iter(self.reader().execute(_HEAD_ROW, [game_id]).fetchall()), None)
        if row is None:
            return Head(seq, last_hash, keys, 0, anchored=False)
        last_seq, legacy, mac = row
        expected = anchors.head_mac(self._secret, game_id, seq, last_hash, legacy)
        anchored = last_seq == seq and hmac.compare_digest(bytes(mac), expected)
        return Head(seq, last_hash, keys, legacy, anchored)

    def _remember(self, game_id: str, head: Head) -> Head:
        """Cache a head unless a newer one is cached already (a reader may race a commit)."""
        with self._heads_lock:
            current = self._heads.get(game_id)
            if current is not None and current.seq >= head.seq:
                self._heads.move_to_end(game_id)
                return current
            self._cached_keys += len(head.keys) - (len(current.keys) if current is not None else 0)
            self._heads[game_id] = head
            self._heads.move_to_end(game_id)
            while len(self._heads) > 1 and (
                len(self._heads) > self._head_cache_size or self._cached_keys > self._head_cache_keys
            ):
                _, evicted = self._heads.popitem(last=False)
                self._cached_keys -= len(evicted.keys)
            return head

    def _forget_head(self, game_id: str) -> None:
        with self._heads_lock:
            forgotten = self._heads.pop(game_id, None)
            if forgotten is not None:
                self._cached_keys -= len(forgotten.keys)

    def _stored_bodies(self, game_id: str, first: int, last: int) -> list[bytes]:
        rows = self.reader().execute(
            "SELECT body FROM events WHERE game_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            [game_id, first, last],
        ).fetchall()
        return [bytes(r[0]) for r in rows]
