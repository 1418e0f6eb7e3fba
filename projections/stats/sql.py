"""Read-only SQL over the documented views, in a sandbox.

The service holds its DuckDB file open read-write, so a query never runs there. Before anything
runs, DuckDB's own parser must find exactly one SELECT statement that reads only documented views
(or its own CTEs) and no table function but ``unnest`` / ``range`` / ``generate_series``. Each
query then runs in a process of its own (forked from a clean fork server: no handle on the
service's database) in a fresh in-memory DuckDB with external access disabled (no files, no
ATTACH, no COPY target, no extension installed or loaded), Python replacement scans off and the
configuration locked; the views the query names are copied into it as Arrow tables from the
(refreshed) read models. That process caps its own address space (``MEMORY_LIMIT`` beyond the
views, which also catches what DuckDB's ``memory_limit`` does not count, such as one huge string)
and is killed at the time limit; at most ``row_limit`` rows and ``byte_limit`` bytes of JSON come
back, and at most ``SANDBOXES`` such processes run at once.

What the views hold follows the one rule of who sees what (``api/http/auth.py``): a game in progress
shows its public view and nothing more, so it appears only as its ``games`` row (players, options,
status, rounds, moves so far); every other view holds ended games only (``ENDED_GAMES``).
"""

from __future__ import annotations

import base64
import json
import multiprocessing
import resource
import signal
import threading
import time
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any
from uuid import UUID

import duckdb
import msgspec
import pyarrow as pa

from events.errors import SqlBusy, SqlRefused
from projections.stats import models

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from projections.read_models import ReadModels

ROW_LIMIT = 1_000
MAX_ROW_LIMIT = 10_000
TIME_LIMIT_S = 5.0
#: bytes a query may use (DuckDB's ``memory_limit`` and the sandbox process's address space)
MEMORY_LIMIT = 1_000_000_000
#: address space beyond MEMORY_LIMIT for what DuckDB allocates besides its buffers and for the answer
MEMORY_MARGIN = 256 * 2**20
#: bytes of JSON rows an answer may carry
BYTE_LIMIT = 8 * 2**20
#: sandbox processes running at once (each may use MEMORY_LIMIT + MEMORY_MARGIN)
SANDBOXES = 2
#: queries waiting for a sandbox at once; more get ``sql-busy`` at once rather than hold a server thread
WAITING = 4
#: table functions that read nothing outside the query
SAFE_TABLE_FUNCTIONS = frozenset({"unnest", "range", "generate_series"})

SANDBOX_CONFIG = {
    "temp_directory": "",  # nothing spills to disk: what a query holds counts against its memory
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "python_enable_replacements": False,  # no reading Python variables by name
    "memory_limit": f"{MEMORY_LIMIT}B",
    "threads": 2,
}
#: run on the new connection in this order (DuckDB refuses temp_directory once external access is off)
SANDBOX_LOCKS = (
    "SET enable_progress_bar = false",
    "SET enable_external_access = false",  # no files, no ATTACH, no COPY target, no extension
    "SET lock_configuration = true",  # last: nothing above can be changed afterwards
)

