"""The DuckDB implementation of the event log.

One process owns a DuckDB file (DuckDB's own file lock enforces it), so the last seq and hash
of each game are cached in memory and every commit is one INSERT of the events plus one write of
their games' keyed heads (``events.anchors``), in one transaction; the ``(game_id, seq)`` primary
key is the backstop against any writer that bypassed the cache.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import logging
import threading
import time
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from collections import OrderedDict
from datetime import datetime
from typing import Callable, Iterable, Iterator, Sequence

import duckdb
import pyarrow as pa

from events import anchors, codec, limits
from events.base import Event
from events.group_commit import GroupCommitter, Pending
from events.errors import (
    ChainBroken,
    ChainSecretMissing,
    ConcurrencyConflict,
    GameExists,
    GameUnreadable,
    IdempotencyKeyReused,
    MalformedEvent,
    UnknownGame,
    game_unreadable,
)
from events.log import (
    GENESIS_HASH,
    AppendResult,
    StoredEvent,
    VerifyReport,
    chain_hash,
    micros,
    utc_now,
)

_logger = logging.getLogger("tabletape.events")

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    game_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    recorded_at TIMESTAMP NOT NULL,
    actor VARCHAR NOT NULL,
    type VARCHAR NOT NULL,
    body BLOB NOT NULL,
    body_json JSON NOT NULL,
    prev_hash BLOB NOT NULL,
    hash BLOB NOT NULL,
    idempotency_key VARCHAR,
    mac BLOB,
    PRIMARY KEY (game_id, seq)
);
ALTER TABLE events ADD COLUMN IF NOT EXISTS mac BLOB;
"""

_COLUMNS = (
    "game_id",
    "seq",
    "recorded_at",
    "actor",
    "type",
    "body",
    "body_json",
    "prev_hash",
    "hash",
    "idempotency_key",
    "mac",
)

_INSERT_ONE = f"INSERT INTO events VALUES ({','.join('?' * len(_COLUMNS))})"
_ROW = f"({','.join('?' * len(_COLUMNS))})"
#: a commit of one game with at most this many events is one statement (events and head); past
#: about eight, BEGIN, the appender, the head's UPDATE and COMMIT cost less (measured)
_ONE_STATEMENT_ROWS = 6
#: a game's head record, as ``anchors`` checks it
_HEAD_ROW = "SELECT last_seq, legacy_seq, mac FROM chain_heads WHERE game_id = ?"
#: a game's rows as ``anchors.check_chain`` reads them, each followed by the game's head record
_CHECK_ROWS_AND_HEAD = (
    f"SELECT {anchors.CHECK_COLUMNS}, last_seq, legacy_seq, head_mac FROM events LEFT JOIN "
    "(SELECT last_seq, legacy_seq, mac AS head_mac FROM chain_heads WHERE game_id = $1) ON true WHERE game_id = $1"
)

_ARROW_SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("seq", pa.int32()),
        ("recorded_at", pa.timestamp("us")),
        ("actor", pa.string()),
        ("type", pa.string()),
        ("body", pa.binary()),
        ("body_json", pa.string()),
        ("prev_hash", pa.binary()),
        ("hash", pa.binary()),
        ("idempotency_key", pa.string()),
        ("mac", pa.binary()),
    ]
)

_HEADS_ARROW = pa.schema(
    [("game_id", pa.string()), ("last_seq", pa.int32()), ("legacy_seq", pa.int32()), ("mac", pa.binary())]
)


class _Head:
    """What the log remembers of one game between appends."""

    __slots__ = ("seq", "hash", "keys", "legacy", "anchored", "checked")

    def __init__(
        self, seq: int, hash_: bytes, keys: dict[str, tuple[int, int]], legacy: int = 0, anchored: bool = True
    ) -> None:
        self.seq = seq
        self.hash = hash_
        self.keys = keys
        #: events up to this seq predate the keyed anchors (see ``events.anchors``)
        self.legacy = legacy
        #: whether the stored head record vouches for ``seq`` and ``hash``
        self.anchored = anchored
        #: whether every event up to ``seq`` was checked against its chain and anchors (or
        #: appended by this process); DuckDB's file lock keeps other writers out meanwhile
        self.checked = False

    def copy(self) -> "_Head":
        head = _Head(self.seq, self.hash, dict(self.keys), self.legacy, self.anchored)
        head.checked = self.checked
        return head


