"""Two groups' partial Marco Polo II packs, written by recording real games through the service:
each group plays at its own table on the public pack, and its store grows ``ours-v1`` from what
the game described. Both describe the starting contracts and the Kashgar bonus marker alike;
group A also reached Kashgar (a city and a route) and laid city card Q1, group B laid city card
Q2 and read contract R02 otherwise (a clash: one id, two contents)."""

from __future__ import annotations

from typing import Any

from mp2play import OPTIONS, T1, T2, d, described, game_lines

R01 = d("contract", "R01", cost={"pepper": 1}, reward={"vp": 4})
R02_A = d("contract", "R02", cost={"gold": 1}, reward={"vp": 6})
R02_B = d("contract", "R02", cost={"gold": 1}, reward={"vp": 5})
M1 = d("city_bonus", "M1", gain={"coins": 2})
Q1 = d("city_card", "Q1", kind="exchange", gain={"coins": 2})
Q2 = d("city_card", "Q2", kind="exchange", pay={"camels": 1}, gain={"gold": 1})


def layout(card: str) -> str:
    return f"setup chars=dewu,mongke start=T1,T2 goals=?,?,?;?,?,? bonuses=KAS:M1 cards=XIA:{card} contracts=XIA:R01,XIA:R02"


#: group A's game: the table's setup, then up to the first travel (Kashgar described)
GROUP_A = game_lines()[:6]
#: group B's game: its setup alone, with its own city card and its reading of R02
GROUP_B = [layout("Q2") + described(T1, T2, R01, R02_B, M1, Q2)]
#: a second game of group B's table, with no description: what a pack holding B's components records
B_AGAIN = layout("Q2")
#: the same for a pack holding A's setup
A_AGAIN = layout("Q1")


NEW_GAME = {"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": OPTIONS}


def grow(new_game, record, lines: list[str]) -> Any:
    """Record one group's game (``new_game()`` creates one, ``record(game, line)`` records a line),
    then create a second game, so that the store grows its pack from the first; the second game."""
    game = new_game()
    for line in lines:
        record(game, line)
    return new_game()
