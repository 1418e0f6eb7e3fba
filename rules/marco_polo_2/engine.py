"""The one place where events take effect. ``Work`` is a scratch copy of the state; each action
function runs with ``strict=True`` for ``decide`` (every rule checked, the first violation raises,
the state is never touched) and ``strict=False`` for ``evolve`` (the event is trusted).

Components come from the pinned pack or, when it lacks them, from descriptions recorded in the log
(``component``). Payments of coins or camels fall back on jade for the shortfall ("翡翠をいつでも
ラクダかコインとして代用できます", ruling MP2-6).
"""

from __future__ import annotations

from functools import lru_cache

import msgspec
from msgspec.structs import astuple, replace

from events.errors import IllegalMove
from rules.marco_polo_common import turns
from rules.marco_polo_2 import codes
from rules.marco_polo_2.content import GOODS, GUILDS, Pack, route_id
from rules.marco_polo_2.state import pack_of
from rules.marco_polo_2.content.schema import CONTRACT_ICONS, PackError, validate_component
from rules.marco_polo_2.state import (
    BAG,
    BOOK_SPACE,
    COLOURS,
    HAND,
    CONTRACTS_SPACE,
    GUILD,
    INCOME,
    KHAN,
    OVER,
    PLAY,
    REFILL,
    REVEAL,
    ROLL_DIE,
    ROUND,
    SHOW,
    TRAVEL_SPACE,
    MP2State,
    PlayerState,
)
from events.messages import phrase

Q_COLOUR = '"各アクションマスは、プレイヤーの色について各１回しか使用出来ません。"'
Q_FEE = '"埋まっているアクションマスを使う場合には、お金を支払わなければいけません（重要）。" "支払うお金は置いたダイスの最も小さい目と同額となります。"'
Q_NO_STACK = '"このアクションはダイスを重ねて置くことはできません。"'
Q_KHAN = '"次にこのアクションを行うプレイヤーは、その次のマスに置かねばなりません。さらに、ダイス目が同じかそれ以上でなければならず"'
Q_HOLD = '"依頼タイルは２枚まで保持でき、過剰取得した場合いずれかを破棄します。"'
Q_GUILD_ROUTE = '"ギルドマークがある場合そのギルドマーカーを所持していないと通行不可。（未アップグレードのままでもよい）"'
#: the seed pays Möngke Khan per oasis skipped ("飛ばしたオアシス１つにつき"), not per pass through one
Q_ONCE = "a path visits each node at most once, the node it starts from included (ruling MP2-5)"
Q_POST_NEEDED = '"その都市に自分の交易所が置かれていなければなりません。"'

DIE_TOKENS: dict[str, tuple[str, int]] = {f"{k}{v}": (k or "c", v) for k in ("", "b") for v in range(1, 7)}
DIE_TOKENS.update({f"p{c}": ("p", 6) for c in "BRYG"})
PAYABLE = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")
ISABELLA = {1: "coins", 6: "coins", 2: "vp", 5: "vp", 3: "camels", 4: "camels"}
ISABELLA_N = {"coins": 2, "vp": 1, "camels": 1}
ISABELLA_PAIR = {1: "jade", 6: "jade", 2: "silk", 5: "silk", 3: "gold", 4: "gold"}
UPGRADE = {"pepper": "silk", "silk": "gold"}


@lru_cache(maxsize=256)
def _described_map(described: tuple[tuple[str, str, str], ...]) -> dict[tuple[str, str], dict]:
    return {(k, i): msgspec.json.decode(s) for k, i, s in described}


def canonical(spec: dict) -> str:
    return msgspec.json.encode(spec, order="sorted").decode()


#: a seat's scratch copy while a step runs: PlayerState's fields, mutable (copied by ``astuple``,
#: which is much cheaper than a dict copy)
Scratch = msgspec.defstruct(
    "Scratch", [(name, object) for name in PlayerState.__struct_fields__], module=__name__
)


class Work:
    """A scratch copy of the state: seats copied on first touch, fields overridden, then frozen."""

    __slots__ = ("s", "strict", "pl", "f", "pack", "tokens", "ti", "resting")

    def __init__(self, state: MP2State, strict: bool, tokens: tuple[str, ...] = ()) -> None:
        self.s = state
        self.strict = strict
        self.pl: dict[int, dict] = {}
        self.f: dict[str, object] = {}
        self.pack: Pack = pack_of(state)
        self.tokens = tokens
        self.ti = 0
        #: components this step takes from the log's descriptions (not the pack)
        self.resting: set[str] = set()

    def get(self, name: str):
        f = self.f
        return f[name] if name in f else getattr(self.s, name)

    def p(self, seat: int) -> dict:
        d = self.pl.get(seat)
        if d is None:
            d = self.pl[seat] = Scratch(*astuple(self.s.seats[seat]))
        return d

    def who(self, seat: int) -> str:
        return self.s.players[seat] if 0 <= seat < len(self.s.players) else phrase("who/seat", "seat {seat}", seat=seat)

    def token(self, what: str, cands: tuple[str, ...]) -> str:
        if self.ti >= len(self.tokens):
            if self.strict:
                raise IllegalMove("the move must say {what}", params=dict(what=what), code=codes.MISSING_CHOICE, candidates=cands)
            return cands[0] if cands else ""
        t = self.tokens[self.ti]
        self.ti += 1
        if self.strict and t not in cands:
            codes.illegal(codes.BAD_CHOICE, "{t!r} is not a choice for {what} ({cands})", t=t, what=what, cands=', '.join(cands))
        return t

    def done_tokens(self) -> None:
        if self.strict and self.ti < len(self.tokens):
            codes.illegal(codes.EXTRA_CHOICE, "the move lists choices the rules do not ask for: {tokens_item}", tokens_item=list(self.tokens[self.ti:]))

    def finish(self) -> MP2State:
        f = self.f
        if self.resting or self.s.resting:
            f["resting"] = tuple(sorted(self.resting))
        pl = self.pl
        if pl:
            seats = list(self.s.seats)
            for seat, d in pl.items():
                seats[seat] = PlayerState(*astuple(d))
            f["seats"] = tuple(seats)
        return replace(self.s, **f) if f else self.s

    def push(self, item: tuple[str, int, str], front: bool = False) -> None:
        pending = self.get("pending")
        self.f["pending"] = (item,) + pending if front else pending + (item,)


