"""Golden games (``tests/golden/marco-polo-2/*.txt``): complete games in the title's notation, each
with its final score worked out by hand in the file. Replayed through the rules core and through
the whole pipeline (DuckDB log, projections), they must reach exactly the hand-worked score."""

from __future__ import annotations

import pytest

import golden_games
from mp2_helpers import T, apply

FILES = golden_games.files("marco-polo-2")


def test_there_are_three_golden_games():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_game_reaches_the_hand_worked_score(path):
    golden_games.check_by_rules(path, T, apply)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_game_through_the_pipeline(path, recorder):
    golden_games.check_through_the_pipeline(path, "marco-polo-2", recorder)
