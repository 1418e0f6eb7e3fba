"""The picker (``legal_moves``) lists Niccolo & Marco Polo's split travels (MP-21): one per pair of
ends and split of the steps, each accepted by ``decide`` and round-tripping through the notation."""

from __future__ import annotations

import pytest

from events import codec
from mp_helpers import T, do, laid_out, rolled, seat
from rules.marco_polo.events import Travelled
from test_mp_properties import play


def niccolo(coins: int, camels: int):
    s = laid_out(2, chars=("niccolo", "berke"))
    s = rolled(s, (6, 6, 4, 4, 2), (3, 3, 3, 3, 3))
    return seat(s, 0, coins=coins, camels=camels)


def splits(moves):
    return [m for m in moves if isinstance(m, Travelled) and m.path and m.path2]


@pytest.mark.parametrize("coins, camels", [(30, 9), (8, 3), (3, 0)])
def test_picker_offers_split_travels(coins, camels):
    s = niccolo(coins, camels)
    legal = T.legal_moves(s)
    split = splits(legal)
    if coins >= 3 + 3:  # 2 steps cost 3 coins at least
        assert split
    for m in legal:
        assert T.decide(s, m) == (m,), m
        assert T.parse_move(s, T.format_move(m)) == m, m
    # one representative per (dice, ends, split of the steps, bonus choices)
    keys = [(m.dice, len(m.path), m.path[-1], len(m.path2), m.path2[-1], m.choices) for m in split]
    assert len(keys) == len(set(keys))
    for m in split:
        assert len(m.path) + len(m.path2) <= min(int(t[-1]) for t in m.dice)


def test_picker_split_travel_matches_the_rule_example():
    """The move of the Niccolo test (Alexandria and Moscow in 3 steps with 4,4) is offered."""
    s = laid_out(2, chars=("niccolo", "berke"))
    s = seat(rolled(s, (4, 4, 4, 4, 4), (3, 3, 3, 3, 3)), 0, coins=30)
    ends = {(m.dice, m.path[-1], len(m.path), m.path2[-1], len(m.path2)) for m in splits(T.legal_moves(s))}
    assert (("4", "4"), "ALE", 1, "MOS", 2) in ends
    s = do(s, "travel 4,4 ALE|O1-MOS")
    assert s.seats[0].figures == ("ALE", "MOS")


def test_picker_no_split_for_one_figure():
    s = laid_out(2, chars=("berke", "niccolo"))
    s = seat(rolled(s, (6, 6, 6, 6, 6), (3, 3, 3, 3, 3)), 0, coins=30, camels=9)
    assert not [m for m in T.legal_moves(s) if isinstance(m, Travelled) and m.path2]


def test_random_games_with_niccolo_pick_split_travels():
    """A property run: random games with Niccolo picking from the picker (which the run checks against
    decide, the codec and the notation); split travels are among the moves picked."""
    played = 0
    for seed in (1, 2, 3):
        game = play(3, seed=seed, options={"characters": "chosen"}, characters=("niccolo", "kubilai", "wilhelm"))
        assert game.state.round == 5
        played += len(splits(codec.decode(data) for data in game.log))
    assert played
