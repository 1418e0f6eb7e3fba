"""The pending decisions: what the table is waiting for, whose it is, and the chance it reports.

The checks every move runs first (the game not over, a known seat, the phase), and the resolution
of a pending die or a refilled contract space.
"""

from __future__ import annotations

from collections import Counter

from rules.marco_polo_common.decide import check_seat, decide_die_rolled, pending_words, seat_or
from rules.marco_polo_2 import codes, engine
from rules.marco_polo_2.engine import Work, component
from rules.marco_polo_2.events import ContractRevealed, DieRolled
from rules.marco_polo_2.state import (
    HAND, INCOME, KEEP, OVER, PICK, REFILL, REVEAL, ROLL, ROLL_DIE, ROUND, SETUP, SHOW, MP2State,
)
from events.messages import Phrase, phrase


PENDING_TEXT = {
    PICK: "{who} picks a character",
    KEEP: "{who} keeps 1 of 3 goal cards",
    INCOME: "{who}'s round-start choices: compensation split, doubled bonus, doubles",
    ROLL_DIE: "the value of the die just {arg} by {who}",
    REFILL: "the contract refilled in {arg}",
    SHOW: "{who}'s goal card, shown at the end",
}


# Unlike Marco Polo ("the display": a drawn contract), seat -1 is the table (a refill).
who = seat_or(phrase("who/table", "the table"))


def _die_words(arg: str) -> Phrase:
    return phrase("pending/taken-black", "taken (black)") if arg == "b" else phrase("pending/rerolled-black", "rerolled (black)") if arg == "rb" else phrase("pending/rerolled", "rerolled")


def describe_pending(state: MP2State) -> Phrase:
    return pending_words(state, "marco-polo-2", PENDING_TEXT, who, _die_words)


# The same rule as Marco Polo's ("La partida termina al acabar la quinta ronda"), each refusal quoting its own seed.
def _not_over(state: MP2State) -> None:
    if state.phase == OVER:
        codes.illegal(codes.GAME_OVER, "{rule}", rule="\"全５ラウンドでゲーム終了\"")


# Unlike Marco Polo, a phase that must come first is refused as pending-first or not-expected only.
def _phase_message(state: MP2State) -> str:
    if state.phase == SETUP:
        return phrase("msg/layout-first", "the table's layout comes first")
    if state.phase == ROUND:
        return phrase("msg/reveals-first", "round {round_plus}'s reveals come first", round_plus=state.round + 1)
    if state.phase == ROLL:
        return phrase("msg/dice-first-2", "round {round}'s dice must be rolled first: {rule}", round=state.round, rule="\"全てのプレイヤーは自分のダイスを振ります\"")
    if state.phase == REVEAL:
        return phrase("msg/rounds-over-2", "the five rounds are over; only goal cards remain to be shown")
    if state.pending:
        return phrase("msg/first", "first: {describe_pending}", describe_pending=describe_pending(state))
    return phrase("msg/not-expected", "not expected in phase {phase}", phase=state.phase)


def _pending_seat(state: MP2State, kind: str, seat: object, what: str) -> int:
    _not_over(state)
    check_seat(state, seat, codes)
    if not state.pending or state.pending[0][0] != kind:
        codes.illegal(codes.PENDING_FIRST if state.pending else codes.NOT_EXPECTED, "cannot {what}: {phase_message}", what=what, phase_message=_phase_message(state))
    owner = state.pending[0][1]
    # a refill is anyone's to report; in Marco Polo, an item of the contract display is
    if seat is not None and seat != owner and kind not in (REFILL,):
        codes.illegal(codes.NOT_YOUR_TURN, "{what}: this is {player}'s, not {player2}'s", what=what, player=who(state, owner), player2=who(state, seat))
    return owner


def _distinct(values, what: str) -> None:
    dup = [v for v, k in Counter(v for v in values if v is not None).items() if k > 1]
    if dup:
        codes.contradiction(codes.DUPLICATE_COMPONENT, "{what}: {map} appear(s) twice", what=what, map=', '.join(map(str, dup)))


def _decide_die_rolled(state: MP2State, e: DieRolled) -> DieRolled:
    return decide_die_rolled(state, e, _pending_seat, codes)


def _apply_die_rolled(w: Work, e: DieRolled) -> None:
    arg = w.s.pending[0][2]
    w.f["pending"] = w.s.pending[1:]
    engine.add_die(w, e.seat, arg[-1], e.value)
    if arg == "b" and w.p(e.seat).character == "isabella":  # a black die taken, not a reroll
        engine.isabella_roll(w, e.seat, e.value)  # "黒ダイス獲得時のロールで各ダイスの目につき"


def _decide_contract_revealed(state: MP2State, e: ContractRevealed) -> ContractRevealed:
    _pending_seat(state, REFILL, None, phrase("what/refill-contract", "refill a contract space"))
    city = state.pending[0][2]
    if e.city != city:
        codes.illegal(codes.NOT_EXPECTED, "the contract space to refill is in {city}, not {city2!r}", city=city, city2=e.city)
    if e.contract in state.seen or any(e.contract in p.contracts or e.contract in p.completed for p in state.seats):
        codes.contradiction(codes.CONTRACT_SEEN, "contract {contract} was already on the table", contract=e.contract)
    return e


def _apply_contract_revealed(w: Work, e: ContractRevealed) -> None:
    if w.strict and component(w, "contract", e.contract).get("starting"):
        codes.illegal(codes.CONTRACT_SEEN, "{contract} is a starting contract, not in the pile", contract=e.contract)
    w.f["pending"] = w.s.pending[1:]
    if e.city == HAND:  # drawn for a "contract_pile" reward icon: into the seat's hand
        d = w.p(w.s.pending[0][1])
        d.contracts = d.contracts + (e.contract,)
    else:
        w.f["city_contracts"] = w.s.city_contracts + ((e.city, e.contract),)
    w.f["seen"] = w.s.seen + (e.contract,)
