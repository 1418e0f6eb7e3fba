"""The PostgreSQL implementation of the event log, for several workers (or machines) on one store.

Appends go through the group committer (``events.group_commit``): each gathered batch is one
transaction that locks its games' head rows (``SELECT ... FOR UPDATE``, in game order), so two
writers of one game serialise in the database whichever process they run in: the second sees the
first's seq and gets ``ConcurrencyConflict``. Nothing about a game is cached between commits
(another process may have written it since); the chain, its keyed anchors (``events.anchors``)
and the stored rows are the DuckDB log's, so ``anchors.check_chain`` checks both. Each append
sends ``NOTIFY tabletape_events`` (delivered on commit), which ``subscribe`` hands to a process's
live streams.

The derived data (the catalogue, statistics, snapshots) stays in DuckDB: each process
keeps an in-memory DuckDB *mirror* of the ``events`` table, copied by ``sync`` from PostgreSQL
(the read models call it before they fold; an append does not wait for it), and ``con``, ``cursor()`` and ``reader()`` are that mirror's, so every
read model and question runs unchanged. ``store`` is the connection of the tables that must be
shared (tokens, creation keys, the admin token, the pack library), in PostgreSQL; ``listen``
and ``notify`` tell every process of a change another layer made there.
"""

from __future__ import annotations

import functools
import hmac
import os
import re
import threading
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable, Sequence

import duckdb
import psycopg
import pyarrow as pa
from psycopg_pool import ConnectionPool

from events import anchors
from events.anchors import chain_broken
from events.base import Event
from events.duckdb_log import SCHEMA as MIRROR_SCHEMA
from events.errors import ChainSecretMissing, GameExists
from events.group_commit import AppendRequest, Committed, GroupCommitter, Head, appended_concurrently, last_heads, settle, stage
from events.log import GENESIS_HASH, AppendResult, VerifyReport, utc_now
from events.pg_notices import CHANNEL, SCHEMA_LOCK, PostgresNotices
from events.pg_reads import PostgresReads
from events.pg_store import PgStore
from events.rows import ARROW_SCHEMA, COLUMNS, anchored_rows, chunks, import_batch, import_listed

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    recorded_at TIMESTAMP NOT NULL,
    actor TEXT NOT NULL,
    type TEXT NOT NULL,
    body BYTEA NOT NULL,
    body_json TEXT NOT NULL,
    prev_hash BYTEA NOT NULL,
    hash BYTEA NOT NULL,
    idempotency_key TEXT,
    mac BYTEA,
    -- the writing transaction and an insertion counter: what a mirror has copied so far
    tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
    id BIGSERIAL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS events_by_tx ON events (tx, id);
