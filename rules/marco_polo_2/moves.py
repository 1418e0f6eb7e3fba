"""Legal moves for the seat to act, as completed events (a picker for the recorder).

Listed: every pending decision's options (picks, goal cards, round-start income), then for a turn
every main action with each distinct set of dice, then the bonus actions and the end of the turn.
To keep the list finite and short, equivalent moves are listed once: a travel per dice set, row
and end (and extra post) takes the cheapest path; a caravan after a market moves to each end it can
reach (by a shortest path); Möngke Khan takes all coins or all camels for skipped oases.
``decide`` accepts the unlisted equivalents too. The generator applies the rules' conditions itself
(no trial runs, to stay fast); the tests hold it to ``decide``: every listed move is accepted.
A component the log has not described yet (partial pack) lists no move that needs it.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

from events.base import Event
from rules.marco_polo_2.engine import _described_map, can_pay, contract_reward_choices, own_slot
from rules.marco_polo_2.events import (
    BlackDieBought, BookUsed, CaravanConquered, CaravanStarted, CharacterPicked, CityCardUsed, ContractCompleted,
    ContractsTaken, DieAdjusted, DieRerolled, GoalKept, GoodsTraded, GuildTaken, IncomeTaken, KhansFavorTaken,
    MoneyBagTaken, OutpostTileUsed, SealImproved, SpecialCityUsed, Travelled, TurnEnded,
)
from rules.marco_polo_2.state import (
    BAG, BOOK_SPACE, COLOUR_INITIAL, COLOURS, CONTRACTS_SPACE, GUILD, INCOME, KEEP, KHAN, PICK, TRAVEL_SPACE,
    MP2State, PlayerState, pack_of,
)
from rules.marco_polo_2.views import to_move
from rules.marco_polo_common.moves import legal_moves as pending_or_turn_moves


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


def paths(m: Map, p: PlayerState, start: str, max_len: int) -> list[tuple[str, ...]]:
    """Simple paths from ``start`` up to ``max_len`` steps, the cheapest per (end, length, nodes passed
    that are cities) -- guild routes only with the seal."""
    best: dict = {}
    cities, posts, seals, nodes, adj = m.cities, p.posts, p.seals, m.nodes, m.adj
    stack = [(start, (), 0)]
    while stack:
        here, path, cost = stack.pop()
        if path:
            key = (path[-1], len(path), frozenset(x for x in path[:-1] if x in cities and x not in posts))
            if key not in best or cost < best[key][0]:
                best[key] = (cost, path)
        if len(path) >= max_len:
            continue
        for there, r in adj.get(here, ()):
            if there == start or there in path or there not in nodes:
                continue
            g = r.get("guild")
            if g and g not in seals:
                continue
            stack.append((there, path + (there,), cost + r.get("coins", 0) + r.get("camels", 0) + r.get("jade", 0) * 2))
    return [v[1] for v in best.values()]


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


def _route_cost(m: Map, p: PlayerState, start: str, path: tuple[str, ...]) -> dict:
    coins = camels = jade = 0
    here = start
    edge = m.edge
    for there in path:
        r = edge[(here, there)]
        coins += r.get("coins", 0)
        camels += r.get("camels", 0)
        jade += r.get("jade", 0)
        here = there
    if p.character == "gantulga":
        coins = camels = 0
    return {"coins": coins, "camels": camels, "jade": jade}


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


def _caravan_paths(state: MP2State, p: PlayerState, book: int, m: Map) -> list[tuple[tuple[str, ...], ...]]:
    pack = pack_of(state)
    started = [i for i, c in enumerate(p.caravans) if c[1]]
    if not state.options.caravans or not started:
        return [()]
    limit = pack.caravan["steps"][book - 1] + (2 if p.character == "tebaldo" else 0)
    per = []
    for i in range(len(p.caravans)):
        if i not in started:
            per.append([()])
            continue
        ends: dict[str, tuple[str, ...]] = {}
        for path in paths(m, p, p.caravans[i][1], limit):
            if path[-1] not in ends or len(path) < len(ends[path[-1]]):
                ends[path[-1]] = path
        per.append([()] + sorted(ends.values()))
    if p.character == "piedro":
        combos = list(product(*per))
    else:
        combos = [()] + [tuple(() if j != i else path for j in range(i + 1)) for i in started for path in per[i][1:]]
    return [tuple(c) if any(c) else () for c in combos]


def _main_moves(sx: Seat, m: Map) -> list[Event]:
    state, p, seat, pack = sx.state, sx.p, sx.seat, sx.pack
    out: list[Event] = _travel_moves(sx, m)
    singles = dice_sets(p, 1)
    for book in (1, 2, 3):
        cars = _caravan_paths(state, p, book, m)
        for (t,) in singles:
            fee = sx.placeable(BOOK_SPACE[book], (t,), "shared")
            if fee is None or value(t) < pack.book_min[book - 1]:
                continue
            for option in (1, 2, 3, 4):
                if option <= 2 and m.book(book) is None:
                    continue  # the book's free options are not described yet
                if option >= 3 and (len(state.offers) < book or m.offer(state.offers[book - 1]) is None):
                    continue
                price = pack.jade_prices[option - 3] if option >= 3 else 0
                if not sx.pays({"coins": fee, "jade": price}):
                    continue
                out += [BookUsed(book=book, die=t, option=option, caravans=c, seat=seat) for c in cars]
    khan = sx.occupied.get(KHAN, [])
    if len(khan) < pack.khan["slots"]:
        for (t,) in singles:
            if (not khan or value(t) >= khan[-1]) and sx.placeable(KHAN, (t,), "free") is not None:
                out.append(KhansFavorTaken(die=t, seat=seat))
    available = [k for c, k in state.city_contracts if c in p.posts]
    limit = 1 if p.character == "vidal" else pack.contracts_action["take"]
    takes = [tuple(c) for n in range(0, limit + 1) for c in combinations(available, n)]
    for (t,) in singles:
        fee = sx.placeable(CONTRACTS_SPACE, (t,), "shared")
        if fee is None or not sx.pays({"coins": fee}):
            continue
        for take in takes:
            for discard in _discards(p.contracts, take, pack.contracts_action["hold"]):
                out.append(ContractsTaken(die=t, contracts=take, discard=discard, seat=seat))
    for dice in dice_sets(p, 1 if p.character == "dewu" else 2):
        fee = sx.placeable(GUILD, dice, "shared")
        if fee is None or not sx.pays({"coins": fee}):
            continue
        low = min(value(t) for t in dice)
        out += [GuildTaken(dice=dice, guild=g, seat=seat) for g, spec in pack.guilds.items() if g not in p.seals and low >= spec["min_die"]]
    specials = {m.nodes.get(c, {}).get("special") for c in p.posts} - {None}
    for city in sorted(specials):
        space = f"special:{city}"
        if len(sx.occupied.get(space, ())) >= 2 or m._get("special", city) is None:
            continue
        for (t,) in singles:
            if sx.placeable(space, (t,), "free") is not None:
                out.append(SpecialCityUsed(city=city, die=t, seat=seat))
    cards = [(c, k) for c, k in state.cards] + list(zip(("area1", "area2"), state.area_cards))
    for city, card in cards:
        space = f"card:{city}"
        if space in sx.occupied or city in state.turn_posts:
            continue
        spec = m.card(card)
        if spec is None:
            continue
        for (t,) in singles:
            if sx.placeable(space, (t,), "single") is None:
                continue
            if not city.startswith("area") and city not in p.posts and not _piece_may(state, t, city):
                continue
            v = value(t)
            kind = spec["kind"]
            if kind in ("per_contract", "per_post"):
                out.append(CityCardUsed(city=city, die=t, times=1, seat=seat))
            elif kind == "exchange":
                out += _repeats(sx, city, t, v, spec.get("pay", {}), {})
            elif kind == "choice":
                for i, o in enumerate(spec["options"], 1):
                    cost = dict(o.get("pay", {}))
                    if spec.get("vp_below_zero"):
                        cost.pop("vp", None)
                    out += _repeats(sx, city, t, v, cost, {"option": i})
            elif kind == "bonuses":
                mine = sorted({mk for c, mk in state.bonuses if c in p.posts and m._get("city_bonus", mk) is not None})
                for n in range(1, min(v, len(mine)) + 1):
                    for markers in combinations(mine, n):
                        lists = [marker_choices(state, m, mk) for mk in markers if m._get("city_bonus", mk).get("any_bonus")]
                        lists = [c for c in lists if c]
                        for picks in (product(*lists) if lists else [()]):
                            out.append(CityCardUsed(city=city, die=t, times=n, markers=markers, choices=picks, seat=seat))
            elif kind == "guild":
                if sx.pays(spec.get("pay", {})):
                    out += [CityCardUsed(city=city, die=t, guild=g, seat=seat) for g, gs in pack.guilds.items()
                            if g not in p.seals and v >= gs["min_die"]]
            elif kind == "move":
                out += _card_moves(sx, m, city, t, min(v, spec.get("max") or 6))
    return out


def _repeats(sx: Seat, city: str, t: str, v: int, pay: dict, extra: dict) -> list[Event]:
    out = []
    for times in range(1, v + 1):
        if pay and not sx.pays({k: n * times for k, n in pay.items()}):
            break
        out.append(CityCardUsed(city=city, die=t, times=times, seat=sx.seat, **extra))
    return out


def _card_moves(sx: Seat, m: Map, city: str, t: str, limit: int) -> list[Event]:
    """A card's multi-step move: per figure, each cheapest path (no oasis passed for Möngke Khan, whose
    skipped oases ``decide`` accepts) within the die, a post where it ends (ruling MP2-20)."""
    p, seat = sx.p, sx.seat
    out: list[Event] = []
    arrivals = Arrivals(sx, m)
    for fig, start in enumerate(p.figures):
        for path in paths(m, p, start, limit):
            if p.character == "mongke" and any(x in m.oases for x in path[:-1]):
                continue
            if not sx.pays(_route_cost(m, p, start, path)):
                continue
            for take, discard, picks in arrivals((path[-1],)):
                out.append(CityCardUsed(city=city, die=t, path=path, figure=fig, take=take, discard=discard,
                                        choices=picks, seat=seat))
    return out


def _piece_may(state: MP2State, token: str, city: str) -> bool:
    """Donata's piece on the card of a city without her post (ruling MP2-12)."""
    if token[0] != "p":
        return False
    colour = COLOUR_INITIAL[token[1]]
    owners = [s for s in range(state.n) if city in state.seats[s].posts]
    seat_colours = COLOURS[: state.n]
    if colour in seat_colours:
        return COLOURS.index(colour) in owners
    return not owners


