"""INVENTED TEST PACK -- NOT THE REAL BOARD. A small, complete Marco Polo II pack made up so that
random legal games can run from the first event to the scores (tests, benchmarks, demos).

Every map node, route cost, contract, card, tile and seal value below is made up; only the rules
facts (``common.RULES``) are the game's. The special cities keep their seed names (Baghdad, Balkh,
Hormuz) because the rules name them; their rewards are invented too.
"""

from __future__ import annotations

from rules.marco_polo_2.content.common import RULES


def _n(nid, kind, shield=None, special=None, slots=()):
    out = {"id": nid, "name": nid, "kind": kind}
    if shield:
        out["shield"] = shield
    if special:
        out["special"] = special
    if slots:
        out["slots"] = list(slots)
    return out


def _r(a, b, coins=0, camels=0, jade=0, guild=None):
    out = {"id": f"{a}-{b}", "ends": [a, b], "coins": coins, "camels": camels, "jade": jade}
    if guild:
        out["guild"] = guild
    return out


NODES = [
    _n("BEI", "start"),
    _n("C1", "city", "lion", slots=("bonus", "card")),
    _n("C2", "city", "eagle", slots=("outpost", "contracts")),
    _n("C3", "city", "lion", slots=("outpost", "card")),
    _n("C4", "city", "sun", slots=("outpost", "card")),
    _n("C5", "city", "moon", slots=("bonus", "contracts")),
    _n("C6", "city", "star", slots=("outpost", "contracts")),
    _n("BAG", "city", "tower", special="baghdad", slots=("bonus",)),
    _n("BAL", "city", "crown", special="balkh", slots=("bonus",)),
    _n("HOR", "city", "ship", special="hormuz", slots=("bonus",)),
    _n("O1", "oasis"),
    _n("O2", "oasis"),
    _n("O3", "oasis"),
    _n("O4", "oasis"),
]
ROUTES = [
    _r("BEI", "C1", coins=2),
    _r("BEI", "O1", camels=1),
    _r("C1", "C2", coins=1, camels=1),
    _r("C1", "O2"),
    _r("O1", "C3", coins=3),
    _r("O1", "O2", jade=1),
    _r("C2", "C4", guild="farmer"),
    _r("C2", "O3", coins=2),
    _r("C3", "C5", camels=2),
    _r("O2", "C5"),
    _r("O3", "C6", coins=1),
    _r("C4", "BAG", coins=2, camels=1),
    _r("C5", "BAL", guild="spicer"),
    _r("C6", "HOR", jade=1),
    _r("O3", "O4"),
    _r("O4", "BAL", coins=1),
    _r("O4", "HOR", camels=1),
    _r("C4", "C6", coins=4),
    _r("C3", "O4", coins=1, camels=1),
]


def _k(kid, cost, reward, starting=False):
    return {"id": kid, "cost": cost, "reward": reward, "starting": starting}


CONTRACTS = [
    _k("S1", {"camels": 1, "pepper": 1}, {"vp": 3, "coins": 2}, True),
    _k("S2", {"camels": 1, "silk": 1}, {"vp": 3, "camels": 2}, True),
    _k("S3", {"pepper": 2}, {"vp": 2, "jade": 1}, True),
    _k("S4", {"camels": 2, "pepper": 1}, {"vp": 4}, True),
    _k("S5", {"coins": 3, "silk": 1}, {"vp": 3, "pepper": 1}, True),
    _k("K01", {"camels": 2, "pepper": 2}, {"vp": 5, "coins": 2}),
    _k("K02", {"camels": 1, "silk": 2}, {"vp": 5, "camels": 2}),
    _k("K03", {"camels": 2, "gold": 1}, {"vp": 5, "jade": 1}),
    _k("K04", {"pepper": 3}, {"vp": 4, "coins": 3}),
    _k("K05", {"silk": 1, "pepper": 1}, {"vp": 3, "camels": 1}),
    _k("K06", {"camels": 3, "gold": 1, "silk": 1}, {"vp": 8}),
    _k("K07", {"gold": 2}, {"vp": 7, "coins": 1}),
    _k("K08", {"camels": 1, "pepper": 1, "jade": 1}, {"vp": 4, "silk": 1}),
    _k("K09", {"camels": 2, "silk": 1, "pepper": 1}, {"vp": 5, "gold": 1}),
    _k("K10", {"pepper": 2, "silk": 1}, {"vp": 5}),
    _k("K11", {"camels": 1, "gold": 1}, {"vp": 4, "pepper": 2}),
    _k("K12", {"silk": 2}, {"vp": 4, "coins": 4}),
    _k("K13", {"camels": 2, "pepper": 1, "gold": 1}, {"vp": 6, "camels": 1}),
    _k("K14", {"pepper": 1}, {"vp": 2, "coins": 1}),
    _k("K15", {"camels": 1, "silk": 1, "gold": 1}, {"vp": 6, "jade": 1}),
    _k("K16", {"gold": 1, "pepper": 2}, {"vp": 6}),
    _k("K17", {"camels": 4, "pepper": 1}, {"vp": 5, "silk": 1}),
    _k("K18", {"silk": 3}, {"vp": 7}),
    _k("K19", {"camels": 1, "pepper": 1, "silk": 1}, {"vp": 4, "coins": 3}),
    _k("K20", {"gold": 1, "silk": 1}, {"vp": 6, "camels": 1}),
    # reward icons (reference B9, B15; ruling MP2-20)
    _k("K21", {"camels": 1, "pepper": 1}, {"vp": 2, "contract": 1}),
    _k("K22", {"silk": 1}, {"vp": 2, "black_die": 1}),
    _k("K23", {"pepper": 1, "silk": 1}, {"vp": 3, "contract_pile": 1}),
]


