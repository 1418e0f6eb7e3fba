"""The fold's trusted fast paths (``evolve``) reach exactly the state the checked transition (the one
``decide`` runs, every rule checked) reaches, event by event, in random games of every kind."""

from __future__ import annotations

import pytest

from replay.simulate import random_game
from rules.marco_polo_2.content import SYNTHETIC
from rules.marco_polo_2.decide import transition

from mp2_helpers import NAMES, T, policy


@pytest.mark.parametrize("players,seed,options", [
    (4, 1, {"caravans": True, "characters": "all"}),
    (3, 2, {"black_dice_variant": True, "characters": "all"}),
    (2, 3, {"caravans": True, "characters": "offer"}),
])
def test_evolve_equals_the_checked_transition(players, seed, options):
    events = random_game("marco-polo-2", NAMES[:players], {"content": SYNTHETIC.ref, **options}, seed=seed, policy=policy)
    state = T.setup(NAMES[:players], {"content": SYNTHETIC.ref, **options})
    for event in events[1:-1]:
        folded = T.evolve(state, event)
        assert transition(state, event, True) == folded, event
        state = folded
    assert T.outcome(state) is not None
