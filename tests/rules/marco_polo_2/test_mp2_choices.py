"""Components whose printed effect asks for a choice (reference B11, B12; ruling MP2-20): the "any
other bonus" bonus marker and outpost tile, and the city-card kinds ``choice`` (one of two exchanges,
the same every time; VP may go below zero), ``bonuses`` (bonus markers of cities with a post, a
different one each time), ``guild`` (a guild seal for the die and a camel) and ``move`` (a multi-step
move, one post where it ends). They can be listed in a pack or described at the table, are
validated on arrival, their choices are part of the move and ``legal_moves`` offers them."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from mp2_helpers import GOALS, PUB, NAMES, SYN, T, apply, do, policy, refused, seat
from rules.marco_polo_2.content.schema import PackError, validate_component
from rules.marco_polo_2.events import (
    CityCardUsed, DiceRolled, GoalKept, IncomeTaken, OutpostTileUsed, RoundRevealed, SetupDealt, Travelled,
)
from test_mp2_properties import Game, check_invariants, draw

P = "marco-polo-2."
LAYOUT = dict(
    bonuses=(("C1", "CB1"), ("C5", "CB7"), ("BAG", "CB3"), ("BAL", "CB4"), ("HOR", "CB5")),
    outposts=(("C2", "OT7"), ("C3", "OT2"), ("C4", "OT3"), ("C6", "OT4")),
    cards=(("C1", "CC17"), ("C3", "CC19"), ("C4", "CC18")),
    contracts=(("C2", "K01"), ("C2", "K02"), ("C5", "K03"), ("C5", "K04"), ("C6", "K05"), ("C6", "K06")),
)


#: the choice marker and tile laid out, plain cards at the cities (the choice cards come as area cards)
PLAIN_CARDS = {**LAYOUT, "cards": (("C1", "CC01"), ("C3", "CC02"), ("C4", "CC03"))}


def table(chars=("abha", "dewu"), area=("CC15", "CC16"), dice=None) -> object:
    n = len(chars)
    state = T.setup(NAMES[:n], {**SYN, "characters": "chosen"})
    state = apply(state, SetupDealt(characters=tuple(chars), starting_contracts=("S1", "S2", "S3", "S4")[:n], goals=GOALS[:n], **LAYOUT))
    for s in range(n):
        state = apply(state, GoalKept(goal=GOALS[s][0], seat=s))
    state = apply(state, RoundRevealed(round=1, offers=("B1a", "B2a", "B3a"), upcoming=("B1b", "B2b", "B3b"), area_cards=area))
    return apply(state, DiceRolled(round=1, dice=tuple(tuple(d) for d in (dice or [(3, 3, 3, 3, 3)] * n))))


# --- the format -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind,spec,path", [
    ("city_card", {"kind": "choice", "options": [{"pay": {"camels": 1}, "gain": {"coins": 3}}]}, "city_card.options"),
    ("city_card", {"kind": "choice", "options": [{"gain": {"coins": 3}}, {"pay": {"coins": 1}, "gain": {}}]}, "city_card.options[1].gain"),
    ("city_card", {"kind": "choice", "options": [{"gain": {"coins": 3}}, {"gain": {"camel": 1}}]}, "city_card.options[1].gain.camel"),
    ("city_card", {"kind": "choice", "options": [{"gain": {"coins": 3}}, {"gain": {"vp": 1}}], "vp_below_zero": "yes"}, "city_card.vp_below_zero"),
    ("city_card", {"kind": "move", "max": 9}, "city_card.max"),
    ("city_card", {"kind": "move", "gain": {"coins": 1}}, "city_card.gain"),
    ("city_card", {"kind": "guild", "pay": {"camels": -1}}, "city_card.pay.camels"),
    ("city_card", {"kind": "bonuses", "options": []}, "city_card.options"),
    ("city_card", {"kind": "teleport"}, "city_card.kind"),
    ("city_bonus", {"any_bonus": 1}, "city_bonus.any_bonus"),
    ("outpost", {"any_bonus": True, "gain": {"coins": 1}}, "outpost.gain"),
])
def test_bad_specs_name_the_field(kind, spec, path):
    with pytest.raises(PackError) as info:
        validate_component(kind, spec)
    assert info.value.path == path, str(info.value)


def test_descriptions_with_choices_are_checked_on_arrival_and_then_used():
    state = T.setup(NAMES[:2], {**PUB, "characters": "chosen"})
    bad = {"kind": "city_card", "id": "Q1", "spec": {"kind": "choice", "options": [{"gain": {"coins": 1}}]}}
    line = ("setup chars=dewu,mongke start=T1,T2 goals=?,?,?;?,?,? cards=XIA:Q1 describe=" + json.dumps([
        {"kind": "contract", "id": "T1", "spec": {"cost": {"pepper": 1}, "reward": {"vp": 1}, "starting": True}},
        {"kind": "contract", "id": "T2", "spec": {"cost": {"pepper": 1}, "reward": {"vp": 1}, "starting": True}}, bad]))
    info = refused(state, line, P + "bad-description")
    assert "describe[city_card:Q1].options" in info.message
    good = line.replace('"options": [{"gain": {"coins": 1}}]', '"options": [{"pay": {"camels": 1}, "gain": {"coins": 3}}, {"pay": {"coins": 1}, "gain": {"camels": 1}}]')
    state = do(state, good)
    assert ("city_card", "Q1") in {(k, i) for k, i, _ in state.described}


# --- city cards -----------------------------------------------------------------------------------


def test_choice_card_same_option_every_time():
    state = table()  # abha: 8 + 2 coins, 3 camels; area1 = CC15 (1 camel -> 3 coins | 1 coin -> 1 camel)
    assert (state.seats[0].coins, state.seats[0].camels) == (10, 3)
    refused(state, "@0 card area1 3 times=2", P + "bad-choice")  # the option must be named
    refused(state, "@0 card area1 3 times=2 option=3", P + "bad-choice")
    refused(state, "@0 card area1 3 times=4 option=1", P + "city-card-times")
    after = do(state, "@0 card area1 3 times=2 option=1")
    assert (after.seats[0].coins, after.seats[0].camels) == (16, 1)
    after = do(state, "@0 card area1 3 times=3 option=2")
    assert (after.seats[0].coins, after.seats[0].camels) == (7, 6)
    legal = [m for m in T.legal_moves(state) if isinstance(m, CityCardUsed) and m.city == "area1"]
    assert {(m.option, m.times) for m in legal} == {(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)}


def test_choice_card_vp_may_go_below_zero():
    state = table()  # area2 = CC16: 1 VP -> 2 coins | 2 coins -> 1 VP, VP may go negative
    after = do(state, "@0 card area2 3 times=3 option=1")
    assert (after.seats[0].vp, after.seats[0].coins) == (-3, 16)
    assert any(isinstance(m, CityCardUsed) and m.city == "area2" and m.option == 1 and m.times == 3 for m in T.legal_moves(state))


def test_bonuses_card_a_different_marker_each_time():
    state = seat(table(), 0, posts=("C1", "BAG", "C5"), posts_left=8, dice=(2, 3, 3, 3, 3))
    # CC17 at C1: markers of cities with her post: CB1 (3 coins), CB3 (1 pepper 1 coin), CB7 (any other)
    after = do(state, "@0 card C1 2 times=2 markers=CB1,CB3")
    p = after.seats[0]
    assert (p.coins, p.pepper) == (10 + 3 + 1, 1)
    refused(state, "@0 card C1 3 times=2 markers=CB1,CB1", P + "bad-choice")
    refused(state, "@0 card C1 3 times=1 markers=CB4", P + "bad-choice")  # no post in Balkh
    refused(state, "@0 card C1 2 times=3 markers=CB1,CB3,CB7 choices=CB4", P + "city-card-times")  # die 2
    refused(state, "@0 card C1 3 times=2 markers=CB1,CB7", P + "missing-choice")
    after = do(state, "@0 card C1 3 times=2 markers=CB1,CB7 choices=CB5")
    assert (after.seats[0].coins, after.seats[0].vp) == (13, 2)
    legal = [m for m in T.legal_moves(state) if isinstance(m, CityCardUsed) and m.city == "C1" and m.die == "3"]
    assert CityCardUsed(city="C1", die="3", times=2, markers=("CB1", "CB7"), choices=("CB5",), seat=0) in legal
    assert all(len(set(m.markers)) == m.times for m in legal)


def test_guild_card_takes_a_seal_for_the_die_and_a_camel():
    state = seat(table(), 0, posts=("C4",), posts_left=10)  # CC18 at C4: 1 camel, then a seal
    after = do(state, "@0 card C4 3 guild=tailor")
    p = after.seats[0]
    assert p.seals == ("tailor",) and (p.camels, p.jade) == (2, 2) and p.vp == 2  # Abha: 1 VP per jade
    refused(state, "@0 card C4 3 guild=jeweler", P + "guild-die")
    refused(state, "@0 card C4 3 guild=tailor option=1", P + "extra-choice")
    legal = {m.guild for m in T.legal_moves(state) if isinstance(m, CityCardUsed) and m.city == "C4" and m.die == "3"}
    assert legal == {"farmer", "spicer", "tailor"}


def test_move_card_one_post_where_the_move_ends():
    state = seat(table(), 0, posts=("C3",), posts_left=10, figures=("C3",), dice=(2, 3, 3, 3, 3))  # CC19 at C3: a move up to the die
    after = do(state, "@0 card C3 2 path=O4,HOR")  # C3-O4 1 coin 1 camel, O4-HOR 1 camel
    p = after.seats[0]
    assert p.figures == ("HOR",) and p.posts == ("C3", "HOR") and (p.coins, p.camels, p.vp) == (9, 1, 2)
    assert after.start_claim == state.start_claim  # not a travel action
    refused(state, "@0 card C3 2 path=O4,HOR,C6", P + "travel-steps")
    legal = [m for m in T.legal_moves(state) if isinstance(m, CityCardUsed) and m.city == "C3" and m.die == "2"]
    assert CityCardUsed(city="C3", die="2", path=("O4", "HOR"), seat=0) in legal
    for m in legal:
        assert T.decide(state, m) == (m,)


def test_move_card_split_by_mailin_and_tian_chin():
    state = seat(table(chars=("mailin", "dewu")), 0, posts=("C3",), posts_left=10, figures=("C3", "BEI"))
    after = do(state, "@0 card C3 3 path=O4 path2=C1")
    assert after.seats[0].figures == ("O4", "C1") and after.seats[0].posts == ("C3", "C1")


# --- the "any other bonus" marker and tile ----------------------------------------------------------


def test_any_bonus_marker_pays_a_chosen_other_marker_at_once_and_each_round():
    state = seat(table(), 0, figures=("O2",))
    refused(state, "@0 travel 1 dice=3 path=C5", P + "missing-choice")
    refused(state, "@0 travel 1 dice=3 path=C5 choices=CB7", P + "bad-choice")  # not itself
    after = do(state, "@0 travel 1 dice=3 path=C5 choices=CB1")  # C5 holds CB7
    assert after.seats[0].coins == 10 - 2 + 3
    legal = [m for m in T.legal_moves(state) if isinstance(m, Travelled) and m.path == ("C5",) and m.row == 1]
    assert {m.choices for m in legal} == {("CB1",), ("CB3",), ("CB4",), ("CB5",)}
    # next round: the marker pays again, chosen in the round-start choices
    s2 = seat(after, 0, dice=(), black=())
    s2 = seat(s2, 1, dice=(), black=())
    s2 = do(s2, "@0 end")
    s2 = apply(s2, RoundRevealed(round=2, offers=("B1b", "B2b", "B3b"), upcoming=("B1c", "B2c", "B3c"), area_cards=("CC04", "CC05")))
    s2 = apply(s2, DiceRolled(round=2, dice=((3, 3, 3, 3, 3), (3, 3, 3, 3, 3))))
    assert s2.pending == (("income", 0, ""),)
    incomes = T.legal_moves(s2)
    assert {m.choices for m in incomes} == {("CB1",), ("CB3",), ("CB4",), ("CB5",)}
    coins = s2.seats[0].coins
    s3 = do(s2, "@0 income choices=CB4")
    assert s3.seats[0].silk == 1 and s3.seats[0].coins == coins


def test_mailin_doubles_the_any_bonus_marker_with_a_second_pick():
    state = seat(table(chars=("mailin", "dewu")), 0, posts=("C5",), posts_left=10)
    state = seat(state, 0, dice=())
    state = seat(state, 1, dice=())
    state = do(state, "@0 end")
    state = apply(state, RoundRevealed(round=2, offers=("B1b", "B2b", "B3b"), upcoming=("B1c", "B2c", "B3c"), area_cards=("CC04", "CC05")))
    state = apply(state, DiceRolled(round=2, dice=((3, 3, 3, 3, 3), (3, 3, 3, 3, 3))))
    before = state.seats[0]
    after = do(state, "@0 income double=city:C5 choices=CB1,CB5")
    assert after.seats[0].coins == before.coins + 3 and after.seats[0].vp == before.vp + 2
    assert IncomeTaken(double="city:C5", choices=("CB1", "CB5"), seat=0) in T.legal_moves(state)


def test_any_bonus_outpost_tile_and_filippo_cashing_it():
    state = seat(table(), 0, figures=("C1",))
    after = do(state, "@0 travel 1 dice=3 path=C2 choices=CB4")  # first post in C2: tile OT7
    assert after.seats[0].silk == 1 and after.outposts == LAYOUT["outposts"][1:]
    state = seat(table(chars=("filippo", "dewu")), 0, figures=("C1",))
    after = do(state, "@0 travel 1 dice=3 path=C2")  # Filippo keeps the tile, no choice yet
    assert after.seats[0].tiles == ("OT7",)
    refused(after, "@0 tile OT7", P + "missing-choice")
    cashed = do(after, "@0 tile OT7 choices=CB1")
    assert cashed.seats[0].coins == after.seats[0].coins + 3 and cashed.seats[0].tiles == ()
    assert {m.choices for m in T.legal_moves(after) if isinstance(m, OutpostTileUsed)} == {("CB1",), ("CB3",), ("CB4",), ("CB5",)}


# --- property: random games meeting every new kind --------------------------------------------------


@pytest.mark.parametrize("seed,chars,caravans", [
    (1, ("abha", "mailin", "filippo"), False),
    (2, ("mongke", "dewu", "gantulga", "isabella"), True),
])
def test_random_games_with_every_choice_component(seed, chars, caravans):
    """Whole random games laid out with the choice bonus marker and outpost tile, the action area
    showing the choice city cards of every kind first, every listed move
    with a choice decided to itself, with the property tests' invariants."""
    rng = random.Random(seed)
    game = Game(len(chars), {"characters": "chosen", "caravans": caravans})
    used: set[str] = set()
    area_pool = ["CC15", "CC16", "CC17", "CC18", "CC19"]
    while T.outcome(game.state) is None:
        state = game.state
        if T.chance(state) is not None:
            event = T.chance_event(state, draw(rng, state))
            if isinstance(event, SetupDealt):
                event = msgspec.structs.replace(event, characters=chars, offered=(), **PLAIN_CARDS)
            if isinstance(event, RoundRevealed):
                fresh = [c for c in area_pool if c not in state.used_cards]
                rest = [c for c in event.area_cards if c not in fresh]
                event = msgspec.structs.replace(event, area_cards=tuple((fresh + rest)[:2]))
            game.record(event)
            continue
        legal = T.legal_moves(state)
        special = [m for m in legal if getattr(m, "choices", ()) and not isinstance(m, Travelled) or
                   isinstance(m, CityCardUsed) and (m.option or m.markers or m.guild or m.path)]
        for m in rng.sample(special, min(3, len(special))):
            assert T.decide(state, m) == (m,), m
        move = rng.choice(special) if special and rng.random() < 0.5 else policy(legal, rng)
        if isinstance(move, CityCardUsed):
            used.add(move.option and "choice" or move.markers and "bonuses" or move.guild and "guild" or move.path and "move" or "plain")
        if getattr(move, "choices", ()):
            used.add("pick")
        game.record(move)
        check_invariants(game.state) if rng.random() < 0.2 else None
    check_invariants(game.state)
    assert {"choice", "bonuses", "guild", "move", "pick"} <= used, used


