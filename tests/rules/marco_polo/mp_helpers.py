"""Helpers for the Marco Polo tests: a laid-out table, positions built by hand, refusals."""

from __future__ import annotations

import msgspec
import pytest
from catalogued import catalogued
import seed_docs

import rules  # noqa: F401  (registers the event types with the codec)
from events.errors import IllegalMove
from rules.marco_polo import MarcoPolo, MarcoPoloState
from rules.marco_polo.content import DEFAULT_CITY_BONUS, SMALL_CITIES
from rules.marco_polo.events import ContractsDealt, DiceRolled, SetupDealt

T = MarcoPolo()
SEED = "marco-polo.es.txt"
NAMES = ("Ana", "Bea", "Cai", "Dov")
CARDS = ("CC01", "CC02", "CC03", "CC04", "CC05", "CC06", "CC07", "CC08", "CC09")
OUTPOSTS = ("OB01", "OB02", "OB03", "OB04", "OB05", "OB06", "OB07")
BASIC_BONUSES = tuple(DEFAULT_CITY_BONUS[c] for c in SMALL_CITIES)
ROUND_CONTRACTS = {
    1: ("K01", "K02", "K03", "K04", "K05", "K06"),
    2: ("K07", "K08", "K09", "K10", "K11", "K12"),
    3: ("K13", "K14", "K15", "K16", "K17", "K18"),
    4: ("K19", "K20", "K21", "K22", "K23", "K24"),
    5: ("K25", "K26", "K27", "K28", "K29", "K30"),
}
OBJECTIVES = (("G01", "G02"), ("G03", "G04"), ("G05", "G06"), ("G07", "G08"))


def apply(state: MarcoPoloState, move) -> MarcoPoloState:
    events = T.decide(state, move)
    assert len(events) == 1
    for event in events:
        assert T.decide(state, event) == (event,), "a completed event decides to itself"
        state = T.evolve(state, event)
    return state


def do(state: MarcoPoloState, *texts: str) -> MarcoPoloState:
    for text in texts:
        state = apply(state, T.parse_move(state, text))
    return state


def laid_out(players: int = 2, chars=None, options=None, cards=CARDS, outposts=OUTPOSTS, start=None, objectives=None):
    """A table laid out (characters chosen by seat unless first-game options) before round 1's contracts."""
    opts = {"characters": "chosen", **(options or {})}
    state = T.setup(NAMES[:players], opts)
    if chars is None:
        chars = ("matteo", "berke", "kubilai", "carpini")[:players] if opts["characters"] == "chosen" else ()
    if opts["characters"] == "first-game":
        chars = ("raschid", "matteo", "berke", "mercator")[:players]
    event = SetupDealt(
        characters=tuple(chars),
        city_cards=cards,
        outposts=outposts,
        starting_contracts=start or ("S1", "S2", "S3", "S4")[:players],
        objectives=objectives if objectives is not None else OBJECTIVES[:players],
    )
    return apply(state, event)


def rolled(state: MarcoPoloState, *dice) -> MarcoPoloState:
    """Deal the round's contracts (if due) and roll: ``dice`` per seat (5 values; Matteo 6; Raschid ())."""
    if state.phase == "contracts":
        state = apply(state, ContractsDealt(round=state.round, contracts=ROUND_CONTRACTS[state.round]))
    return apply(state, DiceRolled(round=state.round, dice=tuple(tuple(d) for d in dice)))


def plain(players: int = 2, dice=None, chars=("carpini", "kubilai", "berke", "wilhelm"), **kw) -> MarcoPoloState:
    """Round 1 in play: seat 0 Carpini (in Venezia), 1 Kubilai (in Beijing), 2 Berke, 3 Wilhelm."""
    state = laid_out(players, chars=chars[:players], **kw)
    dice = dice or [(3, 3, 3, 3, 3)] * players
    return rolled(state, *dice)


def seat(state: MarcoPoloState, s: int, **fields) -> MarcoPoloState:
    """A position built by hand: seat ``s``'s fields replaced."""
    p = msgspec.structs.replace(state.seats[s], **fields)
    return msgspec.structs.replace(state, seats=state.seats[:s] + (p,) + state.seats[s + 1 :])


def refused(state: MarcoPoloState, move, code: str, exc_type=IllegalMove):
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