CREATE INDEX IF NOT EXISTS events_by_key ON events (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE TABLE IF NOT EXISTS chain_heads (
    game_id TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL,
    legacy_seq INTEGER NOT NULL,
    mac BYTEA NOT NULL,
    -- the last event's hash (the head's MAC covers it): an append reads one row, not the events
    last_hash BYTEA NOT NULL
);
"""

_LOCK_ONE = "SELECT game_id, last_seq, legacy_seq, mac, last_hash FROM chain_heads WHERE game_id = %s FOR UPDATE"
#: in game order, so that two batches never wait for each other in a cycle
_LOCK_MANY = (
    "SELECT game_id, last_seq, legacy_seq, mac, last_hash FROM chain_heads "
    "WHERE game_id = ANY(%s) ORDER BY game_id FOR UPDATE"
)
_LAST_ONE = "SELECT %s::text, seq, hash FROM events WHERE game_id = %s ORDER BY seq DESC LIMIT 1"
_LAST_MANY = (
    "SELECT g, e.seq, e.hash FROM unnest(%s::text[]) g CROSS JOIN LATERAL "
    "(SELECT seq, hash FROM events WHERE game_id = g ORDER BY seq DESC LIMIT 1) e"
)
#: of one game, ``{keys}`` its keys' placeholders
_KEYS_ONE = (
    "SELECT game_id, idempotency_key, min(seq), max(seq) FROM events "
    "WHERE game_id = %s AND idempotency_key IN ({keys}) GROUP BY 1, 2"
)
_KEYS_MANY = (
    "SELECT game_id, idempotency_key, min(seq), max(seq) FROM events "
    "WHERE (game_id, idempotency_key) IN (SELECT * FROM unnest(%s::text[], %s::text[])) GROUP BY 1, 2"
)
_TYPES = ("text", "int", "timestamp", "text", "text", "bytea", "text", "bytea", "bytea", "text", "bytea")

def secret_path(dsn: str) -> Path:
    """Where the anchors' key of a PostgreSQL store lives: ``$TABLETAPE_SECRET_FILE``, else
    ``data/<host>-<port>-<database>.key``. Outside the database on purpose: whoever can rewrite
    the tables must not be able to re-sign them. Every worker and machine needs the same file."""
    override = os.environ.get(anchors.SECRET_ENV)
    if override:
        return Path(override)
    info = psycopg.conninfo.conninfo_to_dict(dsn)
    name = "-".join(str(info.get(k) or d) for k, d in (("host", "local"), ("port", 5432), ("dbname", "postgres")))
    return Path("data") / (re.sub(r"[^A-Za-z0-9._-]", "_", name) + ".key")

class PostgresEventLog(Committed, PostgresNotices, PostgresReads):
    """Append-only event log in PostgreSQL tables ``events`` and ``chain_heads``."""

    #: whether other processes may write the same store (tokens are then never cached)
    shared = True

    def __init__(
        self,
        dsn: str,
        *,
        clock: Callable[[], datetime] = utc_now,
        secret: bytes | None = None,
        pool_size: int = 8,
        mirror: str = ":memory:",
    ) -> None:
        self.dsn = dsn
        self._clock = clock
        # a server that does not answer fails here, at once (the pool would retry for 30 s)
        psycopg.connect(dsn, autocommit=True, connect_timeout=10).close()
        self._pool = ConnectionPool(
            dsn, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=True, name="tabletape"
        )
        self._committer = GroupCommitter(self._commit)
        self._stats = {"appends": 0, "commits": 0, "events": 0}
        #: games whose chain failed a check, with the verdict (writes to them are refused)
        self._broken: dict[str, VerifyReport] = {}
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", [SCHEMA_LOCK])
            had_heads = conn.execute("SELECT to_regclass('chain_heads') IS NOT NULL").fetchone()[0]
            conn.execute(SCHEMA)
            self._secret = secret or self._open_secret(conn, had_heads)
        #: a PostgreSQL store has its anchors from its first start: none to add to older games
        self.anchored_on_open = 0
        self.store = PgStore(dsn)
        self.con = duckdb.connect(mirror)
        self.con.execute(MIRROR_SCHEMA)
        self._mirror_lock = threading.Lock()
        self._local = threading.local()
        #: (transaction, id) of the last row copied into the mirror from PostgreSQL
        self._mark: tuple[str, int] = ("0", 0)
        self._listeners: list[Callable[[str, AppendResult], None]] = []
        #: other layers' channels (``listen``): channel -> its listeners
        self._channels: dict[str, list[Callable[[str], None]]] = {}
        self._listening: set[str] = set()
        self._listener: threading.Thread | None = None
        self._closing = False
        self.sync()

    def _open_secret(self, conn: psycopg.Connection, had_heads: bool) -> bytes:
        path = secret_path(self.dsn)
        found = anchors.read_secret(path)
        if found is not None:
            return found
        if had_heads and conn.execute("SELECT 1 FROM chain_heads LIMIT 1").fetchone():
            raise ChainSecretMissing(
                "this database's chains are anchored with the secret {path}, which is missing; put it back (or point ${secret_env} at it)", params=dict(path=path, secret_env=anchors.SECRET_ENV),
                secret_file=str(path),
            )
        return anchors.make_secret(path)

    # -- writing ---------------------------------------------------------------------------

    def _commit(self, batch: list[AppendRequest]) -> None:
        """Decide and write a batch in one transaction; one by one, each in its own, if it fails."""
        pending = batch
        for _ in range(3):  # a further pass only when another process created one of the games meanwhile
            try:
                with self._pool.connection() as conn:
                    if self._commit_in(conn, pending):
                        return
            except psycopg.Error:
                if len(pending) == 1:
                    raise
                for request in pending:
                    if not request.done:
                        request.undecided()
                        self._commit_alone(request)
                return
            pending = [request for request in pending if not request.done]
            for request in pending:
                request.undecided()
        for request in pending:  # pragma: no cover - a second pass finds the heads the first one missed
            request.refuse(appended_concurrently(request))

    def _commit_alone(self, request: AppendRequest) -> None:
        try:
            self._commit([request])
        except Exception as exc:  # noqa: BLE001 - it is this request's answer, not its neighbours'
            request.refuse(exc)

    def _commit_in(self, conn: psycopg.Connection, batch: list[AppendRequest]) -> bool:
        """Lock the batch's heads, stage it and write the accepted requests, in one transaction;
        False (nothing written) when a game appeared since its head was looked up."""
        games = sorted({request.game_id for request in batch})
        written = False
        with conn.transaction():
            heads, vouched = self._lock_heads(conn, games, batch)

            def refusal(game_id: str, head: Head) -> Exception | None:
                report = self._broken.get(game_id)
                if report is not None:
                    return chain_broken(report)
                return None if vouched[game_id] else self._refuse(game_id, head.seq)

            def stored_bodies(game_id: str, first: int, last: int) -> list[bytes]:
                return [bytes(r[0]) for r in conn.execute(
                    "SELECT body FROM events WHERE game_id = %s AND seq BETWEEN %s AND %s ORDER BY seq",
                    [game_id, first, last],
                )]

            accepted = stage(batch, heads.__getitem__, refusal, stored_bodies, self._clock(), self._secret)
            if accepted and not self._write(conn, accepted):
                raise psycopg.Rollback()  # leaves the block, rolling back the claims made
            written = True
        if not written:
            return False
        if accepted:
            self._count(len(accepted), sum(len(request.rows) for request, _ in accepted))
        for request, _ in accepted:
            request.done = True
        settle(batch)
        return True

    def _lock_heads(
        self, conn: psycopg.Connection, games: list[str], batch: list[AppendRequest]
    ) -> tuple[dict[str, Head], dict[str, bool]]:
        """The heads of ``games`` as stored, locked (in game order, so that two batches never wait
        for each other in a cycle), and whether each vouches for its game's last stored event."""
        locked, last = _locked(conn, games)
        # events but no head: another process created the game between the two reads (its head
        # and events commit together, so a read after them sees its head) or the head was removed.
        # Locking it now is out of game order: a cycle this makes, PostgreSQL breaks (the batch
        # then goes request by request)
        appeared = [game_id for game_id in games if game_id not in locked and game_id in last]
        if appeared:
            again, last_again = _locked(conn, appeared)
            locked.update(again)
            last.update(last_again)
        keyed = [r for r in batch if r.idempotency_key is not None]
        keys = [r.idempotency_key for r in keyed]
        one = len(games) == 1
        used = conn.execute(
            _KEYS_ONE.format(keys=", ".join(["%s"] * len(keys))) if one else _KEYS_MANY,
            [games[0], *keys] if one else [[r.game_id for r in keyed], keys],
        ).fetchall() if keyed else []
        spans: dict[str, dict[str, tuple[int, int]]] = {game_id: {} for game_id in games}
        for game_id, key, first, final in used:
            spans[game_id][key] = (first, final)
        heads: dict[str, Head] = {}
        vouched: dict[str, bool] = {}
        for game_id in games:
            stored = locked.get(game_id)
            if stored is None:  # a new game, unless its head was removed (events without one)
                heads[game_id] = Head(0, GENESIS_HASH, spans[game_id])
                vouched[game_id] = game_id not in last
                continue
            seq, legacy, mac, prev = stored
            heads[game_id] = Head(seq, prev, spans[game_id], legacy)
            # the head must vouch for the last stored event: a deleted or rewritten last event shows
            vouched[game_id] = last.get(game_id) == (seq, prev) and hmac.compare_digest(
                mac, anchors.head_mac(self._secret, game_id, seq, prev, legacy)
            )
        return heads, vouched

    def _write(self, conn: psycopg.Connection, accepted: list[tuple[AppendRequest, Head]]) -> bool:
        """The accepted rows, their games' heads and a notification per append; False when another
        process created one of the new games first (the caller rolls back and stages again)."""
        created, updated = [], []
        for game_id, head, new in last_heads(accepted):
            mac = anchors.head_mac(self._secret, game_id, head.seq, head.hash, head.legacy)
            (created if new else updated).append((game_id, head.seq, head.legacy, mac, head.hash))
        if created:
            created.sort()  # the unique index is taken in game order too
            claimed = conn.execute(
                "INSERT INTO chain_heads VALUES " + ", ".join(["(%s, %s, %s, %s, %s)"] * len(created))
                + " ON CONFLICT DO NOTHING RETURNING 1", [value for head in created for value in head],
            ).fetchall()
            if len(claimed) != len(created):
                return False
        rows = [row for request, _ in accepted for row in request.rows]
        notes = [f"{r.game_id} {r.result.first_seq} {r.result.last_seq}" for r, _ in accepted]  # type: ignore[union-attr]
        conn.execute(_write_sql(len(updated), len(rows), len(notes)), [
            *(value for game_id, seq, _, mac, last_hash in updated for value in (game_id, seq, mac, last_hash)),
            *(value for row in rows for value in row), CHANNEL, *notes,
        ])
        return True

    def _refuse(self, game_id: str, seq: int) -> Exception:
        """The error for a write to a game whose head does not vouch for its events (kept)."""
        report = self.verify(game_id)
        if report.ok:  # the head record alone was altered
            report = VerifyReport(game_id, report.events, False, seq, "the anchored head does not match")
        self._broken[game_id] = report
        return chain_broken(report)

    def import_games(
        self, games: Iterable[tuple[str, Sequence[Event]]], actor: str = "import", chunk_events: int = 50_000,
        at: datetime | None = None,
    ) -> int:
        """Bulk-append whole new games: all or nothing, with COPY, in one transaction."""
        games, game_ids = import_listed(games)
        at = at or self._clock()
        inserted = 0
        with self._pool.connection() as conn, conn.transaction():
            clash = conn.execute("SELECT game_id FROM chain_heads WHERE game_id = ANY(%s) LIMIT 1", [game_ids]).fetchone()
            if clash:
                raise GameExists("game {game_id} already exists; an import only adds new games", params=dict(game_id=clash[0]))
            for chunk in chunks(games, chunk_events):
                batch, heads = import_batch(chunk, at, actor, self._secret)
                self._copy(conn, batch, heads)
                inserted += batch.num_rows
        return inserted

    def restore(self, table: pa.Table) -> int:
        """Add whole games exactly as another tabletape store recorded them (see
        ``DuckDBEventLog.restore``), all or nothing; returns the number of events."""
        rows, heads = anchored_rows(self._secret, table)
        ids = sorted(set(rows.column("game_id").to_pylist()))
        with self._pool.connection() as conn, conn.transaction():
            clash = conn.execute("SELECT game_id FROM events WHERE game_id = ANY(%s) LIMIT 1", [ids]).fetchone()
            if clash:
                raise GameExists("game {game_id} already exists; an import only adds new games", params=dict(game_id=clash[0]))
            self._copy(conn, rows, heads)
        return rows.num_rows

    def _copy(self, conn: psycopg.Connection, batch: pa.Table, heads: pa.Table) -> None:
        """Rows (``ARROW_SCHEMA``) and their games' heads through COPY."""
        columns = [batch.column(name).to_pylist() for name in COLUMNS]
        last_hash: dict[str, bytes] = {}
        with conn.cursor() as cur:
            with cur.copy(f"COPY events ({', '.join(COLUMNS)}) FROM STDIN") as copy:
                for row in zip(*columns):
                    copy.write_row(row)
                    last_hash[row[0]] = row[8]
            with cur.copy("COPY chain_heads (game_id, last_seq, legacy_seq, mac, last_hash) FROM STDIN") as copy:
                for game_id, last_seq, legacy, mac in zip(*(heads.column(i).to_pylist() for i in range(4))):
                    copy.write_row((game_id, last_seq, legacy, mac, last_hash[game_id]))

    # -- the mirror ---------------------------------------------------------------------------

    def sync(self) -> int:
        """Copy into the mirror the events other processes committed; returns how many.

        Rows are taken in (transaction, id) order up to the oldest transaction still running
        (``pg_snapshot_xmin``): a row of a transaction below it can no longer appear, so none
        is skipped however the commits interleave.
        """
        with self._mirror_lock:
            with self._pool.connection() as conn:
                rows = conn.execute(
                    # the text of tx under another name: ORDER BY tx would sort by the output column's text
                    f"SELECT {', '.join(COLUMNS)}, tx::text AS tx_text, id FROM events "
                    # the first bound alone lets the planner take a range of the (tx, id) index
                    "WHERE tx >= %s::xid8 AND (tx, id) > (%s::xid8, %s) "
                    "AND tx < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY events.tx, events.id",
                    [self._mark[0], *self._mark],
                ).fetchall()
            if not rows:
                return 0
            columns = list(zip(*rows))[: len(COLUMNS)]
            table = pa.table([pa.array(c, f.type) for c, f in zip(columns, ARROW_SCHEMA)], schema=ARROW_SCHEMA)
            cur = self.con.cursor()
            try:
                cur.register("_mirror_rows", table)
                cur.execute("INSERT INTO events SELECT * FROM _mirror_rows")
            finally:
                cur.close()
            self._mark = (rows[-1][-2], rows[-1][-1])
            return len(rows)

    def close(self) -> None:
        self._committer.close()
        self._closing = True
        if self._listener is not None:
            self._listener.join(timeout=5)
        self._pool.close()
        self.store.close()
        with self._mirror_lock:
            self.con.close()

