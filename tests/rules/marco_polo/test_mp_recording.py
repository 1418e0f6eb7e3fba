"""Recording a physical table through the pipeline: observed dice and reveals, amendments of a
mis-entered die re-checked over the later history, views that keep objectives secret, notation."""

from __future__ import annotations

import pytest

from events.errors import HistoryEditRefused
from mp_helpers import T, laid_out
from rules.marco_polo.events import DiceRolled, SetupDealt

PLAYERS = ("Ana", "Bea")
SETUP = (
    "setup chars=carpini,berke cards=CC01,CC02,CC03,CC04,CC05,CC06,CC07,CC08,CC09 "
    "outposts=OB01,OB02,OB03,OB04,OB05,OB06,OB07 start=S1,S2 objectives=G01,?;?,?"
)


def table(recorder):
    gid, _ = recorder.create("marco-polo", PLAYERS, {"characters": "chosen"})
    for text in (SETUP, "deal 1 K01,K02,K03,K04,K05,K06", "roll 1 3,3,3,3,3;4,4,4,4,4", "coins5 3", "end", "coins5 4"):
        recorder.record_notation(gid, text)
    return gid


def test_a_mis_entered_die_is_amended_and_the_later_history_rechecked(recorder):
    gid = table(recorder)
    roll = next(e for e in recorder.log.read(gid) if isinstance(e.body, DiceRolled))
    # Ana's fifth die was a 5, not a 3: everything recorded after still holds
    recorder.amend(gid, roll.seq, DiceRolled(round=1, dice=((3, 3, 3, 3, 5), (4, 4, 4, 4, 4))))
    assert recorder.projector.state(gid).state.seats[0].dice == (3, 3, 3, 5)
    # Bea's dice were all 1s: her "take 5 coins with a 4" breaks (and compensation is owed first)
    with pytest.raises(HistoryEditRefused) as info:
        recorder.amend(gid, roll.seq, DiceRolled(round=1, dice=((3, 3, 3, 3, 5), (1, 1, 1, 1, 1))))
    assert info.value.code == "amendment-breaks-history"


def test_a_wrong_reveal_is_amended(recorder):
    gid = table(recorder)
    setup = next(e for e in recorder.log.read(gid) if isinstance(e.body, SetupDealt))
    fixed = T.parse_move(None, SETUP.replace("objectives=G01,?;?,?", "objectives=G02,?;?,?"))
    recorder.amend(gid, setup.seq, fixed)
    assert recorder.projector.state(gid).state.seats[0].objectives == ("G02", None)


def test_views_keep_objectives_secret_until_the_end():
    s = laid_out(2, chars=("carpini", "berke"), objectives=(("G01", "G02"), ("G03", "G04")))
    own = T.view(s, 0)
    assert own["objectives"] == ["G01", "G02"]
    other = T.view(s, 1)
    assert other["score"]["seats"][0]["objectives"] is None and other["score"]["seats"][1]["objectives"] == 0
    assert "G01" not in str(other) and "G01" not in str(T.view(s, None))
    assert T.full_view(s)["all_objectives"][0] == ["G01", "G02"]


EXAMPLES = [
    "@0 coins5 4", "@1 bazaar silk 4,b5 3", "bazaar gold 5,5,6 5 : KAR", "khan 4 silk",
    "contracts 6 1,6 -S1 : camels", "travel 4,5 O1-MOS", "travel 3,3 |O1", "travel 4,4 ALE|O1-MOS : silk",
    "card MOS 4 x3 : a", "complete K01 : silk", "bag w4", "reroll b3", "adjust 4 +1", "adjust 4 -1",
    "black", "end", "income 3/2 : pepper,gold", "return K03", "draw K17", "draw", "=5",
    "deal 2 K07,K08,K09,K10,K11,K12", "roll 1 3,5,1,6,2;4,4,2,1,6,3;-", "pick matteo", "keep G01,?",
    "reveal 2 G01,G05", SETUP, "setup draft=raschid,berke,kubilai cards=CC01 outposts=OB01 bonuses=CB2 start=S1,S2",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_notation_round_trips(text):
    move = T.parse_move(None, text)
    assert T.format_move(move) == text
    assert T.parse_move(None, T.format_move(move)) == move
