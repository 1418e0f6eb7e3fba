"""The one place where events take effect. ``apply(state, event, strict)`` is used twice:

* by ``decide`` with ``strict=True``: every rule is checked while the event takes effect on a
  scratch copy; the first violation raises ``IllegalMove`` (the state is never touched);
* by ``evolve`` with ``strict=False``: the checks are skipped, the event is trusted.

Effects resolve in a fixed order, consuming the move's ``choices`` one by one:

* reward lists in the order printed (content ``reward`` / ``effect`` items);
* ``good`` one good; ``goods2`` two different goods; ``coin_or_camel`` ``coins`` or ``camels``;
  ``move`` a destination (``2:XXX`` for Niccolo's second figure; ``stay`` forgoes the move);
  ``any_bonus`` the id of another small-city bonus marker, then that bonus's own choices;
  ``own_bonus`` a small city where the player has a post, then that bonus's choices;
* a trading post's bonus (small city, or the outpost tile of a large city) resolves as soon as the
  post is placed; a travel places its posts after all its costs are paid, in path order;
* city cards: a two-way card first takes its direction (``a`` = the first way printed, ``b`` the
  second), then per repetition the goods paid (``any_goods`` / ``diff_goods``), then the gains.

Chance that a move triggers (a contract from the special pile, a black die to roll) is queued in
``state.pending`` and recorded by the next events (``ContractDrawn``, ``DieRolled``).
"""

from __future__ import annotations

from msgspec.structs import asdict, replace

from events.errors import IllegalMove
from rules.marco_polo import codes
from rules.marco_polo_common import turns
from rules.marco_polo.content import (
    ADJACENT,
    BAZAAR,
    BEIJING,
    CITY_BONUS_IDS,
    CITY_BONUSES,
    CITY_CARD_SPACES,
    CITY_CARDS,
    CONTRACTS,
    GOODS,
    KHAN_SLOTS,
    KIND,
    LARGE_CITIES,
    NAME,
    OASES,
    OUTPOST_BONUSES,
    PACK,
    POST_CITIES,
    POST_VP,
    ROUTE_COST,
    SMALL_CITIES,
    SPACE_CITY,
    TRAVEL_COST,
)
from rules.marco_polo.state import (
    BAG,
    BAZAAR_SPACE,
    CONTRACT_SPACE,
    CONTRACTS as CONTRACTS_PHASE,
    COINS5,
    DRAW,
    INCOME,
    KHAN,
    KEEP,
    KEEP_ITEM,
    OVER,
    PLAY,
    REVEAL,
    ROLL_DIE,
    ROUNDS,
    SHOW,
    TRAVEL,
    MarcoPoloState,
    PlayerState,
)
from events.messages import phrase

Q_COLOUR_ONCE = (
    '"Tus dados de color solo pueden usar una vez por ronda un mismo espacio de acción. Los dados '
    'negros y blancos no cuentan como dados de tu color para este límite."'
)
Q_FEE = (
    '"Un espacio principal ocupado suele poder reutilizarse, pero pagas tantas monedas como el valor '
    'de tu dado más bajo al colocarlo."'
)
Q_KHAN = (
    '"Hay cuatro casillas; cada nuevo dado debe mostrar un valor igual o superior al de la casilla anterior."'
)
Q_CONTRACTS = (
    '"coge uno o dos contratos de columnas cuyo número no supere su valor. Solo tienes dos espacios de '
    'contratos activos."'
)
Q_MAKE_ROOM = (
    '"Si necesitas hacer sitio entre tus dos contratos activos, devuelve uno bajo la pila especial; no '
    'cobras su recompensa."'
)
Q_TRAVEL = (
    '"Puedes avanzar hasta tantos pasos como marque el menor dado, pero al menos uno. Paga el coste del '
    'número de pasos que realmente avances y los posibles costes adicionales de las rutas."'
)
Q_BAZAAR = '"El menor valor determina la columna de recompensas; puedes escoger una columna inferior."'
Q_CITY_CARD = '"La carta de ciudad grande es la excepción: una vez usada, queda cerrada esa ronda."'
Q_CITY_POST = '"si tienes un puesto en esa ciudad, coloca en su carta y resuelve el efecto indicado."'
Q_PLACE_FIRST = '"Los dados se colocan antes de pagar el coste de ocupación y resolver la acción."'

