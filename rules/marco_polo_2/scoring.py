"""Scoring as the seed's "ゲームの終了と最終得点計算" has it, with a breakdown by source.

In game (the score track): contracts, posts 9-11, city cards, books, special cities, caravans sold,
characters. At the end: the goal card's improved seals; shields ("+1" icons from the goal card,
improved "+1" seals and characters added to the distinct shields of cities with a post) on the
table 0/1/2/4/6/8/10/13/17/22/28/35/43; 1 VP per 2 gold, silk, pepper and jade; 1 VP per 10 coins;
most completed contracts 8, second 4 (no second with 2 players); loaded caravans 3/2/1 per good.
Tie-break: most camels; else shared.
"""

from __future__ import annotations

from rules.marco_polo_common import scoring, totalled
from rules.marco_polo_2.engine import _described_map
from rules.marco_polo_2.state import MP2State, PlayerState, pack_of

#: what scores at the end, after the score track
END_SOURCES = ("goal_seals", "shields", "goods", "coins", "most_contracts", "caravans")


def _lookup(state: MP2State):
    pack = pack_of(state)
    described = _described_map(state.described)

    def get(kind: str, cid: str) -> dict | None:
        return pack.get(kind, cid) or described.get((kind, cid))

    return pack, get


def shields(state: MP2State, p: PlayerState, get) -> tuple[int, int]:
    """(distinct shields of cities with a post, "+1" icons)."""
    have = set()
    for city in p.posts:
        spec = get("node", city)
        if spec and spec.get("shield"):
            have.add(spec["shield"])
    plus = 0
    goal = get("goal", p.goal) if p.goal else None
    if goal:
        plus += sum(1 for sh in goal.get("shields", ()) if sh in have)
    for g in p.improved:
        seal = get("seal", g)
        if seal and seal.get("plus_one"):
            plus += 1
    if p.character in ("dewu", "tebaldo"):  # "ゲーム終了時、「＋１」紋章を得る。"
        plus += 1
    return len(have), plus


def contract_count(p: PlayerState) -> int:
    return 4 if p.character == "vidal" else len(p.completed)  # Vidal: "常に４枚として計算される"


def most_contracts(state: MP2State, first: int, second: int) -> list[int]:
    """8 to all tied for most, 4 to all tied for the next count (7,7,5,3: the 5 is second)."""
    counts = [contract_count(p) for p in state.seats]
    distinct = sorted({c for c in counts if c > 0}, reverse=True)
    out = []
    for c in counts:
        if distinct and c == distinct[0]:
            out.append(first)
        elif len(distinct) > 1 and c == distinct[1] and state.n > 2:
            out.append(second)
        else:
            out.append(0)
    return out


def breakdown(state: MP2State) -> list[dict[str, int]]:
    pack, get = _lookup(state)
    most = most_contracts(state, *pack.most_contracts_vp)
    table = pack.shield_vp
    out = []
    for seat, p in enumerate(state.seats):
        goal = get("goal", p.goal) if p.goal else None
        seals_vp = sum(vp for g, vp in (goal or {}).get("guilds", {}).items() if g in p.improved)
        distinct, plus = shields(state, p, get)
        count = distinct + plus
        caravan = sum(pack.caravan["end_vp"][g] for _, loc, goods in p.caravans if loc for g in goods)
        row = {
            "in_game": p.vp,
            "goal_seals": seals_vp,
            "shields_count": count,
            "shields": table[min(count, len(table)) - 1] if count else 0,
            "goods": (p.gold + p.silk + p.pepper + p.jade) // pack.goods_per_vp,
            "coins": p.coins // pack.coins_per_vp,
            "most_contracts": most[seat],
            "caravans": caravan,
        }
        out.append(totalled(row, END_SOURCES))
    return out


score, outcome, score_after = scoring(breakdown)
