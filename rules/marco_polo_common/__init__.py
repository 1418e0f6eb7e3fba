"""What The Voyages of Marco Polo and Marco Polo II share because their rules really are the same:
the final ranking (most VP, then most camels, else a shared win), the compensation for a low roll,
and the +/-1 bonus action that never wraps 6 <-> 1. Pure functions, no title knowledge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.base import Outcome


def ranked_by_camels(scores: Sequence[int], camels: Sequence[int]) -> Outcome:
    """Ranks by (score, camels), dense; seats equal on both share the rank and the victory."""
    keys = list(zip(scores, camels))
    distinct = sorted(set(keys), reverse=True)
    ranks = tuple(distinct.index(k) + 1 for k in keys)
    return Outcome(scores=tuple(scores), ranks=ranks, winners=tuple(s for s, r in enumerate(ranks) if r == 1))


def compensation(values: Sequence[int], total: int) -> int:
    """Coins or camels due for a roll below ``total`` (the difference; 0 otherwise)."""
    return max(0, total - sum(values))


def turns(value: int, delta: int) -> bool:
    """Whether a die may turn by ``delta`` (+1 / -1): never past 1 or 6."""
    return delta in (1, -1) and 1 <= value + delta <= 6


def score_sheet(state: Any, rows: list[dict[str, Any]], final: bool) -> dict[str, Any]:
    """The score breakdown both titles show: per seat (player, character, camels, points by source),
    totals, and the in-game VP of each round so far."""
    return {
        "round": state.round,
        "final": final,
        "seats": [
            {"seat": s, "player": state.players[s], "character": p.character, "camels": p.camels, **rows[s]}
            for s, p in enumerate(state.seats)
        ],
        "totals": [r["total"] for r in rows],
        "rounds": [{"round": i + 1, "in_game_vp": list(track)} for i, track in enumerate(state.round_vp)],
    }


__all__ = ["compensation", "describe_step", "ranked_by_camels", "resource_sentence", "score_sheet", "turns"]


RESOURCES = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")
_UNIT = {"vp": "VP"}
#: phrases that say where or how rather than what: "took 2 silk at the bazaar"
_PLACES = ("at ", "from ", "using ", "as ", "completing ", "for ", "with ")


def _amount(n: int, resource: str) -> str:
    unit = _UNIT.get(resource, resource)
    if resource == "coins" and n == 1:
        unit = "coin"
    if resource == "camels" and n == 1:
        unit = "camel"
    return f"{n} {unit}"


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def resource_sentence(who: str, where: str, before: Any, after: Any) -> str:
    """"Ana took 2 silk at the bazaar, paying 2 coins": what a seat gained and paid in one step
    (``before``/``after``: its seat record); ``where`` either says where ("at the bazaar") or
    what ("travelled to Kashgar": then "Ana travelled to Kashgar, paying 3 coins")."""
    gains, pays = [], []
    for r in RESOURCES:
        if not hasattr(before, r):
            continue
        delta = getattr(after, r) - getattr(before, r)
        if delta > 0:
            gains.append(_amount(delta, r))
        elif delta < 0:
            pays.append(_amount(-delta, r))
    if where.startswith(_PLACES):
        text = f"{who} took {_listed(gains) if gains else 'an action'} {where}"
    else:
        text = f"{who} {where}" + (f", gaining {_listed(gains)}" if gains else "")
    return text + (f", paying {_listed(pays)}" if pays else "")


def describe_step(state: Any, after: Any, event: Any, where: str) -> str:
    """A seat's move in words, with what it gained and paid (``state``/``after``: the states
    before and after it; resources are public); ``where``: what it did ("at the bazaar")."""
    seat = getattr(event, "seat", None)
    if seat is None or not 0 <= seat < len(state.players):
        return where[0].upper() + where[1:]
    who = state.players[seat]
    return resource_sentence(who, where, state.seats[seat], after.seats[seat])