CHOICE_KINDS = frozenset({"good", "goods2", "coin_or_camel", "move", "any_bonus", "own_bonus"})
SMALL_INDEX = {c: i for i, c in enumerate(SMALL_CITIES)}
LARGE_INDEX = {c: i for i, c in enumerate(LARGE_CITIES)}
SPACE_INDEX = {s: i for i, s in enumerate(CITY_CARD_SPACES)}
DIE_TOKENS = {f"{k}{v}": (k or "c", v) for k in ("", "b", "w") for v in range(1, 7)}
RESOURCE_FIELDS = ("coins", "camels", "pepper", "silk", "gold")
VP_FIELD = {"contracts": "vp_contracts", "cards": "vp_cards", "posts": "vp_posts", "bonuses": "vp_bonuses"}
MAX_COMPENSATION = PACK["compensation_total"]
BLACK_TOTAL = {2: 3, 3: 4, 4: 5}


def bonus_needs_choice(bonus: str) -> bool:
    return any(kind in CHOICE_KINDS for kind, _ in CITY_BONUSES[bonus]["effect"])


class Work:
    """A scratch copy of the state: players copied on first touch, fields overridden, then frozen."""

    __slots__ = ("s", "strict", "pl", "f", "tokens", "ti", "src", "scratch")

    def __init__(self, state: MarcoPoloState, strict: bool, tokens: tuple[str, ...] = ()) -> None:
        self.s = state
        self.strict = strict
        self.pl: dict[int, dict] = {}
        self.f: dict[str, object] = {}
        self.tokens = tokens
        self.ti = 0
        self.src = "bonuses"
        self.scratch: set = set()

    def get(self, name: str):
        f = self.f
        return f[name] if name in f else getattr(self.s, name)

    def p(self, seat: int) -> dict:
        d = self.pl.get(seat)
        if d is None:
            d = self.pl[seat] = asdict(self.s.seats[seat])
        return d

    def who(self, seat: int) -> str:
        return self.s.players[seat] if 0 <= seat < len(self.s.players) else phrase("who/seat", "seat {seat}", seat=seat)

    def token(self, what: str, cands=None) -> str:
        if self.ti >= len(self.tokens):
            if self.strict:
                raise IllegalMove(
                    "the move must say {what} (its choices ran out)", params=dict(what=what),
                    code=codes.MISSING_CHOICE,
                    candidates=tuple(cands()) if cands is not None else (),
                )
            return ""
        t = self.tokens[self.ti]
        self.ti += 1
        return t

    def done_tokens(self) -> None:
        if self.strict and self.ti < len(self.tokens):
            codes.illegal(
                codes.EXTRA_CHOICE,
                "the move lists choices the rules do not ask for: {tokens_item}", tokens_item=list(self.tokens[self.ti:]),
            )

    def finish(self) -> MarcoPoloState:
        if self.pl:
            seats = list(self.s.seats)
            for seat, d in self.pl.items():
                seats[seat] = PlayerState(**d)
            self.f["seats"] = tuple(seats)
        return replace(self.s, **self.f) if self.f else self.s

    def push(self, item: tuple[str, int, str], front: bool = False) -> None:
        pending = self.get("pending")
        self.f["pending"] = (item,) + pending if front else pending + (item,)


# --- resources ----------------------------------------------------------------------------------


def gain(w: Work, seat: int, res: str, n: int) -> None:
    d = w.p(seat)
    if res == "vp":
        key = VP_FIELD[w.src]
        d[key] += n
    else:
        d[res] += n


