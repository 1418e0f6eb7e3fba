"""Scoring, as the seed's table "Final de la partida" has it, with a breakdown by source.

In-game VP (the score track: contracts, city cards, the 8th/9th/11th trading post, small-city
bonus VP) count as they happen. At the end: objectives (each card's VP when both its cities hold
the seat's post; plus 1/3/6/10 for 1..4 distinct objective cities with a post, a repeated city
once), 1 VP per 10 coins, Beijing 10/7/4/1 by arrival and 1 VP per 2 goods left (camels are not
goods) for a seat with a post there, and 7 VP to each seat tied for most completed contracts.
Tie-break: most camels; if still tied, the victory is shared.
"""

from __future__ import annotations

from rules.marco_polo_common import scoring, totalled
from rules.marco_polo.content import BEIJING, BEIJING_VP, OBJECTIVE_TABLE, OBJECTIVES, PACK
from rules.marco_polo.state import MarcoPoloState, PlayerState

MOST_CONTRACTS_VP = PACK["most_contracts_vp"]
#: what scores at the end, after the in-game VP
END_SOURCES = ("objectives", "objective_cities", "coins", "beijing", "goods", "most_contracts")


def objectives_score(p: PlayerState) -> tuple[int, int]:
    """(the cards' VP, the distinct-cities VP); unknown cards score nothing yet."""
    cards = 0
    cities: set[str] = set()
    for g in p.objectives:
        if g is None:
            continue
        spec = OBJECTIVES[g]
        a, b = spec["cities"]
        if a in p.posts and b in p.posts:
            cards += spec["vp"]
        cities.update(c for c in (a, b) if c in p.posts)
    return cards, OBJECTIVE_TABLE[min(len(cities), len(OBJECTIVE_TABLE) - 1)]


def breakdown(state: MarcoPoloState) -> list[dict[str, int]]:
    most = max((len(p.completed) for p in state.seats), default=0)
    out = []
    for seat, p in enumerate(state.seats):
        cards, cities = objectives_score(p)
        beijing_vp = 0
        goods_vp = 0
        if BEIJING in p.posts:
            slot = state.beijing.index(seat) if seat in state.beijing else len(BEIJING_VP) - 1
            beijing_vp = BEIJING_VP[min(slot, len(BEIJING_VP) - 1)]
            goods_vp = p.goods // 2
        row = {
            "contracts": p.vp_contracts,
            "city_cards": p.vp_cards,
            "post_bonuses": p.vp_posts,
            "city_bonuses": p.vp_bonuses,
            "objectives": cards,
            "objective_cities": cities,
            "coins": p.coins // 10,
            "beijing": beijing_vp,
            "goods": goods_vp,
            "most_contracts": MOST_CONTRACTS_VP if most > 0 and len(p.completed) == most else 0,
        }
        row["in_game"] = row["contracts"] + row["city_cards"] + row["post_bonuses"] + row["city_bonuses"]
        out.append(totalled(row, END_SOURCES))
    return out


score, outcome, score_after = scoring(breakdown)
