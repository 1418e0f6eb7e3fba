"""The Arrow rows of whole games, as an import or a restore adds them to either store: bodies
encoded, hash chains and keyed anchors computed, in the ``events`` table's columns."""

from __future__ import annotations

import gc
import hashlib
from contextlib import contextmanager
from datetime import datetime
from typing import Iterable, Iterator, Sequence

import pyarrow as pa

from events import anchors, codec, limits
from events.base import Event
from events.errors import GameExists
from events.log import GENESIS_HASH, micros

COLUMNS = (
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

def import_listed(games: Iterable[tuple[str, Sequence[Event]]]) -> tuple[list[tuple[str, Sequence[Event]]], list[str]]:
    """An import's games as a list, with their ids; one naming the same game twice is refused."""
    games = list(games)
    game_ids = [game_id for game_id, _ in games]
    if len(set(game_ids)) != len(game_ids):
        raise GameExists("an import names the same game twice")
    return games, game_ids


def columns(spec: str) -> list[tuple[str, pa.DataType]]:
    """Arrow columns written as the DuckDB table declares them: "game_id VARCHAR, seq INTEGER, ..."."""
    out = []
    for column in spec.split(","):
        name, kind = column.split()
        out.append((name, _ARROW_TYPES[kind]))
    return out


_ARROW_TYPES = {
    "VARCHAR": pa.string(), "INTEGER": pa.int32(), "BIGINT": pa.int64(), "DOUBLE": pa.float64(),
    "BOOLEAN": pa.bool_(), "BLOB": pa.binary(), "TIMESTAMP": pa.timestamp("us"), "INTEGER[]": pa.list_(pa.int32()),
}


ARROW_SCHEMA = pa.schema(columns(
    "game_id VARCHAR, seq INTEGER, recorded_at TIMESTAMP, actor VARCHAR, type VARCHAR, body BLOB, "
    "body_json VARCHAR, prev_hash BLOB, hash BLOB, idempotency_key VARCHAR, mac BLOB"
))

HEADS_ARROW = pa.schema(
    [("game_id", pa.string()), ("last_seq", pa.int32()), ("legacy_seq", pa.int32()), ("mac", pa.binary())]
)


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cycle collector: a bulk import allocates millions of acyclic objects, and with
    a large heap of live events every collection rescans them (measured: ~170k -> ~215k ev/s)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def chunks(games: list, size: int) -> Iterator[list]:
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


def import_batch(
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
    return pa.table([columns[name] for name in COLUMNS], schema=ARROW_SCHEMA), heads_table(heads)


def heads_table(heads: list[tuple[str, int, int, bytes]]) -> pa.Table:
    columns = list(zip(*heads)) or [(), (), (), ()]
    return pa.table(
        [pa.array(list(column), field.type) for column, field in zip(columns, HEADS_ARROW)], schema=HEADS_ARROW
    )


def anchored_rows(secret: bytes, table: pa.Table) -> tuple[pa.Table, pa.Table]:
    """Restored rows in game and seq order with this store's MACs, and their games' heads."""
    table = table.select([c for c in COLUMNS if c != "mac"])
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
    rows = table.append_column("mac", pa.array(macs, pa.binary())).cast(ARROW_SCHEMA)
    return rows, heads_table(heads)