def pay(w: Work, seat: int, res: str, n: int, why: str) -> None:
    if n == 0:
        return
    d = w.p(seat)
    if res == "vp":
        total = d["vp_contracts"] + d["vp_cards"] + d["vp_posts"] + d["vp_bonuses"]
        if w.strict and total < n:
            codes.illegal(codes.CANNOT_AFFORD, "{player} has {total} VP, needs {n} {why}", player=w.who(seat), total=total, n=n, why=why)
        d[VP_FIELD[w.src]] -= n
        return
    have = d[res]
    if w.strict and have < n:
        code = codes.OCCUPIED_FEE if getattr(why, "key", "") == "why/occupied-space" else codes.CANNOT_AFFORD
        codes.illegal(code, "{player} has {have} {res}, needs {n} {why}", player=w.who(seat), have=have, res=res, n=n, why=why)
    d[res] = have - n


def pay_cost(w: Work, seat: int, cost: dict, why: str) -> None:
    for res, n in cost.items():
        if res == "any_goods" or res == "diff_goods":
            picked = []
            for _ in range(n):
                g = w.token("which good is paid", lambda: GOODS)
                if w.strict and g not in GOODS:
                    codes.illegal(codes.BAD_CHOICE, "{g!r} is not a good (pepper, silk, gold) {why}", g=g, why=why)
                picked.append(g)
            if w.strict and res == "diff_goods" and len(set(picked)) != len(picked):
                codes.illegal(codes.BAD_CHOICE, "the goods paid must be of different types {why}: {picked}", why=why, picked=picked)
            for g in picked:
                pay(w, seat, g, 1, why)
        else:
            pay(w, seat, res, n, why)


def special_left(w: Work) -> int:
    """Cards in the special pile not already promised to a pending draw."""
    return len(w.get("special")) - sum(1 for p in w.get("pending") if p[0] == DRAW)


def black_available(w: Work) -> int:
    return w.get("black_supply")


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


# --- movement and trading posts -----------------------------------------------------------------


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


# --- dice ---------------------------------------------------------------------------------------


def parse_die(token: object) -> tuple[str, int]:
    parsed = DIE_TOKENS.get(token) if isinstance(token, str) else None
    if parsed is None:
        codes.illegal(
            codes.BAD_DIE,
            "{token!r} is not a die: write its value 1-6 (a colour die), b4 (a black die showing 4) or w4 (the white die)", token=token,
        )
    return parsed


def take_die(w: Work, seat: int, token: str) -> tuple[str, int]:
    """Removes a die from the seat's hand; returns (kind, value)."""
    kind, value = parse_die(token) if w.strict else DIE_TOKENS[token]
    d = w.p(seat)
    key = {"c": "dice", "b": "black", "w": "white"}[kind]
    held = d[key]
    raschid = kind == "c" and d["character"] == "raschid"
    look = 0 if raschid else value
    if look not in held:
        if w.strict:
            what = {"c": "colour", "b": "black", "w": "white"}[kind]
            if raschid:
                codes.illegal(codes.DIE_NOT_HELD, "{player} has no colour die left to set to {value}", player=w.who(seat), value=value)
            codes.illegal(
                codes.DIE_NOT_HELD,
                "{player} holds no {what} die showing {value} (colour {dice}, black {black}, white {white})", player=w.who(seat), what=what, value=value, dice=list(d['dice']), black=list(d['black']), white=list(d['white']),
            )
        return kind, value
    i = held.index(look)
    d[key] = held[:i] + held[i + 1 :]
    return kind, value


def add_die(w: Work, seat: int, kind: str, value: int) -> None:
    d = w.p(seat)
    key = {"c": "dice", "b": "black", "w": "white"}[kind]
    d[key] = tuple(sorted(d[key] + (value,)))


