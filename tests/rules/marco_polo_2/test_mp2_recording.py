"""Recording at a real table with the shipped partial pack (public facts only): the map, contracts,
city cards, offer tiles, bonus markers, seals and goal cards are described by the events that bring
them to the table, checked like pack data, replayed and scored; replay frames mark those steps."""

from __future__ import annotations

import json

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.errors import ContradictsKnownFacts, TabletapeError
from mp2_helpers import NAMES, PUB, T, apply, do, refused
from rules.marco_polo_2.content import PUBLIC
from rules.marco_polo_2.content.schema import KINDS
from rules.marco_polo_2.events import Component, Travelled

P = "marco-polo-2."


def d(component: str, cid: str, **spec) -> dict:
    return {"kind": component, "id": cid, "spec": spec}


def described(*components) -> str:
    return " describe=" + json.dumps(list(components), separators=(",", ":"), ensure_ascii=False)


SETUP = "setup chars=dewu,mongke start=T1,T2 goals=?,?,?;?,?,? bonuses=KAS:M1 cards=XIA:Q1 contracts=XIA:R01,XIA:R02" + described(
    d("contract", "T1", cost={"camels": 1, "pepper": 1}, reward={"vp": 3, "coins": 2}, starting=True),
    d("contract", "T2", cost={"silk": 1}, reward={"vp": 2}, starting=True),
    d("contract", "R01", cost={"pepper": 1}, reward={"vp": 4}),
    d("contract", "R02", cost={"gold": 1}, reward={"vp": 6}),
    d("city_bonus", "M1", gain={"coins": 2}),
    d("city_card", "Q1", kind="exchange", gain={"coins": 2}),
)
BOOKS = (d("book", "1", min_die=1, fixed=[{"pepper": 1}, {"coins": 3}]),)


def round_line(r: int) -> str:
    offers = [d("offer", f"O{r}{b}", book=b, jade1={"coins": 2}, jade2={"gold": 1}) for b in (1, 2, 3)]
    up = [d("offer", f"O{r + 1}{b}", book=b, jade1={"camels": 2}, jade2={"silk": 2}) for b in (1, 2, 3)] if r < 5 else []
    cards = [d("city_card", f"A{r}{i}", kind="exchange", gain={"camels": 1}) for i in (1, 2)]
    comps = (offers if r == 1 else []) + up + cards + (list(BOOKS) if r == 1 else [])
    text = f"round {r} offers=O{r}1,O{r}2,O{r}3" + (f" upcoming=O{r + 1}1,O{r + 1}2,O{r + 1}3" if r < 5 else "")
    return text + f" area=A{r}1,A{r}2" + described(*comps)


KASHGAR = (d("node", "KAS", kind="city", shield="bow"), d("route", "BEI-KAS", ends=["BEI", "KAS"], coins=3, camels=1))
XIAN = (d("node", "XIA", kind="city", shield="fish"), d("route", "KAS-XIA", ends=["KAS", "XIA"], jade=1))


def opening():
    state = T.setup(NAMES[:2], {**PUB, "characters": "chosen"})
    assert T.chance(state) is None  # no digital layout without the components
    state = do(state, SETUP, "@0 keep ?", "@1 keep ?", round_line(1), "roll 1 3,3,3,3,3;3,3,3,3,3")
    return state


def game_lines() -> list[str]:
    """A whole two-player game at a table with the public pack, components described as they come."""
    lines = [SETUP, "@0 keep ?", "@1 keep ?", round_line(1), "roll 1 3,3,3,3,3;3,3,3,3,3",
             "@0 travel 2 dice=3,3 path=KAS" + described(*KASHGAR), "@0 bag 3 coins", "@0 bag 3 coins", "@0 bag 3 coins", "@0 end",
             "@1 book 1 die=3 option=1", "@1 bag 3 coins", "@1 bag 3 coins", "@1 bag 3 coins", "@1 bag 3 coins", "@1 end"]
    for r in range(2, 6):
        lines += [round_line(r), f"roll {r} 3,3,3,3,3;3,3,3,3,3"]
        if r == 2:
            lines += ["@0 bag 3 jade", "@0 travel 2 dice=3,3 path=XIA take=R01" + described(*XIAN),
                      "refill XIA R03" + described(d("contract", "R03", cost={"camels": 9}, reward={"vp": 9}))]
            lines += ["@0 bag 3 coins"] * 2
        else:
            lines += ["@0 khan 3"] + ["@0 bag 3 coins"] * 4
        lines += ["@0 end", "@1 bag 3 coins", "@1 bag 3 coins", "@1 bag 3 coins", "@1 bag 3 coins", "@1 khan 3" if r % 2 else "@1 bag 3 jade", "@1 end"]
    lines += ["reveal 0 G9" + described(d("goal", "G9", guilds={"farmer": 3}, shields=["bow", "fish"])),
              "reveal 1 G8" + described(d("goal", "G8", guilds={"spicer": 3}, shields=["bow"]))]
    return lines


