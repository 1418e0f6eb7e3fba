"""Mailin & Tian Chin split one travel between both figures (reference B17, the seed silent; ruling
MP2-13), as Niccolo & Marco Polo do in Marco Polo (ruling MP-21)."""

from __future__ import annotations

import random

import msgspec

from mp2_helpers import T, do, plain, policy, refused, seat
from rules.marco_polo_2.events import SetupDealt, Travelled
from test_mp2_properties import Game, check_invariants, draw

P = "marco-polo-2."


def test_split_moves_both_figures_costs_paid_posts_at_both_ends():
    state = plain(chars=("mailin", "dewu"))
    assert state.seats[0].coins == 11 and state.seats[0].camels == 3
    # row 2, lowest die 3: 1 step (BEI-C1, 2 coins) + 2 steps (BEI-O1 1 camel, O1-C3 3 coins)
    state = do(state, "@0 travel 2 dice=3,3 path=C1 path2=O1,C3")
    p = state.seats[0]
    assert p.figures == ("C1", "C3") and p.posts == ("C1", "C3") and p.posts_left == 9
    # 11 - 2 - 3 coins + 3 (C1's bonus marker CB1 at once); 3 - 1 camels + 3 (C3's outpost tile OT2)
    assert (p.coins, p.camels) == (9, 5)
    assert state.start_claim == (2, 0)


def test_split_with_figure_one_and_from_different_cities():
    state = plain(chars=("mailin", "dewu"))
    state = do(state, "@0 travel 3 dice=3,3,3 path=O1 path2=C1,O2 figure=1")
    p = state.seats[0]
    # ``path`` moves figure 1, ``path2`` the other one; oases take no post, C1 was only passed
    assert p.figures == ("O2", "O1") and p.posts == ()
    state = plain(chars=("mailin", "dewu"))
    state = seat(state, 0, figures=("C1", "O2"))
    state = do(state, "@0 travel 2 dice=3,3 path=C2 path2=C1")  # O2-C1: free
    assert state.seats[0].figures == ("C2", "C1") and state.seats[0].posts == ("C2", "C1")


def test_split_refusals():
    state = plain(chars=("mailin", "dewu"))
    refused(state, "@0 travel 1 dice=3 path=C1 path2=O1", P + "travel-steps")  # the lower row: 1 step
    refused(state, "@0 travel 2 dice=3,3 path=C1,C2 path2=O1,C3", P + "travel-steps")  # 4 > 3 steps
    refused(state, "@0 travel 2 dice=3,3 path=C1 path2=C2", P + "not-adjacent")
    poor = seat(state, 0, coins=4, jade=0)
    refused(poor, "@0 travel 2 dice=3,3 path=C1 path2=O1,C3", P + "cannot-afford")  # 5 coins: all costs first
    other = plain(chars=("dewu", "mailin"))
    refused(other, "@0 travel 2 dice=3,3 path=C1 path2=O1", P + "second-figure")


def test_split_contracts_and_extra_post_on_the_upper_row():
    state = plain(chars=("mailin", "dewu"))
    state = seat(state, 0, figures=("C1", "C1"))
    # upper row: C1-O2 (passed, oasis), O2-C5 (contracts K03/K04), and C1-C2 (contracts K01/K02)
    state = do(state, "@0 travel 3 dice=3,3,3 path=O2,C5 path2=C2 take=K03,K01 discard=S1")
    p = state.seats[0]
    assert p.figures == ("C5", "C2") and set(p.posts) == {"C5", "C2"}
    assert set(p.contracts) == {"K03", "K01"}


def test_legal_moves_list_splits_and_each_is_accepted():
    state = plain(chars=("mailin", "dewu"))
    legal = T.legal_moves(state)
    splits = [m for m in legal if isinstance(m, Travelled) and m.path2]
    assert splits and all(m.row in (2, 3) and len(m.path) + len(m.path2) <= 3 for m in splits)
    for m in splits:
        assert T.decide(state, m) == (m,)
    assert any(m.path == ("C1",) and m.path2 == ("O1", "C3") and m.row == 2 for m in splits)
    assert T.format_move(splits[0]).count("path2=") == 1


def test_random_games_with_splits():
    """Property: whole random games where Mailin & Tian Chin prefer split moves keep every invariant,
    replay, round-trip and notation check of the property tests."""
    seen = 0
    for seed in range(2):
        rng = random.Random(seed)
        game = Game(3, {"characters": "chosen", "caravans": bool(seed)})
        steps = 0
        while T.outcome(game.state) is None:
            steps += 1
            state = game.state
            if T.chance(state) is not None:
                event = T.chance_event(state, draw(rng, state))
                if isinstance(event, SetupDealt):
                    event = msgspec.structs.replace(event, characters=("mailin", "abha", "dewu"), offered=())
                game.record(event)
                continue
            legal = T.legal_moves(state)
            splits = [m for m in legal if isinstance(m, Travelled) and m.path2]
            for m in rng.sample(splits, min(3, len(splits))):
                assert T.decide(state, m) == (m,)
            move = rng.choice(splits) if splits and rng.random() < 0.7 else policy(legal, rng)
            seen += move in splits
            game.record(move)
            if steps % 5 == 0:
                check_invariants(game.state)
        check_invariants(game.state)
    assert seen >= 2