def _card(cid, kind, gain, pay=None):
    out = {"id": cid, "kind": kind, "gain": gain}
    if pay:
        out["pay"] = pay
    return out


CITY_CARDS = [
    _card("CC01", "exchange", {"coins": 2}),
    _card("CC02", "exchange", {"coins": 3}, {"camels": 1}),
    _card("CC03", "exchange", {"camels": 1}, {"coins": 1}),
    _card("CC04", "exchange", {"silk": 1}, {"pepper": 1}),
    _card("CC05", "exchange", {"gold": 1}, {"silk": 1, "coins": 1}),
    _card("CC06", "per_contract", {"vp": 1}),
    _card("CC07", "per_post", {"coins": 1}),
    _card("CC08", "exchange", {"vp": 1}, {"coins": 2}),
    _card("CC09", "exchange", {"pepper": 1}, {"camels": 1}),
    _card("CC10", "exchange", {"coins": 2}, {"vp": 1}),
    _card("CC11", "per_post", {"camels": 1}),
    _card("CC12", "exchange", {"jade": 1}, {"coins": 3}),
    _card("CC13", "per_contract", {"coins": 2}),
    _card("CC14", "exchange", {"camels": 1}),
    # the effect types of reference B11 with a choice (ruling MP2-20)
    {"id": "CC15", "kind": "choice", "options": [{"pay": {"camels": 1}, "gain": {"coins": 3}}, {"pay": {"coins": 1}, "gain": {"camels": 1}}]},
    {"id": "CC16", "kind": "choice", "options": [{"pay": {"vp": 1}, "gain": {"coins": 2}}, {"pay": {"coins": 2}, "gain": {"vp": 1}}], "vp_below_zero": True},
    {"id": "CC17", "kind": "bonuses"},
    {"id": "CC18", "kind": "guild", "pay": {"camels": 1}},
    {"id": "CC19", "kind": "move"},
]
CITY_BONUSES = [
    {"id": "CB1", "gain": {"coins": 3}},
    {"id": "CB2", "gain": {"camels": 2}},
    {"id": "CB3", "gain": {"pepper": 1, "coins": 1}},
    {"id": "CB4", "gain": {"silk": 1}},
    {"id": "CB5", "gain": {"vp": 2}},
    {"id": "CB6", "gain": {"jade": 1}},
    {"id": "CB7", "any_bonus": True},
]
OUTPOSTS = [
    {"id": "OT1", "gain": {"coins": 5}},
    {"id": "OT2", "gain": {"camels": 3}},
    {"id": "OT3", "gain": {"gold": 1}},
    {"id": "OT4", "gain": {"vp": 3}},
    {"id": "OT5", "gain": {"silk": 1, "pepper": 1}},
    {"id": "OT6", "gain": {"jade": 2}},
    {"id": "OT7", "any_bonus": True},
]
GOALS = [
    {"id": "G01", "guilds": {"farmer": 3, "spicer": 4}, "shields": ["lion", "sun"]},
    {"id": "G02", "guilds": {"tailor": 5}, "shields": ["eagle", "moon", "star"]},
    {"id": "G03", "guilds": {"jeweler": 6, "farmer": 2}, "shields": ["tower", "crown"]},
    {"id": "G04", "guilds": {"spicer": 4, "tailor": 4}, "shields": ["ship", "lion"]},
    {"id": "G05", "guilds": {"farmer": 3}, "shields": ["sun", "moon", "crown"]},
    {"id": "G06", "guilds": {"jeweler": 5, "spicer": 3}, "shields": ["eagle", "ship"]},
    {"id": "G07", "guilds": {"tailor": 4, "farmer": 3}, "shields": ["star", "tower"]},
    {"id": "G08", "guilds": {"spicer": 5}, "shields": ["lion", "eagle", "ship"]},
    {"id": "G09", "guilds": {"jeweler": 4, "tailor": 3}, "shields": ["moon", "tower"]},
    {"id": "G10", "guilds": {"farmer": 4, "jeweler": 4}, "shields": ["crown", "star"]},
    {"id": "G11", "guilds": {"spicer": 3, "farmer": 3}, "shields": ["sun", "ship"]},
    {"id": "G12", "guilds": {"tailor": 6}, "shields": ["lion", "moon", "tower"]},
    {"id": "G13", "guilds": {"jeweler": 3, "spicer": 3}, "shields": ["eagle", "crown"]},
    {"id": "G14", "guilds": {"farmer": 5}, "shields": ["star", "ship", "sun"]},
]