# --- components --------------------------------------------------------------------------------


def component(w: Work, kind: str, cid: str, what: str = "") -> dict:
    """A component from the pack, else from the log's descriptions; refuses an unknown one."""
    spec = w.pack.components[kind].get(cid)
    if spec is not None:
        return spec
    described = w.get("described")
    spec = _described_map(described).get((kind, cid)) if described else None
    if spec is not None:
        w.resting.add(f"{kind}:{cid}")
        return spec
    codes.illegal(
        codes.UNDESCRIBED,
        "{kind} {cid!r} is not in content pack {pack_id}; describe it in the event that brings it to the table (describe=[{{kind: {kind!r}, id: {cid!r}, spec: ...}}]){value_plus}", kind=kind, cid=cid, pack_id=w.pack.id, value_plus=' ' + what if what else '',
        details={"kind": kind, "id": cid},
    )


def known(w: Work, kind: str, cid: str) -> dict | None:
    spec = w.pack.components[kind].get(cid)
    if spec is not None:
        return spec
    described = w.get("described")
    spec = _described_map(described).get((kind, cid)) if described else None
    if spec is not None:
        w.resting.add(f"{kind}:{cid}")
    return spec


#: a node's place on the drawn map: not a rules fact, so two descriptions may differ there
LAYOUT = ("x", "y")


def _same(pack_spec: dict, spec: dict) -> bool:
    return all(pack_spec.get(k, 0 if isinstance(v, int) else None) == v for k, v in spec.items() if k != "id" and k not in LAYOUT)


def _facts(spec: dict) -> dict:
    return {k: v for k, v in spec.items() if k not in LAYOUT}


def apply_descriptions(w: Work, describe) -> None:
    """Checks and records the components an event describes (before the event takes effect)."""
    if not describe:
        return
    known_map = _described_map(w.get("described"))
    added: list[tuple[str, str, str]] = []
    for c in describe:
        w.resting.add(f"{c.kind}:{c.id}")
        spec = msgspec.json.decode(msgspec.json.encode(c.spec))
        if w.strict:
            try:
                validate_component(c.kind, spec, f"describe[{c.kind}:{c.id}]")
            except PackError as exc:
                codes.illegal(codes.BAD_DESCRIPTION, "bad description: {exc}", exc=exc)
            if c.kind == "route" and route_id(*spec["ends"]) != c.id:
                codes.illegal(codes.BAD_DESCRIPTION, "route {c_id!r}: its id is its sorted ends joined by '-', {route_id!r}", c_id=c.id, route_id=route_id(*spec['ends']))
            in_pack = w.pack.get(c.kind, c.id)
            if in_pack is not None and not _same(in_pack, spec):
                codes.contradiction(codes.DESCRIPTION_MISMATCH, "{c_kind} {c_id}: the pinned pack says {in_pack}, not {spec}", c_kind=c.kind, c_id=c.id, in_pack=in_pack, spec=spec)
            old = known_map.get((c.kind, c.id))
            if old is not None and _facts(old) != _facts(spec):
                codes.contradiction(codes.DESCRIPTION_MISMATCH, "{c_kind} {c_id} was described as {old}, not {spec}", c_kind=c.kind, c_id=c.id, old=old, spec=spec)
        if w.pack.get(c.kind, c.id) is None and (c.kind, c.id) not in known_map:
            added.append((c.kind, c.id, canonical(spec)))
    if added:
        w.f["described"] = w.get("described") + tuple(added)


# --- resources ----------------------------------------------------------------------------------


def gain(w: Work, seat: int, res: str, n: int) -> None:
    if n <= 0:
        return
    d = w.pl.get(seat) or w.p(seat)
    setattr(d, res, getattr(d, res) + n)
    if res == "jade" and d.character == "abha":
        d.vp += n  # "いかなる方法でも１翡翠獲得するごとに１ポイント獲得"


def gain_bundle(w: Work, seat: int, bundle: dict) -> None:
    d = w.pl.get(seat) or w.p(seat)
    for res, n in bundle.items():
        if n > 0:
            setattr(d, res, getattr(d, res) + n)
            if res == "jade" and d.character == "abha":
                d.vp += n  # "いかなる方法でも１翡翠獲得するごとに１ポイント獲得"


def resources(d) -> dict:
    """A seat's payable resources (a scratch copy or a PlayerState) as a dict."""
    return {k: getattr(d, k) for k in PAYABLE}


def can_pay(d: dict, cost: dict) -> bool:
    jade = d["jade"] - cost.get("jade", 0)
    if jade < 0:
        return False
    for res, n in cost.items():
        if res in ("coins", "camels"):
            short = n - d[res]
            if short > 0:
                jade -= short
                if jade < 0:
                    return False
        elif res != "jade" and d[res] < n:
            return False
    return True


