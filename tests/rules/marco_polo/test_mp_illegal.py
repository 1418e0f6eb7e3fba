"""A generated suite of illegal moves: each is refused with a rule-naming ``marco-polo.*`` code and a
message, and the state is unchanged (``refused``)."""

from __future__ import annotations

from functools import lru_cache

import msgspec
import pytest

from events.errors import ContradictsKnownFacts
from mp_helpers import CARDS, OUTPOSTS, T, do, laid_out, plain, refused, rolled, seat
from rules.marco_polo.events import (
    CharacterPicked,
    ContractDrawn,
    ContractsDealt,
    DieRolled,
    ObjectivesKept,
    ObjectivesRevealed,
    SetupDealt,
    Travelled,
)
from test_mp_seed import final

P = "marco-polo."


@lru_cache(maxsize=None)
def base(name: str):
    if name == "setup":
        return T.setup(("Ana", "Bea"), {"characters": "chosen"})
    if name == "contracts":
        return laid_out(2, chars=("carpini", "berke"))
    if name == "roll":
        return do(laid_out(2, chars=("carpini", "berke")), "deal 1 K01,K02,K03,K04,K05,K06")
    if name == "play":
        return seat(plain(2, dice=[(1, 3, 3, 4, 4), (3, 3, 3, 3, 3)]), 0, camels=4)
    if name == "six":
        return plain(2, dice=[(6, 6, 6, 6, 6), (3, 3, 3, 3, 3)])
    if name == "done":
        return do(base("play"), "coins5 3")
    if name == "reroll":
        return do(base("play"), "reroll 4")
    if name == "draw":
        return do(seat(base("play"), 0, camels=2, silk=1, pepper=1), "complete S1")
    if name == "income":
        return plain(2, dice=[(1, 1, 1, 1, 1), (3, 3, 3, 3, 3)])
    if name == "over":
        return final(plain(2))
    if name == "raschid":
        s = laid_out(2, chars=("raschid", "berke"))
        return rolled(s, (), (3, 3, 3, 3, 3))
    if name == "draft":
        s = T.setup(("Ana", "Bea"), {"characters": "draft"})
        return do(s, "setup draft=raschid,berke,kubilai cards=" + ",".join(CARDS) + " outposts=" + ",".join(OUTPOSTS) + " start=S1,S2")
    if name == "keep":
        return laid_out(2, options={"objectives_keep": True}, objectives=(("G01", "G02", "G03", "G04"), ("G05", "G06", "G07", "G08")))
    if name == "full_khan":
        s = plain(4, dice=[(3, 3, 3, 3, 3)] * 4)
        return do(s, "khan 3 silk", "end", "khan 3 silk", "end", "khan 3 silk", "end", "khan 3 silk", "end")
    if name == "carded":
        s = seat(seat(plain(2), 0, posts=("MOS",)), 1, posts=("BEI", "MOS"))
        return do(s, "card MOS 3", "end")
    if name == "new_post":
        s = seat(plain(2, dice=[(3, 3, 3, 3, 3)] * 2), 0, contracts=("S3",), camels=3, pepper=3, figures=("O1",))
        return do(s, "complete S3 : MOS")
    if name == "black":
        return do(seat(base("play"), 0, camels=6), "black", "=2")
    if name == "travel_taken":  # another traveller's dice on 'Viajar', and no coins for its fee
        s = base("posts")
        return msgspec.structs.replace(s, board=s.board + (("travel", 5, 1, "c"), ("travel", 5, 1, "c")))
    if name == "posts":
        return seat(plain(2, dice=[(5, 5, 5, 5, 5), (3, 3, 3, 3, 3)]), 0, posts=("KAR", "ANX", "KAS", "XIA"), coins=0, camels=0)
    raise KeyError(name)


def setup_event(**kw):
    fields = dict(characters=("carpini", "berke"), city_cards=CARDS, outposts=OUTPOSTS, starting_contracts=("S1", "S2"))
    fields.update(kw)
    return SetupDealt(**fields)


