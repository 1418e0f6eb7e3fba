"""The pending decisions: what the table is waiting for, whose it is, and the chance it reports.

The checks every move runs first (the game not over, a known seat, the phase), the known contracts,
and the resolution of a pending die, drawn contract or returned contract.
"""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from rules.marco_polo import codes, engine
from rules.marco_polo_common.decide import check_seat, decide_die_rolled, pending_words, seat_or
from rules.marco_polo.content import NORMAL_CONTRACTS, STARTING_CONTRACTS
from rules.marco_polo.engine import Work
from rules.marco_polo.events import ContractDiscarded, ContractDrawn, DieRolled
from rules.marco_polo.state import (
    CONTRACTS, DISCARD, DRAW, INCOME, KEEP_ITEM, OVER, PICK, REVEAL, ROLL, ROLL_DIE, SETUP, SHOW, MarcoPoloState,
)
from events.messages import Phrase, phrase


Q_FIVE_ROUNDS = '"La partida termina al acabar la quinta ronda"'
PENDING_TEXT = {
    ROLL_DIE: "the table reports the value of the die just {arg} ({who})",
    DRAW: "the table reports the contract {who} draws from the special pile",
    DISCARD: "{who} holds three contracts and must return one under the special pile",
    INCOME: "{who} takes the round-start income (compensation split and bonus choices)",
    PICK: "{who} picks a character",
    KEEP_ITEM: "{who} keeps 2 of 4 objective cards",
    SHOW: "{who} shows their objective cards (the end)",
}


# Unlike Marco Polo II ("the table": a refill), seat -1 is the contract display (a drawn contract).
who = seat_or(phrase("who/display", "the display"))


def _die_words(arg: str) -> Phrase | str:
    return {"b": phrase("pending/taken-black", "taken (black)"), "c": phrase("pending/rerolled", "rerolled"), "w": phrase("pending/rerolled-white", "rerolled (white)")}.get(arg, arg)


def describe_pending(state: MarcoPoloState) -> Phrase:
    return pending_words(state, "marco-polo", PENDING_TEXT, who, _die_words)


# The same rule as Marco Polo II's ("全５ラウンドでゲーム終了"), each refusal quoting its own seed.
def _not_over(state: MarcoPoloState) -> None:
    if state.phase == OVER:
        codes.illegal(codes.GAME_OVER, "the game is over: {rule}", rule=Q_FIVE_ROUNDS)


# Unlike Marco Polo II, each phase that must come first has its own code (awaiting-setup, -contracts, -roll).
def _phase_message(state: MarcoPoloState) -> tuple[str, str]:
    if state.phase == SETUP:
        return codes.AWAITING_SETUP, phrase("msg/layout-first", "the table's layout comes first")
    if state.phase == CONTRACTS:
        return codes.AWAITING_CONTRACTS, phrase("msg/contracts-first", "round {round}'s six contracts must be revealed first", round=state.round)
    if state.phase == ROLL:
        return codes.AWAITING_ROLL, phrase("msg/dice-first", "round {round}'s dice must be rolled first: \"Al empezar cada ronda, tirad vuestros dados.\"", round=state.round)
    if state.phase == REVEAL:
        return codes.NOT_EXPECTED, phrase("msg/rounds-over", "the five rounds are over; only the objective cards remain to be shown")
    if state.pending:
        return codes.PENDING_FIRST, phrase("msg/first", "first: {describe_pending}", describe_pending=describe_pending(state))
    return codes.NOT_EXPECTED, phrase("msg/not-expected", "not expected in phase {phase}", phase=state.phase)


def _pending_seat(state: MarcoPoloState, kind: str, seat: object, what: str) -> int:
    """Checks for the resolution of the first pending item of ``kind``; returns its seat."""
    _not_over(state)
    check_seat(state, seat, codes)
    if not state.pending or state.pending[0][0] != kind:
        code, msg = _phase_message(state)
        if code == codes.NOT_EXPECTED and not state.pending:
            msg = phrase("msg/nothing-pending", "nothing of the kind is pending")
        codes.illegal(code, "cannot {what}: {msg}", what=what, msg=msg)
    owner = state.pending[0][1]
    # an item of the display (owner -1) is anyone's; in Marco Polo II, a refill is
    if seat is not None and owner >= 0 and seat != owner:
        codes.illegal(codes.NOT_YOUR_TURN, "{what}: this is {player}'s, not {player2}'s", what=what, player=who(state, owner), player2=who(state, seat))
    return owner


