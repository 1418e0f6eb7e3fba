"""Contracts: taking them (the contracts action, a travel, a city card) and completing them
(a bonus action)."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo_2 import codes
from rules.marco_polo_2.components import component
from rules.marco_polo_2.content.schema import CONTRACT_ICONS
from rules.marco_polo_2.dice import add_die, isabella_roll, place_dice
from rules.marco_polo_2.state import CONTRACTS_SPACE, HAND, REFILL, ROLL_DIE
from rules.marco_polo_2.work import Work, gain, gain_bundle, pay


Q_HOLD = '"依頼タイルは２枚まで保持でき、過剰取得した場合いずれかを破棄します。"'


def pile_left(w: Work) -> int:
    """Contracts still in the pile (``seen`` holds the pile's contracts only), less the refills already promised."""
    return w.pack.contract_pile - len(w.get("seen")) - sum(1 for p in w.get("pending") if p[0] == REFILL)


def take_contracts(w: Work, seat: int, taken: tuple[str, ...], discard: tuple[str, ...], where: set[str], why: str) -> None:
    """Contracts taken from the spaces of cities in ``where``; ``discard`` keeps the seat at the limit."""
    if not taken and not discard and not w.strict:
        return
    d = w.pl.get(seat) or w.p(seat)
    here = list(w.get("city_contracts"))
    hold = w.pack.contracts_action["hold"]
    for k in taken:
        spot = next((i for i, (c, kk) in enumerate(here) if kk == k and c in where), None)
        if spot is None:
            if w.strict:
                codes.illegal(codes.CONTRACT_NOT_THERE, "contract {k!r} is not on a contract space of {where} {why}", k=k, where=sorted(where) or phrase("what/city-with-post", "a city with your post"), why=why)
            continue
        city = here.pop(spot)[0]
        d.contracts = d.contracts + (k,)
        if pile_left(w) > 0:  # "その後補充されます" (an empty pile refills nothing)
            w.push((REFILL, seat, city))
    w.f["city_contracts"] = tuple(here)
    if w.strict:
        if len(set(discard)) != len(discard) or any(k not in d.contracts for k in discard):
            codes.illegal(codes.CONTRACT_NOT_ACTIVE, "discard {discard}: only contracts {player} holds ({contracts})", discard=list(discard), player=w.who(seat), contracts=list(d.contracts))
        if len(d.contracts) - len(discard) > hold or (discard and len(d.contracts) - len(discard) < hold):
            codes.illegal(codes.CONTRACT_LIMIT, "{player} would hold {n_contracts_minus} contracts: {rule}", player=w.who(seat), n_contracts_minus=len(d.contracts) - len(discard), rule=Q_HOLD)
    d.contracts = tuple(k for k in d.contracts if k not in discard)


def contracts_action(w: Work, seat: int, die: str, taken, discard) -> None:
    place_dice(w, seat, CONTRACTS_SPACE, (die,), 1, "shared", "the contracts action")
    ca = w.pack.contracts_action
    gain(w, seat, "coins", ca["coins"])  # "まず４コインを獲得します。"
    d = w.pl.get(seat) or w.p(seat)
    limit = 1 if d.character == "vidal" else ca["take"]
    if w.strict and len(taken) > limit:
        codes.illegal(codes.CONTRACT_LIMIT, "take at most {limit} contract(s): {rule}{limit_is_1:? (Vidal Badoer: 1)|}", limit=limit, rule="\"自分の交易所が置かれている都市から最大２枚依頼タイルを獲得\"", limit_is_1=limit == 1)
    take_contracts(w, seat, tuple(taken), tuple(discard), set(d.posts), "(cities with your trading post)")


def complete_contract(w: Work, seat: int, contract: str) -> None:
    d = w.pl.get(seat) or w.p(seat)
    if w.strict and contract not in d.contracts:
        codes.illegal(codes.CONTRACT_NOT_ACTIVE, "{contract!r} is not one of {player}'s contracts ({contracts})", contract=contract, player=w.who(seat), contracts=list(d.contracts))
    spec = component(w, "contract", contract)
    vidal = d.character == "vidal"
    if not vidal:  # Vidal: "ラクダ及び資源の支払いが必要なくなるが、達成報酬の勝利点が獲得できなくなる"
        pay(w, seat, spec["cost"], phrase("why/complete-contract", "to complete contract {contract}", contract=contract))
    d.contracts = tuple(k for k in d.contracts if k != contract)
    d.completed = d.completed + (contract,)
    reward = spec["reward"]
    gain_bundle(w, seat, {k: v for k, v in reward.items() if not (vidal and k == "vp") and k not in CONTRACT_ICONS})
    if d.character == "abha":
        gain(w, seat, "jade", 1)  # "依頼達成時１翡翠獲得する"
    if reward.get("contract"):  # one from any contract city with the seat's post (reference B9)
        cands = contract_reward_choices(w.get("city_contracts"), d.posts)
        if cands:
            k = w.token(phrase("what/contract-taken", "the contract taken (reward icon)"), cands)
            take_contracts(w, seat, (k,), (), set(d.posts), "(a contract reward)")
    if reward.get("contract_pile") and pile_left(w) > 0:  # the top of the pile, into the hand
        w.push((REFILL, seat, HAND))
    if reward.get("black_die") and w.get("black_supply") > 0:  # reference B15: "more may come from contracts"
        w.f["black_supply"] = w.get("black_supply") - 1
        if w.s.options.black_dice_variant:
            pool = w.get("black_pool")
            v = int(w.token(phrase("what/black-die-taken", "the black die taken (reward icon)"), tuple(str(x) for x in sorted(set(pool)))) or pool[0])
            rest = list(pool)
            rest.remove(v)
            w.f["black_pool"] = tuple(rest)
            add_die(w, seat, "b", v)
            if d.character == "isabella":
                isabella_roll(w, seat, v)
        else:
            w.push((ROLL_DIE, seat, "b"), front=True)


def contract_reward_choices(city_contracts, posts) -> tuple[str, ...]:
    """The contracts a "contract" reward icon may take: on the spaces of cities with the seat's post."""
    out: list[str] = []
    for c, k in city_contracts:
        if c in posts and k not in out:
            out.append(k)
    return tuple(out)
