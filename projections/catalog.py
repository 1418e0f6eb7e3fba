"""The game catalogue: listing and filtering games through the ``games`` read model.

The read model is derived data kept current by the projector; this module only reads it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb

from events.log import naive_utc

_COLUMNS = "game_id, title, players, options, status, created_at, ended_at, duration_s, parent_id, forked_at, score_only"


@dataclass(frozen=True, slots=True)
class GameRow:
    """One row of the ``games`` read model."""

    game_id: str
    title: str
    players: tuple[str, ...]
    options: dict[str, Any]
    status: str
    created_at: datetime
    ended_at: datetime | None
    duration_s: float | None
    parent_id: str | None
    forked_at: int | None
    #: recorded by its result alone (imported from BG Stats): no moves
    score_only: bool = False


@dataclass(frozen=True, slots=True)
class GameFilter:
    """What a listing keeps: every field left None keeps all games. ``created_to`` is exclusive."""

    title: str | None = None
    player: str | None = None
    status: str | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None


def _row(values: tuple[Any, ...]) -> GameRow:
    game_id, title, players, options, status, created, ended, duration, parent, forked, score_only = values
    return GameRow(
        game_id, title, tuple(players), json.loads(options), status, created, ended, duration, parent, forked,
        bool(score_only),
    )


def _where(keep: GameFilter) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if keep.title is not None:
        clauses.append("title = ?")
        params.append(keep.title)
    if keep.player is not None:
        # players are matched whole, ignoring case: "ana" finds "Ana"
        clauses.append("EXISTS (SELECT 1 FROM unnest(players) AS seat(name) WHERE lower(seat.name) = lower(?))")
        params.append(keep.player)
    if keep.status is not None:
        clauses.append("status = ?")
        params.append(keep.status)
    if keep.created_from is not None:
        clauses.append("created_at >= ?")
        params.append(naive_utc(keep.created_from))
    if keep.created_to is not None:
        clauses.append("created_at < ?")
        params.append(naive_utc(keep.created_to))
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def list_games(
    con: duckdb.DuckDBPyConnection, keep: GameFilter = GameFilter(), limit: int = 50, offset: int = 0
) -> tuple[list[GameRow], int]:
    """One page of games, newest first, and how many games match in all."""
    where, params = _where(keep)
    cur = con.cursor()  # a connection object is not shared across threads
    try:
        total = cur.execute(f"SELECT count(*) FROM games{where}", params).fetchone()[0]
        rows = cur.execute(
            f"SELECT {_COLUMNS} FROM games{where} ORDER BY created_at DESC, game_id DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    finally:
        cur.close()
    return [_row(r) for r in rows], int(total)


def get_game(con: duckdb.DuckDBPyConnection, game_id: str) -> GameRow | None:
    cur = con.cursor()
    try:
        row = cur.execute(f"SELECT {_COLUMNS} FROM games WHERE game_id = ?", [game_id]).fetchone()
    finally:
        cur.close()
    return _row(row) if row else None
