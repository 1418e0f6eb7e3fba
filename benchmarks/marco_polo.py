"""Marco Polo benchmarks (issue 4, §8): `python -m benchmarks.marco_polo [--games N]`. Prints its figures.

* fold: validated Marco Polo events folded per second by ``evolve`` (target >= 50,000/s);
* legal_moves for a mid-game 4-player state (rounds 2-4, a seat about to take its main action),
  median (target <= 1 ms).
"""

from __future__ import annotations

import argparse
import random

import rules  # noqa: F401  (registers the titles' events)
from replay.simulate import random_game

from benchmarks.common import bench_legal_moves, fold_rate, row

TITLE = "marco-polo"


def table_like(moves: list, rng: random.Random):
    """Like people at a table: complete contracts, travel and take contracts often, rarely fiddle."""
    names = [type(m).__name__ for m in moves]
    for name, p in (("ContractCompleted", 0.8), ("Travelled", 0.35), ("ContractsTaken", 0.3), ("CityCardUsed", 0.5)):
        options = [m for m, n in zip(moves, names) if n == name]
        if options and rng.random() < p:
            return rng.choice(options)
    ends = [m for m, n in zip(moves, names) if n == "TurnEnded"]
    if ends and rng.random() < 0.85:
        return ends[0]
    return moves[rng.randrange(len(moves))]


def games(count: int, players: int, first_seed: int = 0) -> list[list]:
    out = []
    for seed in range(first_seed, first_seed + count):
        options = {"characters": "chosen"} if seed % 2 else {}
        out.append(random_game(TITLE, tuple("ABCD"[:players]), options, seed=seed, policy=table_like))
    return out


def bench_fold(played: list[list]) -> float:
    count, rate = fold_rate(played)
    row(f"fold: validated Marco Polo events folded per second ({count} events)", f"{rate:,.0f}/s", ">= 50,000/s", rate >= 50_000)
    return rate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="random 4-player games to fold and sample")
    args = parser.parse_args(argv)
    print(f"Marco Polo benchmarks ({args.games} random 4-player games)")
    played = games(args.games, 4)
    bench_fold(played)
    bench_legal_moves(played)


if __name__ == "__main__":
    main()