def pay(w: Work, seat: int, cost: dict, why: str, code: str = codes.CANNOT_AFFORD) -> None:
    """Pays a bundle; coins and camels short are paid in jade (ruling MP2-6)."""
    d = w.pl.get(seat) or w.p(seat)
    if w.strict and not can_pay(resources(d), cost):
        have = {k: getattr(d, k) for k in cost if k in PAYABLE}
        codes.illegal(code, "{player} cannot pay {cost} {why} (has {have}, jade {jade}; jade may stand in for coins or camels)", player=w.who(seat), cost=dict(cost), why=why, have=have, jade=d.jade)
    if cost.get("jade"):
        d.jade -= cost["jade"]
    for res, n in cost.items():
        if res == "jade" or n == 0:
            continue
        have = getattr(d, res)
        if res in ("coins", "camels") and have < n:
            d.jade -= n - have
            setattr(d, res, 0)
        else:
            setattr(d, res, have - n)


# --- dice ---------------------------------------------------------------------------------------


def parse_die(token: object) -> tuple[str, int]:
    parsed = DIE_TOKENS.get(token) if isinstance(token, str) else None
    if parsed is None:
        codes.illegal(codes.BAD_DIE, "{token!r} is not a die: write 1-6 (your colour), b4 (a black die showing 4) or pR (Donata's red piece)", token=token)
    return parsed


def take_die(w: Work, seat: int, token: str) -> tuple[str, int]:
    kind, value = parse_die(token) if w.strict else DIE_TOKENS[token]
    d = w.pl.get(seat) or w.p(seat)
    if kind == "p":
        colour = {"B": "blue", "R": "red", "Y": "yellow", "G": "green"}[token[1]]
        if colour not in d.pieces:
            if w.strict:
                codes.illegal(codes.DIE_NOT_HELD, "{player} has no {colour} piece (Donata Badoer's pieces: {pieces})", player=w.who(seat), colour=colour, pieces=list(d.pieces))
            return kind, value
        i = d.pieces.index(colour)
        d.pieces = d.pieces[:i] + d.pieces[i + 1 :]
        return kind, value
    key = "dice" if kind == "c" else "black"
    held = getattr(d, key)
    if value not in held:
        if w.strict:
            codes.illegal(codes.DIE_NOT_HELD, "{player} holds no {kind_is_c:?colour|black} die showing {value} (colour {dice}, black {black})", player=w.who(seat), kind_is_c=kind == 'c', value=value, dice=list(d.dice), black=list(d.black))
        return kind, value
    i = held.index(value)
    setattr(d, key, held[:i] + held[i + 1 :])
    return kind, value


def add_die(w: Work, seat: int, kind: str, value: int) -> None:
    d = w.pl.get(seat) or w.p(seat)
    key = "dice" if kind == "c" else "black"
    setattr(d, key, tuple(sorted(getattr(d, key) + (value,))))


def own_slot(space: str) -> bool:
    """Whether each die placed on ``space`` takes a マス of its own (the Khan's favor's slots, a special
    city's two spaces) instead of joining the dice already there (ruling MP2-12)."""
    return space == KHAN or space.startswith("special:")


def place_dice(w: Work, seat: int, space: str, tokens, count: int, mode: str, what: str) -> int:
    """Dice on an action space: count, possession, the colour rule, Donata's pieces, stacking and the
    occupation fee (``mode``: "shared" pays the fee, "single" takes no die on top, "free" neither).
    Returns the lowest value placed."""
    if not w.strict:
        return _place_trusted(w, seat, space, tokens, mode, what)
    if w.strict and len(tokens) != count:
        codes.illegal(codes.DICE_COUNT, "{what} takes exactly {count} {count_is_1:?die|dice}, not {n_tokens}: {rule}", what=what, count=count, count_is_1=count == 1, n_tokens=len(tokens), rule="\"ボードに描かれているマスの数のダイスを置かなければいけません。\"")
    board = w.get("board")
    occupied = False
    for p in board:
        if p[0] == space:
            occupied = True
            break
    if w.strict and mode == "single" and occupied:
        codes.illegal(codes.NO_STACKING, "{what} already holds a die this round: {rule}", what=what, rule=Q_NO_STACK)
    placed = []
    colour = piece = False
    for t in tokens:
        kind, value = take_die(w, seat, t)
        placed.append((space, value, seat, kind))
        colour = colour or kind == "c"
        piece = piece or kind == "p"
    d = w.pl.get(seat) or w.p(seat)
    if w.strict and piece and occupied and not own_slot(space):
        codes.illegal(codes.PIECE_RULE, "Donata Badoer's pieces go only on a マス without dice, and {what} holds dice: {rule} (ruling MP2-12)", what=what, rule="\"フリーアクションスペース(他のダイスが置かれていないマス)にのみ配置可能。\"")
    if colour and space != BAG:
        if w.strict and space in d.used:
            codes.illegal(codes.COLOUR_ONCE_PER_SPACE, "{player}'s colour already used {what} this round: {rule}", player=w.who(seat), what=what, rule=Q_COLOUR)
        d.used = d.used + (space,)
    w.f["board"] = board + tuple(placed)
    low = min(p[1] for p in placed) if placed else 0
    if mode == "shared" and occupied:
        pay(w, seat, {"coins": low}, phrase("why/occupied-space-2", "for the occupied space {what}: {rule}", what=what, rule=Q_FEE), codes.OCCUPIED_FEE)
    if colour and occupied and mode != "free" and d.character == "donata":
        gain(w, seat, "camels", 2)  # "既にダイスが置かれているスペースのアクションを行った場合、２ラクダを獲得する。"
    return low


