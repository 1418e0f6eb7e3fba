"""One test per character power (reference A20, the seed's "Personajes: sus efectos pueden modificar
estas reglas"), the expert variant options, and the end-of-game reveal of secret objectives."""

from __future__ import annotations

import pytest

from mp_helpers import T, apply, do, laid_out, plain, refused, rolled, seat
from rules.marco_polo.events import (
    CharacterPicked,
    ContractDrawn,
    DiceRolled,
    ObjectivesKept,
    ObjectivesRevealed,
    SetupDealt,
)
from events.errors import ContradictsKnownFacts
from test_mp_seed import final, run_round_out

P = "marco-polo."


def test_raschid_sets_his_dice_no_compensation():
    """"Raschid no tira sus dados": he rolls nothing, sets each die's value when placing it, gets no
    compensation, and cannot reroll or turn his own dice; a black die he takes is rolled."""
    s = laid_out(2, chars=("raschid", "berke"))
    s = apply(s, T.parse_move(s, "deal 1 K01,K02,K03,K04,K05,K06"))
    refused(s, DiceRolled(round=1, dice=((1, 1, 1, 1, 1), (3, 3, 3, 3, 3))), P + "dice-count")
    s = apply(s, DiceRolled(round=1, dice=((), (3, 3, 3, 3, 3))))
    assert s.seats[0].dice == (0, 0, 0, 0, 0) and s.seats[0].compensation == 0 and not s.pending
    s = seat(s, 0, camels=9)
    refused(s, "reroll 3", P + "raschid-sets-dice")
    refused(s, "adjust 3 +1", P + "raschid-sets-dice")
    s = do(s, "bazaar gold 6,6,6 6")
    assert s.seats[0].gold == 4 and len(s.seats[0].dice) == 2
    s = do(s, "black", "=2")
    assert s.seats[0].black == (2,)
    assert T.chance(do(laid_out(2, chars=("raschid", "berke")), "deal 1 K01,K02,K03,K04,K05,K06")).count == 5


def test_matteo_white_die_and_a_contract_each_round():
    """Matteo Polo "recibe un dado blanco al principio de cada ronda" and the top contract of the
    special pile; the white die is not a colour die."""
    s = laid_out(2, chars=("berke", "matteo"))
    s = apply(s, T.parse_move(s, "deal 1 K01,K02,K03,K04,K05,K06"))
    s = apply(s, DiceRolled(round=1, dice=((3, 3, 3, 3, 3), (3, 3, 3, 3, 3, 5))))
    assert s.seats[1].white == (5,) and s.pending[0] == ("draw", 1, "")
    refused(s, ContractDrawn(), P + "contract-must-be-named")
    refused(s, ContractDrawn(contract="K01"), P + "contract-already-seen", ContradictsKnownFacts)
    s = apply(s, ContractDrawn(contract="K30"))
    assert s.seats[1].contracts == ("S2", "K30") and len(s.special) == 7
    s = do(s, "coins5 3", "end", "coins5 3", "end", "khan 3 silk", "end")
    s2 = do(s, "coins5 w5")  # the white die on a space his colour already used
    assert s2.seats[1].white == ()
    # a third contract: one goes back under the special pile
    s = seat(s, 1, contracts=("S2", "K30"))
    s = run_round_out(s)
    s = rolled(s, (3, 3, 3, 3, 3), (3, 3, 3, 3, 3, 1))
    s = apply(s, ContractDrawn(contract="K31"))
    assert s.pending[0] == ("discard", 1, "")
    s = do(s, "return K31")
    assert s.seats[1].contracts == ("S2", "K30") and s.special[-1] == "K31"