#: the shared views: name -> (SELECT over the read models, what a row is)
SHARED_VIEWS: dict[str, tuple[str, str]] = {
    "games": (
        "SELECT g.game_id, g.title, g.players, f.options, g.status, g.created_at, g.ended_at, g.duration_s, "
        "f.rounds, f.moves, f.first_seat, g.parent_id, g.forked_at, g.score_only "
        "FROM games g LEFT JOIN game_facts f USING (game_id)",
        "one row per game: game_id, title, players (in seat order), options (JSON, defaults filled in), "
        "status (in-progress / ended), created_at, ended_at (UTC), duration_s, rounds, moves (effective "
        "events but creation, end and fork), first_seat, parent_id and forked_at (a fork's parent), score_only (recorded by its result alone, "
        "e.g. imported from BG Stats: no moves, no rounds, no points by source)",
    ),
    "results": (
        "SELECT r.game_id, r.seat, r.player, r.score, r.rank, r.won, f.teams[r.seat + 1] AS team, s.sources, r.score_only "
        "FROM results r LEFT JOIN game_facts f USING (game_id) LEFT JOIN ("
        "SELECT game_id, seat, map(list(source ORDER BY source), list(points ORDER BY source)) AS sources "
        "FROM score_sources GROUP BY game_id, seat) s USING (game_id, seat)",
        "one row per seat of a finished game: game_id, seat, player, score, rank (1 = best, ties share), "
        "won, team (partners share one), sources (MAP source -> points; NULL for a score-only game), score_only",
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
#: a fork server that imported this module (and DuckDB, Arrow) once: a sandbox starts in ~10 ms
_FORKS = multiprocessing.get_context("forkserver")
_FORKS.set_forkserver_preload([__name__])
_SANDBOXES = threading.BoundedSemaphore(SANDBOXES)
_waiting = 0
_WAITING_LOCK = threading.Lock()
_SPARE: list[tuple[multiprocessing.process.BaseProcess, "Connection"]] = []
_SPARE_LOCK = threading.Lock()
_PARSER: duckdb.DuckDBPyConnection | None = None
_PARSER_LOCK = threading.Lock()
_json = msgspec.json.encode
_MEMORY_MESSAGE = f"the query needed more than its memory limit of {MEMORY_LIMIT / 1e9:g} GB and was stopped"


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
    con = duckdb.connect(":memory:", config=dict(SANDBOX_CONFIG))
    for statement in SANDBOX_LOCKS:
        con.execute(statement)
    return con


def _parser() -> duckdb.DuckDBPyConnection:
    """One sandbox kept for parsing (``check`` runs nothing of the query): a connection costs ~15 ms."""
    global _PARSER
    with _PARSER_LOCK:
        if _PARSER is None:
            _PARSER = sandbox()
        return _PARSER


def check(con: duckdb.DuckDBPyConnection, query: str) -> tuple[str, set[str]]:
    """The one SELECT statement of ``query`` and the views it reads; raises SqlRefused."""
    try:
        statements = con.extract_statements(query)
    except duckdb.Error as exc:
        raise SqlRefused("the query does not parse: {first_line}", params=dict(first_line=_first_line(exc)), code="sql-parse-error") from None
    if len(statements) != 1:
        raise SqlRefused(
            "exactly one statement is allowed, got {n_statements}", params=dict(n_statements=len(statements)), code="sql-refused", reason="statements"
        )
    statement = statements[0]
    if statement.type != duckdb.StatementType.SELECT:
        kind = statement.type.name
        raise SqlRefused("only SELECT (or WITH ... SELECT) is allowed, not {kind}", params=dict(kind=kind), code="sql-refused", reason=kind)
    tree = json.loads(con.execute("SELECT json_serialize_sql(?)", [statement.query]).fetchall()[0][0])
    if tree.get("error"):
        raise SqlRefused("the query does not parse: {get}", params=dict(get=tree.get('error_message')), code="sql-parse-error")
    tables: list[tuple[str, str, str]] = []
    functions: list[str] = []
    ctes: set[str] = set()
    _walk(tree, tables, functions, ctes)
    for name in functions:
        if name.lower() not in SAFE_TABLE_FUNCTIONS:
            raise SqlRefused(
                "table function {name}() is not allowed: only the documented views can be read", params=dict(name=name),
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
                "{shown!r} is not a documented view; the views are: {known}", params=dict(shown=shown, known=', '.join(sorted(known))),
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
    read_models: "ReadModels",
    query: str,
    row_limit: int = ROW_LIMIT,
    time_limit_s: float = TIME_LIMIT_S,
    byte_limit: int = BYTE_LIMIT,
) -> SqlAnswer:
    """Run one read-only query over the documented views in a sandbox process; raises SqlRefused."""
    row_limit = max(1, min(row_limit, MAX_ROW_LIMIT))
    started = time.perf_counter()
    con = _parser().cursor()
    try:
        text, used = check(con, query)
    finally:
        con.close()
    read_models.refresh()
    deadline = time.monotonic() + time_limit_s
    if not _wait_for_sandbox(deadline):
        raise SqlBusy(
            "every SQL sandbox is busy ({sandboxes} queries run at once, {waiting} may wait) and none was free in time for this query's time limit of {time_limit_s:g} s; try again shortly", params=dict(sandboxes=SANDBOXES, waiting=WAITING, time_limit_s=time_limit_s),
            sandboxes=SANDBOXES,
        )
    try:
        outcome = _in_sandbox(read_models, text, used, row_limit, byte_limit, deadline)
    finally:
        _SANDBOXES.release()
    if outcome is None:
        raise SqlRefused(
            "the query ran past its time limit of {time_limit_s:g} s and was stopped", params=dict(time_limit_s=time_limit_s),
            code="sql-timeout",
            time_limit_s=time_limit_s,
        )
    if outcome[0] == "refused":
        _, code, message, details, *params = outcome  # a refusal of ours comes with its template's params
        raise SqlRefused(message, code=code, params=params[0] if params else None, **details)
    _, columns, types, rows = outcome
    truncated = len(rows) > row_limit
    return SqlAnswer(columns, types, rows[:row_limit], truncated, (time.perf_counter() - started) * 1000)


def _wait_for_sandbox(deadline: float) -> bool:
    """Take a sandbox slot with time left before ``deadline``; False at once if ``WAITING``
    queries already wait."""
    global _waiting
    if _SANDBOXES.acquire(blocking=False):
        return True
    with _WAITING_LOCK:
        if _waiting >= WAITING:
            return False
        _waiting += 1
    try:
        if not _SANDBOXES.acquire(timeout=max(0.0, deadline - time.monotonic() - 0.05)):
            return False
    finally:
        with _WAITING_LOCK:
            _waiting -= 1
    if time.monotonic() < deadline - 0.05:
        return True
    _SANDBOXES.release()
    return False


def _in_sandbox(
    read_models: "ReadModels",
    text: str,
    used: set[str],
    row_limit: int,
    byte_limit: int,
    deadline: float,
) -> tuple | None:
    """What the sandbox process answers (see ``_sandboxed``), or None if it ran past ``deadline``."""
    process, ours = _sandbox_process()
    source = read_models.log.cursor()
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), source.interrupt)
    try:
        timer.start()
        known = views()
        try:
            ours.send((text, row_limit, byte_limit, deadline - time.monotonic()))
            for name in sorted(used):
                _send_view(ours, name, _snapshot(source, known[name][0]))
            ours.send(None)
        except duckdb.InterruptException:
            return None
        except (BrokenPipeError, ConnectionResetError):
            pass  # the process died; what it said, if anything, is read below
        if not ours.poll(max(0.0, deadline - time.monotonic())):
            return None
        try:
            return ours.recv()
        except (EOFError, ConnectionResetError):
            process.join(1)
            if process.exitcode == -signal.SIGALRM:
                return None
            return ("refused", "sql-error", _died(process.exitcode), {})
    finally:
        timer.cancel()
        source.close()
        ours.close()
        if process.is_alive():
            process.kill()
        process.join()
        process.close()
        _start_spare()


