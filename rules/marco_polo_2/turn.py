"""The turn's action checks: whose turn it is, one main action, bonus actions and the end of the turn."""

from __future__ import annotations

from msgspec.structs import replace

from rules.marco_polo_2 import codes, engine
from rules.marco_polo_2.engine import Work
from rules.marco_polo_2.events import (
    BookUsed, CityCardUsed, ContractCompleted, ContractsTaken, MoneyBagTaken, Travelled, TurnEnded,
)
from rules.marco_polo_2.state import PLAY, MP2State
from events.messages import phrase
from rules.marco_polo_common.decide import check_seat
from rules.marco_polo_2.pending import _not_over, _phase_message, who


Q_ONE_MAIN = '"少なくともダイスを１つ自分のボードから取り、アクションマスを１つ選択して置き実行します。"'
Q_MUST = '"手番プレイヤーは、ダイスがある限り、必ず本アクションを行わなければなりません。"'


def _turn_seat(state: MP2State, seat: object, what: str) -> int:
    _not_over(state)
    check_seat(state, seat, codes)
    if state.phase != PLAY or state.pending:
        codes.illegal(codes.PENDING_FIRST if state.pending else codes.NOT_EXPECTED, "cannot {what}: {phase_message}", what=what, phase_message=_phase_message(state))
    if seat is not None and seat != state.turn:
        codes.illegal(codes.NOT_YOUR_TURN, "it is {player}'s turn, not {player2}'s: {rule}", player=who(state, state.turn), player2=who(state, seat), rule="\"時計回りで次のプレイヤーの手番になります\"")
    return state.turn


def _main(state: MP2State, seat: object, what: str) -> int:
    seat = _turn_seat(state, seat, what)
    if state.main_done:
        codes.illegal(codes.ONE_MAIN_ACTION, "{player} already took this turn's main action: {rule}", player=who(state, seat), rule=Q_ONE_MAIN)
    # unlike Marco Polo: Donata Badoer's pieces alone do not make a main action
    if not engine.has_dice(state.seats[seat]):
        codes.illegal(codes.PIECE_RULE, "{player} holds no die: the turn ends ({rule})", player=who(state, seat), rule="\"もしすべてのダイスを使っていた場合ターン終了になる。(その時点でのコマアクションはできない)\"")
    return seat


# --- turns --------------------------------------------------------------------------------------


def _decide_main(what: str):
    def check(state, e):
        return replace(e, seat=_main(state, e.seat, what))

    return check


def _decide_bonus(what: str):
    def check(state, e):
        return replace(e, seat=_turn_seat(state, e.seat, what))

    return check


def _decide_end(state: MP2State, e: TurnEnded) -> TurnEnded:
    seat = _turn_seat(state, e.seat, phrase("what/end-turn", "end the turn"))
    if not state.main_done and engine.has_dice(state.seats[seat]):
        codes.illegal(codes.MAIN_ACTION_REQUIRED, "{player} still has dice: {rule}", player=who(state, seat), rule=Q_MUST)
    return replace(e, seat=seat)


def _m(fn):
    def run(w: Work, e) -> None:
        w.f["main_done"] = True  # engine.main_action
        fn(w, e)

    return run


def _travelled(w: Work, e: Travelled) -> None:
    w.f["main_done"] = True
    engine.travel(w, e.seat, e.row, e.dice, e.path, e.extra, e.take, e.discard, e.figure, e.path2)


def _book_used(w: Work, e: BookUsed) -> None:
    w.f["main_done"] = True
    engine.book_action(w, e.seat, e.book, e.die, e.option, e.caravans)


def _contracts_taken(w: Work, e: ContractsTaken) -> None:
    w.f["main_done"] = True
    engine.contracts_action(w, e.seat, e.die, e.contracts, e.discard)


def _city_card_used(w: Work, e: CityCardUsed) -> None:
    w.f["main_done"] = True
    engine.city_card(w, e.seat, e.city, e.die, e.times, e)


def _turn_ended(w: Work, e: TurnEnded) -> None:
    engine.end_turn(w, e.seat)


def _money_bag(w: Work, e: MoneyBagTaken) -> None:
    engine.money_bag(w, e.seat, e.die, e.take)


def _contract_completed(w: Work, e: ContractCompleted) -> None:
    engine.complete_contract(w, e.seat, e.contract)
