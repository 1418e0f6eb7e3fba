"""The travel action's legal moves: per row and dice set, the walks that differ in what they do, one figure or both (Mailin)."""

from __future__ import annotations

from events.base import Event
from rules.marco_polo_2.events import Travelled
from rules.marco_polo_2.state import TRAVEL_SPACE
from rules.marco_polo_2.moves_map import Arrivals, Map, Seat, by_cost, dice_sets, offers, value, walks


def _travel_moves(sx: Seat, m: Map) -> list[Event]:
    p, seat, pack = sx.p, sx.seat, sx.pack
    out: list[Event] = []
    rows = (1,) if p.character == "gantulga" else (1, 2, 3)
    mongke = p.character == "mongke"
    # per row: the dice sets that may go there, their fixed coins and step limit
    plans = []
    for row in rows:
        spec = pack.travel[row]
        for dice in dice_sets(p, spec["dice"]):
            fee = sx.placeable(TRAVEL_SPACE[row], dice, "shared")
            if fee is None:
                continue
            low = min(value(t) for t in dice)
            plans.append((row, dice, fee + spec.get("coins", 0), min(low, spec.get("max") or 6)))
    if not plans:
        return out
    longest = max(pl[3] for pl in plans)
    upper = any(pl[0] == 3 for pl in plans)
    entries = Arrivals(sx, m)
    found = [by_cost(walks(m, p, start, longest, mongke, upper)) for start in p.figures]
    for fig in range(len(found)):
        by_limit: dict = {}
        for row, dice, fixed, limit in plans:
            key = (limit, row == 3)
            if key not in by_limit:
                by_limit[key] = offers(found[fig], limit, row == 3)
            for path, _, extra, skipped, (coins, camels, jade) in by_limit[key]:
                if not sx.pays({"coins": coins + fixed, "camels": camels, "jade": jade}):
                    continue
                choice_sets = [()] if not skipped else [("coins",) * len(skipped), ("camels",) * len(skipped)]
                for take, discard, picks in entries((extra, path[-1])):
                    for choices in choice_sets:
                        out.append(Travelled(row=row, dice=dice, path=path, extra=extra, take=take,
                                             discard=discard, choices=choices + picks, figure=fig, seat=seat))
    if p.character == "mailin" and len(found) == 2:
        out += _split_travels(sx, plans, found, entries)
    return out


def _split_travels(sx: Seat, plans: list, founds: list, entries) -> list[Event]:
    """Mailin & Tian Chin split a move between both figures (ruling MP2-13): per pair of ends, the
    shortest then cheapest pair of walks, one step at least each, the steps together within the
    row's limit, all route costs paid; a post where each move ends (the upper row's extra post is
    not listed for splits; ``decide`` accepts it)."""
    seat = sx.seat
    out: list[Event] = []
    best: list[list] = []
    for found in founds:
        per: dict = {}
        for path, steps, extra, _, (coins, camels, jade) in found:
            rank = (steps, coins + camels + 2 * jade)
            if extra is None and (path[-1] not in per or (rank, path) < per[path[-1]][:2]):
                per[path[-1]] = (rank, path, coins, camels, jade)
        best.append(sorted(per.values(), key=lambda v: (v[0], v[1])))
    first, second = best
    for row, dice, fixed, limit in plans:
        if limit < 2:
            continue
        for (l1, _), path, c1, m1, j1 in first:
            if l1 >= limit:
                continue
            for (l2, _), path2, c2, m2, j2 in second:
                if l1 + l2 > limit:
                    continue
                if not sx.pays({"coins": c1 + c2 + fixed, "camels": m1 + m2, "jade": j1 + j2}):
                    continue
                for take, discard, picks in entries((path[-1], path2[-1])):
                    out.append(Travelled(row=row, dice=dice, path=path, path2=path2, take=take, discard=discard,
                                         choices=picks, seat=seat))
    return out