def _turn_moves(state: MP2State) -> list[Event]:
    sx = Seat(state)
    seat, p, pack = sx.seat, sx.p, sx.pack
    out: list[Event] = []
    singles = dice_sets(p, 1)
    m = map_of(state)
    if not state.main_done and (p.dice or p.black):
        out += _main_moves(sx, m)
    # bonus actions
    vidal = p.character == "vidal"
    for k in p.contracts:
        spec = m.contract(k)
        if spec is not None and (vidal or sx.pays(spec["cost"])):
            reward = spec["reward"]
            lists = []
            if reward.get("contract"):
                cands = contract_reward_choices(state.city_contracts, p.posts)
                if cands:
                    lists.append(cands)
            if reward.get("black_die") and state.black_supply > 0 and state.options.black_dice_variant:
                lists.append(tuple(str(v) for v in sorted(set(state.black_pool))))
            for picks in (product(*lists) if lists else [()]):
                out.append(ContractCompleted(contract=k, choices=picks, seat=seat))
    for g in p.seals:
        spec = m.seal(g)
        if g not in p.improved and spec is not None:
            cost = dict(spec["improve"])
            if p.character == "tebaldo":
                cost.pop("coins", None)
            if sx.pays(cost):
                out.append(SealImproved(guild=g, seat=seat))
    bag_taken = BAG in sx.occupied
    for (t,) in singles:
        if t[0] == "p" and bag_taken:
            continue  # a piece goes only where no die is
        for bag in pack.money_bag:
            out.append(MoneyBagTaken(die=t, take=next(iter(bag)), seat=seat))
    camels = p.camels + p.jade
    for (t,) in singles:
        if t[0] == "p":
            continue
        if camels >= pack.bonus_costs["reroll"]:
            out.append(DieRerolled(die=t, seat=seat))
        if camels >= pack.bonus_costs["adjust"]:
            v = value(t)
            if v < 6:
                out.append(DieAdjusted(die=t, delta=1, seat=seat))
            if v > 1:
                out.append(DieAdjusted(die=t, delta=-1, seat=seat))
    if camels >= pack.bonus_costs["black"] and not state.bought_black and state.black_supply > 0:
        if state.options.black_dice_variant:
            out += [BlackDieBought(value=v, seat=seat) for v in sorted(set(state.black_pool))]
        else:
            out.append(BlackDieBought(seat=seat))
    if vidal and not state.traded and p.gold and p.silk and p.pepper:
        out.append(GoodsTraded(seat=seat))
    for tile in sorted(set(p.tiles)):
        spec = m._get("outpost", tile)
        cands = marker_choices(state, m) if spec is not None and spec.get("any_bonus") else ()
        if cands:
            out += [OutpostTileUsed(tile=tile, choices=(c,), seat=seat) for c in cands]
        elif spec is not None:
            out.append(OutpostTileUsed(tile=tile, seat=seat))
    if state.options.caravans:
        out += _caravan_moves(state, p, seat, m)
    if state.main_done or not (p.dice or p.black):
        out.append(TurnEnded(seat=seat))
    return out


