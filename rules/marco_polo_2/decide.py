"""Validating moves into completed events, and the one transition ``decide`` and ``evolve`` share.

``decide(state, move)`` completes the move (the seat filled in), checks the phase and whose decision
it is, then runs the transition strictly on a scratch copy (``engine``): the first broken rule
raises, naming it. It returns exactly one event; a stored event passed back returns itself.
"""

from __future__ import annotations

from msgspec.structs import replace

from events.base import Event
from rules.marco_polo_common.decide import checked
from rules.marco_polo_2 import codes, engine
from rules.marco_polo_2.engine import Work
from rules.marco_polo_2.events import (
    BlackDieBought, BookUsed, CaravanConquered, CaravanStarted, CharacterPicked, CityCardUsed, ContractCompleted,
    ContractRevealed, ContractsTaken, DiceRolled, DieAdjusted, DieRerolled, DieRolled, GoalKept, GoalRevealed,
    GoodsTraded, GuildTaken, IncomeTaken, KhansFavorTaken, MoneyBagTaken, OutpostTileUsed, RoundRevealed,
    SealImproved, SetupDealt, SpecialCityUsed, Travelled, TurnEnded,
)
from rules.marco_polo_2.state import MP2State
from events.messages import phrase
from rules.marco_polo_2.pending import (  # noqa: F401 - describe_pending, who: imported from here
    _apply_contract_revealed, _apply_die_rolled, _decide_contract_revealed, _decide_die_rolled, describe_pending, who,
)
from rules.marco_polo_2.start import (  # noqa: F401 - characters_available: imported from here
    _apply_goal_revealed, _apply_income, _apply_keep, _apply_pick, _apply_rolled, _apply_round, _apply_setup,
    _decide_goal_revealed, _decide_income, _decide_keep, _decide_pick, _decide_rolled, _decide_round, _decide_setup,
    characters_available,
)
from rules.marco_polo_2.turn import (
    _book_used, _city_card_used, _contract_completed, _contracts_taken, _decide_bonus, _decide_end, _decide_main, _m,
    _money_bag, _travelled, _turn_ended,
)


APPLY = {
    SetupDealt: _apply_setup,
    CharacterPicked: _apply_pick,
    GoalKept: _apply_keep,
    GoalRevealed: _apply_goal_revealed,
    RoundRevealed: _apply_round,
    DiceRolled: _apply_rolled,
    IncomeTaken: _apply_income,
    DieRolled: _apply_die_rolled,
    ContractRevealed: _apply_contract_revealed,
    Travelled: _travelled,
    BookUsed: _book_used,
    KhansFavorTaken: _m(lambda w, e: engine.khans_favor(w, e.seat, e.die)),
    ContractsTaken: _contracts_taken,
    GuildTaken: _m(lambda w, e: engine.guild_action(w, e.seat, e.dice, e.guild)),
    SpecialCityUsed: _m(lambda w, e: engine.special_city(w, e.seat, e.city, e.die)),
    CityCardUsed: _city_card_used,
    ContractCompleted: _contract_completed,
    SealImproved: lambda w, e: engine.improve_seal(w, e.seat, e.guild),
    MoneyBagTaken: _money_bag,
    DieRerolled: lambda w, e: engine.reroll(w, e.seat, e.die),
    DieAdjusted: lambda w, e: engine.adjust(w, e.seat, e.die, e.delta),
    BlackDieBought: lambda w, e: engine.buy_black(w, e.seat, e.value),
    GoodsTraded: lambda w, e: engine.goods_traded(w, e.seat),
    OutpostTileUsed: lambda w, e: engine.outpost_tile(w, e.seat, e.tile),
    CaravanStarted: lambda w, e: engine.caravan_start(w, e.seat, e.goods, e.tile, e.city),
    CaravanConquered: lambda w, e: engine.caravan_conquer(w, e.seat, e.caravan, e.rewards, e.tile),
    TurnEnded: _turn_ended,
}

