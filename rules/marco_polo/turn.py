"""The turn's action checks: whose turn it is, one main action, bonus actions and the end of the turn."""

from __future__ import annotations

from msgspec.structs import replace

from rules.marco_polo import codes, engine
from rules.marco_polo.events import (
    BazaarUsed, CityCardUsed, ContractsTaken, FiveCoinsTaken, KhansFavorTaken, Travelled, TurnEnded,
)
from rules.marco_polo.state import PLAY, MarcoPoloState
from events.messages import phrase
from rules.marco_polo_common.decide import check_seat
from rules.marco_polo.pending import _not_over, _phase_message, who


Q_ONE_MAIN = '"Haz una acción principal" (exactly one per turn, while dice remain)'
Q_NOT_MIDDLE = '"No puedes intercalarlas mientras resuelves la acción principal."'


def _turn_seat(state: MarcoPoloState, seat: object, what: str) -> int:
    """Checks for an action of the seat to move (main, bonus, end of turn); returns the seat."""
    _not_over(state)
    check_seat(state, seat, codes)
    if state.phase != PLAY or state.pending:
        code, msg = _phase_message(state)
        codes.illegal(code, "cannot {what}: {msg}", what=what, msg=msg)
    if seat is not None and seat != state.turn:
        codes.illegal(
            codes.NOT_YOUR_TURN,
            "it is {player}'s turn, not {player2}'s: \"Por orden, cada persona juega turnos\"", player=who(state, state.turn), player2=who(state, seat),
        )
    return state.turn


def _main(state: MarcoPoloState, seat: object, what: str) -> int:
    # unlike Marco Polo II (Donata Badoer's pieces), a seat whose turn it is always holds a die
    seat = _turn_seat(state, seat, what)
    if state.main_done:
        codes.illegal(
            codes.ONE_MAIN_ACTION,
            "{player} already took this turn's main action: {rule}", player=who(state, seat), rule=Q_ONE_MAIN,
        )
    return seat


# --- turns --------------------------------------------------------------------------------------


def _decide_five(state, e: FiveCoinsTaken):
    return replace(e, seat=_main(state, e.seat, phrase("what/take-5-coins", "take 5 coins")))


def _decide_bazaar(state, e: BazaarUsed):
    return replace(e, seat=_main(state, e.seat, phrase("what/use-bazaar", "use the bazaar")), dice=tuple(e.dice), choices=tuple(e.choices))


def _decide_khan(state, e: KhansFavorTaken):
    return replace(e, seat=_main(state, e.seat, phrase("what/take-khan", "take El favor de Khan")))


def _decide_take(state, e: ContractsTaken):
    seat = _main(state, e.seat, phrase("what/take-contracts", "take contracts"))
    cols = tuple(e.columns)
    if all(isinstance(c, int) for c in cols):
        cols = tuple(sorted(cols))
    return replace(e, seat=seat, columns=cols, choices=tuple(e.choices), discard=tuple(e.discard))


def _decide_travel(state, e: Travelled):
    return replace(e, seat=_main(state, e.seat, "travel"), dice=tuple(e.dice), path=tuple(e.path), path2=tuple(e.path2), choices=tuple(e.choices))


def _decide_card(state, e: CityCardUsed):
    return replace(e, seat=_main(state, e.seat, phrase("what/use-city-card", "use a city card")), choices=tuple(e.choices))


def _decide_bonus(what: str):
    def check(state, e):
        return replace(e, seat=_turn_seat(state, e.seat, what))

    return check


def _decide_end(state, e: TurnEnded):
    seat = _turn_seat(state, e.seat, phrase("what/end-turn", "end the turn"))
    p = state.seats[seat]
    if not state.main_done and engine.has_dice(p):
        codes.illegal(
            codes.MAIN_ACTION_REQUIRED,
            "{player} still has dice and has not taken a main action: {rule}", player=who(state, seat), rule=Q_ONE_MAIN,
        )
    return replace(e, seat=seat)