def _caravan_moves(state: MP2State, p: PlayerState, seat: int, m: Map) -> list[Event]:
    out: list[Event] = []
    if any(not c[1] for c in p.caravans):
        goods = [g for g in ("pepper", "silk", "gold") if getattr(p, g)]
        loads = [(g,) for g in goods] + [(a, b) for a, b in combinations(goods, 2)]
        loads += [(g, g) for g in goods if getattr(p, g) >= 2]
        here = {m.nodes[f].get("shield") for f in p.figures if m.city(f)}
        for tile in state.tiles_up:
            spec = m.tile(tile)
            if spec is None:
                continue
            a, b = spec["shields"]
            others = ({b} if a in here else set()) | ({a} if b in here else set())
            for city, spec in m.nodes.items():
                if spec.get("kind") != "city" or spec.get("shield") not in others:
                    continue
                if p.character == "mailin" and city in p.figures:
                    continue
                out += [CaravanStarted(goods=load, tile=tile, city=city, seat=seat) for load in loads]
    for i, (tile, loc, goods) in enumerate(p.caravans):
        if loc and loc in p.figures:
            for rewards in product(("sell", "upgrade", "double"), repeat=len(goods)):
                if all(not (r == "upgrade" and g == "gold") for g, r in zip(goods, rewards)):
                    out.append(CaravanConquered(caravan=i, rewards=rewards, seat=seat))
    return out


