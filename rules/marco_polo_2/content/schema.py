"""The Marco Polo II content-pack format and its validation (the format is documented in
``README.md`` next to this file).

``validate_pack(data)`` checks a whole pack and returns it; ``validate_component(kind, spec)``
checks one component, as a pack lists it or as an event describes it at the table. Both raise
``PackError`` naming the bad field (``map.routes[3].coins: ...``); the callers turn it into the
title's error (``marco-polo-2.bad-content-pack`` on load, ``marco-polo-2.bad-description`` in a move).
"""

from __future__ import annotations

from typing import Any

from events.messages import Templated

RESOURCES: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")
GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
GUILDS: tuple[str, ...] = ("farmer", "spicer", "tailor", "jeweler")
SPECIAL_CITIES: tuple[str, ...] = ("baghdad", "balkh", "hormuz")
CARD_KINDS: tuple[str, ...] = ("exchange", "per_contract", "per_post", "choice", "bonuses", "guild", "move")
#: every kind of component a pack lists or an event describes
KINDS: tuple[str, ...] = (
    "node", "route", "contract", "city_card", "city_bonus", "outpost", "goal", "offer", "book", "seal",
    "special", "route_tile",
)


class PackError(Templated):
    """A bad field: ``path`` names it, the message says what is wrong. The message is a template and
    its parameters (``events.messages``), so that the API can write it in the reader's language."""

    def __init__(self, path: str, message: str, **params: Any) -> None:
        super().__init__("{path}: " + message, {"path": path, **params})
        self.path = path


def _need(d: Any, path: str) -> dict:
    if not isinstance(d, dict):
        raise PackError(path, "must be an object, not {type}", type=type(d).__name__)
    return d


def _field(d: dict, key: str, path: str) -> Any:
    if key not in d:
        raise PackError(f"{path}.{key}", "is missing")
    return d[key]


#: the largest number a pack may hold (as a move's numbers: the log and DuckDB keep them exactly)
MAX_NUMBER = 1_000_000
#: the longest id a pack or component may have (as the API's component ids)
MAX_ID = 128


def _int(v: Any, path: str, lo: int = 0, hi: int = MAX_NUMBER) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise PackError(path, "must be an integer {lo}..{hi}, not {value}", lo=lo, hi=hi, value=repr(v))
    return v


def _list(v: Any, path: str, what: str, length: int | None = None) -> list:
    if not isinstance(v, list | tuple) or (length is not None and len(v) != length):
        raise PackError(path, "must be a list of {what}, not {value}", what=what, value=repr(v)[: 300 - len(f"must be a list of {what}, not ")])
    return list(v)


def _id(v: Any, path: str) -> str:
    """A pack's or component's id: a short string of printable characters (a download names
    its file by it, a page prints it)."""
    _str(v, path)
    if len(v) > MAX_ID or not v.isprintable():
        raise PackError(path, "must be at most {max} printable characters, not {value}", max=MAX_ID, value=repr(v[:40]))
    return v


def _counts_by_players(v: Any, path: str) -> dict:
    """``{"2": ..., "3": ..., "4": ...}``: one entry for each player count."""
    d = _need(v, path)
    _only(d, ("2", "3", "4"), path)
    for n in ("2", "3", "4"):
        _field(d, n, path)
    return d


def _str(v: Any, path: str, choices: tuple[str, ...] | None = None) -> str:
    if not isinstance(v, str) or not v:
        raise PackError(path, "must be a non-empty string, not {value}", value=repr(v))
    if choices is not None and v not in choices:
        raise PackError(path, "must be one of {choices}, not {value}", choices=', '.join(choices), value=repr(v))
    return v


def _only(d: dict, keys: tuple[str, ...], path: str) -> None:
    extra = sorted(set(d) - set(keys))
    if extra:
        raise PackError(f"{path}.{extra[0]}", "unknown field (known: {known})", known=', '.join(keys))


def bundle(v: Any, path: str, allowed: tuple[str, ...] = RESOURCES) -> dict[str, int]:
    """A resource bundle: ``{"coins": 2, "vp": 1}`` (a cost or a gain)."""
    d = _need(v, path)
    for k, n in d.items():
        _str(k, f"{path}.{k}", allowed)
        _int(n, f"{path}.{k}")
    return d


