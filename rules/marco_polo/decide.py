"""Validating moves into completed events, and the one transition both ``decide`` and ``evolve`` use.

``decide(state, move)`` completes the move (the seat filled in, a known drawn contract named,
columns in ascending order), checks the phase and whose decision it is, then runs the transition
strictly on a scratch copy (``engine``): the first broken rule raises ``IllegalMove`` naming it.
It returns exactly one event, and a stored event passed back returns itself while still legal.
``transition(state, event, strict=False)`` is the fold.
"""

from __future__ import annotations

from events.base import Event
from rules.marco_polo_common.decide import checked
from rules.marco_polo import codes, engine
from rules.marco_polo.engine import Work
from rules.marco_polo.events import (
    BazaarUsed, BlackDieBought, CharacterPicked, CityCardUsed, ContractCompleted, ContractDiscarded,
    ContractDrawn, ContractsDealt, ContractsTaken, DiceRolled, DieAdjusted, DieRerolled, DieRolled,
    FiveCoinsTaken, IncomeTaken, KhansFavorTaken, MoneyBagTaken, ObjectivesKept, ObjectivesRevealed,
    SetupDealt, Travelled, TurnEnded,
)
from rules.marco_polo.state import MarcoPoloState
from events.messages import phrase
from rules.marco_polo.pending import (  # noqa: F401 - describe_pending, seen/unseen_contracts, who: imported from here
    _apply_die_rolled, _apply_discarded, _apply_drawn, _decide_die_rolled, _decide_discarded, _decide_drawn,
    describe_pending, seen_contracts, unseen_contracts, who,
)
from rules.marco_polo.start import (
    _apply_contracts_dealt, _apply_income, _apply_keep, _apply_pick, _apply_reveal, _apply_rolled, _apply_setup,
    _decide_contracts_dealt, _decide_income, _decide_keep, _decide_pick, _decide_reveal, _decide_rolled, _decide_setup,
)
from rules.marco_polo.turn import (
    _decide_bazaar, _decide_bonus, _decide_card, _decide_end, _decide_five, _decide_khan,
    _decide_take, _decide_travel,
)


def _run(fn):
    def apply(w: Work, e) -> None:
        fn(w, e)
        w.done_tokens()

    return apply


APPLY = {
    SetupDealt: _apply_setup,
    CharacterPicked: _apply_pick,
    ObjectivesKept: _apply_keep,
    ObjectivesRevealed: _apply_reveal,
    ContractsDealt: _apply_contracts_dealt,
    DiceRolled: _apply_rolled,
    IncomeTaken: _run(_apply_income),
    DieRolled: _apply_die_rolled,
    ContractDrawn: _apply_drawn,
    ContractDiscarded: _apply_discarded,
    FiveCoinsTaken: lambda w, e: (engine.main_action(w, e.seat), engine.five_coins(w, e.seat, e.die)),
    BazaarUsed: _run(lambda w, e: (engine.main_action(w, e.seat), engine.bazaar(w, e.seat, e.row, e.dice, e.column))),
    KhansFavorTaken: lambda w, e: (engine.main_action(w, e.seat), engine.khans_favor(w, e.seat, e.die, e.good)),
    ContractsTaken: _run(
        lambda w, e: (engine.main_action(w, e.seat), engine.take_contracts(w, e.seat, e.die, e.columns, e.discard))
    ),
    Travelled: _run(lambda w, e: (engine.main_action(w, e.seat), engine.travel(w, e.seat, e.dice, e.path, e.path2))),
    CityCardUsed: _run(
        lambda w, e: (engine.main_action(w, e.seat), engine.city_card(w, e.seat, e.space, e.die, e.times))
    ),
    ContractCompleted: _run(lambda w, e: engine.complete_contract(w, e.seat, e.contract)),
    MoneyBagTaken: lambda w, e: engine.money_bag(w, e.seat, e.die),
    DieRerolled: lambda w, e: engine.reroll(w, e.seat, e.die),
    DieAdjusted: lambda w, e: engine.adjust(w, e.seat, e.die, e.delta),
    BlackDieBought: lambda w, e: engine.buy_black(w, e.seat),
    TurnEnded: lambda w, e: engine.end_turn(w, e.seat),
}

DECIDE = {
    SetupDealt: _decide_setup,
    CharacterPicked: _decide_pick,
    ObjectivesKept: _decide_keep,
    ObjectivesRevealed: _decide_reveal,
    ContractsDealt: _decide_contracts_dealt,
    DiceRolled: _decide_rolled,
    IncomeTaken: _decide_income,
    DieRolled: _decide_die_rolled,
    ContractDrawn: _decide_drawn,
    ContractDiscarded: _decide_discarded,
    FiveCoinsTaken: _decide_five,
    BazaarUsed: _decide_bazaar,
    KhansFavorTaken: _decide_khan,
    ContractsTaken: _decide_take,
    Travelled: _decide_travel,
    CityCardUsed: _decide_card,
    ContractCompleted: _decide_bonus(phrase("what/complete-contract", "complete a contract")),
    MoneyBagTaken: _decide_bonus(phrase("what/take-3-coins", "take 3 coins")),
    DieRerolled: _decide_bonus(phrase("what/reroll", "reroll a die")),
    DieAdjusted: _decide_bonus(phrase("what/turn-die", "turn a die")),
    BlackDieBought: _decide_bonus(phrase("what/buy-black", "buy a black die")),
    TurnEnded: _decide_end,
}


def transition(state: MarcoPoloState, event: Event, strict: bool) -> MarcoPoloState:
    w = Work(state, strict, getattr(event, "choices", ()))
    APPLY[type(event)](w, event)
    return w.finish()


def check(state: MarcoPoloState, event: Event) -> None:
    """The strict transition without building the new state: raises on the first broken rule."""
    APPLY[type(event)](Work(state, True, getattr(event, "choices", ())), event)


def decide(state: MarcoPoloState, move: Event) -> tuple[Event, ...]:
    handler = DECIDE.get(type(move))
    if handler is None:
        codes.illegal(
            codes.UNKNOWN_EVENT,
            "{move} is not a Marco Polo move; expected one of {moves}", move=type(move).__name__, moves=", ".join(t.__name__ for t in DECIDE),
        )
    event = handler(state, move)
    if hasattr(event, "choices"):
        for t in event.choices:
            if not isinstance(t, str):
                codes.illegal(codes.BAD_CHOICE, "choices are words (goods, coins/camels, places, bonus ids), not {t!r}", t=t)
    return checked(state, move, event, check, codes)


def evolve(state: MarcoPoloState, event: Event) -> MarcoPoloState:
    """Fold one validated event; events of other titles (lifecycle) leave the state as it is."""
    fn = APPLY.get(type(event))
    if fn is None:
        return state
    w = Work(state, False, getattr(event, "choices", ()))
    fn(w, event)
    return w.finish()
