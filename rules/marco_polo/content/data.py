"""The Voyages of Marco Polo components as plain data (reference part A, the seed winning).

Ids are stable (never renumber): locations by 3-letter code, routes R01..R30, contracts S1..S6
(starting) and K01..K38, city cards CC01..CC31, small-city bonuses CB1..CB6, outpost bonuses
OB01..OB10, objectives G01..G18, characters by short name.

Effect items are ``[kind, n]``: ``coins camels pepper silk gold vp`` (gain n); ``good`` (n goods of
the player's choice, one choice each); ``goods2`` (two goods of different types); ``move`` (n free
1-step moves, route extras paid); ``contract`` (top of the special pile); ``black_die`` (take and
roll one if any is left); ``coin_or_camel`` (n coins or n camels, one choice); ``any_bonus``
(the bonus of any other small-city marker); ``own_bonus`` (the bonus of a small city where the
player has a post). Costs are dicts of resources, or items ``any_goods`` / ``diff_goods``.
"""

from __future__ import annotations


def _c(cid, cost, reward, starting=False):
    return {"id": cid, "starting": starting, "cost": cost, "reward": reward}


def _cost(cam=0, gol=0, sil=0, pep=0):
    out = {}
    for key, n in (("camels", cam), ("gold", gol), ("silk", sil), ("pepper", pep)):
        if n:
            out[key] = n
    return out


CONTRACTS = [
    _c("S1", _cost(cam=2, sil=1, pep=1), [["contract", 1], ["vp", 5]], True),
    _c("S2", _cost(cam=2, gol=1, pep=1), [["black_die", 1], ["vp", 4]], True),
    _c("S3", _cost(cam=1, pep=3), [["move", 1], ["vp", 1]], True),
    _c("S4", _cost(cam=2, gol=1, sil=1), [["goods2", 1], ["vp", 4]], True),
    _c("S5", _cost(cam=1, gol=1), [["camels", 3], ["vp", 2]], True),
    _c("S6", _cost(cam=1, sil=2), [["coins", 5], ["vp", 3]], True),
    _c("K01", _cost(cam=2, gol=2, pep=3), [["camels", 5], ["vp", 7]]),
    _c("K02", _cost(cam=3, gol=1, sil=1, pep=1), [["contract", 1], ["vp", 6]]),
    _c("K03", _cost(cam=2, gol=2, sil=1), [["camels", 4], ["vp", 6]]),
    _c("K04", _cost(cam=2, sil=2, pep=1), [["coins", 3], ["vp", 4]]),
    _c("K05", _cost(cam=1, gol=4), [["camels", 3], ["vp", 7]]),
    _c("K06", _cost(cam=2, gol=2, sil=3), [["camels", 4], ["vp", 8]]),
    _c("K07", _cost(cam=1, sil=3), [["good", 1], ["vp", 3]]),
    _c("K08", _cost(cam=2, gol=2, sil=3), [["contract", 1], ["vp", 8]]),
    _c("K09", _cost(cam=2, gol=2, pep=3), [["coins", 7], ["vp", 6]]),
    _c("K10", _cost(cam=2, gol=1, pep=2), [["move", 1], ["vp", 4]]),
    _c("K11", _cost(cam=2, sil=3, pep=2), [["good", 1], ["black_die", 1], ["vp", 5]]),
    _c("K12", _cost(cam=3, gol=1, sil=1, pep=1), [["move", 1], ["vp", 5]]),
    _c("K13", _cost(cam=2, gol=1, sil=2), [["camels", 4], ["vp", 4]]),
    _c("K14", _cost(cam=3, gol=1, sil=1, pep=1), [["good", 1], ["vp", 6]]),
    _c("K15", _cost(cam=3, gol=1, sil=1, pep=1), [["goods2", 1], ["vp", 5]]),
    _c("K16", _cost(cam=2, gol=2, sil=2), [["move", 1], ["vp", 7]]),
    _c("K17", _cost(cam=2, sil=2, pep=3), [["move", 1], ["vp", 5]]),
    _c("K18", _cost(cam=2, gol=3, pep=2), [["coins", 7], ["vp", 8]]),
    _c("K19", _cost(cam=1, pep=3), [["black_die", 1], ["vp", 2]]),
    _c("K20", _cost(cam=2, gol=2, sil=1), [["black_die", 1], ["vp", 6]]),
    _c("K21", _cost(cam=2, gol=2, pep=1), [["black_die", 1], ["vp", 5]]),
    _c("K22", _cost(cam=2, gol=3, sil=2), [["coins", 7], ["vp", 9]]),
    _c("K23", _cost(cam=2, gol=3, sil=2), [["move", 1], ["vp", 9]]),
    _c("K24", _cost(cam=3, gol=1, sil=2, pep=1), [["camels", 3], ["contract", 1], ["vp", 5]]),
    _c("K25", _cost(cam=2, gol=2, sil=1), [["coins", 4], ["vp", 6]]),
    _c("K26", _cost(cam=2, sil=3, pep=2), [["coins", 6], ["vp", 5]]),
    _c("K27", _cost(cam=1, gol=3), [["good", 1], ["vp", 6]]),
    _c("K28", _cost(cam=2, sil=1, pep=2), [["coins", 4], ["vp", 3]]),
    _c("K29", _cost(cam=2, sil=1, pep=2), [["goods2", 1], ["vp", 3]]),
    _c("K30", _cost(cam=2, gol=1, pep=2), [["contract", 1], ["vp", 4]]),
    _c("K31", _cost(cam=2, gol=3, pep=2), [["goods2", 1], ["vp", 9]]),
    _c("K32", _cost(cam=2, sil=2, pep=2), [["black_die", 1], ["vp", 5]]),
    _c("K33", _cost(cam=3, gol=2, sil=1, pep=1), [["coins", 5], ["vp", 7]]),
    _c("K34", _cost(cam=3, gol=1, sil=1, pep=1), [["black_die", 1], ["vp", 5]]),
    _c("K35", _cost(cam=3, gol=1, sil=2, pep=1), [["camels", 3], ["coins", 4], ["vp", 5]]),
    _c("K36", _cost(cam=1, gol=4), [["move", 1], ["vp", 7]]),
    _c("K37", _cost(cam=2, gol=2, sil=2), [["contract", 1], ["vp", 7]]),
    _c("K38", _cost(cam=1, pep=4), [["contract", 1], ["vp", 3]]),
]


