"""Read models for statistics, rebuildable from the log alone.

``games`` and ``results`` are kept current on every append (``track``), and caught up from the
log when the read models are opened (``catch_up``: a crash between an append's commit and its
``track`` must not hide a game from the catalogue). The statistics tables
(``game_facts``, ``score_sources``, ``effective_edits`` and every title's own tables, see
``projections.stats``) are caught up lazily: ``refresh`` folds the games whose events arrived since
its watermark (the largest ``events.rowid`` it has folded; the log only appends, and DuckDB hands
out row ids in commit order), so the append path does no statistics work and a query that calls
``refresh`` first never sees stale rows. They are derived data: rows here are replaced freely
(unlike events), and ``rebuild`` recreates them all, yielding the rows the incremental paths wrote.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from datetime import datetime, timedelta
from typing import Any, Iterable

import pyarrow as pa
import pyarrow.compute as pc

from events.errors import GameUnreadable
from events.history import History
from events.lifecycle import HISTORY_EDITS, NOT_STEPS, Forked, GameCreated, GameEnded, ScoreOnly
from events.log import EventLog, from_micros, micros, naive_utc
from events.rows import columns
from events.seasons import is_club_stream
from projections.fold import GameState, fold, start
from projections.quarantine import Quarantine, Unfoldable, decode_each, effective_steps, unreadable
from projections.stats import Finished, model as stats_model, models as stats_models

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
    forked_at INTEGER,
    score_only BOOLEAN DEFAULT false
);
CREATE TABLE IF NOT EXISTS results (
    game_id VARCHAR NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    score INTEGER,
    rank INTEGER NOT NULL,
    won BOOLEAN NOT NULL,
    score_only BOOLEAN DEFAULT false,
    PRIMARY KEY (game_id, seat)
);
"""
#: stores from before score-only games: the column goes last, where the rows' schemas have it
MIGRATIONS = """
ALTER TABLE games ADD COLUMN IF NOT EXISTS score_only BOOLEAN DEFAULT false;
ALTER TABLE results ADD COLUMN IF NOT EXISTS score_only BOOLEAN DEFAULT false;
ALTER TABLE results ALTER COLUMN score DROP NOT NULL;
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
        ("score_only", pa.bool_()),
    ]
)
RESULTS_SCHEMA = pa.schema(columns(
    "game_id VARCHAR, seat INTEGER, player VARCHAR, score INTEGER, rank INTEGER, won BOOLEAN, "
    "score_only BOOLEAN"
))


def game_rows(
    game_id: str, game: GameState, created_at: datetime, ended_at: datetime | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``games`` row and ``results`` rows of one game, from its folded state.

    A score-only game is dated by its play (``played_at`` and its duration), not by its import."""
    ended = game.ended
    marker = game.score_only
    duration = (ended_at - created_at).total_seconds() if ended is not None and ended_at else None
    if marker is not None:
        created_at, ended_at = played_span(marker)
        duration = None if marker.duration_min is None else marker.duration_min * 60.0
    row = {
        "game_id": game_id,
        "title": game.created.title,
        "players": list(game.created.players),
        "options": json.dumps(game.created.options, sort_keys=True),
        "status": "ended" if ended is not None else "in-progress",
        "created_at": created_at,
        "ended_at": ended_at if ended is not None else None,
        "duration_s": duration,
        "parent_id": game.forked.parent_id if game.forked else None,
        "forked_at": game.forked.at_seq if game.forked else None,
        "score_only": marker is not None,
    }
    results = []
    if ended is not None:
        for seat, player in enumerate(game.created.players):
            results.append(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "player": player,
                    "score": ended.scores[seat] if ended.scores else None,  # a result-only play: winners alone
                    "rank": ended.ranks[seat],
                    "won": seat in ended.winners,
                    "score_only": marker is not None,
                }
            )
    return row, results


