"""The one place where events take effect: ``Work``, a scratch copy of the state, and the
effect of every event, by game concept (this module only names them):

* ``work``: the scratch copy, resources gained and paid;
* ``dice``: taking, adding and placing dice, the fee for an occupied space;
* ``travel``: figures moving, trading posts, and the reward lists they resolve;
* ``actions``: the main actions but travel and contracts (5 coins, bazaar, Khan's favour, city cards);
* ``contracts``: taking and completing contracts;
* ``bonus``: the other bonus actions (money bag, reroll, adjust, black die);
* ``rounds``: turns, round start and end, income, characters' starts.

Each effect runs with ``strict=True`` for ``decide`` (every rule checked while the event takes
effect on a scratch copy; the first violation raises ``IllegalMove``, the state is never touched)
and ``strict=False`` for ``evolve`` (the checks are skipped, the event is trusted).

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

from rules.marco_polo.actions import bazaar, city_card, five_coins, khans_favor, main_action
from rules.marco_polo.bonus import adjust, buy_black, money_bag, reroll
from rules.marco_polo.contracts import complete_contract, take_contracts
from rules.marco_polo.dice import add_die
from rules.marco_polo.rounds import (
    after_roll,
    after_setup,
    begin_round,
    character_start,
    end_turn,
    has_dice,
    income,
)
from rules.marco_polo.travel import travel
from rules.marco_polo.work import LARGE_INDEX, MAX_COMPENSATION, SMALL_INDEX, Work

__all__ = [
    "LARGE_INDEX",
    "MAX_COMPENSATION",
    "SMALL_INDEX",
    "Work",
    "add_die",
    "adjust",
    "after_roll",
    "after_setup",
    "bazaar",
    "begin_round",
    "buy_black",
    "character_start",
    "city_card",
    "complete_contract",
    "end_turn",
    "five_coins",
    "has_dice",
    "income",
    "khans_favor",
    "main_action",
    "money_bag",
    "reroll",
    "take_contracts",
    "travel",
]