def _x(cid, pay, gain, name):
    return {"id": cid, "kind": "exchange", "pay": pay, "gain": gain, "text": name}


CITY_CARDS = [
    _x("CC01", {}, [["coins", 2]], "gain 2 coins x d"),
    {"id": "CC02", "kind": "threshold", "steps": [[1, [["gold", 1]]], [6, [["gold", 3]]]],
     "text": "d 1-5: 1 gold; d 6: 3 gold"},
    {"id": "CC03", "kind": "count", "of": "posts", "gain": [["vp", 1]],
     "text": "1 VP per trading post on the board, max d"},
    _x("CC04", {"gold": 2}, [["vp", 4]], "x d: 2 gold -> 4 VP"),
    _x("CC05", {"camels": 1, "pepper": 1}, [["coins", 2], ["vp", 2]], "x d: 1 camel + 1 pepper -> 2 coins + 2 VP"),
    _x("CC06", {"silk": 2}, [["vp", 3]], "x d: 2 silk -> 3 VP"),
    _x("CC07", {"camels": 3}, [["pepper", 1], ["silk", 1], ["gold", 1]], "x d: 3 camels -> 1 pepper + 1 silk + 1 gold"),
    _x("CC08", {"camels": 1, "silk": 1}, [["coins", 8]], "x d: 1 camel + 1 silk -> 8 coins"),
    _x("CC09", {"camels": 1, "gold": 1}, [["coins", 9]], "x d: 1 camel + 1 gold -> 9 coins"),
    _x("CC10", {"camels": 1, "silk": 1}, [["coins", 4], ["vp", 2]], "x d: 1 camel + 1 silk -> 4 coins + 2 VP"),
    _x("CC11", {"camels": 2, "silk": 1}, [["vp", 4]], "x d: 2 camels + 1 silk -> 4 VP"),
    _x("CC12", {"camels": 1, "pepper": 1}, [["coins", 7]], "x d: 1 camel + 1 pepper -> 7 coins"),
    _x("CC13", {"coins": 2}, [["good", 1]], "x d: 2 coins -> 1 good of choice"),
    _x("CC14", {"camels": 2}, [["move", 1]], "x d: 2 camels -> move 1"),
    _x("CC15", {"camels": 2}, [["coins", 2], ["vp", 1]], "x d: 2 camels -> 2 coins + 1 VP"),
    {"id": "CC16", "kind": "count", "of": "completed", "gain": [["vp", 1]],
     "text": "1 VP per completed contract, max d"},
    {"id": "CC17", "kind": "two_way",
     "ways": [{"pay": {"camels": 1}, "gain": [["coins", 3]]}, {"pay": {"coins": 1}, "gain": [["camels", 1]]}],
     "text": "x d, one direction: 1 camel -> 3 coins, or 1 coin -> 1 camel"},
    _x("CC18", {"camels": 1}, [["vp", 1]], "x d: 1 camel -> 1 VP"),
    {"id": "CC19", "kind": "threshold", "steps": [[1, [["pepper", 1]]], [2, [["pepper", 3]]]],
     "text": "d 1: 1 pepper; d 2-6: 3 pepper"},
    {"id": "CC20", "kind": "two_way",
     "ways": [{"pay": {"vp": 1}, "gain": [["coins", 3]]}, {"pay": {"coins": 3}, "gain": [["vp", 1]]}],
     "text": "x d, one direction: 1 VP -> 3 coins, or 3 coins -> 1 VP"},
    _x("CC21", {"camels": 1, "gold": 1}, [["coins", 6], ["vp", 2]], "x d: 1 camel + 1 gold -> 6 coins + 2 VP"),
    _x("CC22", {"camels": 1, "gold": 1}, [["vp", 4]], "x d: 1 camel + 1 gold -> 4 VP"),
    {"id": "CC23", "kind": "count", "of": "posts", "gain": [["coins", 2]],
     "text": "2 coins per trading post on the board, max d"},
    {"id": "CC24", "kind": "own_bonus", "steps": [[1, 1], [5, 2]],
     "text": "the bonus of a small city with your post: d 1-4 once; d 5-6 twice (two different cities)"},
    {"id": "CC25", "kind": "count", "of": "completed", "gain": [["coins", 2]],
     "text": "2 coins per completed contract, max d"},
    _x("CC26", {"coins": 1}, [["own_bonus", 1]],
       "x d: 1 coin -> the bonus of a small city with your post (a different city each time)"),
    {"id": "CC27", "kind": "threshold", "steps": [[1, [["silk", 1]]], [4, [["silk", 3]]]],
     "text": "d 1-3: 1 silk; d 4-6: 3 silk"},
    {"id": "CC28", "kind": "two_way",
     "ways": [{"pay": {"any_goods": 1}, "gain": [["camels", 2]]}, {"pay": {"camels": 2}, "gain": [["good", 1]]}],
     "text": "x d, one direction: 1 good -> 2 camels, or 2 camels -> 1 good"},
    _x("CC29", {"pepper": 2}, [["vp", 2]], "x d: 2 pepper -> 2 VP"),
    _x("CC30", {"camels": 3, "pepper": 1}, [["vp", 4]], "x d: 3 camels + 1 pepper -> 4 VP"),
    _x("CC31", {"diff_goods": 2}, [["move", 1]], "x d: 2 goods of different types -> move 1"),
]

