"""Lost Cities notation (one token per move) and bad input: each refusal has a stable code, a
message naming the rule, and leaves the state unchanged."""

from __future__ import annotations

import random

import msgspec
import pytest

import rules  # noqa: F401  (registers the event types with the codec)
from events.errors import IllegalMove
from events.lifecycle import GameCreated
from rules.lost_cities import (
    CODES,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsDealt,
    CardsPassed,
    DeckShuffled,
    HandRevealed,
    LostCities,
)

T = LostCities()
STATE = T.setup(("Ana", "Bea"), {})
DECK = T.chance(STATE).items
U8 = (None,) * 8


def dealt(players: int = 2):
    state = T.setup(("Ana", "Bea", "Cai", "Dov")[:players], {})
    (event,) = T.decide(state, T.chance_event(state, tuple(reversed(T.chance(state).items))))
    return T.evolve(state, event)


@pytest.mark.parametrize(
    "text,canonical,event",
    [
        ("R7", "R7", CardPlayed(card="R7")),
        ("r7", "R7", CardPlayed(card="R7")),
        ("Rx", "Rx", CardPlayed(card="Rx")),
        ("rX", "Rx", CardPlayed(card="Rx")),
        ("b10", "B10", CardPlayed(card="B10")),
        ("P2", "P2", CardPlayed(card="P2")),
        ("-R7", "-R7", CardDiscarded(card="R7")),
        ("-gx", "-Gx", CardDiscarded(card="Gx")),
        ("d", "d", CardDrawn(source="deck")),
        ("D", "d", CardDrawn(source="deck")),
        ("d=R7", "d=R7", CardDrawn(source="deck", card="R7")),
        ("D=w9", "d=W9", CardDrawn(source="deck", card="W9")),
        ("dR", "dR", CardDrawn(source="red")),
        ("dy", "dY", CardDrawn(source="yellow")),
        ("DP", "dP", CardDrawn(source="purple")),
        (">R7,B3", ">R7,B3", CardsPassed(cards=("R7", "B3"))),
        (">r7, ?", ">R7,?", CardsPassed(cards=("R7", None))),
        (">?,?", ">?,?", CardsPassed(cards=(None, None))),
        ("deal", "deal", CardsDealt(round=1)),
        ("DEAL", "deal", CardsDealt(round=1)),
        ("deal ?;?", "deal ?;?", CardsDealt(round=1, hands=(U8, U8))),
        (
            "deal r2,R3,?,?,?,?,?,Bx; ?",
            "deal R2,R3,?,?,?,?,?,Bx;?",
            CardsDealt(round=1, hands=(("R2", "R3", None, None, None, None, None, "Bx"), U8)),
        ),
        ("shuffle " + ",".join(DECK).lower(), "shuffle " + ",".join(DECK), DeckShuffled(round=1, order=DECK)),
        ("reveal 1:R7,B3", "reveal 1:R7,B3", HandRevealed(seat=1, cards=("R7", "B3"))),
        ("Reveal 0: r7, bx", "reveal 0:R7,Bx", HandRevealed(seat=0, cards=("R7", "Bx"))),
    ],
)
def test_notation_round_trips(text, canonical, event):
    parsed = T.parse_move(STATE, text)
    assert parsed == event
    assert T.format_move(parsed) == canonical
    assert T.parse_move(STATE, canonical) == event


def test_formatting_decided_events():
    state = dealt()
    (played,) = T.decide(state, T.parse_move(state, state.hands[0][0]))
    assert T.format_move(played) == state.hands[0][0]  # the seat is not part of the token
    state = T.evolve(state, played)
    (drawn,) = T.decide(state, T.parse_move(state, "d"))
    assert T.format_move(drawn) == "d=" + drawn.card  # digital play: the drawn card is known


def test_every_legal_move_round_trips():
    rng = random.Random(7)
    for players in (2, 4):
        state = dealt(players)
        for _ in range(120):
            for move in T.legal_moves(state):
                text = T.format_move(move)
                again = T.parse_move(state, text)
                expected = msgspec.structs.replace(move, seat=None)
                if isinstance(move, CardDrawn) and move.source != "deck":
                    expected = msgspec.structs.replace(expected, card=None)  # implied by the pile
                assert again == expected, text
                assert T.decide(state, again) == (move,)
            (event,) = T.decide(state, rng.choice(T.legal_moves(state)))
            state = T.evolve(state, event)
            if T.to_move(state) is None:
                break


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "R1",
        "R11",
        "Q7",
        "7R",
        "x",
        "-",
        "-Q2",
        "d=",
        "d=?",
        "dQ",
        "dd",
        ">R7",
        ">R7,B3,G2",
        ">R7;B3",
        "shuffle",
        "shuffle R2,,R3",
        "reveal",
        "reveal x:R7",
        "reveal R7",
        "deal R2;R33",
        "play R7",
    ],
)
def test_bad_notation(text):
    with pytest.raises(IllegalMove) as info:
        T.parse_move(STATE, text)
    assert info.value.code == "lost-cities.bad-notation"
    assert "expected one of" in info.value.message
    assert "d=R7" in info.value.message and ">R7,B3" in info.value.message


def test_format_refuses_foreign_events():
    with pytest.raises(IllegalMove) as info:
        T.format_move(GameCreated(title="lost-cities", players=("a", "b")))
    assert info.value.code == "lost-cities.bad-notation"


# --- bad input: stable code, message naming the rule, state unchanged -------------------------------


def refuse(state, move, code):
    before = msgspec.msgpack.encode(state)
    with pytest.raises(IllegalMove) as info:
        T.decide(state, move)
    assert info.value.code == code and code in CODES
    assert msgspec.msgpack.encode(state) == before
    return info.value.message


def test_unknown_card_id():
    state = dealt()
    message = refuse(state, CardPlayed(card="R11"), "lost-cities.unknown-card")
    assert "card id" in message and "R7" in message
    refuse(state, CardDiscarded(card="r7"), "lost-cities.unknown-card")  # events hold canonical ids
    refuse(state, CardPlayed(card="P5"), "lost-cities.unknown-card")  # 5 expeditions: no purple


def test_wrong_seat():
    state = dealt()
    message = refuse(state, CardPlayed(card=state.hands[1][0], seat=1), "lost-cities.not-your-turn")
    assert "alternan turnos" in message and "Ana" in message and "seat 0" not in message
    refuse(state, CardPlayed(card=state.hands[0][0], seat=7), "lost-cities.unknown-seat")
    refuse(state, HandRevealed(seat=-1, cards=()), "lost-cities.unknown-seat")


def test_wrong_phase():
    message = refuse(STATE, CardPlayed(card="R7"), "lost-cities.awaiting-deal")
    assert "deal" in message
    state = dealt()
    message = refuse(state, CardDrawn(source="deck"), "lost-cities.play-then-draw")
    assert "primero jugar" in message
    message = refuse(state, CardsDealt(round=2), "lost-cities.round-in-progress")
    assert "round 1" in message
    refuse(STATE, CardsDealt(round=3), "lost-cities.wrong-round")
    refuse(STATE, HandRevealed(seat=0, cards=()), "lost-cities.awaiting-deal")


def test_pass_of_wrong_size():
    state = dealt(4)
    refuse(state, CardsPassed(cards=(state.hands[0][0],)), "lost-cities.pass-two-cards")  # type: ignore[arg-type]


def test_foreign_event_refused():
    message = refuse(
        dealt(), GameCreated(title="lost-cities", players=("a", "b")), "lost-cities.unknown-event"
    )
    assert "not a Lost Cities move" in message
