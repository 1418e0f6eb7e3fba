"""The scratch copy an event takes effect on, and resources gained and paid (coins or camels
short are paid in jade: "翡翠をいつでもラクダかコインとして代用できます", ruling MP2-6)."""

from __future__ import annotations

import msgspec
from msgspec.structs import astuple, replace

from events.errors import IllegalMove
from rules.marco_polo_2 import codes
from rules.marco_polo_common.work import Work as SharedWork
from rules.marco_polo_2.content import Pack
from rules.marco_polo_2.state import MP2State, PlayerState, pack_of


PAYABLE = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")


#: a seat's scratch copy while a step runs: PlayerState's fields, mutable (copied by ``astuple``,
#: which is much cheaper than a dict copy)
Scratch = msgspec.defstruct(
    "Scratch", [(name, object) for name in PlayerState.__struct_fields__], module=__name__
)


class Work(SharedWork):
    """A scratch copy of the state: a seat is copied as a ``Scratch`` on first touch."""

    __slots__ = ("pack", "resting")
    codes = codes

    def __init__(self, state: MP2State, strict: bool, tokens: tuple[str, ...] = ()) -> None:
        self.pack: Pack = pack_of(state)
        self.s = state
        self.strict = strict
        self.pl: dict[int, dict] = {}
        self.f: dict[str, object] = {}
        self.tokens = tokens
        self.ti = 0
        #: components this step takes from the log's descriptions (not the pack)
        self.resting: set[str] = set()

    def p(self, seat: int) -> dict:
        d = self.pl.get(seat)
        if d is None:
            d = self.pl[seat] = Scratch(*astuple(self.s.seats[seat]))
        return d

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
