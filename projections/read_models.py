"""Read models for statistics: ``games`` and ``results``, kept current and rebuildable.

They are derived data: rows here are replaced freely (unlike events), and ``rebuild`` recreates
them from the log alone, yielding the same rows the incremental path wrote.
"""

from __future__ import annotations

import json
import threading
from datetime import datetime
from typing import TYPE_CHECKING, Any, Iterable

import pyarrow as pa

from events import codec
from events.duckdb_log import DuckDBEventLog
from projections.fold import GameState, fold, start

if TYPE_CHECKING:
    from replay.history import History

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id VARCHAR PRIMARY KEY,
    title VARCHAR NOT NULL,
    players VARCHAR[] NOT NULL,
    options JSON NOT NULL,
    status VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL,
    ended_at TIMESTAMP,
    duration_s DOUBLE,
    parent_id VARCHAR,
    forked_at INTEGER
);
CREATE TABLE IF NOT EXISTS results (
    game_id VARCHAR NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    score INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    won BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""

GAMES_SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("title", pa.string()),
        ("players", pa.list_(pa.string())),
        ("options", pa.string()),
        ("status", pa.string()),
        ("created_at", pa.timestamp("us")),
        ("ended_at", pa.timestamp("us")),
        ("duration_s", pa.float64()),
        ("parent_id", pa.string()),
        ("forked_at", pa.int32()),
    ]
)
RESULTS_SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("seat", pa.int32()),
        ("player", pa.string()),
        ("score", pa.int32()),
        ("rank", pa.int32()),
        ("won", pa.bool_()),
    ]
)


def game_rows(
    game_id: str, game: GameState, created_at: datetime, ended_at: datetime | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``games`` row and ``results`` rows of one game, from its folded state."""
    ended = game.ended
    row = {
        "game_id": game_id,
        "title": game.created.title,
        "players": list(game.created.players),
        "options": json.dumps(game.created.options, sort_keys=True),
        "status": "ended" if ended is not None else "in-progress",
        "created_at": created_at,
        "ended_at": ended_at if ended is not None else None,
        "duration_s": (ended_at - created_at).total_seconds() if ended is not None and ended_at else None,
        "parent_id": game.forked.parent_id if game.forked else None,
        "forked_at": game.forked.at_seq if game.forked else None,
    }
    results = []
    if ended is not None:
        for seat, player in enumerate(game.created.players):
            results.append(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "player": player,
                    "score": ended.scores[seat],
                    "rank": ended.ranks[seat],
                    "won": seat in ended.winners,
                }
            )
    return row, results


class ReadModels:
    """Keeps ``games`` and ``results`` current; ``rebuild`` recreates them from the log."""

    def __init__(self, log: DuckDBEventLog) -> None:
        self.log = log
        self.con = log.cursor()  # our own connection: the log's is the event writer's
        self._lock = threading.RLock()
        with self._lock:
            self.con.execute(SCHEMA)

    def track(self, game_id: str, history: "History", game: GameState, before: GameState | None) -> None:
        """Rewrite a game's rows when it first appears or its result changes."""
        if before is not None and before.ended == game.ended and before.forked == game.forked:
            return
        ended_seq = _ended_seq(history)
        times = dict(
            self.log.reader().execute(
                "SELECT seq, recorded_at FROM events WHERE game_id = ? AND seq IN (1, ?)",
                [game_id, ended_seq or 1],
            ).fetchall()
        )
        row, results = game_rows(game_id, game, times[1], times.get(ended_seq) if ended_seq else None)
        self._write([row], results, replace_ids=[game_id])

    def rebuild(self, batch_games: int = 5_000) -> int:
        """Recreate both tables from the log alone; returns the number of games."""
        from replay.history import History

        with self._lock:
            self.con.execute("DELETE FROM results")
            self.con.execute("DELETE FROM games")
            count = 0
            rows: list[dict[str, Any]] = []
            results: list[dict[str, Any]] = []
            for game_id, events in _games_in_log(self.con.cursor()):
                history = History()
                times: dict[int, datetime] = {}
                for seq, at, body in events:
                    history.push(body)
                    times[seq] = at
                entries = history.entries()
                game = fold(start(entries[0].body), (e.body for e in entries[1:]))
                ended_seq = _ended_seq(history)
                row, res = game_rows(game_id, game, times[1], times.get(ended_seq) if ended_seq else None)
                rows.append(row)
                results.extend(res)
                count += 1
                if len(rows) >= batch_games:
                    self._write(rows, results)
                    rows, results = [], []
            if rows:
                self._write(rows, results)
            return count

    def _write(
        self, rows: list[dict[str, Any]], results: list[dict[str, Any]], replace_ids: Iterable[str] = ()
    ) -> None:
        games_tbl = pa.Table.from_pylist(rows, schema=GAMES_SCHEMA)
        results_tbl = pa.Table.from_pylist(results, schema=RESULTS_SCHEMA)
        with self._lock:
            self.con.execute("BEGIN")
            try:
                for game_id in replace_ids:
                    self.con.execute("DELETE FROM results WHERE game_id = ?", [game_id])
                    self.con.execute("DELETE FROM games WHERE game_id = ?", [game_id])
                self.con.register("_rm_games", games_tbl)
                self.con.register("_rm_results", results_tbl)
                self.con.execute("INSERT INTO games SELECT * FROM _rm_games")
                self.con.execute("INSERT INTO results SELECT * FROM _rm_results")
                self.con.execute("COMMIT")
            except BaseException:
                self.con.execute("ROLLBACK")
                raise
            finally:
                self.con.unregister("_rm_games")
                self.con.unregister("_rm_results")


def _ended_seq(history: "History") -> int | None:
    from events.lifecycle import GameEnded

    for entry in reversed(history.entries()):
        if isinstance(entry.body, GameEnded):
            return entry.seq
    return None


def _games_in_log(con) -> Iterable[tuple[str, list[tuple[int, datetime, Any]]]]:
    """Every game's raw events, one game at a time, streamed in Arrow batches."""
    reader = con.sql("SELECT game_id, seq, recorded_at, body FROM events ORDER BY game_id, seq").to_arrow_reader(
        100_000
    )
    decode = codec.decode
    current: str | None = None
    events: list[tuple[int, datetime, Any]] = []
    for batch in reader:
        ids = batch.column(0).to_pylist()
        seqs = batch.column(1).to_pylist()
        ats = batch.column(2).to_pylist()
        bodies = batch.column(3).to_pylist()
        for game_id, seq, at, body in zip(ids, seqs, ats, bodies):
            if game_id != current:
                if current is not None:
                    yield current, events
                current, events = game_id, []
            events.append((seq, at, decode(body)))
    if current is not None:
        yield current, events
