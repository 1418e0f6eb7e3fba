"""Round flow: the end of a turn and of a round, the start of a round (income, compensation,
city bonuses), and each character's start."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo import codes
from rules.marco_polo_common.work import pass_turn
from rules.marco_polo.content import BEIJING, CITY_BONUSES, NAME, PACK, SMALL_CITIES
from rules.marco_polo.state import (
    DRAW,
    INCOME,
    KEEP,
    KEEP_ITEM,
    OVER,
    PLAY,
    REVEAL,
    ROUNDS,
    SHOW,
    CONTRACTS as CONTRACTS_PHASE,
    PlayerState,
)
from rules.marco_polo.travel import run_items
from rules.marco_polo.work import BLACK_TOTAL, SMALL_INDEX, Work, bonus_needs_choice


def has_dice(p: PlayerState | dict) -> bool:
    if isinstance(p, dict):
        return bool(p["dice"] or p["black"] or p["white"])
    return bool(p.dice or p.black or p.white)


def end_turn(w: Work, seat: int) -> None:
    # what holds for one turn: the main action, the black die ("solo coger un dado negro por
    # turno", as in Marco Polo II), the posts placed this turn
    f = w.f
    f["main_done"] = False
    f["bought_black"] = False
    f["turn_posts"] = ()
    if pass_turn(w, seat, has_dice):
        refill_display(w)
    else:
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
