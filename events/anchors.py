"""Keyed anchors of the hash chains: what someone who can rewrite the database file cannot forge.

The hash chain shows that a game's stored events fit together, but whoever can write the file can
recompute it. So every event also carries a keyed MAC (keyed BLAKE2b) of (game, seq, hash,
idempotency key), and every game has a head record in ``chain_heads``: a keyed MAC of
(game, last seq, last hash, legacy seq), rewritten atomically with each append, so a
deleted last event shows too.

The key is a secret file outside the database (``<db>.key``, or ``$TABLETAPE_SECRET_FILE``), made
on first start with mode 0600; an in-memory database gets a key for the life of the process.
Events stored before the anchors existed have no MAC: they are anchored by their game's head only
(up to its ``legacy_seq``), so a rewrite among them is found at that head, not at its own seq.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from datetime import datetime
from pathlib import Path
from typing import Callable, Sequence

from events import codec
from events.base import Event
from events.errors import ChainBroken, GameUnreadable, MalformedEvent, game_unreadable
from events.log import GENESIS_HASH, VerifyReport

SECRET_ENV = "TABLETAPE_SECRET_FILE"
SECRET_BYTES = 32

HEADS_SCHEMA = """
CREATE TABLE IF NOT EXISTS chain_heads (
    game_id VARCHAR PRIMARY KEY,
    last_seq INTEGER NOT NULL,
    legacy_seq INTEGER NOT NULL,
    mac BLOB NOT NULL
);
"""

#: the key of every in-memory database of this process
PROCESS_SECRET = secrets.token_bytes(SECRET_BYTES)


def secret_path(db_file: str | None) -> Path | None:
    """Where the secret of a database file lives; None for an in-memory database."""
    if not db_file:
        return None
    override = os.environ.get(SECRET_ENV)
    return Path(override) if override else Path(db_file + ".key")


def read_secret(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    if len(data) < SECRET_BYTES:
        raise ValueError(f"{path} is not a tabletape secret ({len(data)} bytes)")
    return data


def make_secret(path: Path) -> bytes:
    """A new random secret, written with mode 0600; if another process made it first, that one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = secrets.token_bytes(SECRET_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        existing = read_secret(path)
        assert existing is not None
        return existing
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    return data


def mac(secret: bytes, message: bytes) -> bytes:
    """Keyed BLAKE2b-256 (RFC 7693's MAC mode): a fifth of HMAC-SHA256's cost per event here,
    which matters when a game's every event is checked on its first load."""
    return hashlib.blake2b(message, key=secret, digest_size=32).digest()


def event_mac_prefix(game_id: str) -> bytes:
    return b"tabletape.event\x00" + _text(game_id) + b"\x00"


def key_marker(idempotency_key: str | None) -> bytes:
    return b"\x00" if idempotency_key is None else b"\x01" + _text(idempotency_key)


def _text(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


def event_mac(secret: bytes, game_id: str, seq: int, digest: bytes, idempotency_key: str | None) -> bytes:
    """The keyed MAC of one stored event: its place, its chain hash and its idempotency key (the
    type and JSON copy are checked against the body, which the chain hash covers)."""
    place = event_mac_prefix(game_id) + seq.to_bytes(8, "big")
    return mac(secret, b"".join((place, digest, key_marker(idempotency_key))))


def head_mac(secret: bytes, game_id: str, last_seq: int, last_hash: bytes, legacy_seq: int) -> bytes:
    """The keyed MAC of a game's head: its last seq and hash, and how far its events predate MACs."""
    return mac(
        secret,
        b"".join(
            (
                b"tabletape.head\x00",
                _text(game_id),
                b"\x00",
                last_seq.to_bytes(8, "big"),
                last_hash,
                legacy_seq.to_bytes(8, "big"),
            )
        ),
    )


def seal(secret: bytes, message: bytes) -> bytes:
    """The keyed MAC of something the store vouches for outside its log (a game's slip), 16 bytes;
    its own prefix keeps it from ever equalling an event's or a head's MAC."""
    return mac(secret, b"tabletape.seal\x00" + message)[:16]


#: the columns ``check_chain`` reads, in its order
CHECK_COLUMNS = (
    "seq, epoch_us(recorded_at), actor, type, body, body_json, prev_hash, hash, idempotency_key, mac"
)


def check_chain(
    game_id: str,
    rows: Sequence[tuple],
    head: tuple[int, int, bytes] | None,
    secret: bytes,
) -> tuple[VerifyReport, list[Event]]:
    """Check one game's rows (``CHECK_COLUMNS``, in seq order) against its chain and its anchors,
    one by one, so that the verdict names the first altered seq and why.

    ``head`` is the game's ``chain_heads`` row ``(last_seq, legacy_seq, mac)``. Returns the verdict
    and the decoded bodies (all of them when the chain is intact).
    """
    events = _intact(game_id, rows, head, secret)
    if events is not None:
        return VerifyReport(game_id, len(rows), True), events
    prev = GENESIS_HASH
    legacy = head[1] if head is not None else 0
    bodies: list[Event] = []
    tag_of, stored_json, sha256, blake2b = codec.tag_of, codec.stored_json, hashlib.sha256, hashlib.blake2b
    # the bytes of chain_hash() and event_mac(), inlined: this loop runs over every event of a
    # game when the server first loads it
    chain_prefix, mac_prefix = game_id.encode() + b"\x00", event_mac_prefix(game_id)
    try:
        decoded: list[Event] | None = codec.decode_many([row[4] for row in rows])
    except MalformedEvent:
        decoded = None  # decoded one by one below, to name the seq

    def broken(seq: int, reason: str, unreadable: bool = False) -> tuple[VerifyReport, list[Event]]:
        return VerifyReport(game_id, len(rows), False, seq, reason, unreadable), bodies

    for index, (seq, at_us, actor, tag, body, body_json, prev_hash, digest, key, stored) in enumerate(rows):
        if seq != index + 1:
            return broken(index + 1, f"seq {index + 1} is missing")
        if prev_hash != prev:
            return broken(seq, "its link to the previous event does not match")
        seq_b = seq.to_bytes(8, "big")
        at_b = at_us.to_bytes(8, "big", signed=True)
        if sha256(b"".join((prev, chain_prefix, seq_b, at_b, actor.encode(), b"\x00", body))).digest() != digest:
            return broken(seq, "its stored bytes do not match its hash")
        json_bytes = _json_bytes(body_json)
        if decoded is not None:
            event = decoded[index]
        else:
            try:
                event = codec.decode(body)
            except MalformedEvent as exc:
                expected = event_mac(secret, game_id, seq, digest, key)
                intact = stored is not None and hmac.compare_digest(stored, expected)
                if intact:
                    return broken(seq, f"its body is as recorded but this code cannot read it: {exc.message}", True)
                return broken(seq, f"its body no longer decodes: {exc.message}")
        if tag_of(type(event)) != tag or stored_json(event, body) != json_bytes:
            return broken(seq, "its type or JSON copy does not match its body")
        if stored is None:
            if seq > legacy:
                return broken(seq, "it carries no keyed anchor: it was not written by this log")
        else:
            message = b"".join((mac_prefix, seq_b, digest, key_marker(key)))
            if not hmac.compare_digest(stored, blake2b(message, key=secret, digest_size=32).digest()):
                return broken(
                    seq,
                    "its keyed anchor does not match: the event was rewritten (hashes recomputed) "
                    "or its idempotency key changed",
                )
        bodies.append(event)
        prev = digest
    last = len(rows)
    if head is None:
        return broken(last, "the game has no anchored head (its chain_heads row is missing)")
    anchored_seq, legacy, head_stored = head
    if anchored_seq > last:
        return broken(last + 1, f"seq {last + 1} is missing: the anchored head is seq {anchored_seq}")
    if anchored_seq < last:
        return broken(anchored_seq + 1, f"seq {anchored_seq + 1} lies beyond the anchored head (seq {anchored_seq})")
    if not hmac.compare_digest(head_stored, head_mac(secret, game_id, last, prev, legacy)):
        where = f"at or before seq {min(legacy, last)}" if legacy else f"at seq {last}"
        return broken(min(legacy, last) or last, f"the anchored head does not match: the chain was rewritten {where}")
    return VerifyReport(game_id, last, True), bodies


_SEQ_BYTES = tuple(i.to_bytes(8, "big") for i in range(4096))


def _intact(
    game_id: str, rows: Sequence[tuple], head: tuple[int, int, bytes] | None, secret: bytes
) -> list[Event] | None:
    """The decoded bodies if every row and the head check out, else None (then ``check_chain``
    goes row by row to name the first bad seq).

    It accepts exactly what the row-by-row check accepts but legacy events (no MAC of their own),
    column by column instead of row by row: one bulk decode, one encode of every JSON copy, the
    hashes and MACs computed in comprehensions and compared whole.
    """
    count = len(rows)
    if not count or head is None or head[0] != count:
        return None
    seqs, ats, actors, tags, bodies, jsons, prevs, hashes, keys, macs = zip(*rows)
    if seqs != tuple(range(1, count + 1)) or prevs[0] != GENESIS_HASH or prevs[1:] != hashes[:-1]:
        return None
    if None in macs:
        return None
    try:
        events = codec.decode_many(list(bodies))
    except MalformedEvent:
        return None
    tag_of = codec.tag_of
    if tags != tuple([tag_of(event.__class__) for event in events]):
        return None
    # msgspec writes no raw newline in JSON, so the joined copies match only if each one does
    stored_json = "\n".join([json if isinstance(json, str) else _json_bytes(json).decode() for json in jsons]) + "\n"
    if codec.stored_json_lines(events, bodies) != stored_json.encode():
        return None
    seq_bytes = _SEQ_BYTES if count < len(_SEQ_BYTES) else tuple(i.to_bytes(8, "big") for i in range(count + 1))
    sha256, join, prefix = hashlib.sha256, b"".join, game_id.encode() + b"\x00"
    computed = [
        sha256(join((prev, prefix, seq_b, at.to_bytes(8, "big", signed=True), actor.encode(), b"\x00", body))).digest()
        for prev, seq_b, at, actor, body in zip(prevs, seq_bytes[1:], ats, actors, bodies)
    ]
    if computed != list(hashes):
        return None
    keyed = hashlib.blake2b(event_mac_prefix(game_id), key=secret, digest_size=32)
    expected = []
    for seq_b, digest, key in zip(seq_bytes[1:], hashes, keys):
        one = keyed.copy()
        one.update(join((seq_b, digest, key_marker(key))))
        expected.append(one.digest())
    if not hmac.compare_digest(join(expected), join(macs)):
        return None
    if not hmac.compare_digest(head[2], head_mac(secret, game_id, count, hashes[-1], head[1])):
        return None
    return events


def _json_bytes(value: object) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)  # type: ignore[arg-type]


def check_many(
    game_ids: Sequence[str], rows: Sequence[tuple], heads: Sequence[tuple], secret: bytes
) -> list[VerifyReport]:
    """``check_chain`` of many games at once: ``rows`` are ``(game_id, *CHECK_COLUMNS)`` in game
    and seq order, ``heads`` ``(game_id, last_seq, legacy_seq, mac)``; one verdict per game id."""
    by_game: dict[str, list[tuple]] = {}
    for row in rows:
        by_game.setdefault(row[0], []).append(row[1:])
    head_of = {head[0]: tuple(head[1:]) for head in heads}
    return [check_chain(game_id, by_game.get(game_id, []), head_of.get(game_id), secret)[0] for game_id in game_ids]


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


class Keyed:
    """What both stores' logs share: the store's key, and the clock their events are stamped by."""

    _secret: bytes
    _clock: Callable[[], datetime]

    def seal(self, message: bytes) -> bytes:
        """``message`` sealed with the store's key (``seal``)."""
        return seal(self._secret, message)

    def now(self) -> datetime:
        """The time this log stamps events with (its clock)."""
        return self._clock()