def played_span(marker: ScoreOnly) -> tuple[datetime, datetime]:
    """When a score-only game began and ended (naive UTC): its play date, plus its duration if known."""
    began = naive_utc(datetime.fromisoformat(marker.played_at))
    return began, began + timedelta(minutes=marker.duration_min or 0)


class ReadModels:
    """Keeps ``games`` and ``results`` current (``track``), catches the statistics tables up
    (``refresh``), and recreates them all from the log (``rebuild``)."""

    def __init__(self, log: EventLog, catch_up: bool = True) -> None:
        self.log = log
        self.con = log.cursor()  # our own connection: the log's is the event writer's
        self._lock = threading.RLock()
        self._refresh_lock = threading.Lock()
        self._stats_ready = False
        #: (events counted, largest row id) folded into the statistics tables; None: never
        self._mark: tuple[int, int] | None = None
        with self._lock:
            self.con.execute(SCHEMA)
            self.con.execute(MIGRATIONS)
        #: the games that cannot be folded or projected: left out of every table here
        self.quarantine = Quarantine(log.cursor())
        if catch_up:
            self.catch_up()

    @property
    def lock(self) -> threading.RLock:
        """Held while these read models write; a projection over them writing on ``con`` holds it too."""
        return self._lock

    @property
    def folded(self) -> tuple[int, int] | None:
        """(events counted, largest row id) the statistics tables reflect; None: never refreshed."""
        return self._mark

    def track(self, game_id: str, history: History, game: GameState, before: GameState | None) -> None:
        """Rewrite a game's rows when it first appears or its result changes."""
        if before is not None and before.ended == game.ended and before.forked == game.forked:
            return
        ended_seq = _ended_seq(history)
        times = self.log.recorded_times(game_id, (1, ended_seq or 1))
        try:
            row, results = game_rows(game_id, game, times[1], times.get(ended_seq) if ended_seq else None)
            self._write([row], results, replace_ids=[game_id])
        except (ArithmeticError, ValueError, TypeError, pa.ArrowException) as exc:  # values a row cannot hold
            self.set_aside(unreadable(game_id, (), exc, ended_seq or history.last_seq))

    def set_aside(self, exc: GameUnreadable) -> None:
        """Leave a game that cannot be read out of every table here, and name it in the quarantine."""
        game_id = exc.details["game_id"]
        with self._lock:
            self._ensure_stats()
            self.con.execute("BEGIN")
            try:
                for table in ("results", "games", *self._stats_tables()):
                    self.con.execute(f"DELETE FROM {table} WHERE game_id = ?", [game_id])
                self.con.execute("COMMIT")
            except BaseException:
                self.con.execute("ROLLBACK")
                raise
        self.quarantine.add(exc)

    def catch_up(self) -> int:
        """Rewrite the ``games`` and ``results`` rows of the games with events past the catalogue's
        mark (the largest ``events.rowid`` it is known to reflect) and of the games set aside;
        returns how many.

        An append commits before ``track`` writes its rows, so a process killed in between leaves
        a game out of the catalogue or its result stale; and a game this code cannot fold is set
        aside here, at start-up, rather than by its first reader. Run at start-up, before writes.
        """
        self.log.sync()  # a store other processes write: their events first (see events.pg_log)
        with self._lock:
            self.con.execute(META_SCHEMA)
            marks = dict(self.con.execute("SELECT key, value FROM stats_meta").fetchall())
            # a statistics refresh rewrote every catalogue row up to its own mark
            since = max(int(marks.get(_CATALOGUE_MARK, -1)), int(marks.get("rowid", -1)))
            top = self._log_mark()[1]
            if top <= since and not self.quarantine.ids():
                return 0
            # the games set aside are tried again: a newer version of this code may read them
            ids = sorted(
                {r[0] for r in self.con.execute(
                    "SELECT DISTINCT game_id FROM events WHERE rowid > $since AND rowid <= $top",
                    {"since": since, "top": top},
                ).fetchall()} | set(self.quarantine.ids())
            )
            batch = _Batch()
            for raw in self._read_games(ids, top):
                folded = self._fold(raw)
                if folded is not None:
                    batch.add({"games": folded["games"], "results": folded["results"]}, raw)
            marks_sql = ", ".join("?" * len(ids))
            self.con.execute("BEGIN")
            try:
                if ids:
                    for table in ("results", "games"):
                        self.con.execute(f"DELETE FROM {table} WHERE game_id IN ({marks_sql})", ids)
                    self._write_batch(batch)
                self.con.execute("DELETE FROM stats_meta WHERE key = ?", [_CATALOGUE_MARK])
                self.con.execute("INSERT INTO stats_meta VALUES (?, ?)", [_CATALOGUE_MARK, str(top)])
                self.con.execute("COMMIT")
            except BaseException:
                self.con.execute("ROLLBACK")
                raise
            return len(ids)

    def rebuild(self, batch_games: int = 2_000, rows_per_batch: int = 100_000) -> int:
        """Recreate every read model from the log alone; returns the number of games
        (``rows_per_batch``: the log's rows read at a time)."""
        self.log.sync()
        with self._lock:
            self._ensure_stats()
            mark = self._log_mark()
            self.con.execute("BEGIN")
            try:
                for table in ("results", "games", *self._stats_tables()):
                    self.con.execute(f"DELETE FROM {table}")
                count = 0
                batch = _Batch()
                reader = self.con.cursor()  # the log as committed, beside our open transaction
                try:
                    for raw in _games_in_log(reader, mark[1], rows_per_batch=rows_per_batch):
                        folded = self._fold(raw)
                        if folded is not None:
                            batch.add(folded, raw)
                            count += 1
                        if len(batch) >= batch_games:
                            self._write_batch(batch)
                            batch = _Batch()
                finally:
                    reader.close()
                self._write_batch(batch)
                self._set_mark(mark)
                self.con.execute("COMMIT")
            except BaseException:
                self.con.execute("ROLLBACK")
                raise
            return count

    def refresh(self, batch_games: int = 256) -> int:
        """Fold the games whose events arrived since the last refresh; returns how many.

        One refresh runs at a time (a second one waits, then finds nothing new). The lock that
        ``track`` shares is held one batch at a time, so a game created meanwhile waits for one
        batch at most, never for a whole catch-up.
        """
        self.log.sync()
        with self._refresh_lock:
            with self._lock:
                self._ensure_stats()
                if self._mark is None:  # never folded: every game is new, caught up batch by batch
                    self._mark = (-1, -1)
                count = self.con.execute("SELECT count(*) FROM events").fetchall()[0][0]
                if count == self._mark[0]:
                    return 0  # the log only grows: the same count means nothing new (and costs ~1 ms)
                top = self.con.execute(
                    "SELECT max(rowid) FROM events WHERE rowid > ?", [self._mark[1]]
                ).fetchall()[0][0]
                mark = (int(count), self._mark[1] if top is None else int(top))
                changed = [
                    r[0]
                    for r in self.con.execute(
                        "SELECT DISTINCT game_id FROM events WHERE rowid > ? AND rowid <= ?", [self._mark[1], mark[1]]
                    ).fetchall()
                ]
            for start_at in range(0, len(changed), batch_games):
                ids = changed[start_at : start_at + batch_games]
                with self._lock:  # read inside the lock: a concurrent track() then writes after us
                    batch = _Batch()
                    for raw in self._read_games(ids, mark[1]):
                        folded = self._fold(raw)
                        if folded is not None:
                            batch.add(folded, raw)
                    self._replace(ids, batch)
            with self._lock:
                self.con.execute("BEGIN")
                self._set_mark(mark)
                self.con.execute("COMMIT")
            return len(changed)

    # -- statistics tables -------------------------------------------------------------------

    def _stats_tables(self) -> list[str]:
        return list(stats_schemas())

    def _ensure_stats(self) -> None:
        """Create the statistics tables; drop them first if their layout changed (they are derived)."""
        if self._stats_ready:
            return
        self.con.execute(META_SCHEMA)
        version = stats_version()
        rows = self.con.execute("SELECT value FROM stats_meta WHERE key = 'version'").fetchall()
        row = rows[0] if rows else None
        schemas = stats_schemas()
        if row is None or row[0] != version:
            for name in schemas:
                self.con.execute(f"DROP TABLE IF EXISTS {name}")
            self.con.execute("DELETE FROM stats_meta WHERE key <> ?", [_CATALOGUE_MARK])
            self.con.execute("INSERT INTO stats_meta VALUES ('version', ?)", [version])
        for name, schema in schemas.items():
            self.con.register("_rm_empty", schema.empty_table())
            try:
                self.con.execute(f"CREATE TABLE IF NOT EXISTS {name} AS SELECT * FROM _rm_empty")
            finally:
                self.con.unregister("_rm_empty")
        marks = dict(self.con.execute("SELECT key, value FROM stats_meta").fetchall())
        self._mark = (int(marks["events"]), int(marks["rowid"])) if "rowid" in marks else None
        self._stats_ready = True

    def _log_mark(self) -> tuple[int, int]:
        """(events in the log, the largest row id) as this snapshot sees them."""
        count, top = self.con.execute("SELECT count(*), coalesce(max(rowid), -1) FROM events").fetchall()[0]
        return int(count), int(top)

    def _set_mark(self, mark: tuple[int, int]) -> None:
        self.con.execute("DELETE FROM stats_meta WHERE key IN ('events', 'rowid')")
        self.con.execute("INSERT INTO stats_meta VALUES ('events', ?), ('rowid', ?)", [str(mark[0]), str(mark[1])])
        self._mark = mark

    def _read_games(self, ids: list[str], top_rowid: int) -> Iterable[RawGame]:
        """The raw events of some games (up to the watermark), one game at a time."""
        if len(ids) <= 32:  # a few games: one indexed read each beats a join over the whole log
            for game_id in ids:
                rows = self.con.execute(
                    "SELECT seq, epoch_us(recorded_at), body FROM events WHERE game_id = ? AND rowid <= ? ORDER BY seq",
                    [game_id, top_rowid],
                ).fetchall()
                bodies = decode_each([bytes(r[2]) for r in rows])
                yield game_id, [r[0] for r in rows], [r[1] for r in rows], bodies
            return
        cur = self.con.cursor()  # registered tables belong to one connection
        cur.register("_rm_ids", pa.table({"game_id": pa.array(ids, pa.string())}))
        try:
            yield from _games_in_log(cur, top_rowid, "_rm_ids")
        finally:
            cur.close()

    def _replace(self, ids: list[str], batch: "_Batch") -> None:
        # a constant IN list lets DuckDB skip row groups by their min/max game id
        marks = ", ".join("?" * len(ids))
        self.con.execute("BEGIN")
        try:
            for table in ("results", "games", *self._stats_tables()):
                self.con.execute(f"DELETE FROM {table} WHERE game_id IN ({marks})", ids)
            self._write_batch(batch)
            self.con.execute("COMMIT")
        except BaseException:
            self.con.execute("ROLLBACK")
            raise

    def _fold(self, raw: RawGame) -> dict[str, list[dict[str, Any]]] | None:
        """``fold_game``; None for a game that cannot be folded, set aside in the quarantine."""
        game_id, seqs, _, bodies = raw
        if is_club_stream(game_id):
            return None  # a season's stream: no game, read by projections.seasons
        try:
            unfoldable = next((body for body in bodies if body.__class__ is Unfoldable), None)
            if unfoldable is not None:  # the rules would pass over it: a title folds only its own events
                raise unfoldable.error
            folded = fold_game(*raw)
        except Exception as exc:  # noqa: BLE001 - one game never stops the others
            report = self.log.verify(game_id)
            if report.ok or report.unreadable:
                self.quarantine.add(unreadable(game_id, effective_steps(seqs, bodies), exc, _rows_seq(seqs, bodies)))
            else:  # altered: left out here too, and refused as chain-broken where it is read
                log.warning("game %s is left out of the read models: its log was altered at seq %s", game_id, report.first_bad_seq)
            return None
        if game_id in self.quarantine:
            self.quarantine.discard([game_id])
        return folded

    def _write_batch(self, batch: "_Batch") -> None:
        """Insert a batch's rows (inside the caller's transaction); a game whose values a table
        cannot hold is set aside, the others written."""
        try:
            tables = _arrow_tables(batch.rows)
        except _UNFIT as exc:
            log.warning("a batch of read-model rows does not fit its tables (%s): checking game by game", exc)
            tables = _arrow_tables(self._fitting(batch).rows)
        for name, table in tables.items():
            self.con.register("_rm_rows", table)
            try:
                self.con.execute(f"INSERT INTO {name} SELECT * FROM _rm_rows")
            finally:
                self.con.unregister("_rm_rows")

    def _fitting(self, batch: "_Batch") -> "_Batch":
        """The games of a batch whose rows fit their tables; the others set aside."""
        kept = _Batch()
        for game_id, rows, seq in batch.each:
            try:
                _arrow_tables(rows)
            except _UNFIT as exc:
                self.quarantine.add(unreadable(game_id, (), exc, seq))
                continue
            kept.add(rows)
        return kept

    def stage(self, games: list[tuple[str, list[Any]]], at: datetime) -> dict[str, pa.Table]:
        """Every read-model row of new games about to be appended at ``at``, as the tables' own
        Arrow types: a value a table cannot hold fails here, before the log has the games, so an
        import is refused whole instead of leaving games the read side cannot take back."""
        stamp = micros(at)
        batch = _Batch()
        for game_id, events in games:
            seqs = list(range(1, len(events) + 1))
            batch.add(fold_game(game_id, seqs, [stamp] * len(events), list(events)))
        return _arrow_tables(batch.rows)

    def add_staged(self, staged: dict[str, pa.Table]) -> None:
        """The ``games`` and ``results`` rows ``stage`` built, in one transaction (the statistics
        tables follow at the next ``refresh``, as for any new game). A ``refresh`` that ran between
        the append and now has written rows of these games already: they are replaced."""
        with self._lock:
            self.con.execute("BEGIN")
            try:
                if "games" in staged:
                    self.con.register("_rm_staged_ids", staged["games"].select(["game_id"]))
                    try:
                        for name in ("results", "games"):
                            self.con.execute(f"DELETE FROM {name} WHERE game_id IN (SELECT game_id FROM _rm_staged_ids)")
                    finally:
                        self.con.unregister("_rm_staged_ids")
                for name in ("games", "results"):
                    if name in staged:
                        self.con.register("_rm_staged", staged[name])
                        try:
                            self.con.execute(f"INSERT INTO {name} SELECT * FROM _rm_staged")
                        finally:
                            self.con.unregister("_rm_staged")
                self.con.execute("COMMIT")
            except BaseException:
                self.con.execute("ROLLBACK")
                raise

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