def place_dice(w: Work, seat: int, space: str, tokens: tuple[str, ...], count: int, fee: bool, what: str) -> int:
    """Dice placed on an action space: checks count, possession, the colour rule; pays the fee.
    Returns the lowest value placed (the action's strength)."""
    if w.strict and len(tokens) != count:
        codes.illegal(
            codes.DICE_COUNT,
            "{what} takes exactly {count} {count_is_1:?die|dice}, not {n_tokens}: \"coloca tantos dados propios como indique el espacio\"", what=what, count=count, count_is_1=count == 1, n_tokens=len(tokens),
        )
    occupied = any(p[0] == space for p in w.get("board"))
    placed = []
    colour = False
    for t in tokens:
        kind, value = take_die(w, seat, t)
        placed.append((space, value, seat, kind))
        colour = colour or kind == "c"
    d = w.p(seat)
    if colour and space != BAG:
        if w.strict and space in d["used"]:
            codes.illegal(
                codes.COLOUR_ONCE_PER_SPACE,
                "{player}'s colour dice already used {what} this round: {rule}", player=w.who(seat), what=what, rule=Q_COLOUR_ONCE,
            )
        d["used"] = d["used"] + (space,)
    w.f["board"] = w.get("board") + tuple(placed)
    low = min((p[1] for p in placed), default=0)
    if fee and occupied:
        occupied_fee(w, seat, low, what)
    return low


def occupied_fee(w: Work, seat: int, low: int, what: str) -> None:
    if w.p(seat)["character"] != "berke":
        pay(w, seat, "coins", low, phrase("why/occupied-space", "for the occupied space {what} (the lowest die placed): {rule}", what=what, rule=Q_FEE))


def seat_of(state: MarcoPoloState, character: str) -> int:
    for i, p in enumerate(state.seats):
        if p.character == character:
            return i
    return -1


def mercator(w: Work, seat: int, power: str, res: str, n: int) -> None:
    m = seat_of(w.s, "mercator")
    if m < 0 or m == seat:
        return
    tiles = {2: ("bazaar", "khan", "coins5"), 3: ("bazaar", "khan"), 4: ("bazaar",)}[w.s.n]
    if power in tiles:
        gain(w, m, res, n)


# --- main actions -------------------------------------------------------------------------------


def main_action(w: Work, seat: int) -> None:
    w.f["main_done"] = True


def five_coins(w: Work, seat: int, die: str) -> None:
    place_dice(w, seat, COINS5, (die,), 1, True, "'Coger 5 monedas'")
    gain(w, seat, "coins", 5)
    mercator(w, seat, "coins5", "coins", 2)


def bazaar(w: Work, seat: int, row: str, dice: tuple[str, ...], column: int) -> None:
    spec = BAZAAR.get(row)
    if spec is None:
        codes.illegal(codes.UNKNOWN_ROW, "{row!r} is not a bazaar row (camels, pepper, silk, gold)", row=row)
    low = place_dice(w, seat, BAZAAR_SPACE[row], dice, spec["dice"], True, phrase("what/bazaar", "the {row} bazaar", row=row))
    if w.strict and not (isinstance(column, int) and 1 <= column <= low):
        codes.illegal(
            codes.BAZAAR_COLUMN,
            "column {column!r} of the {row} bazaar: the lowest die placed is {low}, so columns 1..{low}: {rule}", column=column, row=row, low=low, rule=Q_BAZAAR,
        )
    w.src = "bonuses"
    run_items(w, seat, spec["columns"][column - 1], phrase("why/bazaar-column", "(the {row} bazaar, column {column})", row=row, column=column))
    mercator(w, seat, "bazaar", row, 1)


def khans_favor(w: Work, seat: int, die: str, good: str) -> None:
    board = w.get("board")
    slots = [p for p in board if p[0] == KHAN]
    if w.strict:
        if len(slots) >= KHAN_SLOTS:
            codes.illegal(
                codes.KHANS_FAVOR_FULL,
                "El favor de Khan is full this round: {rule}", rule="\"Cuando están llenas, no se puede usar más esa ronda.\"",
            )
        kind, value = parse_die(die)
        if slots and value < slots[-1][1]:
            codes.illegal(
                codes.KHANS_FAVOR_ASCENDING,
                "a {value} cannot follow the {slots_last_1} in El favor de Khan: {rule}", value=value, slots_last_1=slots[-1][1], rule=Q_KHAN,
            )
        if good not in GOODS:
            codes.illegal(codes.BAD_CHOICE, "El favor de Khan gives 1 good of choice (pepper, silk, gold), not {good!r}", good=good)
    place_dice(w, seat, KHAN, (die,), 1, False, "El favor de Khan")
    gain(w, seat, good, 1)
    gain(w, seat, "camels", 2)
    mercator(w, seat, "khan", "camels", 1)