LOCATIONS = [
    {"id": "VEN", "name": "Venezia", "kind": "start"},
    {"id": "BEI", "name": "Beijing", "kind": "beijing"},
    {"id": "MOS", "name": "Moscow", "kind": "large"},
    {"id": "KAR", "name": "Karakorum", "kind": "large"},
    {"id": "SAM", "name": "Samarcanda", "kind": "large"},
    {"id": "LAN", "name": "Lan-Zhou", "kind": "large"},
    {"id": "ALE", "name": "Alexandria", "kind": "large"},
    {"id": "KCH", "name": "Karachi", "kind": "large"},
    {"id": "SUM", "name": "Sumatra", "kind": "large"},
    {"id": "ANX", "name": "Anxi", "kind": "small"},
    {"id": "KAS", "name": "Kashgar", "kind": "small"},
    {"id": "XIA", "name": "Xian", "kind": "small"},
    {"id": "ORM", "name": "Ormuz", "kind": "small"},
    {"id": "ADA", "name": "Adana", "kind": "small"},
    {"id": "KOC", "name": "Kochi", "kind": "small"},
] + [{"id": f"O{i}", "name": f"Oasis {i}", "kind": "oasis"} for i in range(1, 11)]

_ROUTES = [
    ("VEN", "O1", {}), ("O1", "MOS", {}), ("MOS", "ANX", {"camels": 3}), ("ANX", "KAR", {"camels": 2}),
    ("KAR", "O2", {}), ("O2", "O3", {"coins": 5}), ("O3", "BEI", {}), ("O2", "O4", {}),
    ("O4", "BEI", {"camels": 3}), ("O4", "LAN", {}), ("VEN", "O5", {"camels": 3}), ("O5", "SAM", {}),
    ("O5", "O7", {}), ("SAM", "O6", {"camels": 2}), ("O6", "KAS", {"camels": 4}),
    ("KAS", "LAN", {"camels": 2}), ("VEN", "ALE", {}), ("ALE", "O7", {"coins": 7}),
    ("O7", "ORM", {"camels": 3}), ("ORM", "KCH", {"camels": 3}), ("KCH", "O8", {}), ("O8", "XIA", {}),
    ("XIA", "BEI", {}), ("ALE", "O9", {}), ("O9", "ADA", {"camels": 2}), ("ADA", "KOC", {"coins": 15}),
    ("KOC", "O8", {"camels": 4}), ("KOC", "SUM", {"coins": 10}), ("SUM", "O10", {"camels": 4}),
    ("O10", "BEI", {}),
]
ROUTES = [{"id": f"R{i:02d}", "ends": [a, b], "cost": cost} for i, (a, b, cost) in enumerate(_ROUTES, 1)]