def _place_trusted(w: Work, seat: int, space: str, tokens, mode: str, what: str) -> int:
    """``place_dice`` for a checked event (the fold): the same effects, no checks."""
    d = w.pl.get(seat) or w.p(seat)
    board = w.get("board")
    occupied = False
    for p in board:
        if p[0] == space:
            occupied = True
            break
    placed = []
    colour = False
    low = 7
    for t in tokens:
        kind, value = DIE_TOKENS[t]
        if kind == "c":
            held = d.dice
            if value in held:
                i = held.index(value)
                d.dice = held[:i] + held[i + 1 :]
            colour = True
        elif kind == "b":
            held = d.black
            if value in held:
                i = held.index(value)
                d.black = held[:i] + held[i + 1 :]
        else:
            take_die(w, seat, t)
        placed.append((space, value, seat, kind))
        if value < low:
            low = value
    if colour and space != BAG:
        d.used = d.used + (space,)
    w.f["board"] = board + tuple(placed)
    if not placed:
        return 0
    if mode == "shared" and occupied:
        pay(w, seat, {"coins": low}, "", codes.OCCUPIED_FEE)
    if colour and occupied and mode != "free" and d.character == "donata":
        gain(w, seat, "camels", 2)
    return low


# --- trading posts -------------------------------------------------------------------------------


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


def pile_left(w: Work) -> int:
    """Contracts still in the pile (``seen`` holds the pile's contracts only), less the refills already promised."""
    return w.pack.contract_pile - len(w.get("seen")) - sum(1 for p in w.get("pending") if p[0] == REFILL)


def take_contracts(w: Work, seat: int, taken: tuple[str, ...], discard: tuple[str, ...], where: set[str], why: str) -> None:
    """Contracts taken from the spaces of cities in ``where``; ``discard`` keeps the seat at the limit."""
    if not taken and not discard and not w.strict:
        return
    d = w.pl.get(seat) or w.p(seat)
    here = list(w.get("city_contracts"))
    hold = w.pack.contracts_action["hold"]
    for k in taken:
        spot = next((i for i, (c, kk) in enumerate(here) if kk == k and c in where), None)
        if spot is None:
            if w.strict:
                codes.illegal(codes.CONTRACT_NOT_THERE, "contract {k!r} is not on a contract space of {where} {why}", k=k, where=sorted(where) or phrase("what/city-with-post", "a city with your post"), why=why)
            continue
        city = here.pop(spot)[0]
        d.contracts = d.contracts + (k,)
        if pile_left(w) > 0:  # "その後補充されます" (an empty pile refills nothing)
            w.push((REFILL, seat, city))
    w.f["city_contracts"] = tuple(here)
    if w.strict:
        if len(set(discard)) != len(discard) or any(k not in d.contracts for k in discard):
            codes.illegal(codes.CONTRACT_NOT_ACTIVE, "discard {discard}: only contracts {player} holds ({contracts})", discard=list(discard), player=w.who(seat), contracts=list(d.contracts))
        if len(d.contracts) - len(discard) > hold or (discard and len(d.contracts) - len(discard) < hold):
            codes.illegal(codes.CONTRACT_LIMIT, "{player} would hold {n_contracts_minus} contracts: {rule}", player=w.who(seat), n_contracts_minus=len(d.contracts) - len(discard), rule=Q_HOLD)
    d.contracts = tuple(k for k in d.contracts if k not in discard)


# --- main actions -------------------------------------------------------------------------------


def main_action(w: Work) -> None:
    w.f["main_done"] = True


def steps_of(w: Work, seat: int, path: tuple[str, ...]) -> tuple[int, list[str]]:
    """(steps counted, oases Möngke Khan skipped): "オアシスをないものとして飛ばして移動できる"."""
    if w.p(seat).character != "mongke":
        return len(path), []
    skipped = [x for x in path[:-1] if node(w, x)["kind"] == "oasis"]
    return len(path) - len(skipped), skipped


def walk(w: Work, seat: int, start: str, path: tuple[str, ...], pay_costs: bool, why: str) -> None:
    """Steps along routes: each must exist, its guild seal be owned, its costs be paid; no node twice."""
    if not w.strict:
        if pay_costs:
            _walk_trusted(w, seat, start, path)
        return
    d = w.pl.get(seat) or w.p(seat)
    here = start
    gantulga = d.character == "gantulga"
    seen = {start}
    for there in path:
        if isinstance(there, str):
            if there in seen:
                codes.illegal(codes.PATH_REVISITS, "the path {path} from {start} {why} comes back to {there}: {once}", path=list(path), start=start, why=why, there=there, once=Q_ONCE)
            seen.add(there)
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