def take_contracts(w: Work, seat: int, die: str, columns: tuple[int, ...], discard: tuple[str, ...]) -> None:
    low = place_dice(w, seat, CONTRACT_SPACE, (die,), 1, True, "'Obtener contratos'")
    display = w.get("display")
    d = w.p(seat)
    if w.strict:
        if not 1 <= len(columns) <= 2 or len(set(columns)) != len(columns):
            codes.illegal(codes.TAKE_ONE_OR_TWO, "take one or two different contracts, not columns {columns}: {rule}", columns=list(columns), rule=Q_CONTRACTS)
        for c in columns:
            if not isinstance(c, int) or not 1 <= c <= len(display):
                codes.illegal(codes.CONTRACT_COLUMN, "column {c!r} holds no contract (the display has {n_display})", c=c, n_display=len(display))
            if c > low:
                codes.illegal(codes.CONTRACT_COLUMN, "column {c} is beyond the die's {low}: {rule}", c=c, low=low, rule=Q_CONTRACTS)
        need = max(0, len(d["contracts"]) + len(columns) - PACK["active_contracts"])
        if len(discard) != need:
            codes.illegal(
                codes.TWO_ACTIVE_CONTRACTS,
                "{player} holds {n_contracts} active contract(s) and takes {n_columns}: return exactly {need} old one(s) under the special pile, not {n_discard}. {rule}", player=w.who(seat), n_contracts=len(d['contracts']), n_columns=len(columns), need=need, n_discard=len(discard), rule=Q_MAKE_ROOM,
            )
        for k in discard:
            if k not in d["contracts"] or discard.count(k) > 1:
                codes.illegal(codes.CONTRACT_NOT_ACTIVE, "{k!r} is not one of {player}'s active contracts ({contracts})", k=k, player=w.who(seat), contracts=list(d['contracts']))
    taken = tuple(display[c - 1] for c in sorted(columns))
    for k in discard:
        i = d["contracts"].index(k)
        d["contracts"] = d["contracts"][:i] + d["contracts"][i + 1 :]
    w.f["special"] = w.get("special") + tuple(discard)
    d["contracts"] = d["contracts"] + taken
    w.f["display"] = tuple(k for i, k in enumerate(display, 1) if i not in columns)
    for c in sorted(columns):
        if c >= 5:
            run_items(w, seat, (("coin_or_camel", c - 4),), phrase("why/contract-column", "(the contract from column {c})", c=c))


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


def _card_times(w: Work, times: int, limit: int, what: str) -> None:
    if w.strict and not (isinstance(times, int) and 1 <= times <= limit):
        codes.illegal(codes.CARD_TIMES, "{what}: repeat it 1..{limit} times (the die), not {times!r}", what=what, limit=limit, times=times)