def _number(v: Any, path: str, lo: float, hi: float) -> float:
    if not isinstance(v, int | float) or isinstance(v, bool) or not lo <= v <= hi:
        raise PackError(path, "must be a number {lo}..{hi}, not {value}", lo=f"{lo:g}", hi=f"{hi:g}", value=repr(v))
    return v


def _node(s: dict, p: str) -> None:
    _only(s, ("id", "name", "kind", "shield", "special", "slots", "x", "y"), p)
    for k in ("x", "y"):  # where a page draws the node; the rules never read it
        if k in s:
            _number(s[k], f"{p}.{k}", 0, 1000)
            if isinstance(s[k], float) and s[k].is_integer():
                # 500.0 is 500 (a browser writes it so): the same place hashes the same from any client
                s[k] = int(s[k])
    _str(_field(s, "kind", p), f"{p}.kind", ("city", "oasis", "start"))
    if s["kind"] == "city":
        _str(_field(s, "shield", p), f"{p}.shield")
    if s.get("special") is not None:
        _str(s["special"], f"{p}.special", SPECIAL_CITIES)
    for i, slot in enumerate(_list(s.get("slots", []), f"{p}.slots", "slots")):
        _str(slot, f"{p}.slots[{i}]", ("bonus", "outpost", "contracts", "card"))


def _route(s: dict, p: str) -> None:
    _only(s, ("id", "ends", "coins", "camels", "jade", "guild"), p)
    ends = _field(s, "ends", p)
    if not isinstance(ends, list | tuple) or len(ends) != 2 or ends[0] == ends[1]:
        raise PackError(f"{p}.ends", "must be two different node ids, not {value}", value=repr(ends))
    for i, e in enumerate(ends):
        _str(e, f"{p}.ends[{i}]")
    for k in ("coins", "camels", "jade"):
        _int(s.get(k, 0), f"{p}.{k}")
    if s.get("guild") is not None:
        _str(s["guild"], f"{p}.guild", GUILDS)


#: contract reward icons besides resources (reference B9, B15; ruling MP2-20): a contract from a
#: contract city with the seat's post, the top contract of the pile, a black die
CONTRACT_ICONS: tuple[str, ...] = ("contract", "contract_pile", "black_die")


def _contract(s: dict, p: str) -> None:
    _only(s, ("id", "cost", "reward", "starting"), p)
    bundle(_field(s, "cost", p), f"{p}.cost", ("camels", "pepper", "silk", "gold", "jade", "coins"))
    reward = bundle(_field(s, "reward", p), f"{p}.reward", RESOURCES + CONTRACT_ICONS)
    for icon in CONTRACT_ICONS:
        if icon in reward:
            _int(reward[icon], f"{p}.reward.{icon}", 0, 1)
    if not isinstance(s.get("starting", False), bool):
        raise PackError(f"{p}.starting", "must be true or false")


#: the fields each city-card kind takes besides ``id``, ``kind`` and ``text``
CARD_FIELDS: dict[str, tuple[str, ...]] = {
    "exchange": ("pay", "gain"), "per_contract": ("gain",), "per_post": ("gain",),
    "choice": ("options", "vp_below_zero"), "bonuses": (), "guild": ("pay",), "move": ("max",),
}


def _gains(v: Any, path: str) -> dict:
    gain = bundle(v, path)
    if not gain or not any(gain.values()):
        raise PackError(path, "must gain something")
    return gain


def _city_card(s: dict, p: str) -> None:
    kind = _str(_field(s, "kind", p), f"{p}.kind", CARD_KINDS)
    _only(s, ("id", "kind", "text", *CARD_FIELDS[kind]), p)
    if "pay" in s:
        bundle(s["pay"], f"{p}.pay")
    if kind in ("exchange", "per_contract", "per_post"):
        _gains(_field(s, "gain", p), f"{p}.gain")
    elif kind == "choice":  # "1 camel -> 3 coins or 1 coin -> 1 camel, same direction every time"
        options = _field(s, "options", p)
        if not isinstance(options, list | tuple) or len(options) < 2:
            raise PackError(f"{p}.options", "must list at least two options ({{pay, gain}}), not {value}", value=repr(options))
        for i, o in enumerate(options):
            q = f"{p}.options[{i}]"
            _only(_need(o, q), ("pay", "gain"), q)
            bundle(o.get("pay", {}), f"{q}.pay")
            _gains(_field(o, "gain", q), f"{q}.gain")
        if not isinstance(s.get("vp_below_zero", False), bool):
            raise PackError(f"{p}.vp_below_zero", "must be true or false")
    elif kind == "move" and s.get("max") is not None:
        _int(s["max"], f"{p}.max", 1, 6)


