"""Random legal games through a rules core, for property tests, benchmarks and demo data.

Moves are picked by a seeded generator from ``legal_moves``; chance comes from ``draw_chance``,
exactly as a digital game records it. The same seed always yields the same game.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from events.base import Event
from events.lifecycle import GameCreated, GameEnded
from projections.fold import GameState, start
from replay.recorder import draw_chance


def random_game(
    title: str,
    players: Sequence[str],
    options: dict[str, Any] | None = None,
    seed: int = 0,
    max_events: int = 100_000,
    policy: Callable[[list[Event], random.Random], Event] | None = None,
) -> list[Event]:
    """Every event of one random, legal, finished digital game (game.created first, game.ended last).

    ``policy`` picks among the legal moves (default: uniformly at random).
    """
    created = GameCreated(title=title, players=tuple(players), options=dict(options or {}), seed=seed)
    game = start(created)
    rules = game.title
    rng = random.Random(seed)
    events: list[Event] = [created]
    state = game.state
    while len(events) < max_events:
        outcome = rules.outcome(state)
        if outcome is not None:
            events.append(GameEnded(scores=outcome.scores, ranks=outcome.ranks, winners=outcome.winners))
            return events
        chance = draw_chance(GameState(rules, created, state), len(events) + 1)
        if chance is not None:
            decided: Sequence[Event] = (chance,)
        else:
            moves = rules.legal_moves(state)
            move = policy(moves, rng) if policy else moves[rng.randrange(len(moves))]
            decided = rules.decide(state, move)
        for event in decided:
            state = rules.evolve(state, event)
        events.extend(decided)
    raise RuntimeError(f"{title} game did not end within {max_events} events (seed {seed})")
