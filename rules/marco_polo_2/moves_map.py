"""What the move generator knows of a state: the seat's dice, the known map and its paths, what new posts bring."""

from __future__ import annotations

from functools import lru_cache
from heapq import heappop, heappush
from itertools import combinations, product

from rules.marco_polo_2.engine import _described_map, can_pay, own_slot
from rules.marco_polo_2.state import MP2State, PlayerState, pack_of


def tokens(p: PlayerState) -> list[str]:
    out = [str(v) for v in p.dice] + [f"b{v}" for v in p.black] + [f"p{c[0].upper()}" for c in p.pieces]
    return out


def dice_sets(p: PlayerState, k: int) -> list[tuple[str, ...]]:
    return sorted({tuple(sorted(c)) for c in combinations(tokens(p), k)})


def value(t: str) -> int:
    return 6 if t[0] == "p" else int(t[-1])


class Map:
    """The known map of a state: the pack's routes plus the described ones. Built once per pack and
    set of descriptions (``map_of``): the lookups never change while they stay the same."""

    def __init__(self, pack, described_t: tuple) -> None:
        described = _described_map(described_t) if described_t else {}
        self.nodes = dict(pack.components["node"])
        routes = dict(pack.components["route"])
        for (kind, cid), spec in described.items():
            if kind == "node":
                self.nodes[cid] = spec
            elif kind == "route":
                routes[cid] = spec
        self.adj: dict[str, list[tuple[str, dict]]] = {}
        #: (a, b) -> the route between them, both ways
        self.edge: dict[tuple[str, str], dict] = {}
        for r in routes.values():
            a, b = r["ends"]
            self.adj.setdefault(a, []).append((b, r))
            self.adj.setdefault(b, []).append((a, r))
            self.edge[(a, b)] = self.edge[(b, a)] = r
        self.adj_map = {k: tuple(v) for k, v in self.adj.items()}
        self.cities = frozenset(k for k, v in self.nodes.items() if v.get("kind") == "city")
        self.oases = frozenset(k for k, v in self.nodes.items() if v.get("kind") == "oasis")
        self.described = described
        self.pack = pack

    def _get(self, kind: str, cid: str) -> dict | None:
        spec = self.pack.get(kind, cid)
        return spec if spec is not None else self.described.get((kind, cid))

    def book(self, book: int) -> dict | None:
        return self._get("book", str(book))

    def offer(self, cid: str) -> dict | None:
        return self._get("offer", cid)

    def card(self, cid: str) -> dict:
        return self._get("city_card", cid)

    def contract(self, cid: str) -> dict:
        return self._get("contract", cid)

    def seal(self, guild: str) -> dict:
        return self._get("seal", guild)

    def tile(self, cid: str) -> dict:
        return self._get("route_tile", cid)

    def oasis(self, nid: str) -> bool:
        return nid in self.oases

    def city(self, nid: str) -> bool:
        return nid in self.cities


@lru_cache(maxsize=64)
def _map_of(pack, described: tuple) -> Map:
    return Map(pack, described)


def map_of(state: MP2State) -> Map:
    return _map_of(pack_of(state), state.described)


#: one walk a picker is offered: the nodes after the start, the steps counted, the city it passes for
#: the upper row's extra post (or None), the different oases Möngke Khan skips, the route costs
Walk = tuple[tuple[str, ...], int, str | None, tuple[str, ...], tuple[int, int, int]]


def _undercut(front: list, cost: tuple[int, int, int]) -> bool:
    """Whether some cost already in ``front`` is no higher than ``cost`` in coins, camels and jade."""
    return any(c[0] <= cost[0] and c[1] <= cost[1] and c[2] <= cost[2] for c, _ in front)


