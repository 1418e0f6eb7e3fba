"""A whole two-player Marco Polo II game at a table with the public pack, in notation: each
component described by the line that brings it (as ``tests/rules/marco_polo_2`` plays it)."""

from __future__ import annotations

import json


def d(component: str, cid: str, **spec) -> dict:
    return {"kind": component, "id": cid, "spec": spec}


def described(*components: dict) -> str:
    return " describe=" + json.dumps(list(components), separators=(",", ":"), ensure_ascii=False)


T1 = d("contract", "T1", cost={"camels": 1, "pepper": 1}, reward={"vp": 3, "coins": 2}, starting=True)
T2 = d("contract", "T2", cost={"silk": 1}, reward={"vp": 2}, starting=True)
LAYOUT = "setup chars=dewu,mongke start=T1,T2 goals=?,?,?;?,?,? bonuses=KAS:M1 cards=XIA:Q1 contracts=XIA:R01,XIA:R02"
SETUP = LAYOUT + described(
    T1, T2,
    d("contract", "R01", cost={"pepper": 1}, reward={"vp": 4}),
    d("contract", "R02", cost={"gold": 1}, reward={"vp": 6}),
    d("city_bonus", "M1", gain={"coins": 2}),
    d("city_card", "Q1", kind="exchange", gain={"coins": 2}),
)
BOOKS = (d("book", "1", min_die=1, fixed=[{"pepper": 1}, {"coins": 3}]),)
KASHGAR = (d("node", "KAS", kind="city", shield="bow"), d("route", "BEI-KAS", ends=["BEI", "KAS"], coins=3, camels=1))
XIAN = (d("node", "XIA", kind="city", shield="fish"), d("route", "KAS-XIA", ends=["KAS", "XIA"], jade=1))
G9 = d("goal", "G9", guilds={"farmer": 3}, shields=["bow", "fish"])
G8 = d("goal", "G8", guilds={"spicer": 3}, shields=["bow"])
OPTIONS = {"characters": "chosen"}


def round_line(r: int) -> str:
    offers = [d("offer", f"O{r}{b}", book=b, jade1={"coins": 2}, jade2={"gold": 1}) for b in (1, 2, 3)]
    up = [d("offer", f"O{r + 1}{b}", book=b, jade1={"camels": 2}, jade2={"silk": 2}) for b in (1, 2, 3)] if r < 5 else []
    cards = [d("city_card", f"A{r}{i}", kind="exchange", gain={"camels": 1}) for i in (1, 2)]
    comps = (offers if r == 1 else []) + up + cards + (list(BOOKS) if r == 1 else [])
    text = f"round {r} offers=O{r}1,O{r}2,O{r}3" + (f" upcoming=O{r + 1}1,O{r + 1}2,O{r + 1}3" if r < 5 else "")
    return text + f" area=A{r}1,A{r}2" + described(*comps)


def game_lines() -> list[str]:
    """Every line of the game; the last two reveal the goal cards (G9, then G8 ends the game)."""
    lines = [SETUP, "@0 keep ?", "@1 keep ?", round_line(1), "roll 1 3,3,3,3,3;3,3,3,3,3",
             "@0 travel 2 dice=3,3 path=KAS" + described(*KASHGAR), "@0 bag 3 coins", "@0 bag 3 coins", "@0 bag 3 coins",
             "@0 end", "@1 book 1 die=3 option=1", "@1 bag 3 coins", "@1 bag 3 coins", "@1 bag 3 coins",
             "@1 bag 3 coins", "@1 end"]
    for r in range(2, 6):
        lines += [round_line(r), f"roll {r} 3,3,3,3,3;3,3,3,3,3"]
        if r == 2:
            lines += ["@0 bag 3 jade", "@0 travel 2 dice=3,3 path=XIA take=R01" + described(*XIAN),
                      "refill XIA R03" + described(d("contract", "R03", cost={"camels": 9}, reward={"vp": 9}))]
            lines += ["@0 bag 3 coins"] * 2
        else:
            lines += ["@0 khan 3"] + ["@0 bag 3 coins"] * 4
        lines += ["@0 end", "@1 bag 3 coins", "@1 bag 3 coins", "@1 bag 3 coins", "@1 bag 3 coins",
                  "@1 khan 3" if r % 2 else "@1 bag 3 jade", "@1 end"]
    lines += ["reveal 0 G9" + described(G9), "reveal 1 G8" + described(G8)]
    return lines