def _ended_seq(history: History) -> int | None:
    from events.lifecycle import GameEnded

    for entry in reversed(history.entries()):
        if isinstance(entry.body, GameEnded):
            return entry.seq
    return None


#: one game's raw events as the read models fold them: its id, then its seqs, the times they
#: were recorded (µs since the epoch) and their bodies, in seq order
RawGame = tuple[str, list[int], list[int], list[Any]]


def _games_in_log(
    con, top_rowid: int | None = None, only: str | None = None, games_per_read: int = 2_000,
    rows_per_batch: int = 100_000,
) -> Iterable[RawGame]:
    """Every game's raw events (up to a row id; only the games in table ``only``), one game at a
    time, read a range of game ids at a time: sorting a range is cheap where sorting the whole log
    would hold it all in memory (game ids are time-ordered, so a range skips most row groups)."""
    where = [] if top_rowid is None else [f"rowid <= {int(top_rowid)}"]
    if only is not None:
        where.append(f"game_id IN (SELECT game_id FROM {only})")
    clause = " AND ".join(where) or "true"
    ids = [r[0] for r in con.execute(f"SELECT DISTINCT game_id FROM events WHERE {clause} ORDER BY 1").fetchall()]
    for first in range(0, len(ids), games_per_read):
        low, high = ids[first], ids[min(first + games_per_read, len(ids)) - 1]
        yield from _read_range(con, clause, low, high, rows_per_batch)


