"""Travel: figures and caravans moving along routes, trading posts and the bonuses a post gives."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo_2 import codes
from rules.marco_polo_2.components import component, known
from rules.marco_polo_2.content import route_id
from rules.marco_polo_2.contracts import take_contracts
from rules.marco_polo_2.dice import place_dice
from rules.marco_polo_2.state import TRAVEL_SPACE
from rules.marco_polo_2.work import Work, gain, gain_bundle, pay


Q_GUILD_ROUTE = '"ギルドマークがある場合そのギルドマーカーを所持していないと通行不可。（未アップグレードのままでもよい）"'


def node(w: Work, nid: str) -> dict:
    return component(w, "node", nid)


def is_city(w: Work, nid: str) -> bool:
    spec = w.pack.components["node"].get(nid)
    return (spec if spec is not None else node(w, nid))["kind"] == "city"


def at(pairs: tuple[tuple[str, str], ...], city: str) -> list[str]:
    return [i for c, i in pairs if c == city]


def seat_of(w: Work, character: str) -> int:
    """The seat playing ``character`` (-1: nobody); characters never change once picked."""
    for i, p in enumerate(w.s.seats):
        if p.character == character:
            return i
    return -1


def place_post(w: Work, seat: int, city: str) -> bool:
    """A trading post in ``city`` (a city without the seat's post): the 9th/10th/11th post VP, the
    first-post outpost tile, the «!» bonus at once. Returns whether a post was placed."""
    d = w.pl.get(seat) or w.p(seat)
    if city in d.posts or d.posts_left <= 0 or not is_city(w, city):
        return False
    d.posts = d.posts + (city,)
    d.posts_left -= 1
    d.vp += w.pack.post_vp.get(len(d.posts), 0)
    w.f["turn_posts"] = w.get("turn_posts") + (city,)
    outposts = w.get("outposts")
    for i, (c, tile) in enumerate(outposts):
        if c == city:
            w.f["outposts"] = outposts[:i] + outposts[i + 1 :]
            filippo = seat_of(w, "filippo")
            if d.character == "filippo":
                d.tiles = d.tiles + (tile,)  # kept, cashed later as a bonus action
            else:
                gain_bundle(w, seat, bonus_of(w, "outpost", tile))
                if filippo >= 0:
                    f = w.p(filippo)
                    f.tiles = f.tiles + (tile,)
            break
    for marker in at(w.get("bonuses"), city):
        gain_bundle(w, seat, bonus_of(w, "city_bonus", marker))
    return True


def any_bonus_choices(w: Work, exclude: str = "") -> tuple[str, ...]:
    """The bonus markers an "any other bonus" component may pay: every other marker on the board
    whose bonus is a bundle (ruling MP2-20)."""
    out = []
    for _, marker in w.get("bonuses"):
        if marker == exclude or marker in out:
            continue
        spec = known(w, "city_bonus", marker)
        if spec is not None and not spec.get("any_bonus"):
            out.append(marker)
    return tuple(sorted(out))


def bonus_of(w: Work, kind: str, cid: str) -> dict:
    """The bundle a bonus marker or outpost tile pays now; an "any other bonus" one pays the marker
    the move names next in ``choices`` (none on the board: nothing)."""
    spec = component(w, kind, cid)
    if not spec.get("any_bonus"):
        return spec["gain"]
    cands = any_bonus_choices(w, cid if kind == "city_bonus" else "")
    if not cands:
        return {}
    chosen = w.token(phrase("what/bonus-marker-pays", "the bonus marker {kind} {cid} pays (any other bonus marker)", kind=kind, cid=cid), cands)
    return component(w, "city_bonus", chosen)["gain"] if chosen in cands else {}


def steps_of(w: Work, seat: int, path: tuple[str, ...]) -> tuple[int, list[str]]:
    """(steps counted, oases Möngke Khan skipped): "オアシスをないものとして飛ばして移動できる" -- every pass
    through an oasis is no step, each different oasis passed is paid once ("飛ばしたオアシス１つにつき", ruling MP2-5)."""
    if w.p(seat).character != "mongke":
        return len(path), []
    passes = [x for x in path[:-1] if node(w, x)["kind"] == "oasis"]
    return len(path) - len(passes), list(dict.fromkeys(passes))


def walk(w: Work, seat: int, start: str, path: tuple[str, ...], pay_costs: bool, why: str) -> None:
    """Steps along routes: each must exist, its guild seal be owned, its costs be paid. A node may come
    again (ruling MP2-5)."""
    if not w.strict:
        if pay_costs:
            _walk_trusted(w, seat, start, path)
        return
    d = w.pl.get(seat) or w.p(seat)
    here = start
    gantulga = d.character == "gantulga"
    for there in path:
        r = known(w, "route", route_id(here, there)) if isinstance(there, str) else None
        if r is None:
            if not isinstance(there, str) or w.pack.components["route"]:
                codes.illegal(codes.NOT_ADJACENT, "no route leads from {here} to {there!r} {why}", here=here, there=there, why=why)
            component(w, "route", route_id(here, there), "(the pack has no map: describe the route and its end)")
            here = there
            continue
        node(w, there)
        g = r.get("guild")
        if g and g not in d.seals:
            codes.illegal(codes.GUILD_ROUTE, "the route {here}-{there} needs the {g} guild seal: {rule}", here=here, there=there, g=g, rule=Q_GUILD_ROUTE)
        if pay_costs:
            if gantulga:  # "通行コストのラクダとコインを支払わなくてもよい"
                cost = {"jade": r.get("jade", 0)}
            else:
                cost = {"coins": r.get("coins", 0), "camels": r.get("camels", 0), "jade": r.get("jade", 0)}
            pay(w, seat, cost, phrase("why/route-2", "for the route {here}-{there}", here=here, there=there))
        here = there


def _walk_trusted(w: Work, seat: int, start: str, path: tuple[str, ...]) -> None:
    """A checked walk's route costs, paid at once: the total takes the same coins, camels and jade
    (jade covering the shortfall) as paying step by step."""
    routes = w.pack.components["route"]
    coins = camels = jade = 0
    here = start
    for there in path:
        rid = f"{here}-{there}" if here < there else f"{there}-{here}"
        r = routes.get(rid)
        if r is None:
            r = known(w, "route", rid)
        if r is not None:
            coins += r.get("coins", 0)
            camels += r.get("camels", 0)
            jade += r.get("jade", 0)
        here = there
    if w.p(seat).character == "gantulga":
        coins = camels = 0
    if coins or camels or jade:
        pay(w, seat, {"coins": coins, "camels": camels, "jade": jade}, "")


def travel(w: Work, seat: int, row: int, dice, path, extra, take, discard, figure: int, path2=()) -> None:
    """A travel of one figure (``path``), or Mailin & Tian Chin's split between both figures (``path2``
    moves the other figure, ruling MP2-13)."""
    d = w.pl.get(seat) or w.p(seat)
    spec = w.pack.travel.get(row) if isinstance(row, int) else None
    if spec is None:
        codes.illegal(codes.TRAVEL_ROW, "travel row {row!r}: 1 (lower), 2 (middle) or 3 (upper)", row=row)
    if w.strict and d.character == "gantulga" and row != 1:
        codes.illegal(codes.GANTULGA_LOWER_ROW, "Gantulga Od: {rule}", rule="\"移動アクションの下段しか選択できなくなる\"")
    low = place_dice(w, seat, TRAVEL_SPACE[row], dice, spec["dice"], "shared", f"travel row {row}")
    if spec.get("coins"):
        pay(w, seat, {"coins": spec["coins"]}, phrase("why/lower-row", "for the lower travel row: {rule}", rule="\"下段：アクションマスにダイスを１つ置き２コインを払います。\""))
    limit = min(low, spec.get("max") or 6)
    move(w, seat, path, path2, figure, limit, extra, take, discard, f"travel row {row}", row == 3)
    claim = w.get("start_claim")
    if row >= claim[0]:  # "「移動」のアクションをより上段で最後に行ったプレイヤー"
        w.f["start_claim"] = (row, seat)


def move(w: Work, seat: int, path, path2, figure: int, limit: int, extra, take, discard, what: str, extra_ok: bool) -> None:
    """A move of ``limit`` steps at most (a travel, or a city card's multi-step move): one figure
    (``path``) or Mailin & Tian Chin's two (``path2`` moves the other figure; ruling MP2-13) -- every
    route cost paid first, then the figures moved, then a post where each move ends (and the upper
    row's extra post), with contracts taken on arrival."""
    d = w.pl.get(seat) or w.p(seat)
    if w.strict:
        if figure not in (0, 1) or figure >= len(d.figures):
            codes.illegal(codes.SECOND_FIGURE, "figure {figure!r}: only Mailin & Tian Chin move a second figure (1)", figure=figure)
        if not path:
            codes.illegal(codes.TRAVEL_STEPS, "a move goes at least one step")
        if path2 and (d.character != "mailin" or len(d.figures) < 2):
            codes.illegal(codes.SECOND_FIGURE, "only Mailin & Tian Chin split a move between two figures (path2)")
    other = 1 - figure if path2 else figure
    start = d.figures[figure] if figure < len(d.figures) else d.figures[0]
    steps, skipped = steps_of(w, seat, tuple(path)) if d.character == "mongke" else (len(path), ())
    steps += len(path2)
    if w.strict and not 1 <= steps <= limit:
        codes.illegal(codes.TRAVEL_STEPS, "{steps} step(s) on {what}: at most {limit}{path2:? (both figures' steps together)|}", steps=steps, what=what, limit=limit, path2=path2)
    if w.strict:
        walk(w, seat, start, tuple(path), True, phrase("why/paren", "({what})", what=what))
        if path2:
            walk(w, seat, d.figures[other], tuple(path2), True, phrase("why/second-figure", "({what}, the second figure)", what=what))
    else:
        _walk_trusted(w, seat, start, path)
        if path2:
            _walk_trusted(w, seat, d.figures[other], path2)
    end = path[-1] if path else start
    figs = d.figures
    figs = figs[:figure] + (end,) + figs[figure + 1 :]
    ends = [end]
    if path2:
        end2 = path2[-1]
        figs = figs[:other] + (end2,) + figs[other + 1 :]
        ends.append(end2)
    d.figures = figs
    for _ in skipped:  # "飛ばしたオアシス１つにつき、３ポイントと２コインか１ラクダ獲得する"
        d.vp += 3
        t = w.token(phrase("what/skipped-oasis", "2 coins or 1 camel for a skipped oasis"), ("coins", "camels"))
        gain(w, seat, t, 2 if t == "coins" else 1)
    placed: set[str] = set()
    if extra is not None:
        if w.strict:
            if not extra_ok:
                codes.illegal(codes.EXTRA_POST, "only the upper row places an extra post: {rule}", rule="\"上段を選んだ場合、追加で通過した都市１つに交易所コマ１つを置くことができます。\"")
            if (extra not in path[:-1] and extra not in path2[:-1]) or extra in d.posts or not is_city(w, extra):
                codes.illegal(codes.EXTRA_POST, "{extra!r} is not a city passed without {player}'s post", extra=extra, player=w.who(seat))
            if extra in ends:
                codes.illegal(codes.EXTRA_POST, "{extra} is where the move ends, which takes {player}'s post: one post of a colour per location", extra=extra, player=w.who(seat))
        if place_post(w, seat, extra):
            placed.add(extra)
    for e in ends:
        if is_city(w, e) and place_post(w, seat, e):
            placed.add(e)
    if w.strict and len(take) > len(placed):
        codes.illegal(codes.CONTRACT_NOT_THERE, "one contract per new post in a contract city, not {n_take}", n_take=len(take))
    take_contracts(w, seat, tuple(take), tuple(discard), placed, "where the post was placed")
    if w.strict and len({c for c, k in w.s.city_contracts if k in take}) != len(take):
        codes.illegal(codes.CONTRACT_NOT_THERE, "one contract from each city where a post was placed")


def move_caravans(w: Work, seat: int, book: int, paths) -> None:
    d = w.pl.get(seat) or w.p(seat)
    if not paths:
        return
    if w.strict:
        if not w.s.options.caravans:
            codes.illegal(codes.CARAVANS_OFF, "caravans move only with the caravan expansion (option caravans)")
        if len(paths) > len(d.caravans):
            codes.illegal(codes.CARAVAN_STEPS, "{player} has {n_caravans} caravan(s), not {n_paths}", player=w.who(seat), n_caravans=len(d.caravans), n_paths=len(paths))
        if len([p for p in paths if p]) > 1 and d.character != "piedro":
            codes.illegal(codes.CARAVAN_STEPS, "only Piedro Tartarino moves two caravans after one market action")
    limit = w.pack.caravan["steps"][book - 1] + (2 if d.character == "tebaldo" else 0)
    cars = list(d.caravans)
    for i, path in enumerate(paths):
        if not path:
            continue
        tile, loc, goods = cars[i]
        if w.strict:
            if not loc:
                codes.illegal(codes.CARAVAN_STEPS, "caravan {i} is not on a route: start it first", i=i)
            if len(path) > limit:
                codes.illegal(codes.CARAVAN_STEPS, "the caravan moves at most {limit} step(s) after book {book}: {rule}", limit=limit, book=book, rule="\"左：１歩・中央：最大２歩・右：最大３歩\"")
        walk(w, seat, loc, tuple(path), False, phrase("why/caravan", "(caravan: no route costs, guild seals still needed)"))
        cars[i] = (tile, path[-1], goods)
    d.caravans = tuple(cars)