CASES = [
    # --- notation ---------------------------------------------------------------------------
    ("play", "fly 3 MOS", "bad-notation"),
    ("play", "bazaar silk 3,3 x", "bad-notation"),
    ("play", "contracts 3 1 S1", "bad-notation"),
    ("play", "card MOS 3 3", "bad-notation"),
    ("play", "income 3", "bad-notation"),
    ("play", "setup foo=bar", "bad-notation"),
    ("play", "", "bad-notation"),
    # --- dice -------------------------------------------------------------------------------
    ("play", "coins5 7", "bad-die"),
    ("play", "coins5 x3", "bad-die"),
    ("play", "coins5 b3", "die-not-held"),
    ("play", "coins5 w3", "die-not-held"),
    ("play", "coins5 6", "die-not-held"),
    ("play", "bag 2", "die-not-held"),
    ("play", "bazaar silk 1,1 1", "die-not-held"),
    ("play", "travel 3 ALE", "dice-count"),
    ("play", "travel 3,3,4 ALE", "dice-count"),
    ("play", "bazaar gold 3,3 2", "dice-count"),
    ("play", "bazaar silk 3 1", "dice-count"),
    ("play", "reroll 6", "die-not-held"),
    ("play", "adjust 5 +1", "die-not-held"),
    ("play", "adjust 1 -1", "no-wrap-6-1"),
    ("six", "adjust 6 +1", "no-wrap-6-1"),
    ("play", "adjust 3 0", "bad-choice"),
    ("play", "adjust 3 -2", "bad-choice"),
    ("raschid", "reroll 4", "raschid-sets-dice"),
    ("raschid", "adjust 4 +1", "raschid-sets-dice"),
    ("raschid", "bazaar gold 6,6,6,6 6", "dice-count"),
    ("black", "black", "one-black-die-per-turn"),
    ("six", "black", "cannot-afford"),
    # --- turn order and phases --------------------------------------------------------------
    ("play", "@1 coins5 3", "not-your-turn"),
    ("play", "@7 coins5 3", "unknown-seat"),
    ("play", "end", "main-action-required"),
    ("done", "coins5 4", "one-main-action"),
    ("done", "bazaar camels 4 4", "one-main-action"),
    ("done", "travel 4,4 ALE", "one-main-action"),
    ("done", "contracts 4 1 -S1", "one-main-action"),
    ("done", "khan 4 gold", "one-main-action"),
    ("setup", "coins5 3", "awaiting-setup"),
    ("contracts", "coins5 3", "awaiting-contracts"),
    ("roll", "coins5 3", "awaiting-roll"),
    ("reroll", "coins5 3", "pending-first"),
    ("reroll", "end", "pending-first"),
    ("reroll", "draw K30", "pending-first"),
    ("draw", "=4", "pending-first"),
    ("draw", "bag 3", "pending-first"),
    ("income", "coins5 1", "pending-first"),
    ("income", "=3", "pending-first"),
    ("play", "=3", "not-expected-now"),
    ("play", "draw K30", "not-expected-now"),
    ("play", "return S1", "not-expected-now"),
    ("play", "income 0/0", "not-expected-now"),
    ("play", "pick berke", "not-expected-now"),
    ("over", "coins5 3", "game-over"),
    ("over", "end", "game-over"),
    ("over", "=3", "game-over"),
    ("play", "deal 2 K07,K08,K09,K10,K11,K12", "not-expected-now"),
    ("play", "roll 1 3,3,3,3,3;3,3,3,3,3", "not-expected-now"),
    ("contracts", "deal 2 K07,K08,K09,K10,K11,K12", "wrong-round"),
    ("roll", "roll 2 3,3,3,3,3;3,3,3,3,3", "wrong-round"),
    ("roll", "roll 1 3,3,3,3;3,3,3,3,3", "dice-count"),
    ("roll", "roll 1 3,3,3,3,3", "setup-shape"),
    ("roll", "roll 1 3,3,3,3,9;3,3,3,3,3", "bad-die"),
    ("contracts", "setup chars=carpini,berke cards=CC01 outposts=OB01 start=S1,S2", "not-expected-now"),
    # --- round start and pending resolutions -----------------------------------------------
    ("income", "income 5/4", "compensation"),
    ("income", "income 10/1", "compensation"),
    ("income", "income -1/11", "compensation"),
    ("income", "income 10/0 : silk", "extra-choice"),
    ("reroll", DieRolled(value=0), "bad-die"),
    ("reroll", DieRolled(value=7), "bad-die"),
    ("draw", ContractDrawn(), "contract-must-be-named"),
    ("draw", ContractDrawn(contract="K99"), "unknown-id"),
    ("draw", ContractDrawn(contract="K01"), "contract-already-seen"),
    ("draw", ContractDrawn(contract="S3"), "contract-already-seen"),
    ("draft", CharacterPicked(character="matteo"), "not-offered"),
    ("draft", CharacterPicked(character="berke", seat=0), "not-your-turn"),
    ("keep", ObjectivesKept(objectives=("G01", "G02", "G03")), "keep-two-objectives"),
    ("keep", ObjectivesKept(objectives=("G01", "G05")), "objectives-mismatch"),
    ("keep", ObjectivesKept(objectives=("G01", "G01")), "duplicate-component"),
    ("play", ObjectivesRevealed(seat=0, objectives=("G01",)), "keep-two-objectives"),
    ("play", ObjectivesRevealed(seat=0, objectives=("G01", "G03")), "objectives-mismatch"),
    ("play", ObjectivesRevealed(seat=0, objectives=("G01", "G99")), "unknown-id"),
    ("contracts", ContractsDealt(round=1, contracts=("K01", "K01", "K02", "K03", "K04", "K05")), "duplicate-component"),
    ("contracts", ContractsDealt(round=1, contracts=("K01", "K02", "K03", "K04", "K05", "X1")), "unknown-id"),
    # --- setup ------------------------------------------------------------------------------
    ("setup", setup_event(characters=("carpini",)), "setup-shape"),
    ("setup", setup_event(characters=("carpini", "nobody")), "unknown-id"),
    ("setup", setup_event(characters=("carpini", "carpini")), "duplicate-component"),
    ("setup", setup_event(draft=("carpini", "berke", "raschid")), "setup-shape"),
    ("setup", setup_event(city_cards=CARDS[:-1] + ("CC99",)), "unknown-id"),
    ("setup", setup_event(outposts=OUTPOSTS[:-1] + ("OB11",)), "unknown-id"),
    ("setup", setup_event(starting_contracts=("S1", "K01")), "unknown-id"),
    ("setup", setup_event(starting_contracts=("S1",)), "setup-shape"),
    ("setup", setup_event(starting_contracts=("S1", "S1")), "duplicate-component"),
    ("setup", setup_event(city_bonuses=("CB1",) * 6), "setup-shape"),
    ("setup", setup_event(objectives=(("G01",), ("G02",))), "setup-shape"),
    ("setup", setup_event(objectives=(("G01", "G02"), ("G02", "G03"))), "duplicate-component"),
    ("setup", setup_event(objectives=(("G01", "G02"), ("G03", "X"))), "unknown-id"),
    # --- bazaar and Khan's favor ------------------------------------------------------------
    ("play", "bazaar tea 3 3", "unknown-bazaar-row"),
    ("play", "bazaar pepper 3 4", "bazaar-column"),
    ("play", "bazaar pepper 3 0", "bazaar-column"),
    ("play", "bazaar camels 1 2", "bazaar-column"),
    ("six", "bazaar gold 6,6,6 5", "missing-choice"),
    ("six", "bazaar gold 6,6,6 5 : KAR", "not-adjacent"),
    ("six", "bazaar gold 6,6,6 4 : silk", "extra-choice"),
    ("play", "khan 3 tea", "bad-choice"),
    ("full_khan", "khan 3 silk", "khans-favor-full"),
    # --- contracts --------------------------------------------------------------------------
    ("play", "contracts 3 4 -S1", "contract-column"),
    ("play", "contracts 3 0 -S1", "contract-column"),
    ("six", "contracts 6 7", "contract-column"),
    ("play", "contracts 3 1,1", "take-one-or-two"),
    ("play", "contracts 3 1,2", "two-active-contracts"),
    ("play", "contracts 3 1 -S1,S1", "two-active-contracts"),
    ("play", "contracts 3 1,2 -K05", "contract-not-active"),
    ("six", "contracts 6 5 : gold", "bad-choice"),
    ("six", "contracts 6 5 : coins,camels", "extra-choice"),
    ("play", "complete K01", "contract-not-active"),
    ("play", "complete S1", "cannot-afford"),
    # --- travel -----------------------------------------------------------------------------
    ("play", Travelled(dice=("3", "3"), path=()), "travel-steps"),
    ("play", "travel 3,3 ALE-VEN-ALE-VEN", "travel-steps"),
    ("play", "travel 1,3 ALE-VEN", "travel-steps"),
    ("play", "travel 3,3 MOS", "not-adjacent"),
    ("play", "travel 3,3 ATLANTIS", "unknown-id"),
    ("play", "travel 3,3 ALE|ALE", "second-figure-niccolo"),
    ("six", "travel 6,6 O5", "cannot-afford"),
    ("posts", "travel 5,5 ALE", "cannot-afford"),
    # a path no route allows, or too long for the dice, is refused as such whatever one holds
    ("posts", "travel 5,5 MOS", "not-adjacent"),
    ("posts", "travel 5,5 ALE-MOS", "not-adjacent"),
    ("posts", "travel 5,5 ALE-ATLANTIS", "unknown-id"),
    ("posts", "travel 5,5 ALE|ALE", "second-figure-niccolo"),
    ("travel_taken", "travel 5,5 MOS", "not-adjacent"),
    ("travel_taken", "travel 5,5 ALE-VEN-ALE-VEN-ALE-VEN", "travel-steps"),
    ("travel_taken", "travel 5,5 ALE", "occupied-fee"),
    # --- city cards -------------------------------------------------------------------------
    ("play", "card MOS 3", "city-card-needs-post"),
    ("play", "card XYZ 3", "unknown-id"),
    ("carded", "card MOS 3", "city-card-used"),
    ("new_post", "card MOS 3", "city-card-next-turn"),
    ("posts", "card KAR 5 x6", "city-card-times"),
    ("posts", "card KAR 5 x0", "city-card-times"),
    ("posts", "card SAM 5", "city-card-needs-post"),
    # --- moves inside rewards ---------------------------------------------------------------
    ("new_post", "complete S3 : MOS", "contract-not-active"),
]


@pytest.mark.parametrize("name,move,code", CASES, ids=[f"{i:03d}-{c[2]}" for i, c in enumerate(CASES)])
def test_illegal_move_is_refused_with_its_rule(name, move, code):
    state = base(name)
    exc_type = ContradictsKnownFacts if code in (
        "contract-already-seen", "contract-mismatch", "objectives-mismatch", "duplicate-component"
    ) else None
    if isinstance(move, str):
        try:
            move = T.parse_move(state, move)
        except Exception as exc:  # notation errors are refusals too
            assert getattr(exc, "code", None) == P + code, exc
            return
    if exc_type is None:
        refused(state, move, P + code)
    else:
        refused(state, move, P + code, exc_type)


def test_the_suite_is_large_and_every_code_is_listed():
    from rules.marco_polo.codes import CODES

    assert len(CASES) >= 100
    assert {P + c for _, _, c in CASES} <= set(CODES)