# --- contract reward icons (reference B9, B15) --------------------------------------------------------


def test_contract_reward_icon_takes_a_contract_from_a_city_with_a_post():
    from rules.marco_polo_2.events import ContractCompleted

    state = seat(table(chars=("dewu", "abha")), 0, posts=("C2",), posts_left=10, contracts=("K21",), pepper=1)
    refused(state, "@0 complete K21", P + "missing-choice")
    refused(state, "@0 complete K21 choices=K03", P + "bad-choice")  # C5: no post there
    after = do(state, "@0 complete K21 choices=K02")
    p = after.seats[0]
    assert p.contracts == ("K02",) and p.completed == ("K21",) and p.vp == 2 and (p.camels, p.pepper) == (2, 0)
    assert after.pending == (("refill", 0, "C2"),)
    legal = [m for m in T.legal_moves(state) if isinstance(m, ContractCompleted)]
    assert {m.choices for m in legal} == {("K01",), ("K02",)}


def test_contract_reward_icons_black_die_and_the_top_of_the_pile():
    state = seat(table(chars=("dewu", "abha")), 0, contracts=("K22", "K23"), silk=2, pepper=1)
    supply = state.black_supply
    after = do(state, "@0 complete K22")
    assert after.black_supply == supply - 1 and after.pending == (("roll", 0, "b"),)
    after = do(after, "=4")
    assert after.seats[0].black == (4,) and not after.bought_black  # bought dice only count once per turn
    after = do(after, "@0 complete K23")
    assert after.pending == (("refill", 0, "hand"),) and T.chance(after).kind == "shuffle"
    after = do(after, "refill hand K09")
    assert after.seats[0].contracts == ("K09",) and "K09" in after.seen and after.seats[0].vp == 5
