"""The one place where events take effect: ``Work``, a scratch copy of the state, and the
effect of every event, by game concept (this module only names them):

* ``work``: the scratch copy, resources gained and paid;
* ``components``: components from the pinned pack or from descriptions recorded in the log;
* ``dice``: taking, adding and placing dice, the fee for an occupied space, Isabella's rolls;
* ``travel``: figures and caravans moving, trading posts and their bonuses;
* ``actions``: the main actions but travel and contracts (Khan's favour, books, guilds, cities);
* ``contracts``: taking and completing contracts;
* ``bonus``: the other bonus actions (seals, money bag, dice, black die, trades, caravans);
* ``rounds``: turns, round start and end, income, characters' starts.

Each effect runs with ``strict=True`` for ``decide`` (every rule checked, the first violation
raises, the state is never touched) and ``strict=False`` for ``evolve`` (the event is trusted).

Components come from the pinned pack or, when it lacks them, from descriptions recorded in the log
(``component``). Payments of coins or camels fall back on jade for the shortfall ("翡翠をいつでも
ラクダかコインとして代用できます", ruling MP2-6).
"""

from __future__ import annotations

from rules.marco_polo_2.actions import (
    book_action,
    city_card,
    guild_action,
    khans_favor,
    main_action,
    special_city,
)
from rules.marco_polo_2.bonus import (
    adjust,
    buy_black,
    caravan_conquer,
    caravan_start,
    goods_traded,
    improve_seal,
    money_bag,
    outpost_tile,
    reroll,
)
from rules.marco_polo_2.components import _described_map, apply_descriptions, component
from rules.marco_polo_2.contracts import complete_contract, contract_reward_choices, contracts_action
from rules.marco_polo_2.dice import add_die, isabella_roll, own_slot
from rules.marco_polo_2.rounds import (
    after_roll,
    begin_round,
    character_start,
    end_turn,
    has_dice,
    income,
    round_sources,
)
from rules.marco_polo_2.travel import any_bonus_choices, travel
from rules.marco_polo_2.work import Work, can_pay

__all__ = [
    "Work",
    "_described_map",
    "add_die",
    "adjust",
    "after_roll",
    "any_bonus_choices",
    "apply_descriptions",
    "begin_round",
    "book_action",
    "buy_black",
    "can_pay",
    "caravan_conquer",
    "caravan_start",
    "character_start",
    "city_card",
    "complete_contract",
    "component",
    "contract_reward_choices",
    "contracts_action",
    "end_turn",
    "goods_traded",
    "guild_action",
    "has_dice",
    "improve_seal",
    "income",
    "isabella_roll",
    "khans_favor",
    "main_action",
    "money_bag",
    "outpost_tile",
    "own_slot",
    "reroll",
    "round_sources",
    "special_city",
    "travel",
]
