"""Contracts: taking them (a main action) and completing them (a bonus action)."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo import codes
from rules.marco_polo.content import CONTRACTS, PACK
from rules.marco_polo.dice import place_dice
from rules.marco_polo.state import CONTRACT_SPACE
from rules.marco_polo.travel import run_items
from rules.marco_polo.work import Work, pay_cost


Q_CONTRACTS = (
    '"coge uno o dos contratos de columnas cuyo número no supere su valor. Solo tienes dos espacios de '
    'contratos activos."'
)


Q_MAKE_ROOM = (
    '"Si necesitas hacer sitio entre tus dos contratos activos, devuelve uno bajo la pila especial; no '
    'cobras su recompensa."'
)


def take_contracts(w: Work, seat: int, die: str, columns: tuple[int, ...], discard: tuple[str, ...]) -> None:
    low = place_dice(w, seat, CONTRACT_SPACE, (die,), 1, True, "'Obtener contratos'")
    display = w.get("display")
    d = w.p(seat)
    if w.strict:
        if not 1 <= len(columns) <= 2 or len(set(columns)) != len(columns):
            codes.illegal(codes.TAKE_ONE_OR_TWO, "take one or two different contracts, not columns {columns}: {rule}", columns=list(columns), rule=Q_CONTRACTS)
        for c in columns:
            if not isinstance(c, int) or not 1 <= c <= len(display):
                codes.illegal(codes.CONTRACT_COLUMN, "column {c!r} holds no contract (the display has {n_display})", c=c, n_display=len(display))
            if c > low:
                codes.illegal(codes.CONTRACT_COLUMN, "column {c} is beyond the die's {low}: {rule}", c=c, low=low, rule=Q_CONTRACTS)
        need = max(0, len(d["contracts"]) + len(columns) - PACK["active_contracts"])
        if len(discard) != need:
            codes.illegal(
                codes.TWO_ACTIVE_CONTRACTS,
                "{player} holds {n_contracts} active contract(s) and takes {n_columns}: return exactly {need} old one(s) under the special pile, not {n_discard}. {rule}", player=w.who(seat), n_contracts=len(d['contracts']), n_columns=len(columns), need=need, n_discard=len(discard), rule=Q_MAKE_ROOM,
            )
        for k in discard:
            if k not in d["contracts"] or discard.count(k) > 1:
                codes.illegal(codes.CONTRACT_NOT_ACTIVE, "{k!r} is not one of {player}'s active contracts ({contracts})", k=k, player=w.who(seat), contracts=list(d['contracts']))
    taken = tuple(display[c - 1] for c in sorted(columns))
    for k in discard:
        i = d["contracts"].index(k)
        d["contracts"] = d["contracts"][:i] + d["contracts"][i + 1 :]
    w.f["special"] = w.get("special") + tuple(discard)
    d["contracts"] = d["contracts"] + taken
    w.f["display"] = tuple(k for i, k in enumerate(display, 1) if i not in columns)
    for c in sorted(columns):
        if c >= 5:
            run_items(w, seat, (("coin_or_camel", c - 4),), phrase("why/contract-column", "(the contract from column {c})", c=c))


def complete_contract(w: Work, seat: int, contract: str) -> None:
    d = w.p(seat)
    if w.strict and contract not in d["contracts"]:
        codes.illegal(
            codes.CONTRACT_NOT_ACTIVE,
            "{contract!r} is not one of {player}'s active contracts ({contracts}): \"completar un contrato pagando sus requisitos y cobrando su recompensa\"", contract=contract, player=w.who(seat), contracts=list(d['contracts']),
        )
    spec = CONTRACTS[contract]
    pay_cost(w, seat, spec["cost"], phrase("why/complete-contract", "to complete contract {contract}", contract=contract))
    i = d["contracts"].index(contract)
    d["contracts"] = d["contracts"][:i] + d["contracts"][i + 1 :]
    d["completed"] = d["completed"] + (contract,)
    w.src = "contracts"
    run_items(w, seat, spec["reward"], phrase("why/contract-reward", "(the reward of contract {contract})", contract=contract))