def _read_range(con, clause: str, low: str, high: str, rows_per_batch: int) -> Iterable[RawGame]:
    # times as integers, made datetimes only where a row needs one: converting every event's
    # timestamp to a datetime was a sixth of a full rebuild (measured)
    reader = con.sql(
        f"SELECT game_id, seq, epoch_us(recorded_at), body FROM events WHERE {clause} "
        "AND game_id BETWEEN $low AND $high ORDER BY game_id, seq",
        params={"low": low, "high": high},
    ).to_arrow_reader(rows_per_batch)
    decode_many = decode_each
    current: str | None = None
    seqs: list[int] = []
    ats: list[int] = []
    bodies: list[Any] = []
    for batch in reader:
        ids = batch.column(0)
        count = len(ids)
        if not count:
            continue
        # where a new game begins in this batch (its rows come sorted by game)
        cuts = [0, *(i + 1 for i in pc.indices_nonzero(pc.not_equal(ids[1:], ids[:-1])).to_pylist()), count]
        batch_seqs = batch.column(1).to_pylist()
        batch_ats = batch.column(2).to_pylist()
        batch_bodies = decode_many(batch.column(3).to_pylist())
        for first, end in zip(cuts, cuts[1:]):
            game_id = ids[first].as_py()
            if game_id == current:  # the game goes on from the previous batch
                seqs += batch_seqs[first:end]
                ats += batch_ats[first:end]
                bodies += batch_bodies[first:end]
                continue
            if current is not None:
                yield current, seqs, ats, bodies
            current = game_id
            seqs, ats, bodies = batch_seqs[first:end], batch_ats[first:end], batch_bodies[first:end]
    if current is not None:
        yield current, seqs, ats, bodies


