"""The PostgreSQL implementation of the event log, for several workers (or machines) on one store.

Every append is one transaction that locks its game's head row (``SELECT ... FOR UPDATE``), so
two writers of one game serialise in the database whichever process they run in: the second
sees the first's seq and gets ``ConcurrencyConflict``. Nothing about a game is cached between
appends (another process may have written it since); the chain, its keyed anchors
(``events.anchors``) and the stored rows are the DuckDB log's, so ``anchors.check_chain`` checks
both. Each commit sends ``NOTIFY tabletape_events`` (delivered on commit), which ``subscribe``
hands to a process's live streams.

The derived data (the catalogue, statistics, snapshots) stays in DuckDB: each process
keeps an in-memory DuckDB *mirror* of the ``events`` table, copied by ``sync`` from PostgreSQL
(the read models call it before they fold; an append does not wait for it), and ``con``, ``cursor()`` and ``reader()`` are that mirror's, so every
read model and question runs unchanged. ``store`` is the connection of the tables that must be
shared (tokens, creation keys, the admin token, the pack library), in PostgreSQL; ``listen``
and ``notify`` tell every process of a change another layer made there.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import duckdb
import psycopg
import pyarrow as pa
from psycopg_pool import ConnectionPool, PoolTimeout

from events import anchors, codec, limits
from events.base import Event
from events.duckdb_log import SCHEMA as MIRROR_SCHEMA
from events.duckdb_reads import chain_broken
from events.pg_reads import PostgresReads
from events.pg_store import PgStore
from events.rows import ARROW_SCHEMA, COLUMNS, anchored_rows, chunks, import_batch
from events.errors import (
    ChainSecretMissing,
    ConcurrencyConflict,
    GameExists,
    IdempotencyKeyReused,
    MalformedEvent,
)
from events.log import GENESIS_HASH, AppendResult, VerifyReport, chain_hash, micros, utc_now

_logger = logging.getLogger("tabletape.events")

CHANNEL = "tabletape_events"

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

_INSERT = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
#: one lock for every process creating the schema (CREATE ... IF NOT EXISTS races otherwise)
_SCHEMA_LOCK = 0x7461626C  # "tabl"


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


class PostgresEventLog(PostgresReads):
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
        self._writers = ThreadPoolExecutor(max_workers=pool_size, thread_name_prefix="tabletape-pg")
        self._stats = {"appends": 0, "commits": 0, "events": 0}
        self._stats_lock = threading.Lock()
        #: games whose chain failed a check, with the verdict (writes to them are refused)
        self._broken: dict[str, VerifyReport] = {}
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", [_SCHEMA_LOCK])
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

    def append(
        self,
        game_id: str,
        events: Sequence[Event],
        expected_seq: int,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """Append after ``expected_seq`` in one transaction; returns once it has committed."""
        if not events:
            raise MalformedEvent("an append needs at least one event")
        limits.check_game(game_id, events, expected_seq + 1)
        bodies = [codec.encode(event) for event in events]
        refusal = self._broken.get(game_id)
        if refusal is not None:
            raise chain_broken(refusal)
        for _ in range(2):  # a second pass only when another process created the game meanwhile
            with self._pool.connection() as conn, conn.transaction():
                result, rows = self._append_in(conn, game_id, events, bodies, expected_seq, idempotency_key, actor)
            if result is not None:
                break
        else:  # pragma: no cover - the second pass always finds the head the first one missed
            raise ConcurrencyConflict(
                "expected_seq {expected_seq} is stale: game {game_id} was appended to concurrently", params=dict(expected_seq=expected_seq, game_id=game_id),
                game_id=game_id,
                expected_seq=expected_seq,
            )
        if rows:
            with self._stats_lock:
                self._stats["appends"] += 1
                self._stats["commits"] += 1
                self._stats["events"] += len(rows)
        return result

    async def append_async(
        self,
        game_id: str,
        events: Sequence[Event],
        expected_seq: int,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """``append`` off the event loop (PostgreSQL commits in parallel: no group commit here)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._writers, lambda: self.append(game_id, events, expected_seq, idempotency_key, actor)
        )

    def _append_in(
        self,
        conn: psycopg.Connection,
        game_id: str,
        events: Sequence[Event],
        bodies: list[bytes],
        expected_seq: int,
        key: str | None,
        actor: str,
    ) -> tuple[AppendResult | None, list[tuple]]:
        """Decide and write one append inside ``conn``'s transaction; (None, []) when the game
        appeared since the head was looked up (the caller retries)."""
        head = conn.execute(
            "SELECT last_seq, legacy_seq, mac, last_hash FROM chain_heads WHERE game_id = %s FOR UPDATE", [game_id]
        ).fetchone()
        if head is None:
            seq, legacy, prev = 0, 0, GENESIS_HASH
            if conn.execute("SELECT 1 FROM events WHERE game_id = %s LIMIT 1", [game_id]).fetchone():
                raise self._refuse(game_id, 0)  # events without a head: the head was removed
        else:
            seq, legacy, mac, prev = head
            last = conn.execute(
                "SELECT seq, hash FROM events WHERE game_id = %s ORDER BY seq DESC LIMIT 1", [game_id]
            ).fetchone()
            # the head must vouch for the last stored event: a deleted or rewritten last event shows
            if last != (seq, prev) or not hmac.compare_digest(
                mac, anchors.head_mac(self._secret, game_id, seq, prev, legacy)
            ):
                raise self._refuse(game_id, seq)
        if key is not None:
            span = conn.execute(
                "SELECT min(seq), max(seq) FROM events WHERE game_id = %s AND idempotency_key = %s", [game_id, key]
            ).fetchone()
            if span[0] is not None:
                first, last = span
                stored = [bytes(r[0]) for r in conn.execute(
                    "SELECT body FROM events WHERE game_id = %s AND seq BETWEEN %s AND %s ORDER BY seq",
                    [game_id, first, last],
                )]
                if stored != bodies:
                    raise IdempotencyKeyReused(
                        "idempotency key {key!r} was already used for different events (seq {first}..{last})", params=dict(key=key, first=first, last=last),
                        game_id=game_id,
                        first_seq=first,
                        last_seq=last,
                    )
                return AppendResult(game_id, first, last, replayed=True), []
        if expected_seq != seq:
            raise ConcurrencyConflict(
                "expected_seq {expected_seq} is stale: game {game_id} is at seq {last_seq}", params=dict(expected_seq=expected_seq, game_id=game_id, last_seq=seq),
                game_id=game_id,
                expected_seq=expected_seq,
                current_seq=seq,
            )
        rows = event_rows(self._secret, game_id, events, bodies, seq, prev, self._clock(), actor, key)
        last_seq, last_hash = rows[-1][1], rows[-1][8]
        mac = anchors.head_mac(self._secret, game_id, last_seq, last_hash, legacy)
        if head is None:
            claimed = conn.execute(
                "INSERT INTO chain_heads VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING 1",
                [game_id, last_seq, legacy, mac, last_hash],
            ).fetchone()
            if claimed is None:
                return None, []
        else:
            conn.execute(
                "UPDATE chain_heads SET last_seq = %s, mac = %s, last_hash = %s WHERE game_id = %s",
                [last_seq, mac, last_hash, game_id],
            )
        with conn.cursor() as cur:
            cur.executemany(_INSERT, rows)
        conn.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game_id} {seq + 1} {last_seq}"])
        return AppendResult(game_id, seq + 1, last_seq, types=tuple(row[4] for row in rows)), rows

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
        games = list(games)
        game_ids = [game_id for game_id, _ in games]
        if len(set(game_ids)) != len(game_ids):
            raise GameExists("an import names the same game twice")
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

    # -- the mirror and notifications ------------------------------------------------------

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
            key = [_SCHEMA_LOCK, name]
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

    def close(self) -> None:
        self._closing = True
        if self._listener is not None:
            self._listener.join(timeout=5)
        self._writers.shutdown(wait=True)
        self._pool.close()
        self.store.close()
        with self._mirror_lock:
            self.con.close()


def event_rows(
    secret: bytes,
    game_id: str,
    events: Sequence[Event],
    bodies: Sequence[bytes],
    seq: int,
    prev: bytes,
    at: datetime,
    actor: str,
    key: str | None,
) -> list[tuple]:
    """The stored rows (``COLUMNS``) of events appended after ``seq`` whose hash is ``prev``."""
    at_us = micros(at)
    rows = []
    for event, body in zip(events, bodies):
        seq += 1
        digest = chain_hash(prev, game_id, seq, at_us, actor, body)
        rows.append((
            game_id, seq, at, actor, codec.tag_of(type(event)), body, codec.encode_json(event).decode(),
            prev, digest, key, anchors.event_mac(secret, game_id, seq, digest, key),
        ))
        prev = digest
    return rows


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
