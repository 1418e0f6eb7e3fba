"""What every benchmark program shares: printing a figure, medians, the fold rate."""

from __future__ import annotations

import statistics
import time

from projections.fold import start


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def row(name: str, figure: str, target: str, ok: bool | None = None) -> None:
    """One printed figure: what was measured, the figure, the target and whether it was met."""
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"  {name:<62} {figure:>16}   target {target}{mark}")


def fold_rate(games: list[list]) -> tuple[int, float]:
    """Events folded per second through ``evolve`` alone (already validated), best of three."""
    evolve = start(games[0][0]).title.evolve
    bodies = [(start(g[0]).state, g[1:-1]) for g in games]
    count = sum(len(b) for _, b in bodies)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for state, events in bodies:
            for event in events:
                state = evolve(state, event)
        best = min(best, time.perf_counter() - t0)
    return count, count / best