def city_card(w: Work, seat: int, space: str, die: str, times: int) -> None:
    i = SPACE_INDEX.get(space)
    if i is None or i >= len(w.s.city_cards):
        codes.illegal(codes.UNKNOWN_ID, "{space!r} is not a city-card space ({city_card_spaces})", space=space, city_card_spaces=', '.join(CITY_CARD_SPACES))
    city = SPACE_CITY[space]
    d = w.p(seat)
    slot = "card:" + space
    if w.strict:
        if city not in d["posts"]:
            codes.illegal(codes.CITY_CARD_NO_POST, "{player} has no trading post in {name_item}: {rule}", player=w.who(seat), name_item=NAME[city], rule=Q_CITY_POST)
        if city in w.s.turn_posts:
            codes.illegal(
                codes.CITY_CARD_NEXT_TURN,
                "the post in {name_item} was placed this turn; its city card is usable from the next turn", name_item=NAME[city],
            )
        if any(p[0] == slot for p in w.get("board")):
            codes.illegal(codes.CITY_CARD_USED, "the city card in {space} was already used this round: {rule}", space=space, rule=Q_CITY_CARD)
    value = place_dice(w, seat, slot, (die,), 1, False, phrase("what/city-card-in", "the city card in {space}", space=space))
    card = CITY_CARDS[w.s.city_cards[i]]
    w.src = "cards"
    what = phrase("what/city-card", "city card {id} ({text})", id=card['id'], text=card['text'])
    kind = card["kind"]
    if kind == "exchange":
        _card_times(w, times, value, what)
        for _ in range(times):
            pay_cost(w, seat, card["pay"], phrase("why/paren", "({what})", what=what))
            run_items(w, seat, card["gain"], phrase("why/paren", "({what})", what=what))
    elif kind == "two_way":
        way = w.token(phrase("what/direction", "the direction of {what}: a or b", what=what), lambda: ("a", "b"))
        if w.strict and way not in ("a", "b"):
            codes.illegal(codes.BAD_CHOICE, "{what}: choose direction 'a' (the first way) or 'b', not {way!r}", what=what, way=way)
        spec = card["ways"][0 if way == "a" else 1]
        _card_times(w, times, value, what)
        for _ in range(times):
            pay_cost(w, seat, spec["pay"], phrase("why/paren", "({what})", what=what))
            run_items(w, seat, spec["gain"], phrase("why/paren", "({what})", what=what))
    elif kind == "threshold":
        _card_times(w, times, 1, what)
        items = ()
        for low, gains in card["steps"]:
            if value >= low:
                items = gains
        run_items(w, seat, items, phrase("why/paren", "({what})", what=what))
    elif kind == "count":
        _card_times(w, times, 1, what)
        count = len(d["posts"]) if card["of"] == "posts" else len(d["completed"])
        for _ in range(min(count, value)):
            run_items(w, seat, card["gain"], phrase("why/paren", "({what})", what=what))
    elif kind == "own_bonus":
        limit = max(n for low, n in card["steps"] if value >= low)
        _card_times(w, times, limit, what)
        w.src = "bonuses"
        for _ in range(times):
            own_bonus(w, seat, phrase("why/paren", "({what})", what=what))


# --- bonus actions ------------------------------------------------------------------------------


def complete_contract(w: Work, seat: int, contract: str) -> None:
    d = w.p(seat)
    if w.strict and contract not in d["contracts"]:
        codes.illegal(
            codes.CONTRACT_NOT_ACTIVE,
            "{contract!r} is not one of {player}'s active contracts ({contracts}): \"completar un contrato pagando sus requisitos y cobrando su recompensa\"", contract=contract, player=w.who(seat), contracts=list(d['contracts']),
        )
    spec = CONTRACTS[contract]
    pay_cost(w, seat, spec["cost"], phrase("why/complete-contract", "to complete contract {contract}", contract=contract))
    i = d["contracts"].index(contract)
    d["contracts"] = d["contracts"][:i] + d["contracts"][i + 1 :]
    d["completed"] = d["completed"] + (contract,)
    w.src = "contracts"
    run_items(w, seat, spec["reward"], phrase("why/contract-reward", "(the reward of contract {contract})", contract=contract))


def money_bag(w: Work, seat: int, die: str) -> None:
    place_dice(w, seat, BAG, (die,), 1, False, "'Coger 3 monedas'")
    gain(w, seat, "coins", 3)


def reroll(w: Work, seat: int, die: str) -> None:
    kind, value = parse_die(die) if w.strict else DIE_TOKENS[die]
    if w.strict and kind == "c" and w.p(seat)["character"] == "raschid":
        codes.illegal(codes.RASCHID_SETS_DICE, "Raschid does not roll his dice: he sets their values when placing them")
    pay(w, seat, "camels", 1, phrase("why/reroll", "to reroll a die (\"pagar 1 camello para volver a tirar un dado\")"))
    take_die(w, seat, die)
    w.push((ROLL_DIE, seat, kind), front=True)