def test_components_are_described_as_they_come_to_the_table():
    """A contract when revealed, a route and its end when travelled, a city card when laid out: the
    core checks the move against the description (affordability, the colour rule, contract limits)."""
    state = opening()
    err = refused(state, "@0 travel 2 dice=3,3 path=KAS", P + "undescribed-component")
    assert err.details == {"kind": "route", "id": "BEI-KAS"}
    state2 = do(state, "@0 travel 2 dice=3,3 path=KAS" + described(*KASHGAR))
    p = state2.seats[0]
    assert (p.coins, p.camels, p.posts) == (8 - 3 + 2, 2, ("KAS",))  # route 3 coins 1 camel; KAS's «!» 2 coins
    poor = msgspec.structs.replace(state, seats=(msgspec.structs.replace(state.seats[0], coins=0, jade=0),) + state.seats[1:])
    refused(poor, "@0 travel 2 dice=3,3 path=KAS" + described(*KASHGAR), P + "cannot-afford")
    wrong = d("route", "BEI-KAS", ends=["BEI", "KAS"], coins=1)
    state3 = do(state2, "@0 end")
    refused(state3, "@1 travel 2 dice=3,3 path=KAS" + described(wrong), P + "description-mismatch", ContradictsKnownFacts)
    state3 = do(state3, "@1 travel 2 dice=3,3 path=KAS")  # known now: no need to describe again
    assert state3.seats[1].coins == 8 - 3 - 3 + 2  # route, the occupied travel row (3), «!»
    refused(do(state3, "@1 end"), "@0 special baghdad 3", P + "needs-post")


def test_an_undescribed_component_is_refused_naming_it():
    """Using a component neither the pack nor an earlier event describes names the missing one."""
    state = opening()
    err = refused(state, "@0 book 2 die=3 option=1", P + "undescribed-component")
    assert err.details == {"kind": "book", "id": "2"}
    refused(state, "@0 improve farmer", P + "seal-not-owned")
    bad = "@0 travel 2 dice=3,3 path=KAS" + described(d("route", "BEI-KAS", ends=["BEI", "KAS"], coins=-1), KASHGAR[0])
    refused(state, bad, P + "bad-description")


def test_a_partial_pack_game_through_the_pipeline_is_replayed_and_scored(recorder):
    """The whole game through the recorder and the log: every step checked, the frames mark the
    steps that describe components, a fresh projection equals the live one, the score is final."""
    from projections.projector import Projector
    from replay.frames import Perspective, frames

    gid, _ = recorder.create("marco-polo-2", NAMES[:2], {**PUB, "characters": "chosen"})
    lines = game_lines()
    for text in lines:
        recorder.record_notation(gid, text)
    live = recorder.projector.state(gid)
    assert live.ended is not None, T.status(live.state)
    fresh = Projector(recorder.log).state(gid)
    assert fresh.state == live.state
    rows = T.score(live.state)["seats"]
    # seat 0 (De Wu, +1): posts KAS (bow) + XIA (fish): 2 shields, goal G9 shows both: +2 -> 5 = 6 VP
    assert rows[0]["shields_count"] == 5 and rows[0]["shields"] == 6
    marked = [f for f in frames(recorder.projector, gid, perspective=Perspective(full=True)) if f.described]
    assert "contract:T1" in marked[0].described
    assert any("route:BEI-KAS" in f.described for f in marked)
    # a later step resting on described components is marked too: completing R01 (described at setup)
    # and the round's free book options (described in round 1) used in round 2
    assert sum(1 for f in marked if f.move and f.move.startswith("@1 book 1")) == 1
    plain_steps = [f for f in frames(recorder.projector, gid) if f.move is None and f.type.endswith("turn-ended")]
    assert all(f.described is None for f in plain_steps)
    assert live.state.pack == PUBLIC.hash and ["route", "KAS-XIA"] in T.view(live.state, None)["described"]


def test_legal_moves_with_the_partial_pack_are_all_accepted():
    """With components known only from descriptions, every listed move is legal (moves that would
    need an undescribed component are not listed), and the game scores."""
    state = T.setup(NAMES[:2], {**PUB, "characters": "chosen"})
    for text in game_lines():
        for m in T.legal_moves(state):
            assert T.decide(state, m) == (m,), m
        state = apply(state, T.parse_move(state, text))
    assert T.outcome(state) is not None


def test_a_described_goal_card_stays_secret_until_the_end():
    """A recorder who knows a kept goal card may describe it; views and frames do not show it."""
    state = T.setup(NAMES[:2], {**PUB, "characters": "chosen"})
    state = do(state, SETUP, "@0 keep G9" + described(d("goal", "G9", guilds={"farmer": 3}, shields=["bow"])))
    for seat in (None, 1):
        assert "G9" not in msgspec.json.encode(T.view(state, seat)).decode()
    assert T.described(state, None) == ()
    assert T.view(state, 0)["goal"] == "G9"


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from(["BEI", "KAS", "city", "oasis", "farmer", "bow", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["kind", "shield", "ends", "coins", "camels", "jade", "guild", "cost", "reward", "gain"]), inner, max_size=4),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS + ("dragon",)), cid=st.sampled_from(["KAS", "BEI-KAS", "X", ""]), spec=st.dictionaries(st.sampled_from(["kind", "shield", "ends", "coins", "camels", "jade", "guild", "cost", "reward", "gain", "fixed"]), JSONISH, max_size=4))
def test_any_description_is_accepted_or_refused_with_a_rule(kind, cid, spec):
    """Whatever a recorder describes, the core answers with a move or a named refusal, never a crash."""
    state = opened()
    move = Travelled(row=2, dice=("3", "3"), path=("KAS",), describe=(Component(kind=kind, id=cid, spec=spec), *[Component(kind=k["kind"], id=k["id"], spec=k["spec"]) for k in KASHGAR]))
    try:
        T.decide(state, move)
    except TabletapeError as exc:
        assert exc.code.startswith(P), exc.code



