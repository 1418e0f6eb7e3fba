"""Two processes of one PostgreSQL store (two workers) defining a season of one name at the same
moment: one season is stored, the other is refused by the name rule, as in one process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WORKER = """
import json, sys, time
import rules  # noqa: F401  (the titles a season names)
from events.errors import TabletapeError
from events.stores import open_log
from projections.projector import Projector
from projections.seasons import Seasons
from replay import seasons as write

dsn, start, name = sys.argv[1], float(sys.argv[2]), sys.argv[3]
log = open_log(dsn)
seasons = Seasons(log, Projector(log).read_models)
seasons.all()  # connected and warm before the start
time.sleep(max(0.0, start - time.time()))
try:
    season = write.define(seasons, name, ["lost-cities"], "2026-01-01", "2026-12-31", ["Ana", "Bea"])
    print(json.dumps({"stored": season.season_id}))
except TabletapeError as exc:
    print(json.dumps({"refused": exc.code}))
finally:
    log.close()
"""


def test_two_workers_naming_one_season_at_once_store_one(postgres_db):
    """A season's name is unique in the store: "there is a season named ... already" holds across
    the processes of a PostgreSQL store, not only within one."""
    from events.stores import open_log
    from projections.projector import Projector
    from projections.seasons import Seasons

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for attempt, name in enumerate(["Spring league", "Summer league", "Autumn league"]):
        start = time.time() + 6.0  # both started, connected and waiting by then
        workers = [
            subprocess.Popen([sys.executable, "-c", WORKER, postgres_db, str(start), name], env=env, cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outcomes = []
        for worker in workers:
            out, err = worker.communicate(timeout=120)
            assert worker.returncode == 0, err[-2000:]
            outcomes.append(json.loads(out.strip().splitlines()[-1]))
        assert sorted(next(iter(o)) for o in outcomes) == ["refused", "stored"], (attempt, outcomes)
        assert {"refused": "season-name-taken"} in outcomes, (attempt, outcomes)
    log = open_log(postgres_db)
    try:
        names = [s.name for s in Seasons(log, Projector(log).read_models).all()]
    finally:
        log.close()
    assert sorted(names) == ["Autumn league", "Spring league", "Summer league"]
