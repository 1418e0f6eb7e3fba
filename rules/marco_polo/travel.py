"""Travel: figures moving, trading posts, and the reward lists they resolve (a reward may
itself move a figure or give a post's bonus, so they stand together)."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo import codes
from rules.marco_polo.content import (
    ADJACENT,
    BEIJING,
    CITY_BONUSES,
    CITY_BONUS_IDS,
    GOODS,
    KIND,
    NAME,
    OASES,
    OUTPOST_BONUSES,
    POST_CITIES,
    POST_VP,
    ROUTE_COST,
    SMALL_CITIES,
    TRAVEL_COST,
)
from rules.marco_polo.dice import occupied_fee, place_dice
from rules.marco_polo.state import DRAW, PLAY, ROLL_DIE, TRAVEL
from rules.marco_polo.work import (
    LARGE_INDEX,
    RESOURCE_FIELDS,
    SMALL_INDEX,
    Work,
    black_available,
    gain,
    pay,
    special_left,
)


Q_TRAVEL = (
    '"Puedes avanzar hasta tantos pasos como marque el menor dado, pero al menos uno. Paga el coste del '
    'número de pasos que realmente avances y los posibles costes adicionales de las rutas."'
)


def run_items(w: Work, seat: int, items, why: str) -> None:
    for kind, n in items:
        if kind in RESOURCE_FIELDS or kind == "vp":
            gain(w, seat, kind, n)
        elif kind == "good":
            for _ in range(n):
                g = w.token(phrase("what/which-good", "which good {why}", why=why), lambda: GOODS)
                if w.strict and g not in GOODS:
                    codes.illegal(codes.BAD_CHOICE, "{g!r} is not a good (pepper, silk, gold) {why}", g=g, why=why)
                gain(w, seat, g, 1)
        elif kind == "goods2":
            a = w.token(phrase("what/first-good", "the first of two different goods {why}", why=why), lambda: GOODS[:2])
            b = w.token(phrase("what/second-good", "the second of two different goods {why}", why=why), lambda: GOODS[GOODS.index(a) + 1 :] if a in GOODS else ())
            if w.strict and (a not in GOODS or b not in GOODS or a == b):
                codes.illegal(codes.BAD_CHOICE, "two goods of different types {why}, not {a!r} and {b!r}", why=why, a=a, b=b)
            gain(w, seat, a, 1)
            gain(w, seat, b, 1)
        elif kind == "coin_or_camel":
            t = w.token(phrase("what/coins-or-camels", "coins or camels {why}", why=why), lambda: ("coins", "camels"))
            if w.strict and t not in ("coins", "camels"):
                codes.illegal(codes.BAD_CHOICE, "choose 'coins' or 'camels' {why}, not {t!r}", why=why, t=t)
            gain(w, seat, t, n)
        elif kind == "move":
            for _ in range(n):
                t = w.token(phrase("what/free-move", "where the free move goes {why} (or 'stay')", why=why), lambda: move_candidates(w, seat))
                if t != "stay":
                    step(w, seat, t, why)
        elif kind == "contract":
            if special_left(w) > 0:  # an empty special pile gives nothing (ruling MP-23)
                w.push((DRAW, seat, ""))
        elif kind == "black_die":
            if black_available(w) > 0:
                w.f["black_supply"] = w.get("black_supply") - 1
                w.push((ROLL_DIE, seat, "b"))
        elif kind == "any_bonus":
            t = w.token(
                phrase("what/other-bonus", "which other city bonus marker {why}", why=why),
                lambda: tuple(b for b in w.get("city_bonuses") if b != "CB4"),
            )
            if w.strict and (t not in CITY_BONUS_IDS or t == "CB4" or t not in w.get("city_bonuses")):
                codes.illegal(
                    codes.BAD_CHOICE,
                    "{t!r}: choose any other small-city bonus marker on the board {why} (CB1..CB6 but the 'any other bonus' marker itself)", t=t, why=why,
                )
            run_items(w, seat, CITY_BONUSES[t]["effect"], phrase("why/bonus-marker", "(bonus {t})", t=t))
        elif kind == "own_bonus":
            for _ in range(n):
                own_bonus(w, seat, why)
        else:  # pragma: no cover - content is fixed
            raise AssertionError(kind)


def own_bonus(w: Work, seat: int, why: str) -> None:
    city = w.token(
        phrase("what/own-bonus", "the small city whose bonus is taken {why}", why=why),
        lambda: tuple(c for c in SMALL_CITIES if c in w.p(seat)["posts"] and c not in w.scratch),
    )
    if w.strict:
        if city not in SMALL_INDEX or city not in w.p(seat)["posts"]:
            codes.illegal(codes.BAD_CHOICE, "{city!r} is not a small city with {player}'s trading post {why}", city=city, player=w.who(seat), why=why)
        if city in w.scratch:
            codes.illegal(codes.BAD_CHOICE, "{city}: a different city each time {why}", city=city, why=why)
    w.scratch.add(city)
    bonus = w.get("city_bonuses")[SMALL_INDEX.get(city, 0)]
    run_items(w, seat, CITY_BONUSES[bonus]["effect"], phrase("why/bonus-of", "(bonus of {city})", city=city))


def move_candidates(w: Work, seat: int) -> tuple[str, ...]:
    d = w.p(seat)
    out = []
    for fig, here in enumerate(d["figures"]):
        prefix = "2:" if fig else ""
        near = list(ADJACENT[here])
        if d["character"] == "carpini" and here in OASES:
            near += [o for o in OASES if o != here and o not in near]
        out += [prefix + x for x in near]
    return tuple(out) + ("stay",)


def _figure(w: Work, seat: int, token: str) -> tuple[int, str]:
    if token.startswith("2:"):
        if w.strict and w.p(seat)["character"] != "niccolo":
            codes.illegal(codes.SECOND_FIGURE, "only Niccolo & Marco have a second figure ({token!r})", token=token)
        return 1, token[2:]
    return 0, token


def step_cost(w: Work, seat: int, here: str, there: str) -> dict:
    """The route extra cost of one step; refuses a step that is not along a route."""
    cost = ROUTE_COST.get((here, there))
    if cost is not None:
        return cost
    if here in OASES and there in OASES and here != there and w.p(seat)["character"] == "carpini":
        return {}
    if w.strict:
        if there not in KIND:
            codes.illegal(codes.UNKNOWN_ID, "{there!r} is not a location of the map", there=there)
        codes.illegal(
            codes.NOT_ADJACENT,
            "no route leads from {name_item} to {name_item2} (each step goes to the next location{here_in_oases:? ; Johannes Carpini may also jump from an oasis to any other oasis|})", name_item=NAME[here], name_item2=NAME[there], here_in_oases=here in OASES,
        )
    return {}


def step(w: Work, seat: int, token: str, why: str) -> None:
    """A free 1-step move (reward 'move 1'): route extras are paid, then the arrival."""
    fig, there = _figure(w, seat, token)
    d = w.p(seat)
    figures = d["figures"]
    if fig >= len(figures):  # pragma: no cover - guarded by _figure
        fig = 0
    here = figures[fig]
    cost = step_cost(w, seat, here, there)
    for res, n in cost.items():
        pay(w, seat, res, n, phrase("why/route", "for the route {name_item}-{name_item2} {why}", name_item=NAME[here], name_item2=NAME[there], why=why))
    d["figures"] = figures[:fig] + (there,) + figures[fig + 1 :]
    bonus = place_post(w, seat, there)
    if bonus is not None:
        run_items(w, seat, bonus[0], bonus[1])


def place_post(w: Work, seat: int, city: str):
    """Places a post (if the rules do); returns the bonus items it earns (to run now), or None."""
    if city not in POST_CITIES:
        return None
    d = w.p(seat)
    if city in d["posts"] or d["posts_left"] <= 0:
        return None
    d["posts"] = d["posts"] + (city,)
    d["posts_left"] -= 1
    vp = POST_VP.get(len(d["posts"]))
    if vp:
        d["vp_posts"] += vp
    if seat == w.s.turn and w.get("phase") == PLAY:
        w.f["turn_posts"] = w.get("turn_posts") + (city,)
    if city == BEIJING:
        w.f["beijing"] = w.get("beijing") + (seat,)
        return None
    if city in SMALL_INDEX:
        bonus = w.get("city_bonuses")[SMALL_INDEX[city]]
        return CITY_BONUSES[bonus]["effect"], phrase("why/bonus-of-city", "(bonus of {name_item})", name_item=NAME[city])
    i = LARGE_INDEX[city]
    outposts = w.get("outposts")
    tile = outposts[i]
    if tile is None:
        return None
    w.f["outposts"] = outposts[:i] + (None,) + outposts[i + 1 :]
    return OUTPOST_BONUSES[tile]["effect"], phrase("why/outpost-bonus", "(outpost bonus {tile} of {name_item})", tile=tile, name_item=NAME[city])


def travel(w: Work, seat: int, dice: tuple[str, ...], path: tuple[str, ...], path2: tuple[str, ...]) -> None:
    d = w.p(seat)
    if w.strict and path2 and d["character"] != "niccolo":
        codes.illegal(codes.SECOND_FIGURE, "only Niccolo & Marco Polo move a second figure")
    # every step is checked along a route before anything is paid: a path no route allows is
    # refused as such, whatever the traveller holds
    walks = []
    for fig, walk in enumerate((path, path2)):
        if not walk:
            continue
        here = d["figures"][fig]
        costs = []
        for there in walk:
            costs.append((here, there, step_cost(w, seat, here, there)))
            here = there
        walks.append((fig, here, costs))
    occupied = any(p[0] == TRAVEL for p in w.get("board"))
    low = place_dice(w, seat, TRAVEL, dice, 2, False, "'Viajar'")
    steps = len(path) + len(path2)
    if w.strict and not 1 <= steps <= low:
        codes.illegal(codes.TRAVEL_STEPS, "{steps} step(s) with a lowest die of {low}: {rule}", steps=steps, low=low, rule=Q_TRAVEL)
    if occupied:
        occupied_fee(w, seat, low, "'Viajar'")
    pay(w, seat, "coins", TRAVEL_COST.get(steps, 0), phrase("why/travel-steps", "for {steps} travel step(s): {rule}", steps=steps, rule=Q_TRAVEL))
    ends = []
    passed = []
    for fig, end, costs in walks:
        for here, there, cost in costs:
            for res, n in cost.items():
                pay(w, seat, res, n, phrase("why/route-travel", "for the route {name_item}-{name_item2}: {rule}", name_item=NAME[here], name_item2=NAME[there], rule=Q_TRAVEL))
            passed.append(there)
        ends.append(end)
        d["figures"] = d["figures"][:fig] + (end,) + d["figures"][fig + 1 :]
    cities = passed if d["character"] == "wilhelm" else ends
    bonuses = []
    for city in cities:
        bonus = place_post(w, seat, city)
        if bonus is not None:
            bonuses.append(bonus)
    w.src = "bonuses"
    for items, why in bonuses:
        run_items(w, seat, items, why)
    w.f["last_traveller"] = seat