def _gain_only(s: dict, p: str) -> None:
    """A bonus marker or outpost tile: a ``gain`` bundle, or ``any_bonus`` (the reference's "take the
    bonus of any other city bonus marker", a different one each time it pays)."""
    _only(s, ("id", "gain", "any_bonus", "text"), p)
    if s.get("any_bonus") is not None:
        if s["any_bonus"] is not True:
            raise PackError(f"{p}.any_bonus", "must be true (or absent), not {value}", value=repr(s['any_bonus']))
        if "gain" in s:
            raise PackError(f"{p}.gain", "an any_bonus component gains the chosen marker's bonus, not its own")
        return
    bundle(_field(s, "gain", p), f"{p}.gain")


def _goal(s: dict, p: str) -> None:
    _only(s, ("id", "guilds", "shields"), p)
    for g, vp in _need(s.get("guilds", {}), f"{p}.guilds").items():
        _str(g, f"{p}.guilds.{g}", GUILDS)
        _int(vp, f"{p}.guilds.{g}")
    shields = s.get("shields", [])
    if not isinstance(shields, list | tuple):
        raise PackError(f"{p}.shields", "must be a list of shields")
    for i, sh in enumerate(shields):
        _str(sh, f"{p}.shields[{i}]")


def _offer(s: dict, p: str) -> None:
    _only(s, ("id", "book", "jade1", "jade2"), p)
    _int(_field(s, "book", p), f"{p}.book", 1, 3)
    bundle(_field(s, "jade1", p), f"{p}.jade1")
    bundle(_field(s, "jade2", p), f"{p}.jade2")


def _book(s: dict, p: str) -> None:
    _only(s, ("id", "min_die", "fixed"), p)
    if s.get("min_die") is not None:
        _int(s["min_die"], f"{p}.min_die", 1, 6)
    fixed = _field(s, "fixed", p)
    if not isinstance(fixed, list | tuple) or len(fixed) != 2:
        raise PackError(f"{p}.fixed", "must list the book's two free options")
    for i, b in enumerate(fixed):
        bundle(b, f"{p}.fixed[{i}]")


def _seal(s: dict, p: str) -> None:
    _only(s, ("id", "improve", "bonus", "plus_one"), p)
    bundle(_field(s, "improve", p), f"{p}.improve")
    bundle(_field(s, "bonus", p), f"{p}.bonus")
    if not isinstance(s.get("plus_one", False), bool):
        raise PackError(f"{p}.plus_one", "must be true or false")


def _special(s: dict, p: str) -> None:
    _only(s, ("id", "reward", "guild", "twice_at"), p)
    bundle(_field(s, "reward", p), f"{p}.reward")
    _str(_field(s, "guild", p), f"{p}.guild", GUILDS)
    _int(_field(s, "twice_at", p), f"{p}.twice_at", 1, 6)


def _route_tile(s: dict, p: str) -> None:
    _only(s, ("id", "shields"), p)
    sh = _field(s, "shields", p)
    if not isinstance(sh, list | tuple) or len(sh) != 2:
        raise PackError(f"{p}.shields", "a route tile shows two shields")
    for i, x in enumerate(sh):
        _str(x, f"{p}.shields[{i}]")


CHECK = {
    "node": _node, "route": _route, "contract": _contract, "city_card": _city_card, "city_bonus": _gain_only,
    "outpost": _gain_only, "goal": _goal, "offer": _offer, "book": _book, "seal": _seal, "special": _special,
    "route_tile": _route_tile,
}


def validate_component(kind: str, spec: Any, path: str | None = None) -> dict:
    """One component's spec (without checking its id against anything)."""
    path = path or kind
    if kind not in CHECK:
        raise PackError(path, "unknown component kind {kind} (known: {known})", kind=repr(kind), known=', '.join(KINDS))
    d = _need(spec, path)
    CHECK[kind](d, path)
    return d


