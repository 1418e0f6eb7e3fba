"""The other main actions' legal moves: books (with caravans), the Khan, contracts, guilds, special cities, city cards."""

from __future__ import annotations

from itertools import combinations, product

from events.base import Event
from rules.marco_polo_2.events import (
    BookUsed, CityCardUsed, ContractsTaken, GuildTaken, KhansFavorTaken, SpecialCityUsed,
)
from rules.marco_polo_2.state import (
    BOOK_SPACE, COLOUR_INITIAL, COLOURS, CONTRACTS_SPACE, GUILD, KHAN, MP2State, PlayerState, pack_of,
)
from rules.marco_polo_2.moves_map import (
    Arrivals, Map, Seat, _discards, by_cost, dice_sets, marker_choices, offers, value, walks,
)
from rules.marco_polo_2.moves_travel import _travel_moves


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
        here = p.caravans[i][1]
        for path, *_ in walks(m, p, here, limit):
            if path[-1] != here and (path[-1] not in ends or (len(path), path) < (len(ends[path[-1]]), ends[path[-1]])):
                ends[path[-1]] = path  # back where it stood is the same as not moving
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
    """A card's multi-step move: per figure and end, each walk's route cost no other undercuts (no oasis
    passed for Möngke Khan, whose skipped oases ``decide`` accepts) within the die, a post where it
    ends (ruling MP2-20)."""
    p, seat = sx.p, sx.seat
    out: list[Event] = []
    arrivals = Arrivals(sx, m)
    for fig, start in enumerate(p.figures):
        found = walks(m, p, start, limit)
        if p.character == "mongke":
            found = [w for w in found if not any(x in m.oases for x in w[0][:-1])]
        for path, _, _, _, (coins, camels, jade) in offers(by_cost(found), limit):
            if not sx.pays({"coins": coins, "camels": camels, "jade": jade}):
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