def adjust(w: Work, seat: int, die: str, delta: int) -> None:
    kind, value = parse_die(die) if w.strict else DIE_TOKENS[die]
    if w.strict:
        if kind == "c" and w.p(seat)["character"] == "raschid":
            codes.illegal(codes.RASCHID_SETS_DICE, "Raschid does not roll his dice: he sets their values when placing them")
        if delta not in (1, -1):
            codes.illegal(codes.BAD_CHOICE, "a die turns by +1 or -1, not {delta!r}", delta=delta)
        if not turns(value, delta):
            codes.illegal(
                codes.NO_WRAP,
                "a {value} cannot turn to {value_plus}: {rule}", value=value, value_plus=value + delta, rule="\"subir o bajar en uno el valor de un dado —sin pasar de 1 a 6 ni viceversa—\"",
            )
    pay(w, seat, "camels", 2, phrase("why/turn-die", "to turn a die by one (\"pagar 2 camellos para subir o bajar en uno\")"))
    take_die(w, seat, die)
    add_die(w, seat, kind, value + delta)


def buy_black(w: Work, seat: int) -> None:
    if w.strict:
        if w.s.bought_black:
            codes.illegal(codes.ONE_BLACK_DIE_PER_TURN, '"solo coger un dado negro por turno"')
        if w.s.black_supply <= 0:
            codes.illegal(codes.NO_BLACK_DICE_LEFT, "no black die is left on the board this round")
    pay(w, seat, "camels", 3, phrase("why/black-die", "for a black die (\"pagar 3 camellos para coger y tirar 1 dado negro\")"))
    w.f["black_supply"] = w.s.black_supply - 1
    w.f["bought_black"] = True
    w.push((ROLL_DIE, seat, "b"), front=True)


# --- turns and rounds ---------------------------------------------------------------------------


def has_dice(p: PlayerState | dict) -> bool:
    if isinstance(p, dict):
        return bool(p["dice"] or p["black"] or p["white"])
    return bool(p.dice or p.black or p.white)


def end_turn(w: Work, seat: int) -> None:
    n = w.s.n
    w.f["main_done"] = False
    w.f["bought_black"] = False
    w.f["turn_posts"] = ()
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        p = w.pl.get(nxt) or w.s.seats[nxt]
        if has_dice(p):
            w.f["turn"] = nxt
            refill_display(w)
            return
    end_round(w)


def refill_display(w: Work) -> None:
    """An empty display at the start of a turn gets 2 contracts from the special pile (ruling MP-12)."""
    if w.get("display") or w.get("pending"):
        return
    for _ in range(min(2, len(w.get("special")))):
        w.push((DRAW, -1, ""))


def end_round(w: Work) -> None:
    track = tuple(
        sum(w.p(s)[k] for k in ("vp_contracts", "vp_cards", "vp_posts", "vp_bonuses")) for s in range(w.s.n)
    )
    w.f["round_vp"] = w.s.round_vp + (track,)
    w.f["special"] = w.get("special") + w.get("display")
    w.f["display"] = ()
    if w.s.round >= ROUNDS:
        for seat in range(w.s.n):
            w.p(seat)["dice"] = ()
        unknown = [s for s in range(w.s.n) if None in w.p(s)["objectives"]]
        if unknown:
            w.f["phase"] = REVEAL
            w.f["pending"] = tuple((SHOW, s, "") for s in unknown)
        else:
            w.f["phase"] = OVER
        return
    last = w.get("last_traveller")
    if last >= 0:
        w.f["start_seat"] = last
    begin_round(w)


