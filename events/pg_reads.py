"""What the PostgreSQL log reads, each answer a query (``PostgresReads`` is a part of
``PostgresEventLog``); the read models read its DuckDB mirror through ``reader`` and ``cursor``."""

from __future__ import annotations

import os
import threading
from datetime import datetime
from typing import Any, Sequence

import duckdb
from psycopg_pool import ConnectionPool

from events import anchors, codec
from events.anchors import chain_broken
from events.base import Event
from events.errors import UnknownGame
from events.log import AppendResult, StoredEvent, VerifyReport, thread_cursor
from events.pg_store import EPOCH_US

#: ``anchors.CHECK_COLUMNS`` in PostgreSQL's words
CHECK_COLUMNS = anchors.CHECK_COLUMNS.replace("epoch_us(recorded_at)", EPOCH_US)


class PostgresReads(anchors.Keyed):
    """The reading half of ``PostgresEventLog``."""

    con: duckdb.DuckDBPyConnection
    _pool: ConnectionPool
    _local: threading.local
    _mirror_lock: threading.Lock
    _stats: dict[str, int]
    _broken: dict[str, VerifyReport]

    def reader(self) -> duckdb.DuckDBPyConnection:
        """This thread's own cursor on the mirror (DuckDB), for the read models' SQL."""
        return thread_cursor(self._local, self._mirror_lock, self.con)

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A new cursor on the mirror, for a layer that keeps its own (derived) tables."""
        with self._mirror_lock:
            return self.con.cursor()

    def ping(self) -> None:
        with self._pool.connection() as conn:
            conn.execute("SELECT 1")

    def stats(self) -> dict[str, int]:
        """Appends, commits and events written by this process, and its id (``worker``: which
        of several workers answered)."""
        return {**self._stats, "worker": os.getpid()}

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._pool.connection() as conn:
            return conn.execute(sql, params).fetchall()

    def replayed(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        first, last = self._query(
            "SELECT min(seq), max(seq) FROM events WHERE game_id = %s AND idempotency_key = %s",
            [game_id, idempotency_key],
        )[0]
        return None if first is None else AppendResult(game_id, first, last, replayed=True)

    def exists(self, game_id: str) -> bool:
        return self.last_seq(game_id) > 0

    def cached_seq(self, game_id: str) -> int | None:
        """Always None: another process may have appended since (every answer is a query)."""
        return None

    def last_seq(self, game_id: str) -> int:
        return self._query("SELECT coalesce(max(seq), 0) FROM events WHERE game_id = %s", [game_id])[0][0]

    def recorded_times(self, game_id: str, seqs: Sequence[int]) -> dict[int, datetime]:
        """When the events at ``seqs`` of a game were recorded."""
        return dict(self._query(
            "SELECT seq, recorded_at FROM events WHERE game_id = %s AND seq = ANY(%s)", [game_id, list(seqs)]
        ))

    def read(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        decode = codec.decode
        return [
            StoredEvent(game_id, seq, at, actor, decode(body), prev.hex(), digest.hex())
            for seq, at, actor, body, prev, digest in self.read_raw(game_id, from_seq, to_seq)
        ]

    def read_bodies(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[Event]:
        rows = self._query(
            "SELECT body FROM events WHERE game_id = %s AND seq >= %s AND seq <= %s ORDER BY seq",
            [game_id, from_seq, to_seq if to_seq is not None else 2**31 - 1],
        )
        if not rows and from_seq <= 1 and not self.exists(game_id):
            raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
        return codec.decode_many([row[0] for row in rows])

    def read_raw(
        self, game_id: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[tuple[int, datetime, str, bytes, bytes, bytes]]:
        rows = self._query(
            "SELECT seq, recorded_at, actor, body, prev_hash, hash FROM events "
            "WHERE game_id = %s AND seq >= %s AND seq <= %s ORDER BY seq",
            [game_id, from_seq, to_seq if to_seq is not None else 2**31 - 1],
        )
        if not rows and not self.exists(game_id):
            raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
        return rows

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._query("SELECT DISTINCT game_id FROM events ORDER BY 1")]

    def anchored_game_ids(self) -> list[str]:
        return [r[0] for r in self._query("SELECT game_id FROM chain_heads ORDER BY 1")]

    def verify(self, game_id: str) -> VerifyReport:
        """Check a game's hash chain and its keyed anchors; name the first seq that does not match."""
        rows, head = self._check_rows(game_id)
        return anchors.check_chain(game_id, rows, head, self._secret)[0]

    def verify_many(self, game_ids: Sequence[str]) -> list[VerifyReport]:
        """``verify`` of many games in one snapshot (an import's thousands of games)."""
        ids = list(game_ids)
        rows, heads = self._chain_rows(
            f"SELECT game_id, {CHECK_COLUMNS} FROM events WHERE game_id = ANY(%s) ORDER BY game_id, seq",
            "SELECT game_id, last_seq, legacy_seq, mac FROM chain_heads WHERE game_id = ANY(%s)", [ids],
        )
        return anchors.check_many(ids, rows, heads, self._secret)

    def read_checked(self, game_id: str) -> list[Event]:
        """The decoded bodies of a game whose chain and anchors check out; raises ChainBroken
        naming the first altered seq otherwise (and refuses writes to that game from then on)."""
        report = self._broken.get(game_id)
        if report is None:
            rows, head = self._check_rows(game_id)
            report, bodies = anchors.check_chain(game_id, rows, head, self._secret)
            if report.ok:
                return bodies
            self._broken[game_id] = report
        raise chain_broken(report)

    def _check_rows(self, game_id: str) -> tuple[list[tuple], tuple | None]:
        rows, heads = self._chain_rows(
            f"SELECT {CHECK_COLUMNS} FROM events WHERE game_id = %s ORDER BY seq",
            "SELECT last_seq, legacy_seq, mac FROM chain_heads WHERE game_id = %s", [game_id],
        )
        head = heads[0] if heads else None
        if not rows and head is None:
            raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
        return rows, head

    def _chain_rows(self, rows_sql: str, heads_sql: str, params: list[Any]) -> tuple[list[tuple], list[tuple]]:
        """Event rows and head rows read in one snapshot: under READ COMMITTED each statement takes
        its own, so an append committed between the two made a sound game look cut short (and
        marked broken)."""
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return conn.execute(rows_sql, params).fetchall(), conn.execute(heads_sql, params).fetchall()
