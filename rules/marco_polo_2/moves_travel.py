"""The travel action's legal moves: per row and dice set, each cheapest path, one figure or both (Mailin)."""

from __future__ import annotations

from events.base import Event
from rules.marco_polo_2.events import Travelled
from rules.marco_polo_2.state import TRAVEL_SPACE
from rules.marco_polo_2.moves_map import Arrivals, Map, Seat, _route_cost, dice_sets, paths, value


def _travel_moves(sx: Seat, m: Map) -> list[Event]:
    state, p, seat, pack = sx.state, sx.p, sx.seat, sx.pack
    out: list[Event] = []
    rows = (1,) if p.character == "gantulga" else (1, 2, 3)
    mongke = p.character == "mongke"
    contracts_at: dict[str, list[str]] = {}
    for c, k in state.city_contracts:
        contracts_at.setdefault(c, []).append(k)
    posts = p.posts
    cities = m.cities
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
    longest = max(pl[3] for pl in plans) + (3 if mongke else 0)
    entries = Arrivals(sx, m)

    infos = []
    for fig, start in enumerate(p.figures):
        info = []
        for path in paths(m, p, start, longest):
            cost = _route_cost(m, p, start, path)
            skipped = sum(1 for x in path[:-1] if x in m.oases) if mongke else 0
            info.append((path, len(path), len(path) - skipped, skipped, cost["coins"], cost["camels"], cost["jade"]))
        infos.append(info)
        for row, dice, fixed, limit in plans:
            length = limit + (3 if mongke else 0)
            for path, plen, steps, skipped, coins, camels, jade in info:
                if plen > length or not 1 <= steps <= limit:
                    continue
                if not sx.pays({"coins": coins + fixed, "camels": camels, "jade": jade}):
                    continue
                choice_sets = [()] if not skipped else [("coins",) * skipped, ("camels",) * skipped]
                extras: list = [None]
                if row == 3:
                    extras += sorted({x for x in path[:-1] if x in cities and x not in posts})
                for extra in extras:
                    for take, discard, picks in entries((extra, path[-1])):
                        for choices in choice_sets:
                            out.append(Travelled(row=row, dice=dice, path=path, extra=extra, take=take,
                                                 discard=discard, choices=choices + picks, figure=fig, seat=seat))
    if p.character == "mailin" and len(infos) == 2:
        out += _split_travels(sx, plans, infos, entries)
    return out


def _split_travels(sx: Seat, plans: list, infos: list, entries) -> list[Event]:
    """Mailin & Tian Chin split a move between both figures (ruling MP2-13): per pair of ends, the
    shortest then cheapest pair of walks, one step at least each, the steps together within the
    row's limit, all route costs paid; a post where each move ends (the upper row's extra post is
    not listed for splits; ``decide`` accepts it)."""
    seat = sx.seat
    out: list[Event] = []
    best: list[dict] = []
    for info in infos:
        per: dict = {}
        for path, plen, _, _, coins, camels, jade in info:
            key = path[-1]
            rank = (plen, coins + camels + 2 * jade)
            if key not in per or rank < per[key][0]:
                per[key] = (rank, path, coins, camels, jade)
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