class _Pending(Pending):
    """One append waiting for its group commit."""

    __slots__ = ("game_id", "events", "bodies", "expected_seq", "idempotency_key", "actor", "rows")

    def __init__(
        self,
        game_id: str,
        events: list[Event],
        bodies: list[bytes],
        expected_seq: int,
        idempotency_key: str | None,
        actor: str,
    ) -> None:
        super().__init__()
        self.game_id = game_id
        self.events = events
        self.bodies = bodies
        self.expected_seq = expected_seq
        self.idempotency_key = idempotency_key
        self.actor = actor
        self.rows: list[tuple] = []


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause the cycle collector: a bulk import allocates millions of acyclic objects, and with
    a large heap of live events every collection rescans them (measured: ~170k -> ~215k ev/s)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _chunks(games: list, size: int) -> Iterator[list]:
    chunk, count = [], 0
    for game in games:
        chunk.append(game)
        count += len(game[1])
        if count >= size:
            yield chunk
            chunk, count = [], 0
    if chunk:
        yield chunk


_SEQ_BYTES = tuple(i.to_bytes(8, "big") for i in range(4096))


def _import_batch(
    games: list[tuple[str, Sequence[Event]]], at: datetime, actor: str, secret: bytes
) -> tuple[pa.Table, pa.Table]:
    """Rows of whole new games as one Arrow table (bodies encoded, hash chains and MACs computed),
    and their heads."""
    tail = micros(at).to_bytes(8, "big", signed=True) + actor.encode() + b"\x00"
    encode, encode_json, sha256, blake2b = codec.encode, codec.encode_json, hashlib.sha256, hashlib.blake2b
    no_key = anchors.key_marker(None)
    tags = {event_type: tag for tag, event_type in codec.registered().items()}
    game_col: list[str] = []
    seq_col: list[int] = []
    type_col: list[str] = []
    body_col: list[bytes] = []
    json_col: list[bytes] = []
    prev_col: list[bytes] = []
    hash_col: list[bytes] = []
    mac_col: list[bytes] = []
    heads: list[tuple[str, int, int, bytes]] = []
    seq_bytes = _SEQ_BYTES
    for game_id, events in games:
        limits.check_game(game_id, events)
        bodies = [encode(event) for event in events]
        n = len(bodies)
        if n >= len(seq_bytes):
            seq_bytes = tuple(i.to_bytes(8, "big") for i in range(n + 1))
        prefix, mac_prefix = game_id.encode() + b"\x00", anchors.event_mac_prefix(game_id)
        prev = GENESIS_HASH
        hashes = []
        for seq_b, body in zip(seq_bytes[1 : n + 1], bodies):
            # the bytes of chain_hash() and anchors.event_mac(), inlined: this loop is the import's hot path
            prev = sha256(b"".join((prev, prefix, seq_b, tail, body))).digest()
            hashes.append(prev)
            mac_col.append(blake2b(b"".join((mac_prefix, seq_b, prev, no_key)), key=secret, digest_size=32).digest())
        heads.append((game_id, n, 0, anchors.head_mac(secret, game_id, n, prev, 0)))
        prev_col.append(GENESIS_HASH)
        prev_col.extend(hashes[:-1])
        hash_col.extend(hashes)
        type_col.extend([tags[event.__class__] for event in events])
        game_col.extend([game_id] * n)
        seq_col.extend(range(1, n + 1))
        body_col.extend(bodies)
        json_col.extend([encode_json(event) for event in events])
    count = len(seq_col)
    columns = {
        "game_id": pa.array(game_col, pa.string()),
        "seq": pa.array(seq_col, pa.int32()),
        "recorded_at": pa.repeat(pa.scalar(at, pa.timestamp("us")), count),
        "actor": pa.repeat(pa.scalar(actor, pa.string()), count),
        "type": pa.array(type_col, pa.string()),
        "body": pa.array(body_col, pa.binary()),
        "body_json": pa.array(json_col, pa.binary()).cast(pa.string()),
        "prev_hash": pa.array(prev_col, pa.binary()),
        "hash": pa.array(hash_col, pa.binary()),
        "idempotency_key": pa.nulls(count, pa.string()),
        "mac": pa.array(mac_col, pa.binary()),
    }
    return pa.table([columns[name] for name in _COLUMNS], schema=_ARROW_SCHEMA), _heads_table(heads)