BAZAAR = [
    {"good": "camels", "dice": 1, "columns": [[["camels", n]] for n in range(1, 7)]},
    {"good": "pepper", "dice": 1, "columns": [
        [["pepper", 1]], [["pepper", 2]], [["pepper", 2], ["coins", 1]], [["pepper", 3]],
        [["pepper", 3], ["coins", 2]], [["pepper", 4]]]},
    {"good": "silk", "dice": 2, "columns": [
        [["silk", 1]], [["silk", 2]], [["silk", 2], ["camels", 1]], [["silk", 3]],
        [["silk", 3], ["camels", 1], ["coins", 1]], [["silk", 4]]]},
    {"good": "gold", "dice": 3, "columns": [
        [["gold", 1]], [["gold", 2]], [["gold", 2], ["camels", 2]], [["gold", 3]],
        [["gold", 3], ["move", 1]], [["gold", 4]]]},
]

CITY_BONUSES = [
    {"id": "CB1", "home": "ANX", "effect": [["coins", 5]], "text": "5 coins"},
    {"id": "CB2", "home": "ORM", "effect": [["camels", 3]], "text": "3 camels"},
    {"id": "CB3", "home": "KAS", "effect": [["goods2", 1]], "text": "2 goods of different types"},
    {"id": "CB4", "home": "XIA", "effect": [["any_bonus", 1]], "text": "the bonus of any other city bonus marker"},
    {"id": "CB5", "home": "ADA", "effect": [["camels", 1], ["coins", 3]], "text": "1 camel + 3 coins"},
    {"id": "CB6", "home": "KOC", "effect": [["vp", 3]], "text": "3 VP"},
]

OUTPOST_BONUSES = [
    {"id": "OB01", "effect": [["coins", 3]], "text": "3 coins"},
    {"id": "OB02", "effect": [["coins", 5]], "text": "5 coins"},
    {"id": "OB03", "effect": [["good", 1]], "text": "1 good of choice"},
    {"id": "OB04", "effect": [["gold", 2]], "text": "2 gold"},
    {"id": "OB05", "effect": [["silk", 2]], "text": "2 silk"},
    {"id": "OB06", "effect": [["camels", 2]], "text": "2 camels"},
    {"id": "OB07", "effect": [["camels", 3]], "text": "3 camels"},
    {"id": "OB08", "effect": [["move", 1]], "text": "move 1"},
    {"id": "OB09", "effect": [["contract", 1]], "text": "a contract from the special pile"},
    {"id": "OB10", "effect": [["black_die", 1]], "text": "a black die"},
]

