"""Marco Polo II benchmarks (issue 5): `python -m benchmarks.marco_polo_2 [--games N]`. Prints its figures.

Games are random legal 4-player games with the INVENTED synthetic pack (the public pack cannot lay
out a digital game), half of them with the caravan expansion.

* fold: validated Marco Polo II events folded per second by ``evolve`` (target >= 50,000/s);
* legal_moves for mid-game 4-player states (rounds 2-4, a seat about to take its main action),
  median (target <= 1 ms).
"""

from __future__ import annotations

import argparse
import random
import time

import rules  # noqa: F401  (registers the titles' events)
from projections.fold import start
from replay.simulate import random_game
from rules.marco_polo_2.content import SYNTHETIC

from benchmarks.common import bench_legal_moves, fold_rate, row

TITLE = "marco-polo-2"
FAVOURED = (("ContractCompleted", 0.8), ("SealImproved", 0.6), ("CaravanConquered", 0.9), ("Travelled", 0.4),
            ("ContractsTaken", 0.3), ("CityCardUsed", 0.5), ("CaravanStarted", 0.3), ("SpecialCityUsed", 0.5))


def table_like(moves: list, rng: random.Random):
    """Like people at a table: complete contracts, improve seals, travel, rarely fiddle with dice."""
    names = [type(m).__name__.removeprefix("MarcoPolo2") for m in moves]
    for name, p in FAVOURED:
        options = [m for m, n in zip(moves, names) if n == name]
        if options and rng.random() < p:
            return rng.choice(options)
    ends = [m for m, n in zip(moves, names) if n == "TurnEnded"]
    if ends and rng.random() < 0.8:
        return ends[0]
    calm = [m for m, n in zip(moves, names) if n not in ("DieRerolled", "DieAdjusted")]
    return rng.choice(calm or moves)


def games(count: int, players: int, first_seed: int = 0) -> list[list]:
    out = []
    for seed in range(first_seed, first_seed + count):
        options = {"content": SYNTHETIC.ref, "caravans": bool(seed % 2), "characters": "all" if seed % 3 else "offer"}
        out.append(random_game(TITLE, tuple("ABCD"[:players]), options, seed=seed, policy=table_like))
    return out


def cpu_fold_rate(played: list[list], repeat: int) -> float:
    """Events folded per second of this process's CPU time, best of ``repeat``: on a machine shared
    with other work the wall-clock figure swings by 2x; this one much less."""
    evolve = start(played[0][0]).title.evolve
    bodies = [(start(g[0]).state, g[1:-1]) for g in played]
    count = sum(len(b) for _, b in bodies)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for state, events in bodies:
            for event in events:
                state = evolve(state, event)
        best = min(best, time.process_time() - t0)
    return count / best


def bench_fold(played: list[list], repeat: int = 10) -> float:
    count, rate = fold_rate(played)
    row(f"fold: validated Marco Polo II events folded per second ({count} events)", f"{rate:,.0f}/s", ">= 50,000/s", rate >= 50_000)
    cpu = cpu_fold_rate(played, repeat)
    row(f"   the same, per second of CPU time (best of {repeat})", f"{cpu:,.0f}/s", ">= 50,000/s", cpu >= 50_000)
    return rate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="random 4-player games to fold and sample")
    parser.add_argument("--repeat", type=int, default=10, help="folds timed for the CPU-time figure (best kept)")
    args = parser.parse_args(argv)
    print(f"Marco Polo II benchmarks ({args.games} random 4-player games, the invented synthetic pack)")
    played = games(args.games, 4)
    bench_fold(played, args.repeat)
    bench_legal_moves(played)


if __name__ == "__main__":
    main()