# -- statistics tables ------------------------------------------------------------------------

log = logging.getLogger("tabletape.read_models")

META_SCHEMA = "CREATE TABLE IF NOT EXISTS stats_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)"
#: the ``stats_meta`` key of the largest ``events.rowid`` the catalogue is known to reflect
_CATALOGUE_MARK = "catalogue_rowid"

#: the statistics tables every title shares (each title adds its own, see ``projections.stats``)
STATS_SCHEMAS: dict[str, pa.Schema] = {
    "game_facts": pa.schema(columns(
        "game_id VARCHAR, title VARCHAR, last_seq INTEGER, steps INTEGER, moves INTEGER, "
        "rounds INTEGER, first_seat INTEGER, teams INTEGER[], options VARCHAR, edited BOOLEAN"
    )),
    "score_sources": pa.schema(columns(
        "game_id VARCHAR, seat INTEGER, player VARCHAR, won BOOLEAN, source VARCHAR, points INTEGER"
    )),
    # results with what the questions filter on, so that they filter without joining on game ids
    "seat_results": pa.schema(columns(
        "game_id VARCHAR, players INTEGER, seat INTEGER, player VARCHAR, team INTEGER, first BOOLEAN, "
        "score INTEGER, rank INTEGER, won BOOLEAN, score_only BOOLEAN"
    )),
    # only games with undo, redo or amendments: which raw seqs count, at which step, with whose body
    "effective_edits": pa.schema(columns(
        "game_id VARCHAR, seq INTEGER, step INTEGER, amended_by INTEGER"
    )),
}