def _locked(conn: psycopg.Connection, games: list[str]) -> tuple[dict[str, tuple], dict[str, tuple]]:
    """The heads of ``games`` locked, then the last stored event of each (seq, hash), by game."""
    one = len(games) == 1  # the statements of one game cost less than their array forms
    locked = conn.execute(_LOCK_ONE if one else _LOCK_MANY, [games[0] if one else games]).fetchall()
    # a statement of its own after the lock: under READ COMMITTED it sees what the head's last
    # writer committed (one joined to the lock would see the events as they were before it)
    last = conn.execute(_LAST_ONE if one else _LAST_MANY, [games[0], games[0]] if one else [games]).fetchall()
    return {row[0]: row[1:] for row in locked}, {row[0]: row[1:] for row in last}

@functools.lru_cache(maxsize=64)
def _write_sql(heads: int, rows: int, notes: int) -> str:
    """The writes of a commit in one statement (one round trip): the heads' update, the events (ids
    in row order, which the mirror copies by) and a notification per append. Scalar parameters:
    psycopg's arrays cost more to send than the statements they save."""
    update = (
        "heads AS (UPDATE chain_heads h SET last_seq = v.s, mac = v.m, last_hash = v.lh FROM (VALUES "
        + ", ".join(["(%s::text, %s::int, %s::bytea, %s::bytea)"] * heads) + ") v(g, s, m, lh) WHERE h.game_id = v.g), "
    ) if heads else ""
    row = "(" + ", ".join(f"%s::{kind}" for kind in _TYPES) + ")"
    return (
        f"WITH {update}appended AS (INSERT INTO events ({', '.join(COLUMNS)}) VALUES {', '.join([row] * rows)}) "
        "SELECT count(pg_notify(%s, note)) FROM (VALUES " + ", ".join(["(%s::text)"] * notes) + ") n(note)"
    )
