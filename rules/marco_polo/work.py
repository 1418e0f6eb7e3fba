"""The scratch copy an event takes effect on, and resources gained and paid."""

from __future__ import annotations

from msgspec.structs import asdict, replace

from events.errors import IllegalMove
from rules.marco_polo import codes
from rules.marco_polo_common.work import Work as SharedWork
from rules.marco_polo.content import CITY_BONUSES, CITY_CARD_SPACES, GOODS, LARGE_CITIES, PACK, SMALL_CITIES
from rules.marco_polo.state import DRAW, MarcoPoloState, PlayerState


CHOICE_KINDS = frozenset({"good", "goods2", "coin_or_camel", "move", "any_bonus", "own_bonus"})
SMALL_INDEX = {c: i for i, c in enumerate(SMALL_CITIES)}
LARGE_INDEX = {c: i for i, c in enumerate(LARGE_CITIES)}
SPACE_INDEX = {s: i for i, s in enumerate(CITY_CARD_SPACES)}
RESOURCE_FIELDS = ("coins", "camels", "pepper", "silk", "gold")
VP_FIELD = {"contracts": "vp_contracts", "cards": "vp_cards", "posts": "vp_posts", "bonuses": "vp_bonuses"}
MAX_COMPENSATION = PACK["compensation_total"]
BLACK_TOTAL = {2: 3, 3: 4, 4: 5}


def bonus_needs_choice(bonus: str) -> bool:
    return any(kind in CHOICE_KINDS for kind, _ in CITY_BONUSES[bonus]["effect"])


class Work(SharedWork):
    """A scratch copy of the state: a seat is copied as a dict (``asdict``) on first touch."""

    __slots__ = ("src", "scratch")
    codes = codes

    def __init__(self, state: MarcoPoloState, strict: bool, tokens: tuple[str, ...] = ()) -> None:
        self.s = state
        self.strict = strict
        self.src = "bonuses"
        self.pl: dict[int, dict] = {}
        self.f: dict[str, object] = {}
        self.tokens = tokens
        self.ti = 0
        self.scratch: set = set()

    def p(self, seat: int) -> dict:
        d = self.pl.get(seat)
        if d is None:
            d = self.pl[seat] = asdict(self.s.seats[seat])
        return d

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

    def finish(self) -> MarcoPoloState:
        if self.pl:
            seats = list(self.s.seats)
            for seat, d in self.pl.items():
                seats[seat] = PlayerState(**d)
            self.f["seats"] = tuple(seats)
        return replace(self.s, **self.f) if self.f else self.s


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
