"""Helpers for the night tests: a table's game (at a real table: no seed) played to its end in
process, through the real recorder, its deals reported as a table would."""

from __future__ import annotations

import random
from typing import Any


def finish_table(svc: Any, game_id: str, seed: int = 1) -> None:
    rng = random.Random(f"{game_id}:{seed}")
    while True:
        game = svc.projector.state(game_id)
        if game.ended is not None:
            return
        chance = game.title.chance(game.state)
        if chance is not None:
            if chance.kind == "shuffle":
                outcome: tuple[Any, ...] = tuple(rng.sample(chance.items, len(chance.items)))
            else:
                outcome = tuple(rng.randint(1, chance.sides) for _ in range(chance.count))
            svc.recorder.record(game_id, game.title.chance_event(game.state, outcome))
            continue
        moves = game.title.legal_moves(game.state)
        assert moves, game.title.status(game.state)
        svc.recorder.record(game_id, moves[0])
