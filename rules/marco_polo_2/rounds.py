"""Round flow: the end of a turn and of a round, the start of a round (bonuses, income,
compensation, doubles), and each character's start."""

from __future__ import annotations

from rules.marco_polo_2 import codes
from rules.marco_polo_common.work import pass_turn
from rules.marco_polo_2.components import component
from rules.marco_polo_2.dice import isabella_roll
from rules.marco_polo_2.state import COLOURS, INCOME, OVER, PLAY, REVEAL, ROUND, SHOW
from rules.marco_polo_2.travel import any_bonus_choices, at, bonus_of
from rules.marco_polo_2.work import Work, gain, gain_bundle


ISABELLA_PAIR = {1: "jade", 6: "jade", 2: "silk", 5: "silk", 3: "gold", 4: "gold"}


def has_dice(p) -> bool:
    return bool(p.dice or p.black)


def end_turn(w: Work, seat: int) -> None:
    # what holds for one turn: as in Marco Polo, the main action, the black die, the posts placed;
    # unlike it, also Vidal Badoer's trade ("フリーアクションとして１ターンに１回"), and no contract
    # display to refill
    f = w.f
    f["main_done"] = False
    f["bought_black"] = False
    f["traded"] = False
    f["turn_posts"] = ()
    if not pass_turn(w, seat, has_dice):
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