def _heads_table(heads: list[tuple[str, int, int, bytes]]) -> pa.Table:
    columns = list(zip(*heads)) or [(), (), (), ()]
    return pa.table(
        [pa.array(list(column), field.type) for column, field in zip(columns, _HEADS_ARROW)], schema=_HEADS_ARROW
    )


def anchored_rows(secret: bytes, table: pa.Table) -> tuple[pa.Table, pa.Table]:
    """Restored rows in game and seq order with this store's MACs, and their games' heads."""
    table = table.select([c for c in _COLUMNS if c != "mac"])
    table = table.sort_by([("game_id", "ascending"), ("seq", "ascending")])
    for game_id, seq, body in zip(*(table.column(c).to_pylist() for c in ("game_id", "seq", "body"))):
        limits.check_game(game_id, (codec.decode(body),), seq)
    columns = ("game_id", "seq", "hash", "idempotency_key")
    macs, heads = [], []
    ids, seqs, hashes, keys = (table.column(c).to_pylist() for c in columns)
    for i, (game_id, seq, digest, key) in enumerate(zip(ids, seqs, hashes, keys)):
        macs.append(anchors.event_mac(secret, game_id, seq, digest, key))
        if i + 1 == len(ids) or ids[i + 1] != game_id:
            heads.append((game_id, seq, 0, anchors.head_mac(secret, game_id, seq, digest, 0)))
    rows = table.append_column("mac", pa.array(macs, pa.binary())).cast(_ARROW_SCHEMA)
    return rows, _heads_table(heads)


def database_file(con: duckdb.DuckDBPyConnection) -> str | None:
    """The file behind a connection's current database; None when it lives in memory."""
    rows = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchall()
    return rows[0][0] if rows and rows[0][0] else None


def connect(path: str = ":memory:") -> duckdb.DuckDBPyConnection:
    """Open (or create) a tabletape DuckDB database; parent folders are created."""
    if path != ":memory:":
        import pathlib

        pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
    return duckdb.connect(path)