_OBJ = [
    ("MOS", "XIA", 4), ("MOS", "ORM", 5), ("MOS", "KAS", 7), ("KAR", "XIA", 4), ("KAR", "KOC", 5),
    ("KAR", "ADA", 7), ("LAN", "KOC", 4), ("LAN", "ADA", 5), ("LAN", "ORM", 6), ("SAM", "XIA", 4),
    ("SAM", "ADA", 5), ("SAM", "KOC", 7), ("ALE", "ANX", 4), ("ALE", "KAS", 5), ("SUM", "ORM", 6),
    ("SUM", "ANX", 8), ("KCH", "KAS", 5), ("KCH", "ANX", 7),
]
OBJECTIVES = [{"id": f"G{i:02d}", "cities": [a, b], "vp": vp} for i, (a, b, vp) in enumerate(_OBJ, 1)]

CHARACTERS = [
    {"id": "raschid", "name": "Raschid ad-Din Sinan",
     "text": "does not roll his dice: sets each one's value when placing it; no compensation"},
    {"id": "matteo", "name": "Matteo Polo",
     "text": "each round: the white die and the top contract of the special pile"},
    {"id": "berke", "name": "Berke Khan", "text": "pays no coins to use occupied action spaces"},
    {"id": "mercator", "name": "Mercator ex Tabriz",
     "text": "another player's bazaar use: +1 of that row's good; 3p also +1 camel for another's Khan's "
             "favor; 2p also +2 coins for the other's take 5 coins",
     "tiles": {"2": ["bazaar", "khan", "coins5"], "3": ["bazaar", "khan"], "4": ["bazaar"]}},
    {"id": "kubilai", "name": "Kubilai Khan", "text": "starts in Beijing with a post on its 10-VP slot"},
    {"id": "niccolo", "name": "Niccolo & Marco Polo",
     "text": "a second figure from Venezia; a move may be split between the figures; +1 camel each round"},
    {"id": "wilhelm", "name": "Wilhelm von Rubruk",
     "text": "11 trading posts (the 11th scores 10 VP); places a post in every city moved through"},
    {"id": "carpini", "name": "Johannes Carpini",
     "text": "may jump between any two oases as one step with no route cost; +3 coins each round"},
]

PACK = {
    "id": "marco-polo/base-2015/1",
    "locations": LOCATIONS,
    "routes": ROUTES,
    "travel_cost": {"1": 3, "2": 7, "3": 12, "4": 12, "5": 18, "6": 18},
    "bazaar": BAZAAR,
    "khan_slots": 4,
    "khan_reward": [["good", 1], ["camels", 2]],
    "beijing_vp": [10, 7, 4, 1],
    "objective_city_vp": [0, 1, 3, 6, 10],
    "post_vp": {"8": 5, "9": 10, "11": 10},
    "contracts": CONTRACTS,
    "city_cards": CITY_CARDS,
    "city_card_spaces": ["MOS", "KAR", "SAM", "LAN", "ALE", "KCH", "SUM-1", "SUM-2", "SUM-3"],
    "city_bonuses": CITY_BONUSES,
    "outpost_bonuses": OUTPOST_BONUSES,
    "objectives": OBJECTIVES,
    "characters": CHARACTERS,
    "first_game_characters": ["raschid", "matteo", "berke", "mercator"],
    "setup": {
        "2": {"black_dice": 3, "khan_blocks": [1, 1], "coins5_blocked": True},
        "3": {"black_dice": 4, "khan_blocks": [1], "coins5_blocked": False},
        "4": {"black_dice": 5, "khan_blocks": [], "coins5_blocked": False},
    },
    "start_coins": [7, 8, 9, 10],
    "start_camels": 2,
    "posts": 9,
    "wilhelm_posts": 11,
    "dice_per_player": 5,
    "compensation_total": 15,
    "rounds": 5,
    "most_contracts_vp": 7,
    "contract_display": 6,
    "active_contracts": 2,
}