def book_action(w: Work, seat: int, book: int, die: str, option: int, caravans) -> None:
    if w.strict and book not in (1, 2, 3):
        codes.illegal(codes.BOOK_OPTION, "book {book!r}: 1, 2 or 3", book=book)
    low = place_dice(w, seat, BOOK_SPACE[book], (die,), 1, "shared", f"book {book}")
    need = w.pack.book_min[book - 1]
    if w.strict and low < need:
        codes.illegal(codes.BOOK_DIE, "book {book} needs a die of {need} or more, not {low}: {rule}", book=book, need=need, low=low, rule="\"左：ダイス目１以上・中央：ダイス目３以上・右：ダイス目５以上。\"")
    if w.strict and option not in (1, 2, 3, 4):
        codes.illegal(codes.BOOK_OPTION, "option {option!r}: 1, 2 (free), 3 (1 jade) or 4 (2 jade)", option=option)
    if option in (1, 2):
        items = component(w, "book", str(book), "(the book's free options)")["fixed"][option - 1]
    else:
        offers = w.get("offers")
        tile = offers[book - 1] if len(offers) >= book else None
        if tile is None:
            codes.illegal(codes.NOT_EXPECTED, "book {book} has no offer tile this round", book=book)
        price = w.pack.jade_prices[option - 3]
        pay(w, seat, {"jade": price}, phrase("why/book-option", "for the lower {option_is_3:?left|right} option of book {book}: {rule}", option_is_3=option == 3, book=book, rule="\"左下：翡翠１つを支払い ... 右下：翡翠２つを支払い\""))
        items = component(w, "offer", tile)["jade1" if option == 3 else "jade2"]
    gain_bundle(w, seat, items)
    move_caravans(w, seat, book, caravans)


def khans_favor(w: Work, seat: int, die: str) -> None:
    slots = [p for p in w.get("board") if p[0] == KHAN]
    if w.strict:
        if len(slots) >= w.pack.khan["slots"]:
            codes.illegal(codes.KHANS_FAVOR_FULL, "the Khan's favor's four slots are full this round")
        kind, value = parse_die(die)
        if slots and value < slots[-1][1]:
            codes.illegal(codes.KHANS_FAVOR_ASCENDING, "a {value} cannot follow the {slots_last_1} on the Khan's favor: {rule}", value=value, slots_last_1=slots[-1][1], rule=Q_KHAN)
    place_dice(w, seat, KHAN, (die,), 1, "free", "the Khan's favor")
    gain_bundle(w, seat, w.pack.khan["reward"])


def contracts_action(w: Work, seat: int, die: str, taken, discard) -> None:
    place_dice(w, seat, CONTRACTS_SPACE, (die,), 1, "shared", "the contracts action")
    ca = w.pack.contracts_action
    gain(w, seat, "coins", ca["coins"])  # "まず４コインを獲得します。"
    d = w.pl.get(seat) or w.p(seat)
    limit = 1 if d.character == "vidal" else ca["take"]
    if w.strict and len(taken) > limit:
        codes.illegal(codes.CONTRACT_LIMIT, "take at most {limit} contract(s): {rule}{limit_is_1:? (Vidal Badoer: 1)|}", limit=limit, rule="\"自分の交易所が置かれている都市から最大２枚依頼タイルを獲得\"", limit_is_1=limit == 1)
    take_contracts(w, seat, tuple(taken), tuple(discard), set(d.posts), "(cities with your trading post)")


def guild_action(w: Work, seat: int, dice, guild: str) -> None:
    d = w.pl.get(seat) or w.p(seat)
    count = 1 if d.character == "dewu" else 2
    low = place_dice(w, seat, GUILD, dice, count, "shared", "the guild action")
    take_seal(w, seat, guild, low, "a lowest die")


def take_seal(w: Work, seat: int, guild, low: int, die: str = "a die") -> None:
    """A guild seal taken as the guild action does, ``low`` standing for the lowest die."""
    d = w.pl.get(seat) or w.p(seat)
    spec = w.pack.guilds.get(guild) if isinstance(guild, str) else None
    if w.strict:
        if spec is None:
            codes.illegal(codes.UNKNOWN_ID, "{guild!r} is not a guild ({guilds})", guild=guild, guilds=', '.join(GUILDS))
        if low < spec["min_die"]:
            codes.illegal(codes.GUILD_DIE, "the {guild} seal needs {die} of {min_die}, not {low}: {rule}", guild=guild, die=die, min_die=spec['min_die'], low=low, rule="\"それより小さい場合は選択できません\"")
        if guild in d.seals:
            codes.illegal(codes.ONE_SEAL_PER_GUILD, "{player} owns a {guild} seal: {rule}", player=w.who(seat), guild=guild, rule="\"プレイヤーは４つのギルドマーカーは各１つしか所持できません。\"")
    d.seals = d.seals + (guild,)
    gain(w, seat, "jade", spec["jade"])


def special_node(w: Work, seat: int, name: str) -> str | None:
    for city in w.p(seat).posts:
        if node(w, city).get("special") == name:
            return city
    return None


def special_city(w: Work, seat: int, name: str, die: str) -> None:
    if w.strict:
        if name not in ("baghdad", "balkh", "hormuz"):
            codes.illegal(codes.UNKNOWN_ID, "{name!r} is not a special city (baghdad, balkh, hormuz)", name=name)
        if special_node(w, seat, name) is None:
            codes.illegal(codes.NEEDS_POST, "{player} has no trading post in {name}: {rule}", player=w.who(seat), name=name, rule=Q_POST_NEEDED)
        if sum(1 for p in w.get("board") if p[0] == f"special:{name}") >= 2:
            codes.illegal(codes.SPECIAL_FULL, "both action spaces of {name} hold a die this round: {rule}", name=name, rule=Q_NO_STACK)
    value = place_dice(w, seat, f"special:{name}", (die,), 1, "free", name)
    spec = component(w, "special", name, f"(the reward of {name})")
    gain_bundle(w, seat, spec["reward"])
    if spec["guild"] in w.p(seat).improved:
        seal = component(w, "seal", spec["guild"])
        for _ in range(2 if value >= spec["twice_at"] else 1):
            gain_bundle(w, seat, seal["bonus"])