_OPENED: list = []


def opened():
    """The opening position, built once."""
    if not _OPENED:
        _OPENED.append(opening())
    return _OPENED[0]


def test_the_table_content_holds_what_the_log_described_but_goal_cards():
    """The page draws a described contract, city card, tile and book as printed: the game's content
    lists them beside the pack's; a goal card described before the end stays out."""
    state = do(opening(), "@0 travel 2 dice=3,3 path=KAS" + described(*KASHGAR))
    content = T.table_content(state)
    ids = {section: [x["id"] for x in content.get(section, [])] for section in ("contracts", "city_cards", "city_bonuses", "offers")}
    assert ids == {"contracts": ["T1", "T2", "R01", "R02"], "city_cards": ["Q1", "A11", "A12"], "city_bonuses": ["M1"],
                   "offers": ["O11", "O12", "O13", "O21", "O22", "O23"]}
    assert content["books"][0]["fixed"] == [{"pepper": 1}, {"coins": 3}]
    assert [n["id"] for n in content["map"]["nodes"]] == ["BEI", "KAS"] and content["map"]["routes"][0]["coins"] == 3
    assert PUBLIC.data.get("contracts") is None and "fixed" not in PUBLIC.data["books"][0]  # the pack is untouched
    secret = do(T.setup(NAMES[:2], {**PUB, "characters": "chosen"}), SETUP, "@0 keep G9" + described(d("goal", "G9", guilds={"farmer": 3}, shields=["bow"])))
    assert "goals" not in T.table_content(secret)


def test_snapshots_stored_under_the_old_rules_are_not_reused(log):
    """The rules changed in version 2 (issue 14: Isabella Donati, paths, Donata Badoer's pieces) and 3
    (issue 29: paths may come back, Möngke Khan paid once per oasis): a snapshot folded by older
    rules is never read back, the game is folded again."""
    from mp2_helpers import SYN
    from projections.projector import Projector
    from replay.recorder import Recorder

    assert T.version == "3"
    recorder = Recorder(log, Projector(log, snapshot_every=4))
    gid, _ = recorder.create("marco-polo-2", NAMES[:2], {**SYN, "characters": "chosen"})
    for text in ("setup chars=isabella,dewu start=S1,S2 goals=G01,G02,G03;G04,G05,G06 bonuses=C1:CB1,C5:CB2,BAG:CB3,BAL:CB4,HOR:CB5 "
                 "outposts=C2:OT1,C3:OT2,C4:OT3,C6:OT4 cards=C1:CC01,C3:CC02,C4:CC03 contracts=C2:K01,C2:K02,C5:K03,C5:K04,C6:K05,C6:K06",
                 "@0 keep G01", "@1 keep G04", "round 1 offers=B1a,B2a,B3a upcoming=B1b,B2b,B3b area=CC04,CC05",
                 "roll 1 1,2,3,4,6;3,3,3,3,3", "@0 black", "@0 =5", "@0 reroll b5", "@0 =6"):
        recorder.record_notation(gid, text)
    coins = recorder.projector.state(gid).state.seats[0].coins
    rows = log.con.execute("SELECT seq, rules_version, length, state FROM snapshots WHERE game_id = ?", [gid]).fetchall()
    assert rows and {r[1] for r in rows} == {"marco-polo-2@3"}

    def rewrite(version: str) -> None:
        """Every snapshot replaced by one paying Isabella 2 coins more, stored under ``version``."""
        log.con.execute("DELETE FROM snapshots WHERE game_id = ?", [gid])
        for seq, _, length, blob in rows:
            state, ended, forked = msgspec.msgpack.decode(bytes(blob), type=tuple[T.state_type, object, object])
            p = msgspec.structs.replace(state.seats[0], coins=state.seats[0].coins + 2)
            wrong = msgspec.msgpack.encode((msgspec.structs.replace(state, seats=(p,) + state.seats[1:]), ended, forked))
            log.con.execute("INSERT INTO snapshots VALUES (?, ?, ?, ?, ?)", [gid, seq, version, length, wrong])

    rewrite("marco-polo-2@3")  # the check that snapshots are read at all
    assert Projector(log, snapshot_every=4).state(gid).state.seats[0].coins == coins + 2
    rewrite("marco-polo-2@2")
    assert Projector(log, snapshot_every=4).state(gid).state.seats[0].coins == coins == 12
    rewrite("marco-polo-2@1")
    assert Projector(log, snapshot_every=4).state(gid).state.seats[0].coins == coins == 12