def test_berke_pays_no_occupation_fee():
    """Berke Khan pays nothing to use occupied spaces."""
    s = plain(2, dice=[(3, 3, 3, 3, 3)] * 2, chars=("berke", "carpini"))
    c = s.seats[0].coins
    s = do(s, "coins5 3")  # occupied by the neutral die
    assert s.seats[0].coins == c + 5
    s = do(s, "end", "coins5 3")
    assert s.seats[1].coins == 8 + 3 + 5 - 3, "Carpini pays the fee"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_mercator_tile_by_player_count(n):
    """Mercator ex Tabriz: another player's bazaar gives him 1 of that good; 3p also +1 camel for
    another's Khan's favor; 2p also +2 coins for the other's take 5 coins."""
    chars = ("carpini", "mercator", "berke", "wilhelm")[:n]
    s = plain(n, dice=[(3, 3, 3, 3, 3)] * n, chars=chars)
    m = s.seats[1]
    s = do(s, "bazaar pepper 3 3")
    assert s.seats[1].pepper == m.pepper + 1
    s = do(s, "end", *["bazaar camels 3 3", "end"] * (n - 1))
    s = seat(s, 0, coins=20)
    k = s.seats[1]
    s2 = do(s, "khan 3 silk")
    assert s2.seats[1].camels == k.camels + (1 if n <= 3 else 0)
    s3 = do(s, "coins5 3")
    assert s3.seats[1].coins == k.coins + (2 if n == 2 else 0)


def test_kubilai_starts_in_beijing():
    """Kubilai Khan: his figure starts in Beijing with a post on its 10-VP slot."""
    s = laid_out(2, chars=("kubilai", "berke"))
    p = s.seats[0]
    assert p.figures == ("BEI",) and p.posts == ("BEI",) and p.posts_left == 8 and s.beijing == (0,)
    s = final(rolled(s, (3, 3, 3, 3, 3), (3, 3, 3, 3, 3)))
    assert T.score(s)["seats"][0]["beijing"] == 10


def test_niccolo_second_figure_split_move_and_camel():
    """Niccolo & Marco Polo: a second figure from Venezia; a move may be split between the figures
    (costs by the total steps); each ending figure places a post; +1 camel each round."""
    s = laid_out(2, chars=("niccolo", "berke"))
    assert s.seats[0].figures == ("VEN", "VEN") and s.seats[0].camels == 3
    s = rolled(s, (4, 4, 4, 4, 4), (3, 3, 3, 3, 3))
    s = seat(s, 0, coins=30)
    refused(seat(s, 1), "@1 travel 3,3 ALE|ALE", P + "not-your-turn")
    s = do(s, "travel 4,4 ALE|O1-MOS")  # 3 steps: 12 coins; Alexandria OB05 2 silk, Moscow OB01 3 coins
    p = s.seats[0]
    assert p.figures == ("ALE", "MOS") and set(p.posts) == {"ALE", "MOS"} and p.coins == 30 - 12 + 3 and p.silk == 2
    s = do(s, "end", "coins5 3", "end")
    s = seat(s, 0, contracts=("S3",), camels=9, pepper=3)
    s = do(s, "complete S3 : 2:ANX")  # move 1 with the second figure (3 camels)
    assert s.seats[0].figures == ("ALE", "ANX") and "ANX" in s.seats[0].posts
    refused(plain(2, chars=("berke", "carpini")), "complete S1 : 2:O1", P + "cannot-afford")


def test_wilhelm_posts_while_passing_eleven_posts():
    """Wilhelm von Rubruk places a post in every city moved through; he has 11 posts and the 11th
    scores 10 VP (the 8th 5 and the 9th 10, as for everyone)."""
    s = laid_out(2, chars=("wilhelm", "berke"))
    assert s.seats[0].posts_left == 11
    s = rolled(s, (4, 4, 4, 4, 4), (3, 3, 3, 3, 3))
    s = seat(s, 0, coins=30, camels=9)
    s = do(s, "travel 4,4 O1-MOS-ANX-KAR")
    p = s.seats[0]
    assert p.posts == ("MOS", "ANX", "KAR") and p.coins == 30 - 12 + 3 + 5 + 5  # OB01 3, Anxi 5, OB02 5
    posts = ("MOS", "ANX", "KAR", "ALE", "SAM", "LAN", "KCH", "SUM", "XIA", "ORM")
    s = seat(s, 0, posts=posts, posts_left=1, figures=("O9",), vp_posts=15, used=())
    s = do(s, "end", "coins5 3", "end", "travel 4,4 ADA")
    assert s.seats[0].posts_left == 0 and s.seats[0].vp_posts == 25


def test_carpini_oasis_jump_and_coins():
    """Johannes Carpini may jump from an oasis to any other oasis as one step, with no route cost;
    +3 coins at the start of each round."""
    s = laid_out(2, chars=("carpini", "berke"))
    s = rolled(s, (3, 3, 3, 3, 3), (3, 3, 3, 3, 3))
    assert s.seats[0].coins == 7 + 3
    s = seat(s, 0, figures=("O1",), coins=10)
    s2 = do(s, "travel 3,3 O10-BEI")
    assert s2.seats[0].figures == ("BEI",) and s2.seats[0].coins == 3 and "BEI" in s2.seats[0].posts
    s3 = seat(s, 0, character="berke")
    refused(s3, "travel 3,3 O10-BEI", P + "not-adjacent")


