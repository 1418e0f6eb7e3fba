"""Idempotency keys of creations and forks: which game a key made, so that a retry answers it again.

A key is claimed in a scope (the store for a creation, the parent game for a fork) before the new
game is appended, with the new game's id and a hash of the request. A retry with the same request
finds that id again (and appends the game if the first attempt died before its append); another
request under the same key is refused. The store keeps only hashes of keys and requests: the key
itself is the secret the new game's tokens are derived from (``Claim.secret``).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

import duckdb

from events.errors import IdempotencyKeyReused
from events.own_table import OwnTable

SCHEMA = """
CREATE TABLE IF NOT EXISTS creation_keys (
    key_hash BLOB PRIMARY KEY,
    request_hash BLOB NOT NULL,
    game_id VARCHAR NOT NULL
);
"""

#: the scope of keys sent to ``POST /games``
CREATION = "create"


def fork_scope(parent_id: str) -> str:
    """The scope of keys sent to fork ``parent_id``: a key may fork each game once."""
    return f"fork {parent_id}"


@dataclass(frozen=True, slots=True)
class Claim:
    """The game a key stands for, and the secret its tokens are derived from (the same each retry)."""

    game_id: str
    secret: bytes


def _key_hash(scope: str, key: str) -> bytes:
    return _digest("creation-key", scope, key)


def _digest(*parts: str | bytes) -> bytes:
    raw = [p.encode("utf-8", "surrogatepass") if isinstance(p, str) else p for p in parts]
    return hashlib.sha256(b"\x00".join(raw)).digest()


class CreationKeys(OwnTable):
    """The ``creation_keys`` table."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        super().__init__(con, SCHEMA)

    def claim(self, scope: str, key: str, request: bytes, game_id: str) -> Claim:
        """The game ``key`` stands for in ``scope``: ``game_id`` when the key is new, the first
        claim's game for the same ``request`` (its canonical bytes); refused for another request.

        The claim is committed before it is returned, so a retry after a crash finds it.
        """
        key_hash = _key_hash(scope, key)
        request_hash = _digest("creation-request", scope, request)
        with self._lock:
            self._con.execute(
                "INSERT INTO creation_keys VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [key_hash, request_hash, game_id]
            )
            stored_request, claimed = self._con.execute(
                "SELECT request_hash, game_id FROM creation_keys WHERE key_hash = ?", [key_hash]
            ).fetchone()
        if bytes(stored_request) != request_hash:
            raise IdempotencyKeyReused(
                "idempotency key {key!r} was already used for another request", params=dict(key=key), idempotency_key=key
            )
        secret = hmac.digest(key.encode("utf-8", "surrogatepass"), _digest(scope, claimed, request_hash), "sha256")
        return Claim(claimed, secret)

    def release(self, scope: str, key: str) -> None:
        """Forget a claim whose game was refused before it was appended: the key is free again."""
        with self._lock:
            self._con.execute("DELETE FROM creation_keys WHERE key_hash = ?", [_key_hash(scope, key)])
