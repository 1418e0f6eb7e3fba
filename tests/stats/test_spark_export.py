"""Spark on the Parquet export, for real: PySpark in local mode (one JVM, no network, no UI)
reads ``tabletape export --format parquet DIR`` of seeded random games of Lost Cities and Marco
Polo as it is, and computes the leaderboard and the win rate by character; they are exactly the
service's answers (``GET /stats/leaderboard``, ``GET /stats/marco-polo/characters``).

Slow (60-100 s on a busy 2-core machine); it runs in CI, where ``.ci/run`` installs Java when it is missing.
Without Java it is skipped, saying so."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from statsdata import marco_polo
from typer.testing import CliRunner

from api.http.app import create_app
from api.cli.main import app
from api.http.settings import Settings
from events.duckdb_log import DuckDBEventLog
from events.log import new_game_id

pytestmark = pytest.mark.slow
pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[test]')")


def java() -> str | None:
    """The java Spark would start: $JAVA_HOME's, else the one on PATH."""
    home = os.environ.get("JAVA_HOME")
    if home and Path(home, "bin", "java").is_file():
        return str(Path(home, "bin", "java"))
    return shutil.which("java")


if java() is None:
    pytest.skip("no Java: Spark needs a JRE 17+ (apt-get install default-jre-headless; .ci/run does)",
                allow_module_level=True)

#: extra Marco Polo games, so that every character has seats to compare
MORE_MARCO_POLO = range(10, 18)

LEADERBOARD = """
    SELECT r.player, count(*) AS games, count_if(r.won) AS wins, count_if(r.won) / count(*) AS win_rate,
           avg(r.score) AS avg_score, max(r.score) AS best_score, min(r.score) AS worst_score
    FROM results r JOIN games g ON g.game_id = r.game_id
    WHERE g.parent_id IS NULL
    GROUP BY r.player ORDER BY win_rate DESC, games DESC, r.player"""

CHARACTERS = """
    SELECT x.character, count(*) AS seats, count_if(x.won) AS wins, count_if(x.won) / count(*) AS win_rate,
           avg(x.score) AS avg_score, avg(x.rank) AS avg_rank
    FROM marco_polo_seats x
    WHERE x.title = 'marco-polo' AND NOT x.forked
    GROUP BY x.character ORDER BY win_rate DESC, x.character"""


@pytest.fixture(scope="module")
def exported(seeded_db, tmp_path_factory) -> dict:
    """The seeded store with more Marco Polo games: the service's answers, then its Parquet export."""
    folder = tmp_path_factory.mktemp("spark")
    db = folder / "club.duckdb"
    shutil.copy(seeded_db, db)
    shutil.copy(f"{seeded_db}.key", f"{db}.key")
    log = DuckDBEventLog(str(db))
    log.import_games([(new_game_id(), marco_polo(seed)) for seed in MORE_MARCO_POLO])
    log.close()
    with TestClient(create_app(Settings(db_path=str(db)))) as client:
        leaderboard = client.get("/stats/leaderboard", params={"limit": 1000}).json()["rows"]
        characters = client.get("/stats/marco-polo/characters").json()["rows"]
    out = folder / "export"
    result = CliRunner().invoke(app, ["export", "--format", "parquet", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return {"dir": out, "leaderboard": leaderboard, "characters": characters, "ivy": folder / "ivy"}


@pytest.fixture(scope="module")
def spark(exported):
    """One local Spark for the module: one core, one shuffle partition, no UI, bound to loopback."""
    from pyspark.sql import SparkSession

    os.environ.pop("PYSPARK_SUBMIT_ARGS", None)  # nothing of the caller's (no --packages)
    session = (
        SparkSession.builder.master("local[1]")
        .appName("tabletape-export")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.default.parallelism", "1")
        .config("spark.jars.ivy", str(exported["ivy"]))  # where a package fetch would write
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")  # month stays text
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def steady(rows) -> list[dict]:
    """Spark's rows as the service words them: floats to 12 significant digits (as
    ``projections.stats.questions`` rounds DuckDB's), the same keys in the same order."""
    return [{k: float(f"{v:.12g}") if isinstance(v, float) else v for k, v in row.asDict().items()} for row in rows]


def views(spark, folder: Path, *names: str) -> None:
    """Each exported view as it lies on disk (``title=`` / ``month=`` folders become columns)."""
    for name in names:
        spark.read.parquet(str(folder / name)).createOrReplaceTempView(name)


def test_spark_computes_the_services_leaderboard_from_the_export(spark, exported):
    views(spark, exported["dir"], "results", "games")
    rows = steady(spark.sql(LEADERBOARD).collect())
    assert rows == exported["leaderboard"]
    assert len(rows) == 4 and sum(r["games"] for r in rows) > 50


def test_spark_computes_the_services_win_rate_by_character_from_the_export(spark, exported):
    views(spark, exported["dir"], "marco_polo_seats")
    rows = steady(spark.sql(CHARACTERS).collect())
    assert rows == exported["characters"]
    assert len(rows) >= 5 and all(0 <= r["win_rate"] <= 1 for r in rows)


def test_spark_fetched_nothing(spark, exported):
    """No package came from a repository: nothing asked for one, and Ivy's folder was never made."""
    conf = spark.sparkContext.getConf()
    assert not conf.get("spark.jars.packages", "") and not conf.get("spark.jars.repositories", "")
    assert not exported["ivy"].exists()
    assert subprocess.run([java(), "-version"], capture_output=True).returncode == 0
