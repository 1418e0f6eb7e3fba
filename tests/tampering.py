"""Edits someone with write access to the DuckDB file could make to a stored game, from outside
the log's code: each one, and the seq that a check must name for it.

Each edit works on a game of at least five events and aims at seq ``TARGET`` (the last event for
the kinds that need it), through plain SQL on the ``events`` table.
"""

from __future__ import annotations

from typing import Callable

import duckdb
import msgspec

from events.log import GENESIS_HASH, chain_hash, micros

TARGET = 3


def _set(con: duckdb.DuckDBPyConnection, game_id: str, seq: int, column: str, value: object) -> None:
    con.execute(f"UPDATE events SET {column} = ? WHERE game_id = ? AND seq = ?", [value, game_id, seq])


def _rows(con: duckdb.DuckDBPyConnection, game_id: str) -> list[tuple]:
    return con.execute(
        "SELECT seq, epoch_us(recorded_at), actor, type, body, body_json, prev_hash, hash FROM events "
        "WHERE game_id = ? ORDER BY seq",
        [game_id],
    ).fetchall()


def edit_body(con, game_id):
    # a body that no longer decodes (an unknown event type)
    _set(con, game_id, TARGET, "body", msgspec.msgpack.encode({"type": "nobody.knows"}))


def edit_json_copy(con, game_id):
    _set(con, game_id, TARGET, "body_json", '{"type":"game.undone","to_seq":0}')


def edit_hash(con, game_id):
    _set(con, game_id, TARGET, "hash", bytes(32))


def seq_gap(con, game_id):
    con.execute("UPDATE events SET seq = seq + 100 WHERE game_id = ? AND seq = ?", [game_id, TARGET])


def swap_events(con, game_id):
    rows = {row[0]: row for row in _rows(con, game_id)}
    for seq, other in ((TARGET, TARGET + 1), (TARGET + 1, TARGET)):
        _, _, _, tag, body, body_json, _, _ = rows[other]
        con.execute(
            "UPDATE events SET type = ?, body = ?, body_json = ? WHERE game_id = ? AND seq = ?",
            [tag, body, body_json, game_id, seq],
        )


def delete_middle(con, game_id):
    con.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", [game_id, TARGET])


def delete_last(con, game_id):
    con.execute("DELETE FROM events WHERE game_id = ? AND seq = (SELECT max(seq) FROM events WHERE game_id = ?)", [game_id, game_id])


def cut_back(con, game_id):
    """The game cut back to seq ``TARGET``: every later event deleted, its head left as it was."""
    con.execute("DELETE FROM events WHERE game_id = ? AND seq > ?", [game_id, TARGET])


def cut_back_with_its_head(con, game_id):
    """The game cut back to seq ``TARGET`` and its head record's seq lowered to match (its MAC cannot be redone)."""
    cut_back(con, game_id)
    con.execute("UPDATE chain_heads SET last_seq = ? WHERE game_id = ?", [TARGET, game_id])


def cut_back_dropping_later_heads(con, game_id):
    """The game cut back to seq ``TARGET`` and every head record past it deleted, so that only a head
    that vouched for seq ``TARGET`` could remain (none does: a game keeps one head, rewritten)."""
    cut_back(con, game_id)
    con.execute("DELETE FROM chain_heads WHERE game_id = ? AND last_seq > ?", [game_id, TARGET])


def insert_event(con, game_id):
    """A copy of the second event appended after the last, its chain hash computed correctly."""
    rows = _rows(con, game_id)
    seq, at, actor, tag, body, body_json, _, digest = rows[-1]
    _, _, _, tag, body, body_json, _, _ = rows[1]
    new_seq = seq + 1
    con.execute(
        "INSERT INTO events (game_id, seq, recorded_at, actor, type, body, body_json, prev_hash, hash) "
        "VALUES (?, ?, make_timestamp(?), ?, ?, ?, ?, ?, ?)",
        [game_id, new_seq, at, actor, tag, body, body_json, digest, chain_hash(bytes(digest), game_id, new_seq, at, actor, bytes(body))],
    )


def change_game_id(con, game_id):
    _set(con, game_id, TARGET, "game_id", game_id + "x")


def edit_idempotency_key(con, game_id):
    _set(con, game_id, TARGET, "idempotency_key", "forged-key")


def remove_idempotency_key(con, game_id):
    """The key of seq ``TARGET`` (recorded with one) cleared: a retry of that request would be appended again."""
    _set(con, game_id, TARGET, "idempotency_key", None)


def edit_recorded_at(con, game_id):
    con.execute(
        "UPDATE events SET recorded_at = recorded_at + INTERVAL '1 second' WHERE game_id = ? AND seq = ?", [game_id, TARGET]
    )


def edit_actor(con, game_id):
    _set(con, game_id, TARGET, "actor", "mallory")


