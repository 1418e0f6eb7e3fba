"""Game tokens: one write token per game and one token per seat, stored only as sha256 hashes.

A token is shown once, when it is issued (and again to a retry of a keyed creation, which derives
the same tokens from its key: see ``derived_tokens``); the store keeps its hash, so a copy of the
database opens no game. Checks compare hashes with ``hmac.compare_digest`` and, when a game has
no such token, against a dummy hash, so that timing tells nothing about which tokens exist.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

import duckdb

from events.own_table import OwnTable

SCHEMA = """
CREATE TABLE IF NOT EXISTS game_tokens (
    game_id VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    seat INTEGER,
    token_hash BLOB NOT NULL
);
"""

WRITE = "write"
SEAT = "seat"
_NO_HASH = hashlib.sha256(b"no token").digest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@dataclass(frozen=True, slots=True)
class IssuedTokens:
    """Tokens as handed out once: the write token and one token per seat (in seat order)."""

    write: str
    seats: tuple[str, ...]


def derived_tokens(secret: bytes, seats: int) -> IssuedTokens:
    """Tokens that are the same for the same ``secret``: a retried creation answers them again.

    They are as strong as ``new_token``'s while ``secret`` is (a claimed key's, never stored).
    """

    def one(label: bytes) -> str:
        return base64.urlsafe_b64encode(hmac.digest(secret, label, "sha256")).rstrip(b"=").decode()

    return IssuedTokens(one(b"write"), tuple(one(b"seat %d" % seat) for seat in range(seats)))


ADMIN_SCHEMA = """
CREATE TABLE IF NOT EXISTS admin_token (
    token_hash BLOB NOT NULL,
    issued_at TIMESTAMP NOT NULL
);
"""


class AdminToken(OwnTable):
    """The store's one admin token (it writes the pack library), kept as its hash."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        super().__init__(con, ADMIN_SCHEMA)
        with self._lock:
            row = self._con.execute("SELECT token_hash FROM admin_token").fetchone()
        self._hash: bytes | None = bytes(row[0]) if row else None

    def ensure(self) -> str | None:
        """A new token if the store has none yet (its first start), else None."""
        return self.issue() if self._hash is None else None

    def issue(self) -> str:
        """A new admin token; the old one stops working."""
        token = new_token()
        with self._lock:
            self._con.execute("BEGIN")
            try:
                self._con.execute("DELETE FROM admin_token")
                self._con.execute("INSERT INTO admin_token VALUES (?, now())", [token_hash(token)])
                self._con.execute("COMMIT")
            except BaseException:
                self._con.execute("ROLLBACK")
                raise
            self._hash = token_hash(token)
        return token

    def check(self, token: str) -> bool:
        stored = self._hash
        ok = hmac.compare_digest(stored if stored is not None else _NO_HASH, token_hash(token))
        return ok and stored is not None


class TokenStore(OwnTable):
    """The ``game_tokens`` table, with an in-memory cache of each game's hashes."""

    def __init__(self, con: duckdb.DuckDBPyConnection, cache_size: int = 50_000) -> None:
        super().__init__(con, SCHEMA)
        self._cache: dict[str, dict[tuple[str, int | None], bytes]] = {}
        self._cache_size = cache_size

    def issue(self, game_id: str, seats: int, issued: IssuedTokens | None = None) -> IssuedTokens:
        """New tokens for a game (``issued``, or drawn now); any earlier tokens of that game stop
        working, and the new ones replace them in every game that held them too (the forks made
        from it in progress, the game it was forked from in progress): a revoked token opens nothing."""
        issued = issued or IssuedTokens(new_token(), tuple(new_token() for _ in range(seats)))
        self._replace(game_id, [], issued)
        return issued

    def inherit(self, parent_id: str, child_id: str) -> int:
        """Give a fork the same tokens as its parent (the same people hold the same seats)."""
        rows = [(child_id, role, seat, digest) for (role, seat), digest in self._hashes(parent_id).items()]
        self._replace(child_id, rows)
        return len(rows)

    def revoke(self, game_id: str) -> None:
        """Drop this game's rows only (a creation or fork that failed); other games keep theirs."""
        self._replace(game_id, [])

    def cached(self, game_id: str) -> bool:
        """Whether checking this game's tokens needs no query."""
        return game_id in self._cache

    def holds(self, game_id: str, issued: IssuedTokens) -> bool:
        """Whether these are exactly the game's tokens."""
        return self._hashes(game_id) == {(role, seat): digest for _, role, seat, digest in _rows(game_id, issued)}

    def has_tokens(self, game_id: str) -> bool:
        return bool(self._hashes(game_id))

    def check_write(self, game_id: str, token: str) -> bool:
        return self._check(game_id, (WRITE, None), token)

    def check_seat(self, game_id: str, seat: int, token: str) -> bool:
        return self._check(game_id, (SEAT, seat), token)

    # -- internals -------------------------------------------------------------------------

    def _check(self, game_id: str, key: tuple[str, int | None], token: str) -> bool:
        stored = self._hashes(game_id).get(key)
        ok = hmac.compare_digest(stored if stored is not None else _NO_HASH, token_hash(token))
        return ok and stored is not None

    def _hashes(self, game_id: str) -> dict[tuple[str, int | None], bytes]:
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                return cached
            rows = self._con.execute(
                "SELECT role, seat, token_hash FROM game_tokens WHERE game_id = ?", [game_id]
            ).fetchall()
            hashes = {(role, seat): bytes(digest) for role, seat, digest in rows}
            if not self._cache_size:  # a store other processes write: a reissue there must count here
                return hashes
            if len(self._cache) >= self._cache_size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[game_id] = hashes
            return hashes

    def _replace(
        self, game_id: str, rows: list[tuple[str, str, int | None, bytes]], issued: IssuedTokens | None = None
    ) -> None:
        """The game's rows become ``rows``; with ``issued``, those tokens replace the game's in
        every game sharing its write token, in the same transaction."""
        games = [game_id]
        with self._lock:
            self._con.execute("BEGIN")
            try:
                if issued is not None:
                    games = self._sharing(game_id)
                    rows = [row for game in games for row in _rows(game, issued)]
                for game in games:
                    self._con.execute("DELETE FROM game_tokens WHERE game_id = ?", [game])
                if rows:
                    self._con.executemany("INSERT INTO game_tokens VALUES (?, ?, ?, ?)", rows)
                self._con.execute("COMMIT")
            except BaseException:
                self._con.execute("ROLLBACK")
                raise
            finally:
                for game in games:
                    self._cache.pop(game, None)

    def _sharing(self, game_id: str) -> list[str]:
        """This game and every game holding its write token (forks inherit all of a game's tokens)."""
        found = self._con.execute(
            "SELECT DISTINCT game_id FROM game_tokens WHERE role = ? AND token_hash IN "
            "(SELECT token_hash FROM game_tokens WHERE game_id = ? AND role = ?)",
            [WRITE, game_id, WRITE],
        ).fetchall()
        return [game_id, *sorted({game for (game,) in found} - {game_id})]


def _rows(game_id: str, issued: IssuedTokens) -> list[tuple[str, str, int | None, bytes]]:
    rows: list[tuple[str, str, int | None, bytes]] = [(game_id, WRITE, None, token_hash(issued.write))]
    return rows + [(game_id, SEAT, seat, token_hash(token)) for seat, token in enumerate(issued.seats)]
