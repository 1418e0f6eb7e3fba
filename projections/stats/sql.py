"""Read-only SQL over the documented views, in a sandbox.

The service holds its DuckDB file open read-write, so a query never runs there. Each query gets
a fresh in-memory DuckDB with external access disabled (no files, no ATTACH, no COPY target, no
extension installed or loaded), Python replacement scans off and the configuration locked; the
views the query names are copied into it as Arrow tables from the (refreshed) read models. Before
that, DuckDB's own parser must find exactly one SELECT statement that reads only documented views
(or its own CTEs) and no table function but ``unnest`` / ``range`` / ``generate_series``. A timer
interrupts a query that runs past its time limit; at most ``row_limit`` rows come back.

What the views hold follows the one rule of who sees what (``api/auth.py``): a game in progress
shows its public view and nothing more, so it appears only as its ``games`` row (players, options,
status, rounds, moves so far); every other view holds ended games only (``ENDED_GAMES``).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import duckdb
import pyarrow as pa

from events.errors import SqlRefused
from projections.stats import models

if TYPE_CHECKING:
    from projections.read_models import ReadModels

ROW_LIMIT = 1_000
MAX_ROW_LIMIT = 10_000
TIME_LIMIT_S = 5.0
#: table functions that read nothing outside the query
SAFE_TABLE_FUNCTIONS = frozenset({"unnest", "range", "generate_series"})

SANDBOX_CONFIG = {
    "enable_external_access": False,
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "python_enable_replacements": False,  # no reading Python variables by name
    "memory_limit": "1GB",
    "threads": 2,
    "lock_configuration": True,  # last: nothing above can be changed afterwards
}

#: the shared views: name -> (SELECT over the read models, what a row is)
SHARED_VIEWS: dict[str, tuple[str, str]] = {
    "games": (
        "SELECT g.game_id, g.title, g.players, f.options, g.status, g.created_at, g.ended_at, g.duration_s, "
        "f.rounds, f.moves, f.first_seat, g.parent_id, g.forked_at "
        "FROM games g LEFT JOIN game_facts f USING (game_id)",
        "one row per game: game_id, title, players (in seat order), options (JSON, defaults filled in), "
        "status (in-progress / ended), created_at, ended_at (UTC), duration_s, rounds, moves (effective "
        "events but creation, end and fork), first_seat, parent_id and forked_at (a fork's parent)",
    ),
    "results": (
        "SELECT r.game_id, r.seat, r.player, r.score, r.rank, r.won, f.teams[r.seat + 1] AS team, s.sources "
        "FROM results r LEFT JOIN game_facts f USING (game_id) LEFT JOIN ("
        "SELECT game_id, seat, map(list(source ORDER BY source), list(points ORDER BY source)) AS sources "
        "FROM score_sources GROUP BY game_id, seat) s USING (game_id, seat)",
        "one row per seat of a finished game: game_id, seat, player, score, rank (1 = best, ties share), "
        "won, team (partners share one), sources (MAP source -> points)",
    ),
    "score_sources": (
        "SELECT game_id, seat, player, won, source, points FROM score_sources",
        "points by source per seat of a finished game: game_id, seat, player, won, source, points "
        "(a seat's sources add up to its score)",
    ),
    "moves": (
        "SELECT e.game_id, f.title, e.seq, coalesce(x.step, e.seq) AS step, "
        "TRY_CAST(json_extract_string(b.body, '$.seat') AS INTEGER) AS seat, "
        "json_extract_string(b.body, '$.type') AS kind, b.body AS detail "
        "FROM events e JOIN game_facts f USING (game_id) "
        "LEFT JOIN effective_edits x ON x.game_id = e.game_id AND x.seq = e.seq "
        "LEFT JOIN events a ON a.game_id = e.game_id AND a.seq = x.amended_by "
        "CROSS JOIN LATERAL (SELECT CASE WHEN x.amended_by IS NULL THEN e.body_json::JSON "
        "ELSE json_extract(a.body_json, '$.body') END AS body) b "
        "WHERE (NOT f.edited OR x.seq IS NOT NULL) AND e.type NOT LIKE 'game.%'",
        "one row per effective event of every ended game (undone events left out, amended ones as amended; "
        "not creation, end or fork): game_id, title, seq (raw log seq), step (position in the effective "
        "history), seat (NULL for chance and table facts), kind (the event's tag, e.g. "
        "lost-cities.card-played), detail (the event as JSON: card, source, dice, path...)",
    ),
}


#: The games whose rows a view may hold beyond ``games``: the ended ones. A game in progress shows
#: only its public view, and its events and facts hold what that view hides (a digital shuffle, the
#: cards dealt, objectives, goal cards). ``games`` follows every append, so an ended game undone back
#: into play drops out at once.
ENDED_GAMES = "SELECT game_id FROM games WHERE status = 'ended'"
#: views whose every row is public for a game in progress too (what ``GET /games`` shows of it)
PUBLIC_VIEWS = frozenset({"games"})


def views() -> dict[str, tuple[str, str]]:
    """Every documented view: the shared ones and each title's own tables; all but ``PUBLIC_VIEWS``
    hold ended games only, so a view added later cannot forget it."""
    out = dict(SHARED_VIEWS)
    for model in models().values():
        for name in model.tables:
            out[name] = (f"SELECT * FROM {name}", model.docs.get(name, ""))
    return {
        name: (select if name in PUBLIC_VIEWS else f"SELECT * FROM ({select}) WHERE game_id IN ({ENDED_GAMES})", doc)
        for name, (select, doc) in out.items()
    }


@dataclass(frozen=True, slots=True)
class SqlAnswer:
    columns: list[str]
    types: list[str]
    rows: list[list[Any]]
    truncated: bool
    elapsed_ms: float


def sandbox() -> duckdb.DuckDBPyConnection:
    return duckdb.connect(":memory:", config=dict(SANDBOX_CONFIG))


def check(con: duckdb.DuckDBPyConnection, query: str) -> tuple[str, set[str]]:
    """The one SELECT statement of ``query`` and the views it reads; raises SqlRefused."""
    try:
        statements = con.extract_statements(query)
    except duckdb.Error as exc:
        raise SqlRefused(f"the query does not parse: {_first_line(exc)}", code="sql-parse-error") from None
    if len(statements) != 1:
        raise SqlRefused(
            f"exactly one statement is allowed, got {len(statements)}", code="sql-refused", reason="statements"
        )
    statement = statements[0]
    if statement.type != duckdb.StatementType.SELECT:
        kind = statement.type.name
        raise SqlRefused(f"only SELECT (or WITH ... SELECT) is allowed, not {kind}", code="sql-refused", reason=kind)
    tree = json.loads(con.execute("SELECT json_serialize_sql(?)", [statement.query]).fetchall()[0][0])
    if tree.get("error"):
        raise SqlRefused(f"the query does not parse: {tree.get('error_message')}", code="sql-parse-error")
    tables: list[tuple[str, str, str]] = []
    functions: list[str] = []
    ctes: set[str] = set()
    _walk(tree, tables, functions, ctes)
    for name in functions:
        if name.lower() not in SAFE_TABLE_FUNCTIONS:
            raise SqlRefused(
                f"table function {name}() is not allowed: only the documented views can be read",
                code="sql-refused",
                reason="table-function",
            )
    known = views()
    used: set[str] = set()
    for catalog, schema, name in tables:
        if not catalog and not schema and name in ctes:
            continue
        if catalog or schema not in ("", "main") or name not in known:
            shown = ".".join(p for p in (catalog, schema, name) if p)
            raise SqlRefused(
                f"{shown!r} is not a documented view; the views are: {', '.join(sorted(known))}",
                code="sql-refused",
                reason="unknown-view",
            )
        used.add(name)
    return statement.query, used


def _walk(node: Any, tables: list, functions: list, ctes: set) -> None:
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "BASE_TABLE":
            tables.append((node.get("catalog_name") or "", node.get("schema_name") or "", node.get("table_name")))
        elif kind == "TABLE_FUNCTION":
            function = node.get("function") or {}
            functions.append(function.get("function_name") or "?")
        cte_map = node.get("cte_map")
        if isinstance(cte_map, dict):
            ctes.update(entry.get("key") for entry in cte_map.get("map", []) if isinstance(entry, dict))
        for value in node.values():
            _walk(value, tables, functions, ctes)
    elif isinstance(node, list):
        for value in node:
            _walk(value, tables, functions, ctes)


def run(
    read_models: "ReadModels", query: str, row_limit: int = ROW_LIMIT, time_limit_s: float = TIME_LIMIT_S
) -> SqlAnswer:
    """Run one read-only query over the documented views; raises SqlRefused."""
    row_limit = max(1, min(row_limit, MAX_ROW_LIMIT))
    con = sandbox()
    source = read_models.log.cursor()
    timer = threading.Timer(time_limit_s, lambda: (con.interrupt(), source.interrupt()))
    started = time.perf_counter()
    try:
        text, used = check(con, query)
        read_models.refresh()
        timer.start()
        known = views()
        for name in sorted(used):
            con.register(name, _snapshot(source, known[name][0]))
        try:
            result = con.execute(f"SELECT * FROM (\n{text}\n) AS q LIMIT {row_limit + 1}")
            columns = [d[0] for d in result.description]
            types = [str(d[1]) for d in result.description]
            rows = result.fetchall()
        except duckdb.InterruptException:
            raise SqlRefused(
                f"the query ran past its time limit of {time_limit_s:g} s and was stopped",
                code="sql-timeout",
                time_limit_s=time_limit_s,
            ) from None
        except duckdb.PermissionException as exc:
            raise SqlRefused(f"refused: {_first_line(exc)}", code="sql-refused", reason="permission") from None
        except duckdb.Error as exc:
            raise SqlRefused(f"the query failed: {_first_line(exc)}", code="sql-error") from None
    except duckdb.InterruptException:  # while copying the views
        raise SqlRefused(
            f"the query ran past its time limit of {time_limit_s:g} s and was stopped",
            code="sql-timeout",
            time_limit_s=time_limit_s,
        ) from None
    finally:
        timer.cancel()
        con.close()
        source.close()
    truncated = len(rows) > row_limit
    return SqlAnswer(
        columns, types, [list(r) for r in rows[:row_limit]], truncated, (time.perf_counter() - started) * 1000
    )


def _snapshot(source: duckdb.DuckDBPyConnection, select: str) -> pa.Table:
    return source.sql(select).to_arrow_table()


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