class DuckDBEventLog:
    """Append-only event log in a DuckDB table ``events``."""

    #: whether other processes may write the same store (one process holds a DuckDB file)
    shared = False

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection | str = ":memory:",
        *,
        clock: Callable[[], datetime] = utc_now,
        head_cache_size: int = 50_000,
        head_cache_keys: int = 500_000,
        secret: bytes | None = None,
    ) -> None:
        self.con = connect(con) if isinstance(con, str) else con
        self._clock = clock
        # `con` is the writer's connection, used under `_lock`; readers get a cursor per thread
        # (a DuckDB connection object must not be used by two threads at once)
        self._lock = threading.RLock()
        self._local = threading.local()
        self._heads_lock = threading.Lock()
        self._heads: OrderedDict[str, _Head] = OrderedDict()
        self._committer = GroupCommitter(self._commit)
        #: write_cpu_us: the committing thread's CPU inside DuckDB's statements (insert, heads,
        #: commit; DuckDB's own worker threads not counted), so a benchmark can tell DuckDB's share
        #: of an append from ours
        self._stats = {"appends": 0, "commits": 0, "events": 0, "write_cpu_us": 0}
        self._head_cache_size = head_cache_size
        #: a head holds every idempotency key of its game (~250 bytes each), so the cache is
        #: bounded by their number too (~125 MB), not only by games
        self._head_cache_keys = head_cache_keys
        self._cached_keys = 0
        self._appender: duckdb.Appender | None = None
        #: games whose chain failed a check, with the verdict (writes to them are refused)
        self._broken: dict[str, VerifyReport] = {}
        with self._lock:
            had_heads = bool(
                self.con.execute("SELECT 1 FROM duckdb_tables() WHERE table_name = 'chain_heads'").fetchall()
            )
            self.con.execute(SCHEMA)
            self.con.execute(anchors.HEADS_SCHEMA)
            self._secret, fresh = self._open_secret(secret, had_heads)
            #: games found without anchors and anchored as they stood (the first start after an upgrade)
            self.anchored_on_open = self._anchor_unanchored() if fresh else 0

    def _open_secret(self, given: bytes | None, had_heads: bool) -> tuple[bytes, bool]:
        """The key of the anchors, and whether this store is being anchored for the first time.

        A file's key is new only on the store's first start with anchors; once the key exists, a
        game without a head is a game whose head was removed, never one to anchor silently.
        """
        path = None if given is not None else anchors.secret_path(database_file(self.con))
        if path is None:
            return given or anchors.PROCESS_SECRET, not had_heads
        found = anchors.read_secret(path)
        if found is not None:
            return found, False
        if self.con.execute("SELECT 1 FROM chain_heads LIMIT 1").fetchall():
            raise ChainSecretMissing(
                "this database's chains are anchored with the secret {path}, which is missing; put it back (or point ${secret_env} at it)", params=dict(path=path, secret_env=anchors.SECRET_ENV),
                secret_file=str(path),
            )
        return anchors.make_secret(path), True

    def _anchor_unanchored(self) -> int:
        """Anchor every game that has events but no head, as it stands now; its events so far count
        as legacy (no MAC of their own). Only on a store's first start with anchors."""
        rows = self.con.execute(
            "SELECT game_id, max(seq), arg_max(hash, seq) FROM events "
            "WHERE game_id NOT IN (SELECT game_id FROM chain_heads) GROUP BY game_id"
        ).fetchall()
        if not rows:
            return 0
        heads = [(g, last, last, anchors.head_mac(self._secret, g, last, bytes(h), last)) for g, last, h in rows]
        self.con.register("_new_heads", _heads_table(heads))
        try:
            self.con.execute("INSERT INTO chain_heads SELECT * FROM _new_heads")
        finally:
            self.con.unregister("_new_heads")
        _logger.warning("anchored %d games that had no keyed anchor yet (first start with anchors)", len(rows))
        return len(rows)

    # -- writing ---------------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        events: Sequence[Event],
        expected_seq: int,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """Append after ``expected_seq``; returns once the events are durable.

        Appends that arrive while a commit is in flight wait and are then committed together in
        one statement (group commit): one fsync serves them all, and none of them is acknowledged
        before that commit has returned.
        """
        return self._committer.submit(self._request(game_id, events, expected_seq, idempotency_key, actor))

    async def append_async(
        self,
        game_id: str,
        events: Sequence[Event],
        expected_seq: int,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """``append`` for an event loop: the loop never blocks on DuckDB.

        A committer thread takes everything queued (from threads and loops alike) into one
        statement; the awaiting task resumes only after that commit has returned.
        """
        return await self._committer.submit_async(self._request(game_id, events, expected_seq, idempotency_key, actor))

    def _request(
        self,
        game_id: str,
        events: Sequence[Event],
        expected_seq: int,
        idempotency_key: str | None,
        actor: str,
    ) -> "_Pending":
        if not events:
            raise MalformedEvent("an append needs at least one event")
        limits.check_game(game_id, events, expected_seq + 1)
        return _Pending(
            game_id,
            list(events),
            [codec.encode(event) for event in events],
            expected_seq,
            idempotency_key,
            actor,
        )

    def _commit(self, batch: list["_Pending"]) -> None:
        """Check each request against the heads; insert every accepted one in one statement and
        write their games' heads in another, in one transaction."""
        with self._lock:
            accepted = self._stage(batch)
            if accepted:
                cpu = time.thread_time_ns()
                try:
                    self._write([row for request, _ in accepted for row in request.rows], accepted)
                except duckdb.ConstraintException:
                    # another connection wrote one of these games: find which, one by one
                    for request, _ in accepted:
                        self._forget_head(request.game_id)
                    self._commit_one_by_one([request for request, _ in accepted])
                    return
                finally:
                    self._stats["write_cpu_us"] += (time.thread_time_ns() - cpu) // 1000
                self._count(len(accepted), sum(len(r.rows) for r, _ in accepted))
                for request, head in accepted:
                    self._acknowledge(request, head)

    def _commit_one_by_one(self, batch: list["_Pending"]) -> None:
        for request in batch:
            accepted = self._stage([request])
            if not accepted:
                continue
            try:
                self._write(request.rows, accepted)
            except duckdb.ConstraintException as exc:
                self._forget_head(request.game_id)
                request.error = ConcurrencyConflict(
                    "expected_seq {expected_seq} is stale: game {game_id} was appended to concurrently", params=dict(expected_seq=request.expected_seq, game_id=request.game_id),
                    game_id=request.game_id,
                    expected_seq=request.expected_seq,
                )
                request.error.__cause__ = exc
                request.done = True
                continue
            self._count(1, len(request.rows))
            self._acknowledge(request, accepted[0][1])

    def _stage(self, batch: list["_Pending"]) -> list[tuple["_Pending", "_Head"]]:
        """Decide each request in arrival order; build rows for the accepted ones.

        Heads are advanced tentatively, so two requests for one game in the same batch behave
        exactly as if they had been committed one after the other.
        """
        at = self._clock()
        at_us = micros(at)
        tentative: dict[str, _Head] = {}
        accepted: list[tuple[_Pending, _Head]] = []
        secret = self._secret
        for request in batch:
            game_id = request.game_id
            head = tentative.get(game_id) or self._head(game_id).copy()
            refusal = self._refusal(game_id, head)
            if refusal is not None:
                request.error = refusal
                request.done = True
                continue
            key = request.idempotency_key
            if key is not None and key in head.keys:
                first, last = head.keys[key]
                stored = next(
                    (r.bodies for r, _ in accepted if r.game_id == game_id and r.idempotency_key == key),
                    None,
                )
                if stored is None:
                    stored = self._stored_bodies(game_id, first, last)
                if stored != request.bodies:
                    request.error = IdempotencyKeyReused(
                        "idempotency key {key!r} was already used for different events (seq {first}..{last})", params=dict(key=key, first=first, last=last),
                        game_id=game_id,
                        first_seq=first,
                        last_seq=last,
                    )
                else:
                    request.result = AppendResult(game_id, first, last, replayed=True)
                request.done = True
                continue
            if request.expected_seq != head.seq:
                request.error = ConcurrencyConflict(
                    "expected_seq {expected_seq} is stale: game {game_id} is at seq {last_seq}", params=dict(expected_seq=request.expected_seq, game_id=game_id, last_seq=head.seq),
                    game_id=game_id,
                    expected_seq=request.expected_seq,
                    current_seq=head.seq,
                )
                request.done = True
                continue
            first = head.seq + 1
            prev, seq = head.hash, head.seq
            rows = []
            for event, body in zip(request.events, request.bodies):
                seq += 1
                digest = chain_hash(prev, game_id, seq, at_us, request.actor, body)
                tag, body_json = codec.tag_of(type(event)), codec.encode_json(event)
                rows.append(
                    (
                        game_id,
                        seq,
                        at,
                        request.actor,
                        tag,
                        body,
                        body_json.decode(),
                        prev,
                        digest,
                        key,
                        anchors.event_mac(secret, game_id, seq, digest, key),
                    )
                )
                prev = digest
            request.rows = rows
            request.result = AppendResult(game_id, first, seq, types=tuple(row[4] for row in rows))
            head.checked = head.checked or head.seq == 0  # a new game: this process wrote all of it
            head.seq, head.hash = seq, prev
            if key is not None:
                head.keys[key] = (first, seq)
            tentative[game_id] = head
            accepted.append((request, head))
        return accepted

    def _count(self, appends: int, events: int) -> None:
        self._stats["appends"] += appends
        self._stats["commits"] += 1
        self._stats["events"] += events

    def stats(self) -> dict[str, int]:
        """Appends, commits and events written by this process (appends / commits = group size)."""
        return dict(self._stats)

    def _refusal(self, game_id: str, head: "_Head") -> ChainBroken | None:
        """Why no event may be appended to this game (its chain is broken), or None."""
        report = self._broken.get(game_id)
        if report is None and not head.anchored:
            report = self.verify(game_id)
            if report.ok:  # the head record alone was altered
                report = VerifyReport(game_id, report.events, False, head.seq, "the anchored head does not match")
            self._broken[game_id] = report
        return None if report is None else chain_broken(report)

    def _write(self, rows: list[tuple], accepted: list[tuple["_Pending", "_Head"]]) -> None:
        """The rows and their games' new heads, atomically.

        Writing the head is the price of noticing a deleted last event. Measured on a DuckDB file,
        CPU per commit: the events alone 1.1 ms; with BEGIN, an UPDATE of the head and COMMIT
        2.1 ms; as one statement (the INSERT a CTE of the head's write) 1.8 ms, which is how a
        small append to one game goes: a validated append went from 1.3 to 1.9 ms (benchmarks).
        A group commit writes all its heads in one statement more.
        """
        heads = self._heads_of(accepted)
        if len(heads) == 1 and len(rows) <= _ONE_STATEMENT_ROWS:
            self._write_one(rows, *heads[0])
            return
        self.con.execute("BEGIN")
        try:
            self._insert(rows)
            self._anchor(heads)
            self.con.execute("COMMIT")
        except BaseException:
            self.con.execute("ROLLBACK")
            raise

    def _heads_of(self, accepted: list[tuple["_Pending", "_Head"]]) -> list[tuple[str, "_Head", bool]]:
        """Each game's last head in the batch, and whether the game is new."""
        last: dict[str, _Head] = {}
        new: set[str] = set()
        for request, head in accepted:
            last[request.game_id] = head
            if request.expected_seq == 0:
                new.add(request.game_id)
        return [(game_id, head, game_id in new) for game_id, head in last.items()]

    def _write_one(self, rows: list[tuple], game_id: str, head: "_Head", new: bool) -> None:
        """One game's rows and head in one statement: the events are inserted only with the head."""
        mac = anchors.head_mac(self._secret, game_id, head.seq, head.hash, head.legacy)
        if new:
            write_head = "INSERT INTO chain_heads SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM appended)"
            params = [game_id, head.seq, head.legacy, mac]
        else:
            write_head = (
                "UPDATE chain_heads SET last_seq = ?, mac = ? WHERE game_id = ? AND EXISTS (SELECT 1 FROM appended)"
            )
            params = [head.seq, mac, game_id]
        values = ",".join([_ROW] * len(rows))
        written = self.con.execute(
            f"WITH appended AS (INSERT INTO events VALUES {values} RETURNING seq) {write_head}",
            [value for row in rows for value in row] + params,
        ).fetchall()[0][0]
        if written != 1:  # the head row was there when the game was loaded: removed since, in process
            report = VerifyReport(game_id, head.seq, False, head.seq, "its head record vanished while appending")
            self._broken[game_id] = report
            raise chain_broken(report)

    def _anchor(self, heads: list[tuple[str, "_Head", bool]]) -> None:
        """Write the heads of a group commit: new games' inserted, the others updated."""
        inserts: list = []
        updates: list = []
        for game_id, head, new in heads:
            mac = anchors.head_mac(self._secret, game_id, head.seq, head.hash, head.legacy)
            if new:
                inserts += (game_id, head.seq, head.legacy, mac)
            else:
                updates += (head.seq, mac, game_id)
        if inserts:
            self.con.execute(
                "INSERT INTO chain_heads VALUES " + ",".join(["(?, ?, ?, ?)"] * (len(inserts) // 4)), inserts
            )
        if len(updates) == 3:
            self.con.execute("UPDATE chain_heads SET last_seq = ?, mac = ? WHERE game_id = ?", updates)
        elif updates:
            values = ",".join(["(?::INTEGER, ?::BLOB, ?::VARCHAR)"] * (len(updates) // 3))
            self.con.execute(
                f"UPDATE chain_heads SET last_seq = v.s, mac = v.m FROM (VALUES {values}) v(s, m, g) "
                "WHERE chain_heads.game_id = v.g",
                updates,
            )

    def _insert(self, rows: list[tuple]) -> None:
        """The rows in one statement. A group goes through DuckDB's appender, which skips the SQL
        parser and binder; one row (a table recording on its own) is a little cheaper as VALUES.

        Measured on a DuckDB file with 2.0.1, CPU per statement: 1 row 1.6 ms as VALUES, 1.7 ms
        appended; 8 rows 3.4 against 2.4 ms; 16 rows 4.5 against 2.3 ms.
        """
        if len(rows) == 1:
            self.con.execute(_INSERT_ONE, rows[0])
            return
        if self._appender is None:
            self._appender = self.con.appender("events")
        try:
            self._appender.append_rows(rows)
            self._appender.flush()
        except BaseException:
            self._appender.clear()  # rows buffered before a failure must not ride along with the next group
            raise

    def _acknowledge(self, request: "_Pending", head: "_Head") -> None:
        """After the commit returned: the head becomes the log's, the writer is released."""
        self._remember(request.game_id, head)
        request.done = True

    def import_games(
        self, games: Iterable[tuple[str, Sequence[Event]]], actor: str = "import", chunk_events: int = 250_000,
        at: datetime | None = None,
    ) -> int:
        """Bulk-append whole new games: all or nothing, through Arrow, in one transaction.

        Measured (see benchmarks): an Arrow insert runs near a million rows/s where
        ``executemany`` manages thousands; encoding and hashing in Python is the larger cost.
        """
        games = list(games)
        game_ids = [game_id for game_id, _ in games]
        if len(set(game_ids)) != len(game_ids):
            raise GameExists("an import names the same game twice")
        at = at or self._clock()
        inserted = 0
        with self._lock:
            self.con.register("_import_ids", pa.table({"game_id": pa.array(game_ids, pa.string())}))
            try:
                clash = self.con.execute(
                    "SELECT e.game_id FROM events e JOIN _import_ids USING (game_id) LIMIT 1"
                ).fetchall()
            finally:
                self.con.unregister("_import_ids")
            if clash:
                raise GameExists("game {game_id} already exists; an import only adds new games", params=dict(game_id=clash[0][0]))
            # DuckDB releases the GIL while it inserts a chunk, so the next one is encoded and
            # hashed meanwhile (measured on 2 cores: ~240k events/s against ~190k one after another)
            with _no_cyclic_gc(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabletape-import") as inserter:
                self.con.execute("BEGIN")
                try:
                    pending = None
                    for chunk in _chunks(games, chunk_events):
                        batch, heads = _import_batch(chunk, at, actor, self._secret)
                        if pending is not None:
                            pending.result()
                        pending = inserter.submit(self._insert_arrow, batch, heads)
                        inserted += batch.num_rows
                    if pending is not None:
                        pending.result()
                    self.con.execute("COMMIT")
                except BaseException:
                    self.con.execute("ROLLBACK")
                    raise
        return inserted

    def restore(self, table: pa.Table) -> int:
        """Add whole games exactly as another tabletape store recorded them (times, actors and
        hashes kept), all or nothing; returns the number of events.

        The caller has checked the games (chains, rules); here a game that exists is refused. The
        events are anchored anew with this store's key (a MAC made elsewhere proves nothing here).
        """
        rows, heads = self._anchored_rows(table)
        with self._lock:
            self.con.register("_restore_batch", rows)
            try:
                clash = self.con.execute(
                    "SELECT game_id FROM events WHERE game_id IN (SELECT DISTINCT game_id FROM _restore_batch) LIMIT 1"
                ).fetchall()
                if clash:
                    raise GameExists("game {game_id} already exists; an import only adds new games", params=dict(game_id=clash[0][0]))
                self.con.execute("BEGIN")
                try:
                    self._insert_arrow(rows, heads, name="_restore")
                    self.con.execute("COMMIT")
                except BaseException:
                    self.con.execute("ROLLBACK")
                    raise
            finally:
                self.con.unregister("_restore_batch")
        return rows.num_rows

    def _anchored_rows(self, table: pa.Table) -> tuple[pa.Table, pa.Table]:
        return anchored_rows(self._secret, table)

    def _insert_arrow(self, batch: pa.Table, heads: pa.Table, name: str = "_import") -> None:
        self.con.register(f"{name}_rows", batch)
        self.con.register(f"{name}_heads", heads)
        try:
            self.con.execute(f"INSERT INTO events SELECT * FROM {name}_rows")
            self.con.execute(f"INSERT INTO chain_heads SELECT * FROM {name}_heads")
        finally:
            self.con.unregister(f"{name}_rows")
            self.con.unregister(f"{name}_heads")

    # -- reading ---------------------------------------------------------------------------

    def reader(self) -> duckdb.DuckDBPyConnection:
        """This thread's own cursor on the database, for reads (sees every committed append)."""
        cursor = getattr(self._local, "cursor", None)
        if cursor is None:
            with self._lock:
                cursor = self._local.cursor = self.con.cursor()
        return cursor

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

    def _head_from_rows(self, game_id: str, rows: list[tuple], stored_head: tuple | None) -> _Head:
        """The head of a game whose rows (``CHECK_COLUMNS``, in seq order) were just checked."""
        keys: dict[str, tuple[int, int]] = {}
        for row in rows:
            key = row[8]
            if key is not None:
                first = keys.get(key, (row[0], row[0]))[0]
                keys[key] = (first, row[0])
        seq, last_hash = rows[-1][0], bytes(rows[-1][7])
        legacy = stored_head[1] if stored_head is not None else 0
        return self._remember(game_id, _Head(seq, last_hash, keys, legacy, anchored=stored_head is not None))

    def anchored_game_ids(self) -> list[str]:
        """Games that have a keyed head, with or without events left."""
        return [r[0] for r in self.reader().execute("SELECT game_id FROM chain_heads ORDER BY 1").fetchall()]

    def now(self) -> datetime:
        """The time this log stamps events with (its clock)."""
        return self._clock()

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

    def close(self) -> None:
        self._committer.close()
        with self._lock:
            self.con.close()

    # -- internals -------------------------------------------------------------------------

    def _head(self, game_id: str) -> _Head:
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
            return _Head(seq, last_hash, keys)
        return self._remember(game_id, self._anchored_head(game_id, seq, last_hash, keys))

    def _anchored_head(self, game_id: str, seq: int, last_hash: bytes, keys: dict[str, tuple[int, int]]) -> _Head:
        """The head as stored, checked against its keyed record (a cheap check: no event is read)."""
        row = next(iter(self.reader().execute(_HEAD_ROW, [game_id]).fetchall()), None)
        if row is None:
            return _Head(seq, last_hash, keys, 0, anchored=False)
        last_seq, legacy, mac = row
        expected = anchors.head_mac(self._secret, game_id, seq, last_hash, legacy)
        anchored = last_seq == seq and hmac.compare_digest(bytes(mac), expected)
        return _Head(seq, last_hash, keys, legacy, anchored)

    def _remember(self, game_id: str, head: _Head) -> _Head:
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


def chain_broken(report: VerifyReport) -> ChainBroken | GameUnreadable:
    """The error that names where a game's log was altered (or, intact, where this code cannot read it)."""
    if report.unreadable:
        return game_unreadable(report.game_id, report.first_bad_seq or 0, report.reason or "")
    return ChainBroken(
        "game {game_id}: its log was altered at seq {first_bad_seq} ({reason}); it is neither served nor written until it is repaired", params=dict(game_id=report.game_id, first_bad_seq=report.first_bad_seq, reason=report.reason),
        game_id=report.game_id,
        seq=report.first_bad_seq,
        reason=report.reason,
    )