def _sandbox_process() -> tuple[multiprocessing.process.BaseProcess, "Connection"]:
    """A sandbox process (and our end of its pipe) that waits for a query: the one started ahead
    (its DuckDB already open), else a new one."""
    with _SPARE_LOCK:
        ahead = _SPARE.pop() if _SPARE else None
    if ahead is not None and ahead[0].is_alive():
        return ahead
    return _start_sandbox()


def _start_spare() -> None:
    """Start the sandbox process for the next query ahead, so it opens its DuckDB off that query's path."""
    with _SPARE_LOCK:
        if not _SPARE:
            _SPARE.append(_start_sandbox())


def _start_sandbox() -> tuple[multiprocessing.process.BaseProcess, "Connection"]:
    ours, theirs = _FORKS.Pipe()
    process = _FORKS.Process(target=_sandboxed, args=(theirs,), name="tabletape-sql", daemon=True)
    process.start()
    theirs.close()
    return process, ours


def _send_view(conn: "Connection", name: str, table: pa.Table) -> None:
    """``name`` and its rows as an Arrow IPC stream, in pieces (no second copy of the table here)."""
    conn.send(name)
    with pa.ipc.new_stream(_Sender(conn), table.schema) as writer:
        writer.write_table(table)
    conn.send_bytes(b"")