def _income_moves(state: MP2State, seat: int) -> list[Event]:
    from rules.marco_polo_2.engine import Work, round_sources

    p = state.seats[seat]
    due = p.compensation
    m = map_of(state)
    sources = round_sources(Work(state, False), seat)
    doubles: list = [None]
    if p.character == "mailin":
        doubles = [k for k, _ in sources] or [None]
    # "any other bonus" markers paying this round: one pick each, then one more for a doubled one
    lists = [marker_choices(state, m, b[1]) for _, b in sources if type(b) is tuple]
    lists = [c for c in lists if c]
    kinds = dict(sources)
    pairs = [0]
    if p.character == "isabella":
        pairs += sorted({v for v in p.dice if p.dice.count(v) >= 2})
    picks_of = {}
    for d in doubles:
        b = kinds.get(d)
        extra = [marker_choices(state, m, b[1])] if type(b) is tuple and marker_choices(state, m, b[1]) else []
        picks_of[d] = list(product(*(lists + extra))) if lists or extra else [()]
    return [
        IncomeTaken(coins=c, camels=due - c, double=d, pair=pr, choices=pick, seat=seat)
        for c in range(due, -1, -1)
        for d in doubles
        for pr in pairs
        for pick in picks_of[d]
    ]


def _goal_kept(state: MP2State, seat: int, p) -> list[Event]:
    if None in p.dealt or not p.dealt:
        return [GoalKept(goal=None, seat=seat)]
    return [GoalKept(goal=g, seat=seat) for g in p.dealt]


#: the moves answering each pending item a seat decides
PENDING_MOVES = {
    INCOME: lambda state, seat, p: _income_moves(state, seat),
    PICK: lambda state, seat, p: [CharacterPicked(character=c, seat=seat) for c in state.offered],
    KEEP: _goal_kept,
}


def legal_moves(state: MP2State) -> list[Event]:
    return pending_or_turn_moves(state, to_move, PENDING_MOVES, _turn_moves)