def walks(m: Map, p: PlayerState, start: str, max_steps: int, mongke: bool = False, extras: bool = False) -> list[Walk]:
    """Walks from ``start`` of at most ``max_steps`` steps (a node may come again, ruling MP2-5), guild
    routes only with the seal: per (end, steps, extra post, number of oases skipped) each route cost
    that no other undercuts in coins, camels and jade (the seat may afford one and not another), the
    fewest nodes first. ``mongke``: an oasis passed is no step; ``extras``: also per city passed without
    the seat's post, never the end. The search goes state by state (node, steps, extra, oases skipped),
    cheapest first, and goes on from a state only with a walk into it that no walk in as few steps or
    fewer undercuts: bounded by the step budget and, for the stepless oases, by their number."""
    cities, posts, seals, nodes, adj, oases = m.cities, p.posts, p.seals, m.nodes, m.adj, m.oases
    waived = p.character == "gantulga"
    first = (start, 0, None, 0)
    # per state, each cost not undercut: {cost: (rank, path, oases skipped)}
    labels: dict = {first: {(0, 0, 0): ((0, 0), (), ())}}
    ends: dict = {}
    todo = [((0, 0), 0, first, (0, 0, 0))]
    queued = 0
    while todo:
        rank, _, key, cost = heappop(todo)
        here, steps, extra, _ = key
        held = labels[key].get(cost)
        if held is None or held[0] != rank:
            continue  # a shorter walk of this cost came here after this one was queued
        _, path, skipped = held
        for there, r in adj.get(here, ()):
            g = r.get("guild")
            if there not in nodes or (g and g not in seals):
                continue
            jade = cost[2] + r.get("jade", 0)
            c = (cost[0], cost[1], jade) if waived else (cost[0] + r.get("coins", 0), cost[1] + r.get("camels", 0), jade)
            walked = path + (there,)
            rank = (c[0] + c[1] + 2 * c[2], len(walked))
            if extra != there:  # ending where the extra post went would put a second post there
                front = ends.setdefault((there, steps + 1, extra, len(skipped)), {})
                if not any(_covers(o, c) for o in front):
                    front[c] = (rank, walked, skipped)
            stepless = mongke and there in oases
            n_steps = steps if stepless else steps + 1
            if n_steps + 1 > max_steps:
                continue
            n_skipped = skipped + (there,) if stepless and there not in skipped else skipped
            for e in ((extra, there) if extras and extra is None and there in cities and there not in posts else (extra,)):
                # a walk here in as few steps or fewer, at no cost above this one, already goes on from here
                if any(_covers(o, c) for s in range(n_steps + 1) for o in labels.get((there, s, e, len(n_skipped)), ())):
                    continue
                nxt = (there, n_steps, e, len(n_skipped))
                labels.setdefault(nxt, {})[c] = (rank, walked, n_skipped)
                queued += 1
                heappush(todo, (rank, queued, nxt, c))
    return [(path, steps, extra, skipped, cost)
            for (_, steps, extra, _), front in ends.items() for cost, (_, path, skipped) in front.items()]


def _covers(cost: tuple[int, int, int], other: tuple[int, int, int]) -> bool:
    """Whether ``cost`` is no higher than ``other`` in coins, camels and jade."""
    return cost[0] <= other[0] and cost[1] <= other[1] and cost[2] <= other[2]


def offers(found: list[Walk], limit: int, extras: bool = False) -> list[Walk]:
    """Of ``found`` (sorted by ``by_cost``), the walks of at most ``limit`` steps that differ in what the
    move does: per (end, extra post, number of oases skipped), each route cost no other undercuts."""
    per: dict = {}
    for w in found:
        path, steps, extra, skipped, cost = w
        if steps > limit or (extra is not None and not extras):
            continue
        front = per.setdefault((path[-1], extra, len(skipped)), [])
        if not _undercut(front, cost):
            front.append((cost, w))
    return [w for front in per.values() for _, w in front]


def by_cost(found: list[Walk]) -> list[Walk]:
    """``found`` cheapest first (coins, camels, jade), then fewest nodes: the order ``offers`` reads."""
    return sorted(found, key=lambda w: (w[4], len(w[0]), w[0]))