#: pack section -> component kind (each section a list of components with unique ``id``)
SECTIONS: dict[str, str] = {
    "contracts": "contract", "city_cards": "city_card", "city_bonuses": "city_bonus", "outposts": "outpost",
    "goals": "goal", "offers": "offer", "route_tiles": "route_tile",
}
TOP: tuple[str, ...] = (
    "id", "title", "invented", "note", "rounds", "dice_per_player", "start", "posts", "post_vp",
    "compensation_total", "shield_vp", "travel", "books", "jade_prices", "khan", "contracts_action", "guilds",
    "money_bag", "bonus_costs", "black_dice", "neutral", "most_contracts_vp", "goods_per_vp", "coins_per_vp",
    "caravan", "characters", "caravan_characters", "start_city", "contract_pile", "map", "specials", "seals", "layout",
    *SECTIONS,
)


def _unique(items: list, path: str, kind: str) -> None:
    seen = set()
    for i, item in enumerate(items):
        p = f"{path}[{i}]"
        _need(item, p)
        cid = _id(_field(item, "id", p), f"{p}.id")
        if cid in seen:
            raise PackError(f"{p}.id", "{id} appears twice", id=repr(cid))
        seen.add(cid)
        validate_component(kind, item, p)


def _listed(d: dict, key: str, refusal: PackError, length: int | None = None) -> list[tuple[str, Any]]:
    """The pack's list ``key`` (not empty, or of ``length`` items) as (path, item) pairs; else
    ``refusal`` is raised."""
    v = _field(d, key, "pack")
    if not isinstance(v, list) or (not v if length is None else len(v) != length):
        raise refusal
    return [(f"pack.{key}[{i}]", item) for i, item in enumerate(v)]


