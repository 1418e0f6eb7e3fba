"""The bonus actions but completing a contract: improving a seal, the money bag, a reroll, a die
turned by one, a black die bought, goods traded, outpost tiles, caravans started and conquered."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo_2 import codes
from rules.marco_polo_2.components import component, known
from rules.marco_polo_2.content import GOODS
from rules.marco_polo_2.dice import DIE_TOKENS, add_die, isabella_roll, parse_die, place_dice, take_die
from rules.marco_polo_2.state import BAG, ROLL_DIE
from rules.marco_polo_2.travel import bonus_of, node
from rules.marco_polo_2.work import Work, gain, gain_bundle, pay
from rules.marco_polo_common import turns


UPGRADE = {"pepper": "silk", "silk": "gold"}


def improve_seal(w: Work, seat: int, guild: str) -> None:
    d = w.pl.get(seat) or w.p(seat)
    if w.strict:
        if guild not in d.seals:
            codes.illegal(codes.SEAL_NOT_OWNED, "{player} owns no {guild!r} seal", player=w.who(seat), guild=guild)
        if guild in d.improved:
            codes.illegal(codes.SEAL_IMPROVED, "{player}'s {guild} seal is already improved", player=w.who(seat), guild=guild)
    spec = component(w, "seal", guild, "(its improvement cost and bonus)")
    cost = dict(spec["improve"])
    if d.character == "tebaldo":
        cost.pop("coins", None)  # "ギルドマーカーをアップグレードさせる際、コインを支払わなくてもよい"
    pay(w, seat, cost, phrase("why/improve-seal", "to improve the {guild} seal", guild=guild))
    d.improved = d.improved + (guild,)
    gain_bundle(w, seat, spec["bonus"])
    if d.character == "dewu":
        gain(w, seat, "jade", 1)


def money_bag(w: Work, seat: int, die: str, take: str) -> None:
    options = {next(iter(b)): b for b in w.pack.money_bag}
    if w.strict and take not in options:
        codes.illegal(codes.BAD_CHOICE, "the money bag gives {options}, not {take!r}: {rule}", options=', '.join(options), take=take, rule="\"３コイン／２ラクダ／１翡翠のいずれか\"")
    place_dice(w, seat, BAG, (die,), 1, "free", "the money bag")
    gain_bundle(w, seat, options[take])


def reroll(w: Work, seat: int, die: str) -> None:
    kind, _ = parse_die(die) if w.strict else DIE_TOKENS[die]
    if w.strict and kind == "p":
        codes.illegal(codes.PIECE_RULE, "Donata's pieces always count as a 6; they are not rolled")
    pay(w, seat, {"camels": w.pack.bonus_costs["reroll"]}, phrase("why/reroll-2", "to reroll a die ({rule})", rule="\"ラクダを１頭支払うことによりダイスを１つ振り直す\""))
    take_die(w, seat, die)
    # "rb": a black die rerolled, which does not pay Isabella Donati as a black die taken ("b") does
    w.push((ROLL_DIE, seat, "rb" if kind == "b" else kind), front=True)


def adjust(w: Work, seat: int, die: str, delta: int) -> None:
    kind, value = parse_die(die) if w.strict else DIE_TOKENS[die]
    if w.strict:
        if kind == "p":
            codes.illegal(codes.PIECE_RULE, "Donata's pieces always count as a 6")
        if delta not in (1, -1):
            codes.illegal(codes.BAD_CHOICE, "a die turns by +1 or -1, not {delta!r}", delta=delta)
        if not turns(value, delta):
            codes.illegal(codes.NO_WRAP, "a {value} cannot turn to {value_plus}: {rule}", value=value, value_plus=value + delta, rule="\"１の目を６にしたり、またその逆をすることはできません。\"")
    pay(w, seat, {"camels": w.pack.bonus_costs["adjust"]}, phrase("why/turn-die-2", "to turn a die ({rule})", rule="\"ラクダを２頭支払うことにより\""))
    take_die(w, seat, die)
    add_die(w, seat, kind, value + delta)


def buy_black(w: Work, seat: int, value) -> None:
    if w.strict:
        if w.s.bought_black:
            codes.illegal(codes.ONE_BLACK_DIE_PER_TURN, "{rule}", rule="\"各プレイヤーは１回の手番には１つだけしか黒ダイスを取れません。\"")
        if w.s.black_supply <= 0:
            codes.illegal(codes.NO_BLACK_DICE_LEFT, "no black die is left this round")
        variant = w.s.options.black_dice_variant
        if variant and value not in w.s.black_pool:
            codes.illegal(codes.BAD_DIE, "black-dice variant: take one of the rolled black dice {black_pool}, not {value!r}", black_pool=list(w.s.black_pool), value=value)
        if not variant and value is not None:
            codes.illegal(codes.BAD_DIE, "a bought black die is rolled at once (its value follows as DieRolled)")
    pay(w, seat, {"camels": w.pack.bonus_costs["black"]}, phrase("why/black-die-2", "for a black die ({rule})", rule="\"ラクダを３頭支払うことにより\""))
    w.f["black_supply"] = w.s.black_supply - 1
    w.f["bought_black"] = True
    if w.s.options.black_dice_variant:
        pool = list(w.s.black_pool)
        pool.remove(value)
        w.f["black_pool"] = tuple(pool)
        add_die(w, seat, "b", value)
        if w.p(seat).character == "isabella":
            isabella_roll(w, seat, value)
    else:
        w.push((ROLL_DIE, seat, "b"), front=True)


def goods_traded(w: Work, seat: int) -> None:
    if w.strict:
        if w.p(seat).character != "vidal":
            codes.illegal(codes.NOT_YOUR_CHARACTER, "only Vidal Badoer trades 1 gold + 1 silk + 1 pepper for 5 VP")
        if w.s.traded:
            codes.illegal(codes.ONCE_PER_TURN, "Vidal Badoer: {rule}", rule="\"フリーアクションとして１ターンに１回\"")
    pay(w, seat, {"gold": 1, "silk": 1, "pepper": 1}, phrase("why/vidal", "(Vidal Badoer: 1 gold, 1 silk, 1 pepper)"))
    w.p(seat).vp += 5
    w.f["traded"] = True


def outpost_tile(w: Work, seat: int, tile: str) -> None:
    d = w.pl.get(seat) or w.p(seat)
    if w.strict and tile not in d.tiles:
        codes.illegal(codes.NOT_YOUR_CHARACTER, "{player} keeps no outpost tile {tile!r} (Filippo Vitello's power)", player=w.who(seat), tile=tile)
    i = d.tiles.index(tile)
    d.tiles = d.tiles[:i] + d.tiles[i + 1 :]
    gain_bundle(w, seat, bonus_of(w, "outpost", tile))


def caravan_start(w: Work, seat: int, goods, tile: str, city: str) -> None:
    d = w.pl.get(seat) or w.p(seat)
    cars = list(d.caravans)
    free = next((i for i, c in enumerate(cars) if not c[1]), None)
    if w.strict:
        if not w.s.options.caravans:
            codes.illegal(codes.CARAVANS_OFF, "caravans are in play only with the caravan expansion (option caravans)")
        if free is None:
            codes.illegal(codes.CARAVAN_NONE_FREE, "{player} has no caravan available", player=w.who(seat))
        if not 1 <= len(goods) <= 2 or any(g not in GOODS for g in goods):
            codes.illegal(codes.CARAVAN_GOODS, "load 1 or 2 goods (gold, silk, pepper), not {goods}: {rule}", goods=list(goods), rule="\"資源（金・絹・胡椒）を１つか２つ載せ\"")
        if tile not in w.get("tiles_up"):
            codes.illegal(codes.CARAVAN_TILE, "route tile {tile!r} is not face up", tile=tile)
    spec = component(w, "route_tile", tile)
    a, b = spec["shields"]
    shields = {node(w, f).get("shield") for f in d.figures if known(w, "node", f) and node(w, f)["kind"] == "city"}
    target = known(w, "node", city) if isinstance(city, str) else None
    if w.strict:
        if a not in shields and b not in shields:
            codes.illegal(codes.CARAVAN_TILE, "route tile {tile} shows {a} and {b}; {player}'s figure stands in no city with either shield: {rule}", tile=tile, a=a, b=b, player=w.who(seat), rule="\"コマのいる都市の紋章アイコンが片方のアイコンと合致しているルートタイルを選択\"")
        if target is None:
            component(w, "node", city)
        ok = {b} if a in shields else set()
        if b in shields:
            ok.add(a)
        if target.get("kind") != "city" or target.get("shield") not in ok:
            codes.illegal(codes.CARAVAN_CITY, "the caravan goes to a city with the tile's other shield, not {city!r}: {rule}", city=city, rule="\"コマのいる方ではないアイコンの都市にキャラバンを置く\"")
        if d.character == "mailin" and city in d.figures:
            codes.illegal(codes.CARAVAN_CITY, "Mailin & Tian Chin: {rule}", rule="\"キャラバンを自分のコマのある都市からスタートさせてはいけない\"")
    for g in goods:
        pay(w, seat, {g: 1}, phrase("why/load-caravan", "to load the caravan"))
    w.f["tiles_up"] = tuple(t for t in w.get("tiles_up") if t != tile)
    if free is not None:
        cars[free] = (tile, city, tuple(goods))
    d.caravans = tuple(cars)


def caravan_conquer(w: Work, seat: int, index: int, rewards, tile) -> None:
    d = w.pl.get(seat) or w.p(seat)
    cars = list(d.caravans)
    if w.strict:
        if not isinstance(index, int) or not 0 <= index < len(cars) or not cars[index][1]:
            codes.illegal(codes.CARAVAN_NOT_MET, "{player} has no caravan {index!r} on a route", player=w.who(seat), index=index)
        if cars[index][1] not in d.figures:
            codes.illegal(codes.CARAVAN_NOT_MET, "the caravan is at {cars_item_1}, no figure of {player} is: {rule}", cars_item_1=cars[index][1], player=w.who(seat), rule="\"キャラバンとコマが同じ位置（オアシスでもいい）にいる必要がある\"")
        if len(rewards) != len(cars[index][2]):
            codes.illegal(codes.BAD_CHOICE, "one reward per loaded good ({cars_item_2}): sell, upgrade or double", cars_item_2=list(cars[index][2]))
    own_tile, _, goods = cars[index]
    for g, r in zip(goods, rewards):
        if r == "sell":
            d.vp += w.pack.caravan["sell_vp"][g]
        elif r == "upgrade" and g in UPGRADE:
            gain(w, seat, UPGRADE[g], 1)
        elif r == "double":
            gain(w, seat, g, 2)
        elif w.strict:
            codes.illegal(codes.BAD_CHOICE, "{r!r} for {g}: sell, upgrade (pepper->silk->gold; gold cannot) or double", r=r, g=g)
    back = own_tile
    if tile is not None and tile != own_tile:
        others = [i for i, c in enumerate(cars) if c[0] == tile and c[1] and i != index]
        if w.strict and (d.character != "piedro" or not others):
            codes.illegal(codes.CARAVAN_TILE, "only Piedro Tartarino, with both caravans started, chooses which route tile goes back")
        if others:
            j = others[0]
            cars[j] = (own_tile, cars[j][1], cars[j][2])
            back = tile
    cars[index] = ("", "", ())
    d.caravans = tuple(cars)
    w.f["tiles_down"] = w.get("tiles_down") + (back,)
    if d.character == "piedro":
        d.vp += 3
        gain(w, seat, "jade", 1)