#: a finished game's own columns, added to every per-seat statistics table (filters without joins)
GAME_COLUMNS = [("title", pa.string()), ("created_at", pa.timestamp("us")), ("forked", pa.bool_())]
_PER_GAME = frozenset({"game_facts", "effective_edits"})


def stats_schemas() -> dict[str, pa.Schema]:
    """Every statistics table: the shared ones and each title's, with the game columns added."""
    out: dict[str, pa.Schema] = {}
    tables = dict(STATS_SCHEMAS)
    for model in stats_models().values():
        tables.update(model.tables)
    for name, schema in tables.items():
        if name not in _PER_GAME:
            for column, kind in GAME_COLUMNS:
                if column not in schema.names:
                    schema = schema.append(pa.field(column, kind))
        out[name] = schema
    return out


_LIFECYCLE = (GameCreated, GameEnded, Forked, ScoreOnly)
_EDITS = frozenset(HISTORY_EDITS)
_NOT_STEPS = frozenset(NOT_STEPS)


def stats_version() -> str:
    """Changes whenever a statistics table's layout changes (the tables are then rebuilt)."""
    layout = {name: str(schema) for name, schema in stats_schemas().items()}
    return hashlib.sha256(json.dumps(layout, sort_keys=True).encode()).hexdigest()[:16]