def validate_pack(data: Any) -> dict:
    """Checks every field of a pack; returns it unchanged. Raises ``PackError`` naming the first bad field."""
    d = _need(data, "pack")
    _only(d, TOP, "pack")
    _id(_field(d, "id", "pack"), "pack.id")
    for key in ("title", "note"):
        if d.get(key) is not None:
            _str(d[key], f"pack.{key}")
    if d.get("layout") is not None:
        _need(d["layout"], "pack.layout")
    _int(_field(d, "rounds", "pack"), "pack.rounds", 1, 100)
    _int(_field(d, "dice_per_player", "pack"), "pack.dice_per_player", 1, 20)
    bundle(_field(d, "start", "pack"), "pack.start")
    _int(_field(d, "posts", "pack"), "pack.posts", 1)
    for k, v in _need(_field(d, "post_vp", "pack"), "pack.post_vp").items():
        _int(int(k) if str(k).isdigit() else -1, f"pack.post_vp.{k}", 1)
        _int(v, f"pack.post_vp.{k}")
    _int(_field(d, "compensation_total", "pack"), "pack.compensation_total")
    for p, v in _listed(d, "shield_vp", PackError("pack.shield_vp", "must list the VP for 1, 2, ... shields")):
        _int(v, p)
    travel = _need(_field(d, "travel", "pack"), "pack.travel")
    _only(travel, ("1", "2", "3"), "pack.travel")
    for row in ("1", "2", "3"):
        t = _need(_field(travel, row, "pack.travel"), f"pack.travel.{row}")
        _int(_field(t, "dice", f"pack.travel.{row}"), f"pack.travel.{row}.dice", 1)
        if t.get("max") is not None:
            _int(t["max"], f"pack.travel.{row}.max", 1)
        _int(t.get("coins", 0), f"pack.travel.{row}.coins")
    for i, (p, b) in enumerate(_listed(d, "books", PackError("pack.books", "must list the three books"), length=3)):
        _int(_field(_need(b, p), "min_die", p), f"{p}.min_die", 1, 6)
        if b.get("fixed") is not None:
            _book({"id": str(i + 1), **b}, p)
    for p, v in _listed(
        d, "jade_prices", PackError("pack.jade_prices", "must give the jade price of the two lower options"), length=2
    ):
        _int(v, p)
    khan = _need(_field(d, "khan", "pack"), "pack.khan")
    _int(_field(khan, "slots", "pack.khan"), "pack.khan.slots", 1)
    bundle(_field(khan, "reward", "pack.khan"), "pack.khan.reward")
    ca = _need(_field(d, "contracts_action", "pack"), "pack.contracts_action")
    for k in ("coins", "take", "hold"):
        _int(_field(ca, k, "pack.contracts_action"), f"pack.contracts_action.{k}")
    guilds = _need(_field(d, "guilds", "pack"), "pack.guilds")
    for g in GUILDS:
        gd = _need(_field(guilds, g, "pack.guilds"), f"pack.guilds.{g}")
        _int(_field(gd, "min_die", f"pack.guilds.{g}"), f"pack.guilds.{g}.min_die", 1, 6)
        _int(_field(gd, "jade", f"pack.guilds.{g}"), f"pack.guilds.{g}.jade")
    for p, b in _listed(d, "money_bag", PackError("pack.money_bag", "must list the money bag's options")):
        bundle(b, p)
    bc = _need(_field(d, "bonus_costs", "pack"), "pack.bonus_costs")
    for k in ("reroll", "adjust", "black"):
        _int(_field(bc, k, "pack.bonus_costs"), f"pack.bonus_costs.{k}")
    for k, v in _counts_by_players(_field(d, "black_dice", "pack"), "pack.black_dice").items():
        _int(v, f"pack.black_dice.{k}", 0, 100)
    for k, rules in _need(d.get("neutral", {}), "pack.neutral").items():
        p = f"pack.neutral.{k}"
        if k not in ("2", "3", "4"):
            raise PackError(p, "must be a player count: 2, 3 or 4")
        _only(_need(rules, p), ("khan", "special"), p)
        for i, v in enumerate(_list(rules.get("khan", []), f"{p}.khan", "die values")):
            _int(v, f"{p}.khan[{i}]", 1, 6)
        if rules.get("special") is not None:
            _int(rules["special"], f"{p}.special", 1, 6)
    mc = _field(d, "most_contracts_vp", "pack")
    if not isinstance(mc, list) or len(mc) != 2:
        raise PackError("pack.most_contracts_vp", "must give first and second place VP")
    for i, v in enumerate(mc):
        _int(v, f"pack.most_contracts_vp[{i}]")
    _int(_field(d, "goods_per_vp", "pack"), "pack.goods_per_vp", 1)
    _int(_field(d, "coins_per_vp", "pack"), "pack.coins_per_vp", 1)
    car = _need(_field(d, "caravan", "pack"), "pack.caravan")
    bundle(_field(car, "sell_vp", "pack.caravan"), "pack.caravan.sell_vp", GOODS)
    bundle(_field(car, "end_vp", "pack.caravan"), "pack.caravan.end_vp", GOODS)
    for i, v in enumerate(_list(_field(car, "steps", "pack.caravan"), "pack.caravan.steps", "three steps", 3)):
        _int(v, f"pack.caravan.steps[{i}]", 1)
    for key in ("characters", "caravan_characters"):
        chars = _field(d, key, "pack")
        if not isinstance(chars, list) or not chars:
            raise PackError(f"pack.{key}", "must list character ids")
        for i, c in enumerate(chars):
            _str(c, f"pack.{key}[{i}]")
    _int(_field(d, "contract_pile", "pack"), "pack.contract_pile")
    start = _str(_field(d, "start_city", "pack"), "pack.start_city")
    m = _need(_field(d, "map", "pack"), "pack.map")
    _unique(_list(_field(m, "nodes", "pack.map"), "pack.map.nodes", "nodes"), "pack.map.nodes", "node")
    node_ids = {n["id"] for n in m["nodes"]}
    if start not in node_ids:
        raise PackError("pack.start_city", "{id} is not a node of pack.map.nodes", id=repr(start))
    for i, r in enumerate(_list(_field(m, "routes", "pack.map"), "pack.map.routes", "routes")):
        p = f"pack.map.routes[{i}]"
        validate_component("route", r, p)
        for j, e in enumerate(r["ends"]):
            if e not in node_ids:
                raise PackError(f"{p}.ends[{j}]", "{id} is not a node of pack.map.nodes", id=repr(e))
    for city, s in _need(d.get("specials", {}), "pack.specials").items():
        _str(city, f"pack.specials.{city}", SPECIAL_CITIES)
        validate_component("special", {"id": city, **_need(s, f"pack.specials.{city}")}, f"pack.specials.{city}")
    for g, s in _need(d.get("seals", {}), "pack.seals").items():
        _str(g, f"pack.seals.{g}", GUILDS)
        validate_component("seal", {"id": g, **_need(s, f"pack.seals.{g}")}, f"pack.seals.{g}")
    for section, kind in SECTIONS.items():
        items = d.get(section, [])
        if not isinstance(items, list):
            raise PackError(f"pack.{section}", "must be a list")
        _unique(items, f"pack.{section}", kind)
    return d