def _discards(held: tuple[str, ...], taken: tuple[str, ...], hold: int) -> list[tuple[str, ...]]:
    pool = held + taken
    excess = len(pool) - hold
    if excess <= 0:
        return [()]
    return [tuple(c) for c in combinations(pool, excess)]


class Seat:
    """What the generator needs to know of the seat to move: its dice grouped by what matters to the
    rules (the lowest value, a colour die among them, a piece among them), the spaces taken."""

    def __init__(self, state: MP2State) -> None:
        self.state = state
        self.seat = state.turn
        self.p = state.seats[self.seat]
        self.pack = pack_of(state)
        self.res = _resources(self.p)
        self.occupied: dict[str, list[int]] = {}
        for space, v, _, _ in state.board:
            self.occupied.setdefault(space, []).append(v)

    def placeable(self, space: str, dice: tuple[str, ...], mode: str) -> int | None:
        """The fee to place ``dice`` (None: a rule forbids it)."""
        taken = space in self.occupied
        if taken and not own_slot(space) and any(t[0] == "p" for t in dice):
            return None
        if mode == "single" and taken:
            return None
        if space in self.p.used and any(t[0].isdigit() for t in dice):
            return None
        return min(value(t) for t in dice) if mode == "shared" and taken else 0

    def pays(self, cost: dict) -> bool:
        return can_pay(self.res, cost)


def _resources(p: PlayerState) -> dict:
    return {"coins": p.coins, "camels": p.camels, "pepper": p.pepper, "silk": p.silk, "gold": p.gold, "jade": p.jade, "vp": p.vp}


def marker_choices(state: MP2State, m: Map, exclude: str = "") -> tuple[str, ...]:
    """The markers an "any other bonus" component may pay (engine.any_bonus_choices)."""
    out = set()
    for _, marker in state.bonuses:
        spec = m._get("city_bonus", marker)
        if marker != exclude and spec is not None and not spec.get("any_bonus"):
            out.add(marker)
    return tuple(sorted(out))


class Arrivals:
    """What new posts bring that a move must name: per ordered candidate cities (the extra post, the
    ends), the contracts taken and given up and the "any other bonus" picks, cached."""

    def __init__(self, sx: Seat, m: Map) -> None:
        state, p = sx.state, sx.p
        self.state, self.p, self.m = state, p, m
        self.hold = sx.pack.contracts_action["hold"]
        self.contracts_at: dict[str, list[str]] = {}
        for c, k in state.city_contracts:
            self.contracts_at.setdefault(c, []).append(k)
        self.cache: dict = {}

    def picks(self, city: str) -> list[tuple[str, ...]]:
        """Candidate lists, in the engine's order: the first post's outpost tile, then the marker."""
        state, m = self.state, self.m
        out = []
        if self.p.character != "filippo":
            for c, tile in state.outposts:
                if c == city:
                    spec = m._get("outpost", tile)
                    if spec is not None and spec.get("any_bonus"):
                        out.append(marker_choices(state, m))
                    break
        for c, marker in state.bonuses:
            if c == city:
                spec = m._get("city_bonus", marker)
                if spec is not None and spec.get("any_bonus"):
                    out.append(marker_choices(state, m, marker))
        return [c for c in out if c]

    def __call__(self, candidates: tuple) -> list[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
        got = self.cache.get(candidates)
        if got is None:
            p, cities = self.p, self.m.cities
            left = p.posts_left
            new = []
            for c in candidates:
                if c and c in cities and c not in p.posts and c not in new and left > 0:
                    new.append(c)
                    left -= 1
            takes = [()]
            lists = []
            for c in new:
                takes += [t + (k,) for t in takes for k in self.contracts_at.get(c, ())]
                lists += self.picks(c)
            picks = list(product(*lists)) if lists else [()]
            got = self.cache[candidates] = [
                (take, discard, pick) for take in takes for discard in _discards(p.contracts, take, self.hold) for pick in picks
            ]
        return got