def city_card(w: Work, seat: int, city: str, die: str, times: int, e=None) -> None:
    d = w.pl.get(seat) or w.p(seat)
    area = city in ("area1", "area2")
    if area:
        i = 0 if city == "area1" else 1
        cards = w.get("area_cards")
        card = cards[i] if i < len(cards) else None
    else:
        found = at(w.get("cards"), city)
        card = found[0] if found else None
    if card is None:
        codes.illegal(codes.UNKNOWN_ID, "no city card lies at {city!r}", city=city)
    kind, _ = parse_die(die) if w.strict else DIE_TOKENS[die]
    if w.strict and not area:
        piece_ok = False
        if kind == "p":
            colour = {"B": "blue", "R": "red", "Y": "yellow", "G": "green"}[die[1]]
            owners = [s for s in range(w.s.n) if city in (w.pl[s].posts if s in w.pl else w.s.seats[s].posts)]
            seat_colours = COLOURS[: w.s.n]
            piece_ok = (colour in seat_colours and COLOURS.index(colour) in owners) or (colour not in seat_colours and not owners)
        if city not in d.posts and not piece_ok:
            codes.illegal(codes.NEEDS_POST, "{player} has no trading post in {city}: {rule}", player=w.who(seat), city=city, rule=Q_POST_NEEDED)
        if city in w.s.turn_posts:
            codes.illegal(codes.CITY_CARD_NEXT_TURN, "the post in {city} was placed this turn: {rule}", city=city, rule="\"次の手番からは、その都市に置かれているカードにダイスを置くことができる\"")
    value = place_dice(w, seat, f"card:{city}", (die,), 1, "single", f"the city card at {city}")
    spec = component(w, "city_card", card)
    kind = spec["kind"]
    _card_fields(w, kind, e)
    if kind == "exchange":
        if w.strict and not (isinstance(times, int) and 1 <= times <= value):
            codes.illegal(codes.CARD_TIMES, "repeat the card 1..{value} times (the die): {rule}, not {times!r}", value=value, rule="\"ダイス目と最大同数まで繰り返し\"", times=times)
        for _ in range(times):
            if spec.get("pay"):
                pay(w, seat, spec["pay"], phrase("why/city-card", "(city card {card})", card=card))
            gain_bundle(w, seat, spec["gain"])
    elif kind in ("per_contract", "per_post"):
        count = len(d.completed) if kind == "per_contract" else len(d.posts)
        if w.strict and times != 1:
            codes.illegal(codes.CARD_TIMES, "city card {card} counts by itself (times 1), capped at the die", card=card)
        for _ in range(min(count, value)):
            gain_bundle(w, seat, spec["gain"])
    elif kind == "choice":  # "same direction every time"
        options = spec["options"]
        if w.strict:
            if not (isinstance(e.option, int) and 1 <= e.option <= len(options)):
                codes.illegal(codes.BAD_CHOICE, "city card {card}: option 1..{n_options} (the same every time), not {option!r}", card=card, n_options=len(options), option=e.option)
            if not (isinstance(times, int) and 1 <= times <= value):
                codes.illegal(codes.CARD_TIMES, "repeat the card 1..{value} times (the die): {rule}, not {times!r}", value=value, rule="\"ダイス目と最大同数まで繰り返し\"", times=times)
        o = options[e.option - 1]
        cost = dict(o.get("pay", {}))
        below = spec.get("vp_below_zero") and cost.pop("vp", 0)
        for _ in range(times):
            if cost:
                pay(w, seat, cost, phrase("why/city-card-option", "(city card {card}, option {option})", card=card, option=e.option))
            if below:
                d.vp -= below  # "VP may go negative"
            gain_bundle(w, seat, o["gain"])
    elif kind == "bonuses":  # "a different bonus each time"
        markers = tuple(e.markers)
        if w.strict:
            mine = {m for c, m in w.get("bonuses") if c in d.posts}
            if not (isinstance(times, int) and 1 <= times <= value and times == len(markers)):
                codes.illegal(codes.CARD_TIMES, "city card {card}: 1..{value} bonus markers (the die), times = how many are named, not {times!r} for {markers}", card=card, value=value, times=times, markers=list(markers))
            if len(set(markers)) != len(markers):
                codes.illegal(codes.BAD_CHOICE, "city card {card}: a different bonus marker each time, not {markers}", card=card, markers=list(markers))
            for m in markers:
                if m not in mine:
                    codes.illegal(codes.BAD_CHOICE, "city card {card}: {m!r} is not a bonus marker of a city with {player}'s post ({mine})", card=card, m=m, player=w.who(seat), mine=sorted(mine))
        for m in markers:
            gain_bundle(w, seat, bonus_of(w, "city_bonus", m))
    elif kind == "guild":  # "a Guild Seals action using 1 die plus 1 camel"
        if w.strict and times != 1:
            codes.illegal(codes.CARD_TIMES, "city card {card} is used once (times 1)", card=card)
        if spec.get("pay"):
            pay(w, seat, spec["pay"], phrase("why/city-card", "(city card {card})", card=card))
        take_seal(w, seat, e.guild, value)
    elif kind == "move":  # "multi-step moves (only 1 post, where the move ends)"
        if w.strict and times != 1:
            codes.illegal(codes.CARD_TIMES, "city card {card} is used once (times 1); its move goes up to the die", card=card)
        limit = min(value, spec.get("max") or 6)
        move(w, seat, tuple(e.path), tuple(e.path2), e.figure, limit, None, tuple(e.take), tuple(e.discard), f"city card {card}", False)


