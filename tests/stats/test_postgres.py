"""Statistics on a PostgreSQL store: the same games answer every question as on DuckDB, and
export the same Parquet files."""

from __future__ import annotations

import os
import shutil

import duckdb
from test_parquet import every_answer, view_rows

from api.formats.jsonl import check_games
from events.stores import open_log
from projections.projector import Projector
from projections.stats import parquet
from projections.stats.questions import Questions


def dataset(folder) -> dict[str, list[tuple]]:
    """Every table of an export, read back whole (with its partition columns) in a fixed order."""
    con = duckdb.connect()
    return {
        table.name: con.execute(
            f"SELECT * FROM read_parquet('{table}/**/*.parquet', hive_partitioning = true) ORDER BY ALL"
        ).fetchall()
        for table in sorted(folder.iterdir())
        if table.is_dir()
    }


def test_the_seeded_games_on_postgresql_answer_and_export_exactly_as_on_duckdb(layers, db_path, postgres_db, tmp_path):
    _, projector, _ = layers
    duck = tmp_path / "duckdb-export"
    duck_report = parquet.export(projector.read_models, duck)
    # the same key as the DuckDB store: the events' anchors (the mac column) come out the same
    shutil.copy(f"{db_path}.key", os.environ["TABLETAPE_SECRET_FILE"])
    pg = open_log(postgres_db)
    try:
        models = Projector(pg).read_models
        parquet.restore(models, duck, check=check_games)
        assert every_answer(Questions(models)) == every_answer(Questions(projector.read_models))
        assert view_rows(models) == view_rows(projector.read_models)
        exported = tmp_path / "postgresql-export"
        report = parquet.export(models, exported)
        assert report == duck_report
        assert sorted(p.relative_to(exported) for p in exported.rglob("*") if p.is_dir()) == sorted(
            p.relative_to(duck) for p in duck.rglob("*") if p.is_dir()
        )
        assert dataset(exported) == dataset(duck)
    finally:
        pg.close()