def _offer(oid, book, jade1, jade2):
    return {"id": oid, "book": book, "jade1": jade1, "jade2": jade2}


OFFERS = [
    _offer("B1a", 1, {"pepper": 2}, {"silk": 2}),
    _offer("B1b", 1, {"camels": 3}, {"gold": 1, "camels": 1}),
    _offer("B1c", 1, {"coins": 5}, {"pepper": 3}),
    _offer("B1d", 1, {"silk": 1, "pepper": 1}, {"gold": 1, "pepper": 1}),
    _offer("B1e", 1, {"pepper": 1, "camels": 2}, {"silk": 2, "coins": 1}),
    _offer("B1f", 1, {"coins": 3, "camels": 1}, {"gold": 2}),
    _offer("B2a", 2, {"silk": 2}, {"gold": 2}),
    _offer("B2b", 2, {"pepper": 2, "camels": 1}, {"silk": 3}),
    _offer("B2c", 2, {"gold": 1}, {"gold": 1, "silk": 2}),
    _offer("B2d", 2, {"coins": 6}, {"vp": 4}),
    _offer("B2e", 2, {"silk": 1, "coins": 2}, {"gold": 2, "camels": 1}),
    _offer("B2f", 2, {"camels": 4}, {"silk": 2, "pepper": 2}),
    _offer("B3a", 3, {"gold": 2}, {"gold": 3}),
    _offer("B3b", 3, {"gold": 1, "silk": 1}, {"gold": 2, "silk": 2}),
    _offer("B3c", 3, {"vp": 3}, {"vp": 6}),
    _offer("B3d", 3, {"gold": 1, "camels": 2}, {"gold": 3, "camels": 1}),
    _offer("B3e", 3, {"silk": 3}, {"gold": 2, "pepper": 2}),
    _offer("B3f", 3, {"gold": 2, "coins": 2}, {"gold": 4}),
]
ROUTE_TILES = [
    {"id": "RT1", "shields": ["lion", "eagle"]},
    {"id": "RT2", "shields": ["sun", "moon"]},
    {"id": "RT3", "shields": ["star", "tower"]},
    {"id": "RT4", "shields": ["crown", "ship"]},
    {"id": "RT5", "shields": ["lion", "sun"]},
    {"id": "RT6", "shields": ["eagle", "star"]},
]

PACK: dict = {
    "id": "marco-polo-2-synthetic-test-1",
    "title": "INVENTED test pack for Marco Polo II (not the real board)",
    "invented": True,
    "note": "Made up for tests: every component here is invented; only the rules facts are the game's.",
    **RULES,
    "contract_pile": 23,
    "books": [
        {"min_die": 1, "fixed": [{"pepper": 1, "camels": 1}, {"coins": 4}]},
        {"min_die": 3, "fixed": [{"silk": 1, "coins": 1}, {"pepper": 2, "camels": 1}]},
        {"min_die": 5, "fixed": [{"gold": 1, "coins": 1}, {"silk": 2}]},
    ],
    "map": {"nodes": NODES, "routes": ROUTES},
    "specials": {
        "baghdad": {"reward": {"coins": 3}, "guild": "farmer", "twice_at": 4},
        "balkh": {"reward": {"camels": 2}, "guild": "spicer", "twice_at": 5},
        "hormuz": {"reward": {"pepper": 1, "silk": 1}, "guild": "jeweler", "twice_at": 3},
    },
    "seals": {
        "farmer": {"improve": {"coins": 2, "pepper": 1}, "bonus": {"camels": 1}, "plus_one": False},
        "spicer": {"improve": {"coins": 3, "silk": 1}, "bonus": {"coins": 2}, "plus_one": True},
        "tailor": {"improve": {"coins": 3, "gold": 1}, "bonus": {"pepper": 1, "coins": 1}, "plus_one": False},
        "jeweler": {"improve": {"coins": 4, "gold": 1}, "bonus": {"jade": 1}, "plus_one": True},
    },
    "contracts": CONTRACTS,
    "city_cards": CITY_CARDS,
    "city_bonuses": CITY_BONUSES,
    "outposts": OUTPOSTS,
    "goals": GOALS,
    "offers": OFFERS,
    "route_tiles": ROUTE_TILES,
}