class _Batch:
    """Rows of many folded games, by table."""

    def __init__(self) -> None:
        self.rows: dict[str, list[dict[str, Any]]] = {}
        #: each game's own rows and the seq they are read from, to set aside one that does not fit
        self.each: list[tuple[str, dict[str, list[dict[str, Any]]], int]] = []

    def __len__(self) -> int:
        return len(self.each)

    def add(self, tables: dict[str, list[dict[str, Any]]], raw: RawGame | None = None) -> None:
        game_id, seqs, _, bodies = raw if raw is not None else ("", [0], [], [])
        self.each.append((game_id, tables, _rows_seq(seqs, bodies)))
        for name, rows in tables.items():
            self.rows.setdefault(name, []).extend(rows)


#: what converting rows that do not fit their columns raises (a score past 32 bits, a date past 9999)
_UNFIT = (pa.ArrowException, OverflowError, ValueError, TypeError)


def _arrow_tables(rows_by_table: dict[str, list[dict[str, Any]]]) -> dict[str, pa.Table]:
    """Rows as Arrow tables of their read models' schemas (empty tables left out)."""
    schemas = {"games": GAMES_SCHEMA, "results": RESULTS_SCHEMA, **stats_schemas()}
    return {name: pa.Table.from_pylist(rows, schema=schemas[name]) for name, rows in rows_by_table.items() if rows}


def _rows_seq(seqs: list[int], bodies: list[Any]) -> int:
    """The seq a game's rows are read from: its end or score-only record (scores, dates), else its last."""
    for index in range(len(bodies) - 1, -1, -1):
        if bodies[index].__class__ in (GameEnded, ScoreOnly):
            return seqs[index]
    return seqs[-1] if seqs else 0