class _Sender:
    """A write-only file that sends each write over a pipe, for ``pa.ipc.new_stream``."""

    closed = False

    def __init__(self, conn: "Connection") -> None:
        self.conn = conn

    def write(self, data: Any) -> int:
        self.conn.send_bytes(data)
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def _sandboxed(conn: "Connection") -> None:
    """The sandbox process: opens its DuckDB, waits for one query, takes the views, caps its own
    memory, runs the query, sends the answer: ``("answer", columns, types, rows)`` or
    ``("refused", code, message, details)``. The kernel ends it at the query's deadline (SIGALRM,
    default action) even inside DuckDB and even if the server is gone; the server kills it too."""
    con = sandbox()
    try:
        text, row_limit, byte_limit, seconds = conn.recv()
    except EOFError:  # the server stopped before it needed this one
        return
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        outcome = _answer(con, conn, text, row_limit, byte_limit)
    except SqlRefused as exc:
        if exc.template is not None:
            outcome = ("refused", exc.code, exc.template, exc.details, exc.params)
        else:
            outcome = ("refused", exc.code, exc.message, exc.details)
    except EOFError:  # the server gave up on it
        return
    except (MemoryError, duckdb.OutOfMemoryException):
        # handled here, once the frames holding what was built are gone, so the refusal fits
        outcome = ("refused", "sql-memory-limit", _MEMORY_MESSAGE, {"memory_limit_bytes": MEMORY_LIMIT})
    conn.send(outcome)


def _answer(con: duckdb.DuckDBPyConnection, conn: "Connection", text: str, row_limit: int, byte_limit: int) -> tuple:
    while (name := conn.recv()) is not None:
        con.register(name, _received_view(conn))
    _cap_memory()
    try:
        result = con.execute(f"SELECT * FROM (\n{text}\n) AS q LIMIT {row_limit + 1}")
        columns = [d[0] for d in result.description]
        types = [str(d[1]) for d in result.description]
        return ("answer", columns, types, _fetch(result, row_limit, byte_limit))
    except duckdb.OutOfMemoryException:
        raise
    except duckdb.PermissionException as exc:
        raise SqlRefused("refused: {first_line}", params=dict(first_line=_first_line(exc)), code="sql-refused", reason="permission") from None
    except duckdb.Error as exc:
        raise SqlRefused("the query failed: {first_line}", params=dict(first_line=_first_line(exc)), code="sql-error") from None


def _received_view(conn: "Connection") -> pa.Table:
    pieces = []
    while piece := conn.recv_bytes():
        pieces.append(piece)
    return pa.ipc.open_stream(pa.py_buffer(b"".join(pieces))).read_all()


def _cap_memory() -> None:
    """At most ``MEMORY_LIMIT`` (+ margin) more address space from now on, so that what DuckDB's
    own limit does not count (one huge string, a list) fails to allocate instead of growing."""
    with open("/proc/self/status") as status:
        size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    cap = size + MEMORY_LIMIT + MEMORY_MARGIN
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _fetch(result: duckdb.DuckDBPyConnection, row_limit: int, byte_limit: int) -> list[list[Any]]:
    """Up to ``row_limit + 1`` rows as JSON values, refused once their JSON passes ``byte_limit``.
    Fetched a few at a time (as many as still fit at the mean row size so far) so that building
    the answer stays within the memory it is allowed."""
    rows: list[list[Any]] = []
    size, batch = 0, 1
    while len(rows) <= row_limit and (chunk := result.fetchmany(batch)):
        for raw in chunk:
            row = [jsonable(v) for v in raw]
            size += len(_json(row)) + 1
            if size > byte_limit:
                raise SqlRefused(
                    "the answer is larger than the limit of {size}: ask for fewer rows (row_limit, LIMIT) or smaller columns", params=dict(size=_size(byte_limit)),
                    code="sql-result-too-large",
                    byte_limit=byte_limit,
                )
            rows.append(row)
        batch = max(1, min(1024, (byte_limit - size) * len(rows) // max(size, 1)))
    return rows


def jsonable(value: Any) -> Any:
    """A DuckDB value as JSON: times as ISO text, bytes as base64, maps as objects."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return str(value)


def _size(n: int) -> str:
    return f"{n / 2**20:g} MiB" if n >= 2**20 else f"{n:,} bytes"


def _died(exitcode: int | None) -> str:
    how = f"killed by {signal.Signals(-exitcode).name}" if exitcode and exitcode < 0 else f"exit code {exitcode}"
    return f"the query's sandbox process stopped ({how}), most likely at its memory limit of {MEMORY_LIMIT / 1e9:g} GB"


def _snapshot(source: duckdb.DuckDBPyConnection, select: str) -> pa.Table:
    return source.sql(select).to_arrow_table()


def _first_line(exc: BaseException, most: int = 1_000) -> str:
    """The error's first line, cut at ``most`` characters: DuckDB quotes values (a cast of a
    50 MB string quotes all of it)."""
    text = str(exc)[: most + 1].strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    return line if len(line) <= most else line[:most] + "…"
