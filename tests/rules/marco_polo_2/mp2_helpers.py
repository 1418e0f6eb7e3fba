"""Helpers for the Marco Polo II tests: tables laid out with the INVENTED synthetic pack, positions
built by hand, refusals, random legal games."""

from __future__ import annotations

import random

import msgspec
import pytest
from catalogued import catalogued
import seed_docs

import rules  # noqa: F401  (registers the event types with the codec)
from events import codec
from events.errors import IllegalMove
from rules.marco_polo_2 import MarcoPolo2, MP2State
from rules.marco_polo_2.content import PUBLIC, SYNTHETIC
from rules.marco_polo_2.events import (
    CaravanConquered, CaravanStarted, GuildTaken, SpecialCityUsed,
    CityCardUsed, ContractCompleted, ContractsTaken, DiceRolled, DieAdjusted, DieRerolled, GoalKept, RoundRevealed,
    SealImproved, SetupDealt, Travelled, TurnEnded,
)

T = MarcoPolo2()
SEED = "marco-polo-2.ja.txt"
NAMES = ("Ana", "Bea", "Cai", "Dov")
SYN = {"content": SYNTHETIC.ref}
PUB = {"content": PUBLIC.ref}
LAYOUT = dict(
    bonuses=(("C1", "CB1"), ("C5", "CB2"), ("BAG", "CB3"), ("BAL", "CB4"), ("HOR", "CB5")),
    outposts=(("C2", "OT1"), ("C3", "OT2"), ("C4", "OT3"), ("C6", "OT4")),
    cards=(("C1", "CC01"), ("C3", "CC02"), ("C4", "CC03")),
    contracts=(("C2", "K01"), ("C2", "K02"), ("C5", "K03"), ("C5", "K04"), ("C6", "K05"), ("C6", "K06")),
)
GOALS = (("G01", "G02", "G03"), ("G04", "G05", "G06"), ("G07", "G08", "G09"), ("G10", "G11", "G12"))
ROUND_OFFERS = {1: ("B1a", "B2a", "B3a"), 2: ("B1b", "B2b", "B3b"), 3: ("B1c", "B2c", "B3c"), 4: ("B1d", "B2d", "B3d"), 5: ("B1e", "B2e", "B3e")}
ROUND_AREA = {1: ("CC04", "CC05"), 2: ("CC06", "CC07"), 3: ("CC08", "CC09"), 4: ("CC10", "CC11"), 5: ("CC12", "CC13")}


def apply(state: MP2State, move) -> MP2State:
    events = T.decide(state, move)
    assert len(events) == 1
    for event in events:
        assert T.decide(state, event) == (event,), "a completed event decides to itself"
        state = T.evolve(state, event)
    return state


def do(state: MP2State, *texts: str) -> MP2State:
    for text in texts:
        move = T.parse_move(state, text)
        assert T.parse_move(state, T.format_move(move)) == move
        state = apply(state, move)
    return state


def laid_out(chars=("abha", "dewu"), options=None, tiles=(), start=("S1", "S2", "S3", "S4")) -> MP2State:
    """Characters chosen by seat, goals kept (the first dealt), before round 1's reveals."""
    n = len(chars)
    state = T.setup(NAMES[:n], {**SYN, "characters": "chosen", **(options or {})})
    state = apply(state, SetupDealt(characters=tuple(chars), starting_contracts=start[:n], goals=GOALS[:n], route_tiles=tiles, **LAYOUT))
    for seat in range(n):
        state = apply(state, GoalKept(goal=GOALS[seat][0], seat=seat))
    return state


def revealed(state: MP2State) -> MP2State:
    r = state.round + 1
    up = ROUND_OFFERS.get(r + 1, ()) if r < 5 else ()
    return apply(state, RoundRevealed(round=r, offers=ROUND_OFFERS[r], upcoming=up, area_cards=ROUND_AREA[r]))


def rolled(state: MP2State, *dice, black=()) -> MP2State:
    """Reveal the round (if due) and roll: ``dice`` per seat (5 values)."""
    if state.phase == "round":
        state = revealed(state)
    return apply(state, DiceRolled(round=state.round, dice=tuple(tuple(d) for d in dice), black=tuple(black)))


def plain(chars=("abha", "dewu"), dice=None, options=None, **kw) -> MP2State:
    """Round 1 in play (all dice 3: total 15, no compensation)."""
    state = laid_out(chars, options, **kw)
    return rolled(state, *(dice or [(3, 3, 3, 3, 3)] * len(chars)))


def seat(state: MP2State, s: int, **fields) -> MP2State:
    """A position built by hand: seat ``s``'s fields replaced."""
    p = msgspec.structs.replace(state.seats[s], **fields)
    return msgspec.structs.replace(state, seats=state.seats[:s] + (p,) + state.seats[s + 1 :])


def refused(state: MP2State, move, code: str, exc_type=IllegalMove):
    """The move (an event or notation) is refused with ``code``; the state is unchanged."""
    before = msgspec.msgpack.encode(state)
    if isinstance(move, str):
        move = T.parse_move(state, move)
    with pytest.raises(exc_type) as info:
        T.decide(state, move)
    assert info.value.code == code, (info.value.code, info.value.message)
    catalogued(info.value)
    assert info.value.message
    assert msgspec.msgpack.encode(state) == before
    return info.value


def seed_text() -> str:
    return seed_docs.seed_text(SEED)


def policy(moves: list, rng: random.Random):
    """A table-like player: completes contracts, improves seals, travels, uses cards often."""
    by = lambda cls: [m for m in moves if isinstance(m, cls)]  # noqa: E731
    for cls, p in ((ContractCompleted, 0.8), (SealImproved, 0.6), (CaravanConquered, 0.9), (SpecialCityUsed, 0.5),
                   (Travelled, 0.4), (GuildTaken, 0.3), (ContractsTaken, 0.3), (CityCardUsed, 0.5), (CaravanStarted, 0.3)):
        options = by(cls)
        if options and rng.random() < p:
            return rng.choice(options)
    end = by(TurnEnded)
    if end and rng.random() < 0.8:
        return end[0]
    calm = [m for m in moves if not isinstance(m, (DieRerolled, DieAdjusted))]
    if calm and rng.random() < 0.9:
        return rng.choice(calm)
    return rng.choice(moves)


def draw(rng: random.Random, state: MP2State):
    chance = T.chance(state)
    if chance.kind == "dice":
        return tuple(rng.randint(1, chance.sides) for _ in range(chance.count))
    items = list(chance.items)
    rng.shuffle(items)
    return tuple(items)


def roundtrip(event) -> None:
    assert codec.decode(codec.encode(event)) == event
    assert codec.decode_json(codec.encode_json(event)) == event
