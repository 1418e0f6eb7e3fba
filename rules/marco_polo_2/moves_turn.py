"""A turn's legal moves: the main actions while they are due, then the bonus actions, caravans and the end of the turn."""

from __future__ import annotations

from itertools import combinations, product

from events.base import Event
from rules.marco_polo_2.engine import contract_reward_choices
from rules.marco_polo_2.events import (
    BlackDieBought, CaravanConquered, CaravanStarted, ContractCompleted, DieAdjusted, DieRerolled, GoodsTraded,
    MoneyBagTaken, OutpostTileUsed, SealImproved, TurnEnded,
)
from rules.marco_polo_2.state import BAG, MP2State, PlayerState
from rules.marco_polo_2.moves_main import _main_moves
from rules.marco_polo_2.moves_map import Map, Seat, dice_sets, map_of, marker_choices, value


def _turn_moves(state: MP2State) -> list[Event]:
    sx = Seat(state)
    seat, p, pack = sx.seat, sx.p, sx.pack
    out: list[Event] = []
    singles = dice_sets(p, 1)
    m = map_of(state)
    if not state.main_done and (p.dice or p.black):
        out += _main_moves(sx, m)
    # bonus actions
    vidal = p.character == "vidal"
    for k in p.contracts:
        spec = m.contract(k)
        if spec is not None and (vidal or sx.pays(spec["cost"])):
            reward = spec["reward"]
            lists = []
            if reward.get("contract"):
                cands = contract_reward_choices(state.city_contracts, p.posts)
                if cands:
                    lists.append(cands)
            if reward.get("black_die") and state.black_supply > 0 and state.options.black_dice_variant:
                lists.append(tuple(str(v) for v in sorted(set(state.black_pool))))
            for picks in (product(*lists) if lists else [()]):
                out.append(ContractCompleted(contract=k, choices=picks, seat=seat))
    for g in p.seals:
        spec = m.seal(g)
        if g not in p.improved and spec is not None:
            cost = dict(spec["improve"])
            if p.character == "tebaldo":
                cost.pop("coins", None)
            if sx.pays(cost):
                out.append(SealImproved(guild=g, seat=seat))
    bag_taken = BAG in sx.occupied
    for (t,) in singles:
        if t[0] == "p" and bag_taken:
            continue  # a piece goes only where no die is
        for bag in pack.money_bag:
            out.append(MoneyBagTaken(die=t, take=next(iter(bag)), seat=seat))
    camels = p.camels + p.jade
    for (t,) in singles:
        if t[0] == "p":
            continue
        if camels >= pack.bonus_costs["reroll"]:
            out.append(DieRerolled(die=t, seat=seat))
        if camels >= pack.bonus_costs["adjust"]:
            v = value(t)
            if v < 6:
                out.append(DieAdjusted(die=t, delta=1, seat=seat))
            if v > 1:
                out.append(DieAdjusted(die=t, delta=-1, seat=seat))
    if camels >= pack.bonus_costs["black"] and not state.bought_black and state.black_supply > 0:
        if state.options.black_dice_variant:
            out += [BlackDieBought(value=v, seat=seat) for v in sorted(set(state.black_pool))]
        else:
            out.append(BlackDieBought(seat=seat))
    if vidal and not state.traded and p.gold and p.silk and p.pepper:
        out.append(GoodsTraded(seat=seat))
    for tile in sorted(set(p.tiles)):
        spec = m._get("outpost", tile)
        cands = marker_choices(state, m) if spec is not None and spec.get("any_bonus") else ()
        if cands:
            out += [OutpostTileUsed(tile=tile, choices=(c,), seat=seat) for c in cands]
        elif spec is not None:
            out.append(OutpostTileUsed(tile=tile, seat=seat))
    if state.options.caravans:
        out += _caravan_moves(state, p, seat, m)
    if state.main_done or not (p.dice or p.black):
        out.append(TurnEnded(seat=seat))
    return out


def _caravan_moves(state: MP2State, p: PlayerState, seat: int, m: Map) -> list[Event]:
    out: list[Event] = []
    if any(not c[1] for c in p.caravans):
        goods = [g for g in ("pepper", "silk", "gold") if getattr(p, g)]
        loads = [(g,) for g in goods] + [(a, b) for a, b in combinations(goods, 2)]
        loads += [(g, g) for g in goods if getattr(p, g) >= 2]
        here = {m.nodes[f].get("shield") for f in p.figures if m.city(f)}
        for tile in state.tiles_up:
            spec = m.tile(tile)
            if spec is None:
                continue
            a, b = spec["shields"]
            others = ({b} if a in here else set()) | ({a} if b in here else set())
            for city, spec in m.nodes.items():
                if spec.get("kind") != "city" or spec.get("shield") not in others:
                    continue
                if p.character == "mailin" and city in p.figures:
                    continue
                out += [CaravanStarted(goods=load, tile=tile, city=city, seat=seat) for load in loads]
    for i, (tile, loc, goods) in enumerate(p.caravans):
        if loc and loc in p.figures:
            for rewards in product(("sell", "upgrade", "double"), repeat=len(goods)):
                if all(not (r == "upgrade" and g == "gold") for g, r in zip(goods, rewards)):
                    out.append(CaravanConquered(caravan=i, rewards=rewards, seat=seat))
    return out