def begin_round(w: Work) -> None:
    """Dice back, black dice back, the «!» bonuses that need no choice and the characters' incomes."""
    rnd = w.s.round + 1
    w.f["round"] = rnd
    w.f["phase"] = CONTRACTS_PHASE
    w.f["board"] = tuple(p for p in w.get("board") if p[3] == "n")
    w.f["black_supply"] = BLACK_TOTAL[w.s.n]
    w.f["last_traveller"] = -1
    w.f["main_done"] = False
    w.f["bought_black"] = False
    w.f["turn_posts"] = ()
    bonuses = w.get("city_bonuses")
    for seat in range(w.s.n):
        d = w.p(seat)
        d["dice"] = ()
        d["black"] = ()
        d["white"] = ()
        d["used"] = ()
        d["compensation"] = 0
        w.src = "bonuses"
        if rnd > 1:
            for city in d["posts"]:
                i = SMALL_INDEX.get(city)
                if i is not None and not bonus_needs_choice(bonuses[i]):
                    run_items(w, seat, CITY_BONUSES[bonuses[i]]["effect"], "")
        if d["character"] == "niccolo":
            d["camels"] += 1
        elif d["character"] == "carpini":
            d["coins"] += 3


def character_start(w: Work, seat: int) -> None:
    """A character's starting position, applied when it is assigned or picked."""
    d = w.p(seat)
    c = d["character"]
    if c == "kubilai":
        d["figures"] = (BEIJING,)
        d["posts"] = (BEIJING,)
        d["posts_left"] -= 1
        w.f["beijing"] = w.get("beijing") + (seat,)
    elif c == "niccolo":
        d["figures"] = ("VEN", "VEN")
    elif c == "wilhelm":
        d["posts_left"] = PACK["wilhelm_posts"]


def after_setup(w: Work) -> None:
    """Characters known: round 1 (or first the objectives to keep)."""
    if w.s.options.objectives_keep:
        w.f["phase"] = KEEP
        w.f["pending"] = tuple((KEEP_ITEM, s, "") for s in range(w.s.n))
        return
    w.f["pending"] = ()
    begin_round(w)


def after_roll(w: Work) -> None:
    """The round's pending choices, in turn order from the start player: Matteo's contract, then
    each seat's income (compensation, and the «!» bonuses that need a choice)."""
    n = w.s.n
    start = w.get("start_seat")
    bonuses = w.get("city_bonuses")
    pending = []
    for k in range(n):
        seat = (start + k) % n
        d = w.p(seat)
        if d["character"] == "matteo" and len(w.get("special")) > sum(1 for p in pending if p[0] == DRAW):
            pending.append((DRAW, seat, ""))
        choice = w.s.round > 1 and any(
            bonus_needs_choice(bonuses[SMALL_INDEX[c]]) for c in d["posts"] if c in SMALL_INDEX
        )
        if d["compensation"] > 0 or choice:
            pending.append((INCOME, seat, ""))
    w.f["pending"] = tuple(pending)
    w.f["phase"] = PLAY
    w.f["turn"] = start


def income(w: Work, seat: int, coins: int, camels: int) -> None:
    d = w.p(seat)
    due = d["compensation"]
    if w.strict and not (isinstance(coins, int) and isinstance(camels, int) and coins >= 0 and camels >= 0 and coins + camels == due):
        codes.illegal(
            codes.COMPENSATION,
            "{player}'s compensation is {due} (15 minus the roll), split as coins + camels, not {coins} + {camels}: \"recibe una moneda o un camello por cada punto que falte; puedes combinarlos\"", player=w.who(seat), due=due, coins=coins, camels=camels,
        )
    d["coins"] += coins
    d["camels"] += camels
    d["compensation"] = 0
    if w.s.round > 1:
        w.src = "bonuses"
        bonuses = w.get("city_bonuses")
        for city in SMALL_CITIES:
            if city in d["posts"]:
                bonus = bonuses[SMALL_INDEX[city]]
                if bonus_needs_choice(bonus):
                    run_items(w, seat, CITY_BONUSES[bonus]["effect"], phrase("why/round-bonus", "(the round bonus of {name_item})", name_item=NAME[city]))
