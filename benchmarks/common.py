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


def mid_game_states(played: list[list]) -> list:
    """Marco Polo-family states in rounds 2-4 where a seat is about to take its main action."""
    title = start(played[0][0]).title
    samples = []
    for g in played:
        state = start(g[0]).state
        for event in g[1:-1]:
            state = title.evolve(state, event)
            if 2 <= state.round <= 4 and title.to_move(state) is not None and not state.pending and not state.main_done:
                samples.append(state)
    return samples


def bench_legal_moves(played: list[list]) -> float:
    """``legal_moves`` on every mid-game state, best of three each; prints the median, p90 and max."""
    title = start(played[0][0]).title
    samples = mid_game_states(played)
    times, sizes = [], []
    for state in samples:
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            moves = title.legal_moves(state)
            best = min(best, time.perf_counter() - t0)
        times.append(best)
        sizes.append(len(moves))
    median = statistics.median(times) * 1000
    row(
        f"legal_moves, mid-game 4-player states ({len(samples)}; median {statistics.median(sizes):.0f} moves)",
        f"{median:.3f} ms",
        "<= 1 ms median",
        median <= 1.0,
    )
    print(f"  {'   (p90 / max)':<62} {statistics.quantiles(times, n=10)[-1] * 1000:.3f} / {max(times) * 1000:.3f} ms")
    return median
