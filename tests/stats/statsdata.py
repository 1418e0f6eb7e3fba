"""Seeded random games for the statistics tests, imported on days a test can filter on."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import rules  # noqa: F401  (registers every title's events)
from events.duckdb_log import DuckDBEventLog
from events.log import new_game_id
from replay.simulate import random_game

NAMES = ("Ana", "Bea", "Carl", "Dana")
LC_GAMES = 24
MP_GAMES = 4


def lost_cities(seed: int) -> list:
    rng = random.Random(seed)
    players = tuple(rng.sample(NAMES, 2))
    options = {"rounds": 2 + seed % 2, "first_seat": seed % 2}
    if seed % 6 == 0:
        options["expeditions"] = 6
    return random_game("lost-cities", players, options, seed=seed, policy=_deck_often)


def marco_polo(seed: int) -> list:
    rng = random.Random(seed)
    players = tuple(rng.sample(NAMES, 2 + seed % 2))
    return random_game("marco-polo", players, {"characters": "chosen"}, seed=seed)


def _deck_often(moves: list, rng: random.Random):
    deck = [m for m in moves if getattr(m, "source", None) == "deck"]
    return deck[0] if deck and rng.random() < 0.8 else moves[rng.randrange(len(moves))]


class Clock:
    """A clock the tests move: games get different creation days."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 10, 12, 0)

    def __call__(self) -> datetime:
        return self.now


def fill(log: DuckDBEventLog, clock: Clock) -> list[str]:
    """Import the seeded games: Lost Cities in January, Marco Polo in February."""
    ids = []
    for seed in range(LC_GAMES):
        clock.now = datetime(2026, 1, 10, 12, 0) + timedelta(hours=seed)
        ids.append(new_game_id())
        log.import_games([(ids[-1], lost_cities(seed))])
    for seed in range(MP_GAMES):
        clock.now = datetime(2026, 2, 3, 18, 0) + timedelta(hours=seed)
        ids.append(new_game_id())
        log.import_games([(ids[-1], marco_polo(seed))])
    return ids


def tables(con, names) -> dict[str, list[tuple]]:
    return {name: con.execute(f"SELECT * FROM {name} ORDER BY ALL").fetchall() for name in names}