#: the CityCardUsed fields each card kind reads (the others must keep their defaults)
CARD_CHOICE_FIELDS = {
    "exchange": (), "per_contract": (), "per_post": (), "choice": ("option",), "bonuses": ("markers",),
    "guild": ("guild",), "move": ("path", "path2", "figure", "take", "discard"),
}
CARD_DEFAULTS = {"option": 0, "markers": (), "guild": None, "path": (), "path2": (), "figure": 0, "take": (), "discard": ()}


def _card_fields(w: Work, kind: str, e) -> None:
    if not w.strict or e is None:
        return
    for f, default in CARD_DEFAULTS.items():
        if f not in CARD_CHOICE_FIELDS[kind] and getattr(e, f) != default:
            codes.illegal(codes.EXTRA_CHOICE, "a {kind} city card takes no {f} (it reads {card_choice_fields_item})", kind=kind, f=f, card_choice_fields_item=', '.join(CARD_CHOICE_FIELDS[kind]) or phrase("what/times-only", "times only"))


# --- bonus actions ------------------------------------------------------------------------------


def complete_contract(w: Work, seat: int, contract: str) -> None:
    d = w.pl.get(seat) or w.p(seat)
    if w.strict and contract not in d.contracts:
        codes.illegal(codes.CONTRACT_NOT_ACTIVE, "{contract!r} is not one of {player}'s contracts ({contracts})", contract=contract, player=w.who(seat), contracts=list(d.contracts))
    spec = component(w, "contract", contract)
    vidal = d.character == "vidal"
    if not vidal:  # Vidal: "ラクダ及び資源の支払いが必要なくなるが、達成報酬の勝利点が獲得できなくなる"
        pay(w, seat, spec["cost"], phrase("why/complete-contract", "to complete contract {contract}", contract=contract))
    d.contracts = tuple(k for k in d.contracts if k != contract)
    d.completed = d.completed + (contract,)
    reward = spec["reward"]
    gain_bundle(w, seat, {k: v for k, v in reward.items() if not (vidal and k == "vp") and k not in CONTRACT_ICONS})
    if d.character == "abha":
        gain(w, seat, "jade", 1)  # "依頼達成時１翡翠獲得する"
    if reward.get("contract"):  # one from any contract city with the seat's post (reference B9)
        cands = contract_reward_choices(w.get("city_contracts"), d.posts)
        if cands:
            k = w.token(phrase("what/contract-taken", "the contract taken (reward icon)"), cands)
            take_contracts(w, seat, (k,), (), set(d.posts), "(a contract reward)")
    if reward.get("contract_pile") and pile_left(w) > 0:  # the top of the pile, into the hand
        w.push((REFILL, seat, HAND))
    if reward.get("black_die") and w.get("black_supply") > 0:  # reference B15: "more may come from contracts"
        w.f["black_supply"] = w.get("black_supply") - 1
        if w.s.options.black_dice_variant:
            pool = w.get("black_pool")
            v = int(w.token(phrase("what/black-die-taken", "the black die taken (reward icon)"), tuple(str(x) for x in sorted(set(pool)))) or pool[0])
            rest = list(pool)
            rest.remove(v)
            w.f["black_pool"] = tuple(rest)
            add_die(w, seat, "b", v)
            if d.character == "isabella":
                isabella_roll(w, seat, v)
        else:
            w.push((ROLL_DIE, seat, "b"), front=True)


def contract_reward_choices(city_contracts, posts) -> tuple[str, ...]:
    """The contracts a "contract" reward icon may take: on the spaces of cities with the seat's post."""
    out: list[str] = []
    for c, k in city_contracts:
        if c in posts and k not in out:
            out.append(k)
    return tuple(out)


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


def isabella_roll(w: Work, seat: int, value: int) -> None:
    res = ISABELLA[value]
    gain(w, seat, res, ISABELLA_N[res])


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


# --- turns and rounds ---------------------------------------------------------------------------


def has_dice(p) -> bool:
    return bool(p.dice or p.black)


def end_turn(w: Work, seat: int) -> None:
    n = w.s.n
    w.f["main_done"] = False
    w.f["bought_black"] = False
    w.f["traded"] = False
    w.f["turn_posts"] = ()
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        p = w.pl.get(nxt) or w.s.seats[nxt]
        if has_dice(p):
            w.f["turn"] = nxt
            return
    end_round(w)


def end_round(w: Work) -> None:
    w.f["round_vp"] = w.s.round_vp + (tuple(w.p(s).vp for s in range(w.s.n)),)
    claim = w.get("start_claim")
    if claim[1] >= 0:  # "どのプレイヤーも移動を選択していない場合はスタートプレイヤーは変わりません"
        w.f["start_seat"] = claim[1]
    for seat in range(w.s.n):
        d = w.pl.get(seat) or w.p(seat)
        d.dice = ()
        d.black = ()
    if w.s.round >= w.pack.rounds:
        unknown = tuple((SHOW, s, "") for s in range(w.s.n) if w.p(s).goal is None)
        w.f["pending"] = unknown
        w.f["phase"] = REVEAL if unknown else OVER
        return
    w.f["phase"] = ROUND


