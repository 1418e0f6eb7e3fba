"""Parquet export (hive partitions by title and month, readable by plain DuckDB) and import into an
empty store, which then answers every statistic exactly as the store it came from."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from api.formats.jsonl import check_games
from events.duckdb_log import DuckDBEventLog
from events.errors import GameExists
from projections.projector import Projector
from projections.stats import parquet
from projections.stats.questions import Filters, Questions
from projections.stats.sql import views


def every_answer(ask: Questions) -> dict:
    lc, mp = Filters(title="lost-cities"), Filters(title="marco-polo")
    return {
        "leaderboard": ask.leaderboard(Filters()),
        "january": ask.leaderboard(Filters(date_to=__import__("datetime").datetime(2026, 2, 1))),
        "h2h": ask.head_to_head(Filters()),
        "seats": [ask.seats(lc), ask.seats(mp)],
        "scores": [ask.scores(lc), ask.scores(mp)],
        "sources": [ask.sources(lc), ask.sources(mp)],
        **{name: ask.title_question(lc, name) for name in ("wagers", "bonus", "rounds")},
        **{name: ask.title_question(mp, name) for name in ("characters", "beijing", "contracts")},
    }


def view_rows(read_models) -> dict:
    con = read_models.log.cursor()
    return {name: con.execute(f"SELECT * FROM ({select}) ORDER BY ALL").fetchall() for name, (select, _) in views().items()}


def test_export_then_import_reproduces_every_statistic(layers, tmp_path):
    log, projector, _ = layers
    folder = tmp_path / "export"
    report = parquet.export(projector.read_models, folder)
    assert report.events == log.con.execute("SELECT count(*) FROM events").fetchall()[0][0]
    assert (folder / "events" / "title=lost-cities" / "month=2026-01").is_dir()
    assert (folder / "events" / "title=marco-polo" / "month=2026-02").is_dir()
    assert (folder / "lost_cities_expeditions" / "title=lost-cities" / "month=2026-01").is_dir()
    # as-is for any reader of hive-partitioned Parquet: plain DuckDB here
    plain = duckdb.connect()
    counts = plain.execute(
        f"SELECT title, month, count(*) FROM read_parquet('{folder}/games/**/*.parquet', hive_partitioning = true) "
        "GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert [(t, m) for t, m, _ in counts] == [("lost-cities", "2026-01"), ("marco-polo", "2026-02")]

    empty = DuckDBEventLog(str(tmp_path / "empty.duckdb"))
    try:
        restored = Projector(empty).read_models
        games, events = parquet.restore(restored, folder, check=check_games)
        assert (games, events) == (report.games, report.events)
        assert every_answer(Questions(restored)) == every_answer(Questions(projector.read_models))
        assert view_rows(restored) == view_rows(projector.read_models)
        assert all(empty.verify(gid).ok for gid in empty.game_ids()[:5])
        with pytest.raises(GameExists):
            parquet.restore(restored, folder)  # the same games twice: refused, nothing written
        assert empty.con.execute("SELECT count(*) FROM events").fetchall()[0][0] == events
    finally:
        empty.close()


def test_a_tampered_export_is_refused(layers, tmp_path):
    _, projector, _ = layers
    folder = tmp_path / "export"
    parquet.export(projector.read_models, folder)
    con = duckdb.connect()
    files = sorted(Path(folder, "events").glob("title=marco-polo/**/*.parquet"))
    con.execute(
        f"COPY (SELECT * REPLACE (CASE WHEN seq = 2 THEN 'someone else' ELSE actor END AS actor) "
        f"FROM read_parquet('{files[0]}')) TO '{files[0]}.tmp' (FORMAT parquet)"
    )
    Path(f"{files[0]}.tmp").replace(files[0])
    empty = DuckDBEventLog(str(tmp_path / "empty.duckdb"))
    try:
        with pytest.raises(parquet.ParquetImportRefused, match="hash chain"):
            parquet.restore(Projector(empty).read_models, folder)
        assert empty.con.execute("SELECT count(*) FROM events").fetchall()[0][0] == 0
    finally:
        empty.close()
