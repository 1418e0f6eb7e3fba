"""Parquet export and import, partitioned hive-style by title and month of the game's creation.

``DIR/events/title=lost-cities/month=2026-11/*.parquet`` holds the log itself (every column,
hashes included), and ``DIR/<view>/title=.../month=.../`` each documented view (``games``,
``results``, ``moves``, the titles' tables), so DuckDB, Spark or Trino read the statistics
without tabletape. Importing puts the exported events back unchanged (times, actors, hash
chains) after checking every chain, so an empty store that imports an export answers every
statistic exactly as the store it came from.

An export holds the ended games only: a game in progress shows its public view and no more, and
its log holds what that view hides (a digital shuffle, hands, objectives, goal cards). It is
exported once it has ended (``ENDED_GAMES``, the rule of the SQL views).

``DIR/packs/packs.parquet`` holds the content packs the exported games pin (``title``, ``id``,
``hash``, ``pack`` as JSON), so that the games import into an empty store and replay the same.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import pyarrow as pa
import pyarrow.parquet as pq

from events import codec
from events.base import Event
from events.errors import MalformedEvent, TabletapeError
from events.log import GENESIS_HASH, micros
from projections.stats.sql import ENDED_GAMES, views

if TYPE_CHECKING:
    from projections.read_models import ReadModels

EVENT_COLUMNS = (
    "game_id", "seq", "recorded_at", "actor", "type", "body", "body_json", "prev_hash", "hash", "idempotency_key",
)
PARTITION = "strftime(created_at, '%Y-%m')"


class ParquetImportRefused(TabletapeError):
    code = "import-refused"
    status = 422


@dataclass(frozen=True, slots=True)
class ExportReport:
    games: int
    events: int
    tables: dict[str, int]
    #: games in progress, left out
    in_progress: int = 0


def _quote(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def export(read_models: "ReadModels", folder: str | Path) -> ExportReport:
    """Write the log and every documented view of the ended games under ``folder`` (replacing an
    earlier export)."""
    read_models.refresh()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    con = read_models.log.cursor()
    try:
        # every table is joined to this: nothing of a game in progress is written
        where = f"(SELECT game_id, title, {PARTITION} AS month FROM games WHERE game_id IN ({ENDED_GAMES}))"
        counts = {}
        sources = {"events": "SELECT * FROM events", **{name: select for name, (select, _) in views().items()}}
        for name, select in sources.items():
            columns = [c[0] for c in con.execute(f"DESCRIBE {select}").fetchall()]
            keep = ", ".join(f'v."{c}"' for c in columns if c not in ("title", "month"))
            query = f"SELECT {keep}, p.title, p.month FROM ({select}) v JOIN {where} p USING (game_id)"
            counts[name] = con.execute(f"SELECT count(*) FROM ({query})").fetchall()[0][0]
            if counts[name]:
                con.execute(
                    f"COPY ({query}) TO {_quote(folder / name)} "
                    "(FORMAT parquet, PARTITION_BY (title, month), OVERWRITE true)"
                )
            else:  # an earlier export's files may hold a game since undone back into play
                shutil.rmtree(folder / name, ignore_errors=True)
        games, every = con.execute(f"SELECT (SELECT count(*) FROM {where}), (SELECT count(*) FROM games)").fetchall()[0]
    finally:
        con.close()
    return ExportReport(games, counts["events"], counts, every - games)


def ended_game_ids(read_models: "ReadModels") -> list[str]:
    con = read_models.log.cursor()
    try:
        return [r[0] for r in con.execute(f"SELECT game_id FROM games WHERE game_id IN ({ENDED_GAMES})").fetchall()]
    finally:
        con.close()


def export_packs(folder: str | Path, packs: list[tuple[str, str, str, dict]]) -> int:
    """Write ``(title, id, hash, data)`` of each pack to ``DIR/packs/packs.parquet`` (none: no file)."""
    target = Path(folder) / "packs"
    shutil.rmtree(target, ignore_errors=True)
    if not packs:
        return 0
    target.mkdir(parents=True)
    columns = list(zip(*packs))
    table = pa.table({
        "title": list(columns[0]), "id": list(columns[1]), "hash": list(columns[2]),
        "pack": [json.dumps(d, ensure_ascii=False, sort_keys=True) for d in columns[3]],
    })
    pq.write_table(table, target / "packs.parquet")
    return len(packs)


def read_packs(folder: str | Path) -> list[tuple[str, str, dict]]:
    """``(title, hash, data)`` of the packs an export carries."""
    path = Path(folder) / "packs" / "packs.parquet"
    if not path.exists():
        return []
    try:
        table = pq.read_table(path)
        return [(t, h, json.loads(p)) for t, h, p in zip(*(table.column(c).to_pylist() for c in ("title", "hash", "pack")))]
    except (KeyError, ValueError, TypeError, OSError, pa.ArrowException) as exc:
        raise ParquetImportRefused("{path}: not a pack table ({exc})", params=dict(path=path, exc=exc)) from exc


def read_events(read_models: "ReadModels", folder: str | Path) -> pa.Table:
    """The exported events, in game and seq order."""
    files = Path(folder) / "events" / "**" / "*.parquet"
    if not list((Path(folder) / "events").glob("**/*.parquet")):
        raise ParquetImportRefused("{folder} holds no exported events (events/title=.../month=.../*.parquet)", params=dict(folder=folder))
    con = read_models.log.cursor()
    try:
        columns = ", ".join(EVENT_COLUMNS)
        return con.sql(
            f"SELECT {columns} FROM read_parquet({_quote(files)}, hive_partitioning = true) ORDER BY game_id, seq"
        ).to_arrow_table()
    finally:
        con.close()


def games_of(table: pa.Table) -> list[tuple[str, list[Event]]]:
    """Whole games from the exported rows, each checked: seqs from 1 without a gap, bodies decode,
    hash chains intact."""
    ids = table.column("game_id").to_pylist()
    seqs = table.column("seq").to_pylist()
    ats = table.column("recorded_at").to_pylist()
    actors = table.column("actor").to_pylist()
    bodies = table.column("body").to_pylist()
    prevs = table.column("prev_hash").to_pylist()
    hashes = table.column("hash").to_pylist()
    games: list[tuple[str, list[Event]]] = []
    current, prev, events = None, GENESIS_HASH, []
    for i, game_id in enumerate(ids):
        if game_id != current:
            current, prev, events = game_id, GENESIS_HASH, []
            games.append((game_id, events))
        seq = seqs[i]
        if seq != len(events) + 1:
            raise ParquetImportRefused("game {game_id}: seq {seq} follows {n_events}", params=dict(game_id=game_id, seq=seq, n_events=len(events)), game_id=game_id)
        digest = hashlib.sha256(
            b"".join(
                (
                    prev, game_id.encode(), b"\x00", seq.to_bytes(8, "big"),
                    micros(ats[i]).to_bytes(8, "big", signed=True), actors[i].encode(), b"\x00", bodies[i],
                )
            )
        ).digest()
        if prevs[i] != prev or hashes[i] != digest:
            raise ParquetImportRefused(
                "game {game_id}: seq {seq} does not match its hash chain", params=dict(game_id=game_id, seq=seq), game_id=game_id, breaking_seq=seq
            )
        try:
            events.append(codec.decode(bodies[i]))
        except MalformedEvent as exc:
            raise ParquetImportRefused("game {game_id}: seq {seq}: {message_}", params=dict(game_id=game_id, seq=seq, message_=exc), game_id=game_id) from exc
        prev = digest
    return games


def restore(
    read_models: "ReadModels",
    folder: str | Path,
    check: Callable[[list[tuple[str, list[Event]]]], None] | None = None,
) -> tuple[int, int]:
    """Add the exported games to the log unchanged (all or nothing); returns (games, events).

    ``check`` may refuse the games (e.g. the rules check of the JSONL import) before anything is
    written. The statistics catch up on their next refresh.
    """
    table = read_events(read_models, folder)
    games = games_of(table)
    if check is not None:
        check(games)
    read_models.log.restore(table)
    return len(games), table.num_rows