def round_sources(w: Work, seat: int) -> list[tuple[str, dict]]:
    """The seat's «!» bonuses at round start: city bonus markers, improved seals, its character."""
    d = w.pl.get(seat) or w.p(seat)
    out = []
    for city in d.posts:
        for marker in at(w.get("bonuses"), city):
            spec = component(w, "city_bonus", marker)
            # an "any other bonus" marker is paid with the round-start choices (IncomeTaken)
            out.append((f"city:{city}", ("any", marker) if spec.get("any_bonus") else spec["gain"]))
    for g in d.improved:
        out.append((f"seal:{g}", component(w, "seal", g)["bonus"]))
    if d.character == "abha":
        out.append(("character", {"coins": 2}))
    return out


def begin_round(w: Work, rnd: int) -> None:
    """Round start after the reveals: «!» bonuses, dice back, black dice back, route tiles face up."""
    w.f["round"] = rnd
    w.f["start_claim"] = (0, -1)
    w.f["board"] = tuple(p for p in w.get("board") if p[3] == "n")
    w.f["black_supply"] = w.pack.black_dice[w.s.n]
    w.f["black_pool"] = ()
    w.f["main_done"] = False
    w.f["bought_black"] = False
    w.f["traded"] = False
    w.f["turn_posts"] = ()
    w.f["tiles_up"] = w.get("tiles_up") + w.get("tiles_down")
    w.f["tiles_down"] = ()
    for seat in range(w.s.n):
        d = w.pl.get(seat) or w.p(seat)
        d.used = ()
        d.compensation = 0
        for _, bundle in round_sources(w, seat):
            if type(bundle) is dict:
                gain_bundle(w, seat, bundle)


def needs_income(w: Work, seat: int) -> bool:
    d = w.pl.get(seat) or w.p(seat)
    if d.compensation > 0:
        return True
    sources = round_sources(w, seat)
    if d.character == "mailin" and sources:
        return True
    if any(type(b) is tuple for _, b in sources) and any_bonus_choices(w):
        return True
    return d.character == "isabella" and any(d.dice.count(v) >= 2 for v in set(d.dice))


def after_roll(w: Work) -> None:
    n = w.s.n
    start = w.get("start_seat")
    pending = []
    for k in range(n):
        seat = (start + k) % n
        d = w.pl.get(seat) or w.p(seat)
        if d.character == "isabella" and not any(d.dice.count(v) >= 2 for v in set(d.dice)):
            for v in d.dice:
                isabella_roll(w, seat, v)
        if needs_income(w, seat):
            pending.append((INCOME, seat, ""))
    w.f["pending"] = tuple(pending)
    w.f["phase"] = PLAY
    w.f["turn"] = start


def income(w: Work, seat: int, coins: int, camels: int, double, pair: int) -> None:
    d = w.pl.get(seat) or w.p(seat)
    due = d.compensation
    if w.strict and not (isinstance(coins, int) and isinstance(camels, int) and coins >= 0 and camels >= 0 and coins + camels == due):
        codes.illegal(codes.COMPENSATION, "{player}'s compensation is {due}, as coins + camels, not {coins} + {camels}: {rule}", player=w.who(seat), due=due, coins=coins, camels=camels, rule="\"１５との差分だけラクダかコインを好きな組み合わせで受け取りす\"")
    d.coins += coins
    d.camels += camels
    d.compensation = 0
    for _, b in round_sources(w, seat):
        if type(b) is tuple:  # an "any other bonus" marker: the marker named in ``choices``
            gain_bundle(w, seat, bonus_of(w, "city_bonus", b[1]))
    if d.character == "mailin":
        sources = dict(round_sources(w, seat))
        if sources:
            if w.strict and double not in sources:
                codes.illegal(codes.BAD_CHOICE, "Mailin & Tian Chin take one «!» bonus twice: choose one of {sources}, not {double!r}", sources=sorted(sources), double=double)
            b = sources.get(double, {})
            gain_bundle(w, seat, bonus_of(w, "city_bonus", b[1]) if type(b) is tuple else b)
        elif w.strict and double is not None:
            codes.illegal(codes.BAD_CHOICE, "no «!» bonus to take twice")
    elif w.strict and double is not None:
        codes.illegal(codes.NOT_YOUR_CHARACTER, "only Mailin & Tian Chin take a «!» bonus twice")
    if d.character == "isabella":
        dice = list(d.dice)
        if pair:
            if w.strict and dice.count(pair) < 2:
                codes.illegal(codes.BAD_CHOICE, "Isabella Donati has no pair of {pair}s ({dice})", pair=pair, dice=dice)
            dice.remove(pair)
            dice.remove(pair)
            gain(w, seat, ISABELLA_PAIR[pair], 1)
        for v in dice:
            isabella_roll(w, seat, v)
    elif w.strict and pair:
        codes.illegal(codes.NOT_YOUR_CHARACTER, "only Isabella Donati takes a doubles bonus")


def character_start(w: Work, seat: int) -> None:
    """A character's starting position, applied when it is assigned or picked."""
    d = w.pl.get(seat) or w.p(seat)
    c = d.character
    caravans = 2 if c == "piedro" else 1 if w.s.options.caravans else 0
    d.caravans = (("", "", ()),) * caravans
    if c == "mailin":  # "コマを２個使用できる。ゲーム開始時３コイン獲得。"
        d.figures = (w.pack.start_city,) * 2
        d.coins += 3
    elif c == "donata":
        d.pieces = tuple(x for x in COLOURS if x != COLOURS[seat])


__all__ = ["Work"]