def fold_game(game_id: str, seqs: list[int], ats: list[int], raw: list[Any]) -> dict[str, list[dict[str, Any]]]:
    """Every read-model row of one game, from its raw events (``RawGame``)."""
    if any(body.__class__ in _NOT_STEPS for body in raw):
        history = History()
        for body in raw:
            history.push(body)
        entries = history.entries()
        bodies = [e.body for e in entries]
        edits = [{"game_id": game_id, "seq": e.seq, "step": e.length, "amended_by": e.amended_by} for e in entries]
        ended_seq = _ended_seq(history)
        last_seq = history.last_seq
    else:  # the common case: the effective history is the log itself
        bodies = raw
        edits = []
        ended_seq = next((seqs[i] for i in range(len(raw) - 1, -1, -1) if raw[i].__class__ is GameEnded), None)
        last_seq = len(raw)
    created_at = _recorded(seqs, ats, 1)
    game = fold(start(bodies[0]), bodies[1:])
    row, results = game_rows(game_id, game, created_at, _recorded(seqs, ats, ended_seq) if ended_seq else None)
    if game.score_only is not None:
        return _score_only_rows(game_id, game, row, results, last_seq)
    model = stats_model(game.title.id)
    # notes alone edit nothing; their games keep the rows that number each step (seqs skip the notes)
    edited = any(body.__class__ in _EDITS for body in raw)
    out: dict[str, list[dict[str, Any]]] = {"games": [row], "results": results}
    try:
        facts = {
            "game_id": game_id,
            "title": game.title.id,
            "last_seq": last_seq,
            "steps": len(bodies),
            "moves": sum(1 for body in bodies if body.__class__ not in _LIFECYCLE),
            "rounds": model.rounds(game),
            "first_seat": model.first_seat(game),
            "teams": model.teams(game),
            "options": json.dumps(model.options(game), sort_keys=True),
            "edited": edited,
        }
        out["game_facts"] = [facts]
        if edits:
            out["effective_edits"] = edits
        if game.ended is not None:
            winners, ended = game.ended.winners, game.ended
            teams, first = facts["teams"], facts["first_seat"]
            out["seat_results"] = [
                {"game_id": game_id, "players": len(game.players), "seat": seat, "player": player,
                 "team": teams[seat], "first": seat == first, "score": ended.scores[seat],
                 "rank": ended.ranks[seat], "won": seat in winners, "score_only": False}
                for seat, player in enumerate(game.players)
            ]
            out["score_sources"] = [
                {"game_id": game_id, "seat": seat, "player": game.players[seat], "won": seat in winners,
                 "source": source, "points": points}
                for seat, sources in enumerate(model.sources(game))
                for source, points in sources.items()
            ]
            out.update(model.facts(Finished(game_id, game, bodies)))
            own = {"title": game.title.id, "created_at": created_at, "forked": game.forked is not None}
            for name, rows in out.items():
                if name not in _PER_GAME and name not in ("games", "results"):
                    for r in rows:
                        r.update(own)
    except Exception:  # a title's facts must not stop every other game's statistics
        log.exception("statistics of game %s (%s) could not be derived", game_id, game.title.id)
        out = {"games": [row], "results": results}
    return out


def _recorded(seqs: list[int], ats: list[int], seq: int) -> datetime:
    """When the event at ``seq`` was recorded, as the log's naive UTC datetime."""
    return from_micros(ats[seq - 1] if len(seqs) >= seq and seqs[seq - 1] == seq else ats[seqs.index(seq)])


def _score_only_rows(
    game_id: str, game: GameState, row: dict[str, Any], results: list[dict[str, Any]], last_seq: int
) -> dict[str, list[dict[str, Any]]]:
    """A score-only game counts where final results count (``seat_results``: leaderboards, head to
    head, player pages) and nowhere a move, a round or a source of points would be needed: its
    state is the empty setup, so every move-level table stays without it."""
    marker = game.score_only
    assert marker is not None and game.ended is not None
    start_seat = marker.start_seat
    teams = stats_model(game.title.id).teams(game)
    facts = {
        "game_id": game_id, "title": game.title.id, "last_seq": last_seq, "steps": last_seq, "moves": 0,
        "rounds": None, "first_seat": start_seat, "teams": teams,
        "options": json.dumps(dict(game.created.options), sort_keys=True), "edited": False,
    }
    own = {"title": game.title.id, "created_at": row["created_at"], "forked": False}
    ended = game.ended
    seats = [
        {"game_id": game_id, "players": len(game.players), "seat": seat, "player": player, "team": teams[seat],
         # unknown start player: neither first nor one of the others in the first-player question
         "first": None if start_seat is None else seat == start_seat,
         "score": ended.scores[seat] if ended.scores else None,
         "rank": ended.ranks[seat], "won": seat in ended.winners, "score_only": True, **own}
        for seat, player in enumerate(game.players)
    ]
    return {"games": [row], "results": results, "game_facts": [facts], "seat_results": seats}
