"""A store of seeded random finished games of every title, over three months, for the statistics
page's browser tests."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

import rules  # noqa: F401  (registers every title's events)
from benchmarks.marco_polo_2 import table_like
from events.duckdb_log import DuckDBEventLog
from events.log import new_game_id
from replay.simulate import random_game
from rules.marco_polo_2.content import SYNTHETIC

NAMES = ("Ana", "Bea", "Carl", "Dana", "Emil")
#: per title: how many games, and their options by seed
GAMES = {
    "lost-cities": (16, lambda seed: {"rounds": 2 + seed % 2, "first_seat": seed % 2}),
    "marco-polo": (14, lambda seed: {"characters": "chosen"}),
    "marco-polo-2": (4, lambda seed: {"content": SYNTHETIC.ref, "characters": "all", "caravans": seed % 2 == 1}),
}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 19, 0)

    def __call__(self) -> datetime:
        return self.now


def seed_store(path: Path) -> int:
    """Write the seeded games into a new DuckDB file at ``path``; returns how many."""
    clock = Clock()
    log = DuckDBEventLog(str(path), clock=clock)
    count = 0
    try:
        for t, (title, (games, options)) in enumerate(GAMES.items()):
            for seed in range(games):
                rng = random.Random(f"{title}{seed}")
                players = tuple(rng.sample(NAMES, 2 if title != "marco-polo-2" else 3))
                policy = table_like if title == "marco-polo-2" else None
                events = random_game(title, players, options(seed), seed=seed, policy=policy)
                clock.now = datetime(2026, 1, 5, 19, 0) + timedelta(days=5 * seed + t, hours=t)
                log.import_games([(new_game_id(), events)])
                count += 1
    finally:
        log.close()
    return count
