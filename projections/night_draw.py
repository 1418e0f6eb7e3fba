"""The draw of a tournament night's round: who sits at which table, and who has a bye.

Pure: the players present, their night points and ratings, the tables of earlier rounds and a
seed go in; the same inputs always give the same draw (``random.Random`` seeded with a string
is the same on every platform and run).

- ``pairs`` (2 seats, Lost Cities): Swiss. Players are ranked by night points, then rating, then
  a seeded shuffle; with an odd count the lowest-ranked player who has had no bye sits out; the
  rest are paired top-down with the nearest player they have not met. When no pairing without a
  repeat exists the fewest repeats are taken.
- ``tables`` (3-4 seats, Marco Polo titles): as many tables of four as the count allows with the
  rest of three (5 players: a three and a two); players ranked by rating, then a seeded shuffle,
  are dealt to the tables in a snake (1, 2, ..., k, k, ..., 1), which balances the tables'
  ratings; then players of one snake row swap tables while a swap lowers the count of pairs who
  met before.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Mapping, Sequence

PAIRS = "pairs"
TABLES = "tables"

#: how many search steps the exact Swiss pairing may take before it settles for a greedy one
SEARCH_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class Draw:
    """A round's tables (each a tuple of names, seat order) and its byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def met_pairs(history: Iterable[Sequence[str]]) -> frozenset[frozenset[str]]:
    """Every pair of names that sat at one table of ``history`` (earlier rounds' tables)."""
    return frozenset(frozenset(p) for table in history for p in combinations(table, 2))


def repeats(tables: Iterable[Sequence[str]], met: frozenset[frozenset[str]]) -> int:
    """How many pairs at ``tables`` met before."""
    return sum(frozenset(p) in met for table in tables for p in combinations(table, 2))


def _ranked(players: Sequence[str], points: Mapping[str, float], ratings: Mapping[str, float], rng: random.Random) -> list[str]:
    shuffled = sorted(players)
    rng.shuffle(shuffled)
    tiebreak = {name: n for n, name in enumerate(shuffled)}
    return sorted(players, key=lambda p: (-points.get(p, 0.0), -ratings.get(p, 0.0), tiebreak[p]))


def draw(
    mode: str,
    players: Sequence[str],
    *,
    points: Mapping[str, float],
    ratings: Mapping[str, float],
    history: Sequence[Sequence[str]],
    had_bye: Iterable[str],
    seed: str,
) -> Draw:
    """The next round's draw of ``players`` (those present: late joiners in, drops out).

    ``history`` is every table of the earlier rounds, ``had_bye`` who sat out before; ``seed``
    the night's seed with the round's number (the caller makes it, e.g. ``"<seed>:<round>"``).
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is named twice")
    rng = random.Random(f"night-draw:{seed}")
    met = met_pairs(history)
    if mode == PAIRS:
        return _swiss(_ranked(players, points, ratings, rng), met, set(had_bye))
    if mode == TABLES:
        return _snake(_ranked(players, {}, ratings, rng), met)
    raise ValueError(f"no draw mode {mode!r}")


# -- Swiss pairs ----------------------------------------------------------------------------------


def _swiss(ranked: list[str], met: frozenset[frozenset[str]], had_bye: set[str]) -> Draw:
    if len(ranked) < 2:
        return Draw((), tuple(ranked))
    if len(ranked) % 2 == 0:
        return Draw(_pair(ranked, met), ())
    # the bye goes to the lowest-ranked player without one; among those, the first whose bye
    # leaves a pairing with no repeat (when only some do)
    candidates = [p for p in reversed(ranked) if p not in had_bye] or list(reversed(ranked))
    best: tuple[int, tuple[tuple[str, ...], ...], str] | None = None
    for bye in candidates:
        tables = _pair([p for p in ranked if p != bye], met)
        count = repeats(tables, met)
        if best is None or count < best[0]:
            best = (count, tables, bye)
        if count == 0:
            break
    assert best is not None
    return Draw(best[1], (best[2],))


def _pair(ranked: list[str], met: frozenset[frozenset[str]]) -> tuple[tuple[str, ...], ...]:
    """Pairs of an even ``ranked`` list with the fewest repeats, top-down (each player with the
    nearest one below it that keeps the count lowest)."""
    for allowed in range(len(ranked) // 2 + 1):
        found = _search(ranked, met, allowed)
        if found is not None:
            return tuple(found)
    return tuple(_greedy(ranked, met))


def _search(ranked: list[str], met: frozenset[frozenset[str]], allowed: int) -> list[tuple[str, str]] | None:
    steps = 0

    class OutOfBudget(Exception):
        pass

    def go(left: list[str], allowed: int) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not left:
            return []
        top, rest = left[0], left[1:]
        for n, other in enumerate(rest):
            steps += 1
            if steps > SEARCH_BUDGET:
                raise OutOfBudget
            cost = frozenset((top, other)) in met
            if cost > allowed:
                continue
            tail = go(rest[:n] + rest[n + 1:], allowed - cost)
            if tail is not None:
                return [(top, other), *tail]
        return None

    try:
        return go(ranked, allowed)
    except OutOfBudget:
        return None


def _greedy(ranked: list[str], met: frozenset[frozenset[str]]) -> list[tuple[str, str]]:
    left, out = list(ranked), []
    while left:
        top = left.pop(0)
        other = next((p for p in left if frozenset((top, p)) not in met), left[0])
        left.remove(other)
        out.append((top, other))
    return out


# -- tables of three and four -----------------------------------------------------------------------


def table_sizes(count: int) -> tuple[int, ...]:
    """The tables ``count`` players sit at: fours, the rest threes (5: a three and a two; 2: a
    two; 1: none, a bye)."""
    if count < 2:
        return ()
    if count in (2, 3, 4):
        return (count,)
    if count == 5:
        return (3, 2)
    threes = (4 - count % 4) % 4
    return (4,) * ((count - 3 * threes) // 4) + (3,) * threes


def _snake(ranked: list[str], met: frozenset[frozenset[str]]) -> Draw:
    sizes = table_sizes(len(ranked))
    if not sizes:
        return Draw((), tuple(ranked))
    tables: list[list[str]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    queue = list(ranked)
    row = 0
    while queue:
        for t in order if row % 2 == 0 else reversed(order):
            if len(tables[t]) < sizes[t] and queue:
                tables[t].append(queue.pop(0))
        row += 1
    _swap_apart(tables, met)
    return Draw(tuple(tuple(t) for t in tables), ())


def _swap_apart(tables: list[list[str]], met: frozenset[frozenset[str]]) -> None:
    """Swap two players of one snake row (the same seat index) between tables while that lowers
    the repeats; each swap lowers a finite count, so it ends."""

    def cost(table: list[str]) -> int:
        return repeats([table], met)

    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for seat in range(min(len(tables[a]), len(tables[b]))):
                before = cost(tables[a]) + cost(tables[b])
                tables[a][seat], tables[b][seat] = tables[b][seat], tables[a][seat]
                if cost(tables[a]) + cost(tables[b]) < before:
                    improved = True
                else:
                    tables[a][seat], tables[b][seat] = tables[b][seat], tables[a][seat]