DECIDE = {
    SetupDealt: _decide_setup,
    CharacterPicked: _decide_pick,
    GoalKept: _decide_keep,
    GoalRevealed: _decide_goal_revealed,
    RoundRevealed: _decide_round,
    DiceRolled: _decide_rolled,
    IncomeTaken: _decide_income,
    DieRolled: _decide_die_rolled,
    ContractRevealed: _decide_contract_revealed,
    Travelled: _decide_main("travel"),
    BookUsed: _decide_main(phrase("what/use-book", "use a book")),
    KhansFavorTaken: _decide_main(phrase("what/take-khan-2", "take the Khan's favor")),
    ContractsTaken: _decide_main(phrase("what/take-contracts", "take contracts")),
    GuildTaken: _decide_main(phrase("what/take-seal", "take a guild seal")),
    SpecialCityUsed: _decide_main(phrase("what/use-special-city", "use a special city")),
    CityCardUsed: _decide_main(phrase("what/use-city-card", "use a city card")),
    ContractCompleted: _decide_bonus(phrase("what/complete-contract", "complete a contract")),
    SealImproved: _decide_bonus(phrase("what/improve-seal", "improve a seal")),
    MoneyBagTaken: _decide_bonus(phrase("what/money-bag", "use the money bag")),
    DieRerolled: _decide_bonus(phrase("what/reroll", "reroll a die")),
    DieAdjusted: _decide_bonus(phrase("what/turn-die", "turn a die")),
    BlackDieBought: _decide_bonus(phrase("what/buy-black", "buy a black die")),
    GoodsTraded: _decide_bonus(phrase("what/trade-goods", "trade goods")),
    OutpostTileUsed: _decide_bonus(phrase("what/cash-outpost", "cash an outpost tile")),
    CaravanStarted: _decide_bonus(phrase("what/start-caravan", "start a caravan")),
    CaravanConquered: _decide_bonus(phrase("what/conquer-route", "conquer a route")),
    TurnEnded: _decide_end,
}


HAS_CHOICES = frozenset(t for t in APPLY if "choices" in t.__struct_fields__)


def _run(w: Work, event: Event) -> None:
    engine.apply_descriptions(w, event.describe)
    APPLY[type(event)](w, event)
    w.done_tokens()


def transition(state: MP2State, event: Event, strict: bool) -> MP2State:
    w = Work(state, strict, getattr(event, "choices", ()))
    _run(w, event)
    return w.finish()


def check(state: MP2State, event: Event) -> None:
    """The strict transition without building the new state: raises on the first broken rule."""
    _run(Work(state, True, getattr(event, "choices", ())), event)


def decide(state: MP2State, move: Event) -> tuple[Event, ...]:
    handler = DECIDE.get(type(move))
    if handler is None:
        codes.illegal(codes.UNKNOWN_EVENT, "{move} is not a Marco Polo II move; expected one of {moves}", move=type(move).__name__, moves=", ".join(t.__name__ for t in DECIDE))
    event = handler(state, move)
    return checked(state, move, event, check, codes)


def evolve(state: MP2State, event: Event) -> MP2State:
    """Fold one validated event; events of other titles (lifecycle) leave the state as it is."""
    fn = APPLY.get(type(event))
    if fn is None:
        return state
    if fn is _turn_ended and not event.describe:  # a third of all events: the next seat, no scratch copy
        n = state.n
        seats = state.seats
        for k in range(1, n + 1):
            nxt = (event.seat + k) % n
            p = seats[nxt]
            if p.dice or p.black:
                return replace(state, main_done=False, bought_black=False, traded=False, turn_posts=(), turn=nxt,
                               resting=())
    w = Work(state, False, event.choices if type(event) in HAS_CHOICES else ())
    if event.describe:
        engine.apply_descriptions(w, event.describe)
    fn(w, event)
    return w.finish()
