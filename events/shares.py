"""Share links: a read-only link to one game, made by its write token's holder, stored only as a
sha256 hash (like the game tokens), each with the step it opens at and whether it was withdrawn.

A withdrawn link keeps its row, so that it answers "withdrawn" rather than "unknown".
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from events.own_table import OwnTable
from events.tokens import new_token, token_hash

SCHEMA = """
CREATE TABLE IF NOT EXISTS share_links (
    token_hash BLOB PRIMARY KEY,
    game_id VARCHAR NOT NULL,
    at_step INTEGER,
    made_at TIMESTAMP NOT NULL,
    withdrawn BOOLEAN NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class ShareLink:
    game_id: str
    #: the replay's step the link opens at; None: the end
    at: int | None
    withdrawn: bool


class ShareLinks(OwnTable):
    """The ``share_links`` table (read on every use: another process may withdraw a link)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        super().__init__(con, SCHEMA)

    def make(self, game_id: str, at: int | None) -> str:
        """A new link's token, shown only now."""
        token = new_token()
        with self._lock:
            self._con.execute(
                "INSERT INTO share_links VALUES (?, ?, ?, now(), false)", [token_hash(token), game_id, at]
            )
        return token

    def find(self, token: str) -> ShareLink | None:
        with self._lock:
            row = self._con.execute(
                "SELECT game_id, at_step, withdrawn FROM share_links WHERE token_hash = ?", [token_hash(token)]
            ).fetchone()
        return None if row is None else ShareLink(row[0], row[1], bool(row[2]))

    def withdraw(self, game_id: str, token: str | None = None) -> int:
        """Withdraw one link of this game (``token``), or all of them; how many were still open."""
        where, params = "game_id = ? AND NOT withdrawn", [game_id]
        if token is not None:
            where, params = where + " AND token_hash = ?", [game_id, token_hash(token)]
        with self._lock:
            count = self._con.execute(f"SELECT count(*) FROM share_links WHERE {where}", params).fetchone()
            self._con.execute(f"UPDATE share_links SET withdrawn = true WHERE {where}", params)
        return int(count[0]) if count else 0