def _ids(values, universe, what: str) -> None:
    for v in values:
        if v not in universe:
            codes.illegal(codes.UNKNOWN_ID, "{v!r} is not {what}", v=v, what=what)


def _distinct(values, what: str) -> None:
    known = [v for v in values if v is not None]
    dup = [v for v, k in Counter(known).items() if k > 1]
    if dup:
        codes.contradiction(codes.DUPLICATE_COMPONENT, "{what}: {dup} appear(s) twice; each component is in one place", what=what, dup=', '.join(dup))


# --- known contracts ----------------------------------------------------------------------------


def seen_contracts(state: MarcoPoloState) -> set[str]:
    seen = set(state.display)
    seen.update(k for k in state.special if k is not None)
    for p in state.seats:
        seen.update(p.contracts)
        seen.update(p.completed)
    return seen


def unseen_contracts(state: MarcoPoloState) -> list[str]:
    seen = seen_contracts(state)
    return [k for k in NORMAL_CONTRACTS if k not in seen]


def _require_unseen(state: MarcoPoloState, contract: object, what: str) -> str:
    if not isinstance(contract, str) or contract not in NORMAL_CONTRACTS:
        if isinstance(contract, str) and contract in STARTING_CONTRACTS:
            codes.contradiction(codes.CONTRACT_SEEN, "{what}: {contract} is a starting contract, not in the piles", what=what, contract=contract)
        codes.illegal(codes.UNKNOWN_ID, "{what}: {contract!r} is not a contract id (K01..K38)", what=what, contract=contract)
    if contract in seen_contracts(state):
        codes.contradiction(codes.CONTRACT_SEEN, "{what}: {contract} is already elsewhere on the table", what=what, contract=contract)
    return contract


# --- pending chance -----------------------------------------------------------------------------


def _decide_die_rolled(state: MarcoPoloState, e: DieRolled) -> DieRolled:
    return decide_die_rolled(state, e, _pending_seat, codes)


def _apply_die_rolled(w: Work, e: DieRolled) -> None:
    kind = w.s.pending[0][2]
    w.f["pending"] = w.s.pending[1:]
    engine.add_die(w, e.seat, kind, e.value)


def _decide_drawn(state: MarcoPoloState, e: ContractDrawn) -> ContractDrawn:
    seat = _pending_seat(state, DRAW, e.seat, phrase("what/draw-contract", "draw a contract"))
    if not state.special:
        codes.illegal(codes.NOT_EXPECTED, "the special pile is empty")  # pragma: no cover - never pending then
    top = state.special[0]
    contract = e.contract
    if top is not None:
        if contract is not None and contract != top:
            codes.contradiction(codes.CONTRACT_MISMATCH, "the special pile's top contract is {top}, not {contract}", top=top, contract=contract)
        contract = top
    else:
        if contract is None:
            codes.illegal(codes.CONTRACT_MUST_BE_NAMED, "name the contract drawn from the special pile (it is laid face up)")
        _require_unseen(state, contract, phrase("what/contract-drawn", "contract drawn"))
    return ContractDrawn(contract=contract, seat=None if seat < 0 else seat)


def _apply_drawn(w: Work, e: ContractDrawn) -> None:
    w.f["special"] = w.s.special[1:]
    rest = w.s.pending[1:]
    w.f["pending"] = rest
    if e.seat is None:
        w.f["display"] = w.s.display + (e.contract,)
        return
    d = w.p(e.seat)
    d["contracts"] = d["contracts"] + (e.contract,)
    if len(d["contracts"]) > 2:
        w.f["pending"] = ((DISCARD, e.seat, ""),) + rest


def _decide_discarded(state: MarcoPoloState, e: ContractDiscarded) -> ContractDiscarded:
    seat = _pending_seat(state, DISCARD, e.seat, phrase("what/return-contract", "return a contract"))
    if e.contract not in state.seats[seat].contracts:
        codes.illegal(codes.CONTRACT_NOT_ACTIVE, "{contract!r} is not one of {player}'s contracts", contract=e.contract, player=who(state, seat))
    return replace(e, seat=seat)


def _apply_discarded(w: Work, e: ContractDiscarded) -> None:
    w.f["pending"] = w.s.pending[1:]
    d = w.p(e.seat)
    i = d["contracts"].index(e.contract)
    d["contracts"] = d["contracts"][:i] + d["contracts"][i + 1 :]
    w.f["special"] = w.s.special + (e.contract,)