def test_expert_character_draft():
    """Expert variant ("elegir personajes mediante una selección por turnos"): players + 1 revealed;
    the last seat picks first, then counter-clockwise; the leftover is discarded."""
    s = T.setup(("A", "B", "C"), {"characters": "draft"})
    s = apply(
        s,
        SetupDealt(
            draft=("wilhelm", "kubilai", "raschid", "berke"),
            city_cards=("CC01", "CC02", "CC03", "CC04", "CC05", "CC06", "CC07", "CC08", "CC09"),
            outposts=("OB01", "OB02", "OB03", "OB04", "OB05", "OB06", "OB07"),
            starting_contracts=("S1", "S2", "S3"),
        ),
    )
    assert T.to_move(s) == 2
    refused(s, CharacterPicked(character="matteo"), P + "not-offered")
    refused(s, CharacterPicked(character="kubilai", seat=0), P + "not-your-turn")
    s = do(s, "pick kubilai", "pick berke")
    assert T.to_move(s) == 0
    s = do(s, "pick raschid")
    assert [p.character for p in s.seats] == ["raschid", "berke", "kubilai"] and s.phase == "contracts"
    assert s.seats[2].figures == ("BEI",)


def test_expert_keep_two_of_four_objectives():
    """Expert variant: "robar 4 cartas de objetivo para conservar 2"."""
    s = laid_out(2, options={"objectives_keep": True}, objectives=(("G01", "G02", "G03", "G04"), (None,) * 4))
    assert s.phase == "keep" and T.to_move(s) == 0
    refused(s, ObjectivesKept(objectives=("G01",)), P + "keep-two-objectives")
    refused(s, ObjectivesKept(objectives=("G01", "G05")), P + "objectives-mismatch", ContradictsKnownFacts)
    s = apply(s, ObjectivesKept(objectives=("G01", "G04")))
    s = apply(s, ObjectivesKept())
    assert s.seats[0].objectives == ("G01", "G04") and s.seats[1].objectives == (None, None)
    assert s.phase == "contracts"
    assert len(T.legal_moves(laid_out(2, options={"objectives_keep": True}, objectives=(("G01", "G02", "G03", "G04"), (None,) * 4)))) == 6


def test_secret_objectives_revealed_at_the_end():
    """Objective cards stay secret ("las mantiene ocultas"); unknown ones are shown after round 5,
    checked against what is known, and only then is the game scored."""
    s = laid_out(2, chars=("carpini", "berke"), objectives=(("G01", None), (None, None)))
    s = final(rolled(s, (3, 3, 3, 3, 3), (3, 3, 3, 3, 3)))
    assert s.phase == "reveal" and T.outcome(s) is None and T.to_move(s) is None
    refused(s, ObjectivesRevealed(seat=0, objectives=("G02", "G03")), P + "objectives-mismatch", ContradictsKnownFacts)
    s = apply(s, ObjectivesRevealed(seat=0, objectives=("G01", "G05")))
    refused(s, ObjectivesRevealed(seat=1, objectives=("G05", "G06")), P + "objectives-mismatch", ContradictsKnownFacts)
    s = apply(s, ObjectivesRevealed(seat=1, objectives=("G07", "G06")))
    assert s.phase == "over" and T.outcome(s) is not None


def test_empty_display_refilled_from_special_pile():
    """Ruling MP-12 (reference A11): a display emptied during a round gets 2 contracts from the
    special pile at the start of the next turn."""
    import msgspec

    s = plain(2, dice=[(6, 6, 6, 6, 6)] * 2)
    s = msgspec.structs.replace(seat(s, 0, contracts=()), display=("K05", "K06"))
    s = do(s, "contracts 6 1,2", "end")
    assert s.display == () and s.pending == (("draw", -1, ""), ("draw", -1, ""))
    s = apply(s, ContractDrawn(contract="K20"))
    s = apply(s, ContractDrawn(contract="K21"))
    assert s.display == ("K20", "K21") and T.to_move(s) == 1