def rewrite_recomputing_hashes(con, game_id):
    """Seq TARGET gets the next event's body; its hash and every later one are recomputed."""
    rows = _rows(con, game_id)
    prev = GENESIS_HASH
    for seq, at, actor, tag, body, body_json, _, digest in rows:
        if seq == TARGET:
            _, _, _, tag, body, body_json, _, _ = rows[TARGET]
        if seq >= TARGET:
            digest = chain_hash(prev, game_id, seq, at, actor, bytes(body))
            con.execute(
                "UPDATE events SET type = ?, body = ?, body_json = ?, prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?",
                [tag, body, body_json, prev, digest, game_id, seq],
            )
        prev = bytes(digest)


Edit = Callable[[duckdb.DuckDBPyConnection, str], None]

#: name -> (edit, the seq it must be found at, given the game's last seq)
KINDS: dict[str, tuple[Edit, Callable[[int], int]]] = {
    "body": (edit_body, lambda last: TARGET),
    "json copy": (edit_json_copy, lambda last: TARGET),
    "hash": (edit_hash, lambda last: TARGET),
    "seq gap": (seq_gap, lambda last: TARGET),
    "swapped events": (swap_events, lambda last: TARGET),
    "middle event deleted": (delete_middle, lambda last: TARGET),
    "last event deleted": (delete_last, lambda last: last),
    "event inserted": (insert_event, lambda last: last + 1),
    "cut back": (cut_back, lambda last: TARGET + 1),
    "cut back with its head": (cut_back_with_its_head, lambda last: TARGET),
    "cut back, later heads deleted": (cut_back_dropping_later_heads, lambda last: TARGET),
    "game_id changed": (change_game_id, lambda last: TARGET),
    "idempotency_key edited": (edit_idempotency_key, lambda last: TARGET),
    "idempotency_key removed": (remove_idempotency_key, lambda last: TARGET),
    "recorded_at edited": (edit_recorded_at, lambda last: TARGET),
    "actor edited": (edit_actor, lambda last: TARGET),
    "rewritten, later hashes recomputed": (rewrite_recomputing_hashes, lambda last: TARGET),
}


# -- events the log itself could have written, which this code cannot read ---------------------------


def append_as_recorded(con, game_id: str, body: bytes, body_json: str, secret: bytes, mark: str = "?") -> int:
    """Append ``body`` after a game's last event as the log itself stores one: its chain hash, its
    keyed MAC and the game's head re-signed, so that no check calls it altered. ``con``: a DuckDB
    or psycopg connection (``mark``: its parameter marker). Returns the new seq."""
    from events import anchors

    def run(sql: str, params: list) -> list[tuple]:
        cur = con.execute(sql.replace("?", mark), params)
        return cur.fetchall() if cur.description else []

    seq, at, actor, digest = run(
        "SELECT seq, recorded_at, actor, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", [game_id]
    )[0]
    legacy = run("SELECT legacy_seq FROM chain_heads WHERE game_id = ?", [game_id])[0][0]
    new_seq, at_us = seq + 1, micros(at)
    new_hash = chain_hash(bytes(digest), game_id, new_seq, at_us, actor, body)
    tag = msgspec.msgpack.decode(body)["type"]
    run(
        "INSERT INTO events (game_id, seq, recorded_at, actor, type, body, body_json, prev_hash, hash, mac) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [game_id, new_seq, at, actor, tag, body, body_json, bytes(digest), new_hash,
         anchors.event_mac(secret, game_id, new_seq, new_hash, None)],
    )
    run(
        "UPDATE chain_heads SET last_seq = ?, mac = ? WHERE game_id = ?",
        [new_seq, anchors.head_mac(secret, game_id, new_seq, new_hash, legacy), game_id],
    )
    return new_seq


def future_event() -> tuple[bytes, str]:
    """An event of a type this code does not know (one a later version might write)."""
    return msgspec.msgpack.encode({"type": "future.event", "at": 1}), '{"type":"future.event","at":1}'


def event_body(event) -> tuple[bytes, str]:
    """A known event's stored body and JSON copy."""
    from events import codec

    return codec.encode(event), codec.encode_json(event).decode()


def append_to_store(db: str, game_id: str, body: bytes, body_json: str) -> int:
    """``append_as_recorded`` on a store no process has open: a DuckDB file or a PostgreSQL URL
    (its secret where the log keeps it). Returns the new seq."""
    from events import anchors

    if db.startswith("postgresql"):
        import psycopg

        from events.pg_log import secret_path

        with psycopg.connect(db, autocommit=True) as con:
            return append_as_recorded(con, game_id, body, body_json, anchors.read_secret(secret_path(db)), mark="%s")
    con = duckdb.connect(db)
    try:
        return append_as_recorded(con, game_id, body, body_json, anchors.read_secret(anchors.secret_path(db)))
    finally:
        con.close()
