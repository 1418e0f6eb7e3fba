"""One test per rule of the Lost Cities seed (``../shared/seeds/lost-cities.es.txt``), plus the
rulings in ``docs/rulings.md`` (## Lost Cities), partial information and digital play."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from catalogued import catalogued

import rules  # noqa: F401  (registers the event types with the codec)
from events.errors import ContradictsKnownFacts, IllegalMove, InvalidOptions
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
    LostCitiesState,
)

T = LostCities()
COLOUR_LETTERS = "YBWGRP"


# --- helpers ------------------------------------------------------------------------------------


def new(players: int = 2, **options) -> LostCitiesState:
    names = ("Ana", "Bea", "Cai", "Dov")[:players]
    return T.setup(names, options)


def full_deck(state: LostCitiesState) -> list[str]:
    chance = T.chance(state)
    assert chance is not None and chance.kind == "shuffle"
    return list(chance.items)


def apply(state: LostCitiesState, move) -> LostCitiesState:
    for event in T.decide(state, move):
        state = T.evolve(state, event)
    return state


def do(state: LostCitiesState, *texts: str) -> LostCitiesState:
    for text in texts:
        state = apply(state, T.parse_move(state, text))
    return state


def shuffled(state: LostCitiesState, hands: list[list[str]], pile: list[str] = ()) -> LostCitiesState:
    """A digital deal: the given hands (8 cards each; missing cards filled from the deck), then
    ``pile`` as the next cards of the draw pile, then the rest of the deck."""
    rest = Counter(full_deck(state))
    wanted = [c for h in hands for c in h] + list(pile)
    rest.subtract(wanted)
    assert all(n >= 0 for n in rest.values()), "more copies asked than the deck has"
    remaining: list[str] = []
    for card in full_deck(state):
        if rest[card] > 0:
            rest[card] -= 1
            remaining.append(card)
    n = len(state.players)
    order: list[str] = []
    for seat in range(n):
        hand = list(hands[seat]) if seat < len(hands) else []
        while len(hand) < 8:
            hand.append(remaining.pop())
        order += hand
    order += list(pile) + remaining
    return apply(state, T.chance_event(state, tuple(order)))


def refused(state: LostCitiesState, move, code: str, exc_type=IllegalMove):
    """The move is refused with ``code``; the state is unchanged."""
    before = msgspec.msgpack.encode(state)
    if isinstance(move, str):
        move_obj = T.parse_move(state, move)
    else:
        move_obj = move
    with pytest.raises(exc_type) as info:
        T.decide(state, move_obj)
    assert info.value.code == code, info.value.message
    catalogued(info.value)
    assert code in CODES
    assert msgspec.msgpack.encode(state) == before
    return info.value


def finish_round(state: LostCitiesState) -> LostCitiesState:
    """Everyone discards their first known card and draws from the deck until the round ends."""
    rnd = state.round
    while state.round == rnd and state.phase in ("play", "draw"):
        if state.phase == "play":
            state = apply(state, CardDiscarded(card=state.hands[state.turn][0]))
        else:
            state = do(state, "d")
    return state


# --- Contenido / Preparación ---------------------------------------------------------------------


def test_deck_has_sixty_cards():
    """lost-cities.es.txt: "60 cartas: 45 cartas de expedición (9 cartas de cada una de los 5 destinos)
    y 15 cartas de patrocinio (3 para cada destino)" """
    deck = full_deck(new())
    assert len(deck) == 60
    counts = Counter(deck)
    for letter in "YBWGR":
        assert counts[letter + "x"] == 3
        for value in range(2, 11):
            assert counts[f"{letter}{value}"] == 1
    assert sum(1 for c in deck if c.endswith("x")) == 15
    assert not any(c.startswith("P") for c in deck)


def test_deal_eight_each_rest_face_down():
    """lost-cities.es.txt: "Revuelva las cartas y reparta 8 a cada jugador. Coloque las cartas
    restantes, boca abajo, cerca del tablero." """
    state = new()
    assert T.to_move(state) is None and T.legal_moves(state) == []
    order = full_deck(state)[::-1]
    state = apply(state, T.chance_event(state, tuple(order)))
    assert state.hands == (tuple(order[:8]), tuple(order[8:16]))
    assert state.draw_pile == 44
    public = T.view(state, None)
    assert public["draw_pile"] == 44 and public["hand_sizes"] == [8, 8]
    assert "hand" not in public and "hands" not in public and "draw_pile_order" not in public
    own = T.view(state, 0)
    assert sorted(own["hand"]["cards"]) == sorted(order[:8]) and own["hand"]["unknown"] == 0
    assert "hands" not in own and "draw_pile_order" not in own  # the face-down pile stays hidden
    # physical table: a deal with 8 cards for each seat, nothing else
    physical = do(new(), "deal")
    assert physical.unknown == (8, 8) and physical.draw_pile == 44
    refused(new(), CardsDealt(round=1, hands=((None,) * 8, (None,) * 7)), "lost-cities.deal-eight-each")
    refused(new(), CardsDealt(round=1, hands=((None,) * 8,)), "lost-cities.deal-eight-each")


def test_rounds_agreed_at_the_start():
    """lost-cities.es.txt: "Decida cuántas rondas se jugarán; tres es un número adecuado." """
    assert new().rounds == 3
    assert new(rounds=1).rounds == 1
    with pytest.raises(InvalidOptions) as info:
        new(rounds=0)
    assert info.value.code == "lost-cities.bad-options"


def test_players_see_their_own_cards():
    """lost-cities.es.txt: "Los jugadores pueden ver sus cartas; estas cartas forman su mano inicial." """
    state = shuffled(new(), [["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]])
    own = T.view(state, 0)
    assert own["hand"] == {"cards": ["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"], "unknown": 0}
    other = T.view(state, 1)
    assert not set(other["hand"]["cards"]) & {"R2", "R3", "R4"}
    assert other["hand_sizes"] == [8, 8]


# --- Secuencia de juego --------------------------------------------------------------------------


def test_oldest_player_starts_and_players_alternate():
    """lost-cities.es.txt: "El jugador de mayor edad comienza y los jugadores alternan turnos." """
    state = shuffled(new(first_seat=1), [["R2"], ["B2"]])
    assert T.to_move(state) == 1
    refused(state, CardPlayed(card="R2", seat=0), "lost-cities.not-your-turn")
    state = do(state, "B2", "d")
    assert T.to_move(state) == 0
    err = refused(state, CardPlayed(card="B3", seat=1), "lost-cities.not-your-turn")
    assert "alternan turnos" in err.message
    state = do(state, "R2", "d")
    assert T.to_move(state) == 1


def test_play_a_card_then_draw():
    """lost-cities.es.txt: "En su turno, un jugador debe primero jugar una carta de su mano, y luego
    tomar una carta para reemplazarla." """
    state = shuffled(new(), [["R2", "R3"]])
    err = refused(state, "d", "lost-cities.play-then-draw")
    assert "primero jugar una carta" in err.message
    state = do(state, "R2")
    assert state.phase == "draw" and len(state.hands[0]) == 7
    refused(state, "R3", "lost-cities.play-then-draw")
    refused(state, "-R3", "lost-cities.play-then-draw")
    state = do(state, "d")
    assert len(state.hands[0]) == 8 and T.to_move(state) == 1


def test_expeditions_only_on_own_side():
    """lost-cities.es.txt: "Los jugadores únicamente pueden iniciar o continuar expediciones en su
    lado del tablero." """
    state = shuffled(new(), [["R5"], ["R7"]])
    state = do(state, "R5", "d", "R7", "d")
    assert state.expeditions[0][4] == ("R5",)
    assert state.expeditions[1][4] == ("R7",)


def test_expedition_cards_must_ascend():
    """lost-cities.es.txt: "Las cartas siempre deben agregarse al final de la expedición y con
    números más altos que la carta previa." """
    state = shuffled(new(), [["R5", "R3", "Rx"], ["B2"]])
    state = do(state, "R5", "d", "B2", "d")
    err = refused(state, "R3", "lost-cities.expedition-must-ascend")
    assert "números más altos" in err.message and "R5" in err.message
    assert CardPlayed(card="R3", seat=0) not in T.legal_moves(state)


def test_numbers_need_not_be_consecutive():
    """lost-cities.es.txt: "Los números no necesitan ser consecutivos, cualquier carta de número mayor
    a la última carta de la expedición puede ser colocada." """
    state = shuffled(new(), [["R2", "R9"], ["B2", "B3"]])
    state = do(state, "R2", "d", "B2", "d", "R9", "d")
    assert state.expeditions[0][4] == ("R2", "R9")


def test_wagers_only_before_the_first_number_card():
    """lost-cities.es.txt: "Una vez que el jugador ha colocado una carta numerada en su expedición, ya
    no podrá jugar más cartas de patrocinio en esa expedición." """
    state = shuffled(new(), [["Rx", "R4", "Rx"], ["B2", "B3"]])
    state = do(state, "Rx", "d", "B2", "d", "R4", "d", "B3", "d")
    err = refused(state, "Rx", "lost-cities.wager-after-number")
    assert "patrocinio" in err.message


def test_up_to_three_wagers():
    """lost-cities.es.txt: "Un jugador puede jugar hasta 3 cartas de patrocinio antes de la primera
    carta numerada de la expedición." """
    state = shuffled(new(), [["Rx", "Rx", "Rx", "R2"], ["B2", "B3", "B4"]])
    state = do(state, "Rx", "d", "B2", "d", "Rx", "d", "B3", "d", "Rx", "d", "B4", "d")
    assert state.expeditions[0][4] == ("Rx", "Rx", "Rx")
    refused(state, CardPlayed(card="Rx"), "lost-cities.too-many-wagers")
    state = do(state, "R2")
    assert state.expeditions[0][4] == ("Rx", "Rx", "Rx", "R2")


def test_discard_onto_its_colour_pile():
    """lost-cities.es.txt: "El jugador coloca la carta en el tablero en el espacio que corresponde al
    destino de la carta deshechada." """
    state = shuffled(new(), [["R7"]])
    state = do(state, "-R7")
    assert state.discard_piles[4] == ("R7",)
    assert all(not pile for i, pile in enumerate(state.discard_piles) if i != 4)
    assert state.expeditions[0][4] == ()


def test_only_the_last_discard_is_visible_and_takeable():
    """lost-cities.es.txt: "Si hay otras cartas deshechadas de esa expedición, se coloca la nueva carta
    de manera que cubra las cartas previamente deshechadas. Por lo tanto, solamente es visible la
    última carta deshechada de cada destino." """
    state = shuffled(new(), [["R7", "B2"], ["R3"]])
    state = do(state, "-R7", "d", "-R3", "d")
    assert state.discard_piles[4] == ("R7", "R3")
    assert T.view(state, None)["discard_piles"]["red"] == ["R7", "R3"]  # the top is last
    refused(state, "-R7", "lost-cities.card-not-in-hand", ContradictsKnownFacts)
    state = do(state, "-B2")
    refused(
        state, CardDrawn(source="red", card="R7"), "lost-cities.drawn-card-mismatch", ContradictsKnownFacts
    )
    (event,) = T.decide(state, T.parse_move(state, "dR"))
    assert event == CardDrawn(source="red", card="R3", seat=0)


def test_draw_from_the_pile_or_any_discard_top():
    """lost-cities.es.txt: "Puede tomar la carta superior del mazo de cartas colocadas boca abajo, o la
    carta superior de cualquiera de los montones de cartas deshechadas." """
    state = shuffled(new(), [["Y5", "B5"], ["G5"]], pile=["W2", "W3", "W9"])
    state = do(state, "-Y5", "d", "-G5", "d", "-B5")
    draws = {(m.source, m.card) for m in T.legal_moves(state)}
    assert draws == {("deck", "W9"), ("yellow", "Y5"), ("green", "G5")}
    refused(state, "dW", "lost-cities.discard-pile-empty")
    refused(state, CardDrawn(source="orange"), "lost-cities.unknown-source")
    state = do(state, "dG")
    assert "G5" in state.hands[0] and state.discard_piles[3] == ()


def test_cannot_take_the_card_discarded_this_turn():
    """lost-cities.es.txt: "El jugador no puede tomar una carta que haya deshechado en ese mismo turno." """
    state = shuffled(new(), [["R7"], ["B2"]])
    state = do(state, "-R7")
    err = refused(state, "dR", "lost-cities.no-redraw-of-discard")
    assert "mismo turno" in err.message
    assert all(m.source != "red" for m in T.legal_moves(state))
    state = do(state, "d", "-B2", "dR")  # the next player may take it
    assert "R7" in state.hands[1]


def test_round_ends_immediately_on_the_last_card():
    """lost-cities.es.txt: "El juego termina inmediatamente cuando un jugador toma la última carta del
    mazo de cartas colocadas boca abajo. Los jugadores pueden contar las cartas que quedan en el mazo
    para planear sus jugadas." """
    state = shuffled(new(rounds=2), [])
    draws = 0
    while state.draw_pile > 1:
        state = apply(state, CardDiscarded(card=state.hands[state.turn][0]))
        assert T.view(state, None)["draw_pile"] == 44 - draws
        state = do(state, "d")
        draws += 1
    assert draws == 43 and state.phase == "play" and T.to_move(state) == 1
    state = apply(state, CardDiscarded(card=state.hands[1][0]))
    state = do(state, "d")
    assert state.draw_pile == 0
    assert state.phase == "deal" and T.to_move(state) is None and T.legal_moves(state) == []
    assert len(state.history) == 1 and state.round == 1
    refused(state, "d", "lost-cities.awaiting-deal")


# --- Final del juego y puntaje ---------------------------------------------------------------------


def scored(expeditions_side0: dict[str, list[str]]) -> list[dict]:
    """The score breakdown of side 0 with the given expeditions (colour letter -> cards)."""
    state = shuffled(new(), [])
    exps = tuple(tuple(expeditions_side0.get(letter, ())) for letter in "YBWGR")
    state = msgspec.structs.replace(state, expeditions=(exps, ((),) * 5))
    (current,) = T.score(state)["rounds"]
    return current["sides"][0]["expeditions"]


def test_untouched_expedition_scores_zero():
    """lost-cities.es.txt: "si un jugador no jugó ninguna carta en una determinada expedición, el valor
    de esa expedición es 0 y no -20." """
    exps = scored({"R": ["R2"]})
    assert [e["score"] for e in exps] == [0, 0, 0, 0, -18]


def test_expedition_value_is_sum_minus_twenty():
    """lost-cities.es.txt: "Se suman los valores numéricos en cada expedición y se restan 20 de esa
    suma para representar el costo de la expedición." """
    (red,) = [e for e in scored({"R": ["R4", "R7", "R10"]}) if e["colour"] == "red"]
    assert (red["sum"], red["value"], red["multiplier"], red["score"]) == (21, 1, 1, 1)
    (blue,) = [e for e in scored({"B": ["B2", "B3"]}) if e["colour"] == "blue"]
    assert blue["score"] == -15


@pytest.mark.parametrize("wagers,multiplier", [(1, 2), (2, 3), (3, 4)])
def test_wagers_multiply(wagers, multiplier):
    """lost-cities.es.txt: "multiplica el valor de cada una de sus expediciones (positiva o negativa) por
    el número de cartas de patrocinio que jugó en esa expedición, más 1. El multiplicador será 2, 3 ó
    4" """
    red = scored({"R": ["Rx"] * wagers + ["R8", "R9", "R10"]})[4]
    assert red["multiplier"] == multiplier and red["score"] == 7 * multiplier
    blue = scored({"B": ["Bx"] * wagers + ["B5"]})[1]
    assert blue["score"] == -15 * multiplier


@pytest.mark.parametrize("wagers,expected", [(1, -40), (2, -60), (3, -80)])
def test_wagers_only_expedition(wagers, expected):
    """lost-cities.es.txt: "Cuando una expedición solamente se compone de cartas de patrocinio, su valor
    es -20 multiplicado por el número de cartas de patrocinio más 1 (-40, -60 ó -80)." """
    assert scored({"G": ["Gx"] * wagers})[3]["score"] == expected


def test_bonus_for_eight_cards_after_the_multiplier():
    """lost-cities.es.txt: "cada expedición que se componga de por lo menos 8 cartas, recibe un bono de
    20 puntos, que se agrega después de la multiplicación de las cartas de patrocinio." """
    red = scored({"R": ["Rx", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]})[4]  # 8 cards, a wager counts
    assert (red["sum"], red["value"], red["multiplier"], red["bonus"]) == (35, 15, 2, 20)
    assert red["score"] == 15 * 2 + 20  # not (15 + 20) * 2
    seven = scored({"R": ["R2", "R3", "R4", "R5", "R6", "R7", "R8"]})[4]
    assert seven["bonus"] == 0 and seven["score"] == 15


def test_expedition_value_ranges_from_minus_80_to_156():
    """lost-cities.es.txt: "Por lo tanto, el valor de una expedición varía entre -80 y 156." """
    from itertools import combinations

    scores = set()
    numbers = [f"Y{v}" for v in range(2, 11)]
    state = shuffled(new(), [])
    for wagers in range(4):
        for k in range(10):
            for combo in combinations(numbers, k):
                cards = ("Yx",) * wagers + combo
                exps = ((cards,) + ((),) * 4, ((),) * 5)
                s = msgspec.structs.replace(state, expeditions=exps)
                scores.add(T.score(s)["rounds"][-1]["sides"][0]["score"])
    assert min(scores) == -80 and max(scores) == 156


def test_scores_add_up_over_rounds():
    """lost-cities.es.txt: "Uno de los jugadores debe registrar los puntajes en papel, agregando los
    puntos de la ronda actual a los puntos de las rondas anteriores." """
    state = shuffled(new(rounds=2), [["Y2"]])
    state = do(state, "Y2", "d")
    state = finish_round(state)
    state = shuffled(state, [[], ["B2", "B3"]])
    state = do(state, "B2", "d")
    state = finish_round(state)
    breakdown = T.score(state)
    (r1, r2) = breakdown["rounds"]
    assert [s["score"] for s in r1["sides"]] == [-18, 0]
    assert [s["score"] for s in r2["sides"]] == [0, -18]
    assert [s["running_total"] for s in r2["sides"]] == [-18, -18]
    assert breakdown["totals"]["sides"] == [-18, -18]
    msgspec.json.encode(breakdown)  # JSON-able


def test_leader_starts_the_next_round():
    """lost-cities.es.txt: "Todas las cartas se revuelven para iniciar otra ronda de juego. El jugador
    con mayor número de puntos hasta el momento inicia el juego en la siguiente ronda." """
    state = shuffled(new(), [["Y2"]])
    state = finish_round(do(state, "Y2", "d"))  # side 0: -18, side 1: 0
    assert state.phase == "deal" and state.starting_seat == 1
    state = shuffled(state, [])
    assert T.to_move(state) == 1
    # a tie: the side that did not start the previous round starts (ruling LC-1)
    state = shuffled(new(), [])
    state = finish_round(state)
    assert state.totals == (0, 0) and state.starting_seat == 1
    state = finish_round(shuffled(state, []))
    assert state.totals == (0, 0) and state.starting_seat == 0


def test_game_ends_after_the_agreed_rounds_and_the_leader_wins():
    """lost-cities.es.txt: "Después del número de rondas acordado al inicio, normalmente 3, el juego
    termina. El jugador con mayor cantidad de puntos es el ganador." """
    state = new(rounds=2)
    state = finish_round(do(shuffled(state, [["Y2"]]), "Y2", "d"))
    assert T.outcome(state) is None
    state = finish_round(shuffled(state, []))
    assert state.phase == "over" and T.to_move(state) is None and T.chance(state) is None
    result = T.outcome(state)
    assert result.scores == (-18, 0) and result.winners == (1,) and result.ranks == (2, 1)
    assert "Bea wins" in T.status(state)
    refused(state, DeckShuffled(round=3, order=tuple(full_deck(new()))), "lost-cities.game-over")


def test_tied_game_has_two_winners():
    """lost-cities.es.txt: "El jugador con mayor cantidad de puntos es el ganador." (a tie: both)"""
    state = finish_round(shuffled(new(rounds=1), []))
    result = T.outcome(state)
    assert result.scores == (0, 0) and result.ranks == (1, 1) and result.winners == (0, 1)


# --- Reglas para 4 jugadores (parejas) -----------------------------------------------------------


def test_partnership_deck_has_75_cards():
    """lost-cities.es.txt: "Use los componentes de uno de los juegos, y agregue las cartas de valores 2,
    3 y 4 del otro juego. El mazo de cartas para 4 jugadores se compone de 75 cartas." """
    deck = full_deck(new(4))
    assert len(deck) == 75
    counts = Counter(deck)
    for letter in "YBWGR":
        assert [counts[f"{letter}{v}"] for v in range(2, 11)] == [2, 2, 2, 1, 1, 1, 1, 1, 1]
        assert counts[letter + "x"] == 3
    state = shuffled(new(4), [])
    assert state.draw_pile == 75 - 32


def test_partners_sit_opposite_and_share_a_side():
    """lost-cities.es.txt: "Los jugadores sentados en lados opuestos de la mesa forman una pareja y
    juegan del mismo lado del tablero." """
    state = shuffled(new(4), [["R3"], ["B2"], ["R5"], ["B4"]])
    state = do(state, "R3", "d", "B2", "d", "R5", "d", "B4", "d")
    assert state.expeditions[0][4] == ("R3", "R5")  # seats 0 and 2
    assert state.expeditions[1][1] == ("B2", "B4")  # seats 1 and 3
    assert T.view(state, None)["sides"] == [[0, 2], [1, 3]]
    assert T.to_move(state) == 0


def test_partnership_no_two_equal_values():
    """lost-cities.es.txt: "Al agregar cartas a una expedición, los números siempre deben incrementarse.
    Dos cartas del mismo valor no pueden ser jugadas en la misma expedición." """
    state = shuffled(new(4), [["R3"], ["B2"], ["R3", "R2"], ["B4"]])
    state = do(state, "R3", "d", "B2", "d")
    err = refused(state, "R3", "lost-cities.no-equal-values")
    assert "mismo valor" in err.message
    refused(state, "R2", "lost-cities.expedition-must-ascend")


def test_partnership_pass_two_cards_to_the_partner():
    """lost-cities.es.txt: "En lugar de realizar una jugada normal (jugar y tomar una carta), un jugador
    puede elegir dos cartas cualesquiera de su mano y pasárselas a su compañero." """
    state = shuffled(new(4), [["R7", "B3"]])
    (event,) = T.decide(state, T.parse_move(state, ">B3,R7"))
    assert event == CardsPassed(cards=("B3", "R7"), seat=0)  # a set: canonical order
    state = T.evolve(state, event)
    assert len(state.hands[0]) == 6 and len(state.hands[2]) == 10
    assert Counter(state.hands[2])["R7"] >= 1 and Counter(state.hands[2])["B3"] >= 1
    assert state.phase == "play" and T.to_move(state) == 1  # no draw: the pass is the whole turn
    refused(shuffled(new(), [["R7", "B3"]]), ">R7,B3", "lost-cities.pass-only-in-partnership")


def test_partnership_never_below_six_cards():
    """lost-cities.es.txt: "Al hacer esto, un jugador nunca deberá reducir su mano a menos de seis
    cartas." """
    state = shuffled(new(4), [["R7", "B3", "Y2", "Y3"]])
    state = do(state, ">R7,B3")
    for _ in range(3):  # seats 1, 2, 3 play a turn
        state = apply(state, CardDiscarded(card=state.hands[state.turn][-1]))
        state = do(state, "d")
    assert T.to_move(state) == 0 and len(state.hands[0]) == 6
    err = refused(state, ">Y2,Y3", "lost-cities.pass-below-six")
    assert "seis cartas" in err.message
    assert not any(isinstance(m, CardsPassed) for m in T.legal_moves(state))


def test_partnership_next_round_starting_seat():
    """lost-cities.es.txt: "El jugador con mayor número de puntos hasta el momento inicia el juego en la
    siguiente ronda." (ruling LC-1: the leading side's first seat after the previous starter)"""
    state = shuffled(new(4), [[], ["Y2"]])
    state = do(state, "-" + state.hands[0][0], "d", "Y2", "d")  # side 1 (seats 1+3): -18
    state = finish_round(state)
    assert state.totals == (0, -18)
    assert state.starting_seat == 2  # side 0 leads; after seat 0 comes seat 2 of side 0
    state = finish_round(shuffled(state, []))
    assert state.starting_seat == 0  # side 0 still leads; after seat 2 comes seat 0


# --- Options: six expeditions ----------------------------------------------------------------------


def test_six_expeditions_option():
    """lost-cities.es.txt: "60 cartas: 45 cartas de expedición (9 cartas de cada una de los 5 destinos)"
    -- the purple 6th expedition is an option of current editions (ruling LC-6)."""
    state = new(expeditions=6)
    assert len(full_deck(state)) == 72
    state = shuffled(state, [["Px", "P5"]])
    assert state.draw_pile == 56
    state = do(state, "Px", "d")
    assert state.expeditions[0][5] == ("Px",)
    assert T.score(state)["rounds"][0]["sides"][0]["score"] == -40
    assert len(full_deck(new(4, expeditions=6))) == 90
    five = shuffled(new(), [])
    err = refused(five, CardPlayed(card="P5"), "lost-cities.unknown-card")
    assert "6th expedition" in err.message


@pytest.mark.parametrize(
    "options",
    [{"expeditions": 7}, {"rounds": 0}, {"first_seat": 2}, {"colour": "red"}, {"rounds": "three"}],
)
def test_bad_options_rejected(options):
    """lost-cities.es.txt: "Decida cuántas rondas se jugarán" (options are checked)"""
    with pytest.raises(InvalidOptions) as info:
        new(**options)
    assert info.value.code == "lost-cities.bad-options"


def test_player_count():
    """lost-cities.es.txt: "Coloque el tablero de juego [...] entre los dos jugadores." and "Reglas para 4
    jugadores (parejas)" """
    for names in (("A",), ("A", "B", "C"), ("A", "B", "C", "D", "E")):
        with pytest.raises(InvalidOptions) as info:
            T.setup(names, {})
        assert info.value.code == "lost-cities.player-count"


# --- Partial information (a physical table) -------------------------------------------------------


def test_unknown_deal_and_face_down_draws():
    """lost-cities.es.txt: "Coloque las cartas restantes, boca abajo" -- the recorder does not see the
    hands nor the face-down draws."""
    state = do(new(), "deal")
    assert state.hands == ((), ()) and state.unknown == (8, 8)
    state = do(state, "R7", "d")
    assert state.unknown == (8, 8) and state.expeditions[0][4] == ("R7",)
    state = do(state, "B4", "d=B9")
    assert state.hands[1] == ("B9",) and state.unknown[1] == 7
    assert T.view(state, 1)["hand"] == {"cards": ["B9"], "unknown": 7}
    assert T.view(state, 0)["hand"] == {"cards": [], "unknown": 8}


def test_contradiction_rejected_names_the_place():
    """lost-cities.es.txt: "Los jugadores colocan las cartas de sus expediciones de manera que los valores
    de todas las cartas pueden ser vistas por ambos jugadores." -- a card seen once cannot appear again."""
    state = do(new(), "deal", "R7", "d")
    err = refused(state, "R7", "lost-cities.card-not-in-hand", ContradictsKnownFacts)
    assert "Ana's red expedition" in err.message
    state = do(state, "B2")
    err = refused(state, "d=R7", "lost-cities.card-already-seen", ContradictsKnownFacts)
    assert "Ana's red expedition" in err.message
    # a deal naming more copies than exist
    refused(
        new(),
        CardsDealt(round=1, hands=(("R7",) + (None,) * 7, ("R7",) + (None,) * 7)),
        "lost-cities.card-already-seen",
        ContradictsKnownFacts,
    )
    # a fully known hand cannot play a card it does not hold
    known = do(new(), "deal R2,R3,R4,R5,R6,R8,R9,R10;?")
    err = refused(known, "B2", "lost-cities.card-not-in-hand", ContradictsKnownFacts)
    assert "fully known" in err.message


def test_reveal_is_checked_and_fills_the_hand():
    """lost-cities.es.txt: "Los jugadores pueden ver sus cartas" -- a shown hand must agree with
    everything recorded."""
    state = do(new(), "deal R2,R3,?,?,?,?,?,?;?", "R2", "d")
    assert state.hands[0] == ("R3",) and state.unknown[0] == 7
    refused(state, "reveal 0:R3,B2", "lost-cities.reveal-wrong-size", ContradictsKnownFacts)
    refused(
        state,
        "reveal 0:B2,B3,B4,B5,B6,B7,B8,B9",
        "lost-cities.reveal-missing-known-card",
        ContradictsKnownFacts,
    )
    err = refused(
        state, "reveal 0:R3,R2,B4,B5,B6,B7,B8,B9", "lost-cities.card-already-seen", ContradictsKnownFacts
    )
    assert "red expedition" in err.message
    refused(state, "reveal 0:R3,Px,B4,B5,B6,B7,B8,B9", "lost-cities.unknown-card")
    refused(state, "reveal 5:R3", "lost-cities.unknown-seat")
    state = do(state, "reveal 0:R3,B3,B4,B5,B6,B7,B8,B9")
    assert state.unknown[0] == 0 and sorted(state.hands[0]) == sorted(
        ["R3", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]
    )
    err = refused(state, "B3", "lost-cities.card-not-in-hand", ContradictsKnownFacts)  # seat 1 cannot hold it
    assert "Ana's hand" in err.message
    refused(state, "reveal 1:B3,Y3,Y4,Y5,Y6,Y7,Y8,Y9", "lost-cities.card-already-seen", ContradictsKnownFacts)


def test_face_down_pass_keeps_the_passed_cards_with_the_side():
    """lost-cities.es.txt: "un jugador puede elegir dos cartas cualesquiera de su mano y pasárselas a su
    compañero" -- unseen by the recorder, so the passer's known cards are now with the passer or its
    partner, not told which (ruling LC-3)."""
    state = do(new(4), "deal R2,R3,?,?,?,?,?,?;?;?;?")
    state = do(state, ">R2,?")
    assert state.hands[0] == () and state.unknown[0] == 6
    assert state.hands[2] == ("R2",) and state.unknown[2] == 9
    assert state.shared == (("R3",), ()) and T.view(state, 0)["hand"] == {"cards": [], "unknown": 6}
    # R3 may still be in seat 0's hand, or now in seat 2's: playing it later is not rejected
    state = do(state, "-B2", "d", "-B3", "d", "-B4", "d")
    state = do(state, "R3")
    assert state.expeditions[0][4] == ("R3",) and state.shared == ((), ())
    refused(shuffled(new(4), []), ">?,?", "lost-cities.card-must-be-named")


KNOWN_EIGHT = "deal R9,B9,Y9,G9,W9,R10,B10,Y10;?;?;?"


@pytest.mark.parametrize(
    "moves, refusal",
    [
        ((">?,?", "-Y2", "d=R9"), "lost-cities.card-already-seen"),
        ((">?,?", "R9"), "lost-cities.card-not-in-hand"),
        ((">R9,?", "B9"), "lost-cities.card-not-in-hand"),
        ((">?,?", "-G2", "d", "-G3", "d", "-G4", "d", "-G5"), "lost-cities.card-not-in-hand"),
        (
            (">?,?", "-G2", "d", "-G3", "d", "reveal 0:G4,G5,G6,G7,G8,G10"),
            "lost-cities.reveal-missing-known-card",
        ),
    ],
)
def test_cards_passed_face_down_stay_with_the_side(moves, refusal):
    """lost-cities.es.txt: "un jugador puede elegir dos cartas cualesquiera de su mano y pasárselas a su
    compañero" -- the passed cards come from the passer's hand: after a face-down pass each card the
    passer was known to hold is with it or its partner (not in the draw pile, not with the other
    side), and the partner holds at most the two it was passed (ruling LC-3)."""
    state = do(new(4), KNOWN_EIGHT, *moves[:-1])
    err = refused(state, moves[-1], refusal, ContradictsKnownFacts)
    assert "with Ana or Cai" in err.message


def test_a_reveal_must_hold_what_was_passed_face_down():
    """lost-cities.es.txt: "un jugador puede elegir dos cartas cualesquiera de su mano y pasárselas a su
    compañero" -- a partner known to hold Y2..Yx is passed two of seat 0's eight known cards: its
    reveal must show two of them (ruling LC-3)."""
    deal = "deal R9,B9,Y9,G9,W9,R10,B10,Y10;?;Y2,Y3,Y4,Y5,Y6,Y7,Y8,Yx;?"
    state = do(new(4), deal, ">?,?", "-G2", "d")
    refused(
        state,
        "reveal 2:Y2,Y3,Y4,Y5,Y6,Y7,Y8,Yx,G3,G4",
        "lost-cities.reveal-missing-known-card",
        ContradictsKnownFacts,
    )
    refused(
        state,
        "reveal 2:Y2,Y3,Y4,Y5,Y6,Y7,Y8,Yx,R9,G4",
        "lost-cities.reveal-missing-known-card",
        ContradictsKnownFacts,
    )
    state = do(state, "reveal 2:Y2,Y3,Y4,Y5,Y6,Y7,Y8,Yx,R9,B10")
    assert sorted(state.shared[0]) == ["B9", "G9", "R10", "W9", "Y10", "Y9"] and state.unknown[0] == 6
    # the rest are now seat 0's whole hand: it can only play or discard one of them
    state = do(state, "-Y2", "d", "-G3", "d")
    refused(state, "-G4", "lost-cities.card-not-in-hand", ContradictsKnownFacts)
    state = do(state, "-Y9", "d")
    state = do(state, "reveal 0:B9,G9,R10,W9,Y10,B8")
    assert state.shared == ((), ()) and state.unknown[0] == 0


def test_a_partner_shows_at_most_the_cards_it_was_passed():
    """lost-cities.es.txt: "un jugador puede elegir dos cartas cualesquiera de su mano y pasárselas a su
    compañero" -- two cards: a partner cannot show three of the passer's cards (ruling LC-3)."""
    deal = "deal R9,B9,Y9,G9,W9,R10,B10,Y10;?;Y2,Y3,Y4,Y5,Y6,Y7,?,?;?"
    state = do(new(4), deal, ">?,?", "-G2", "d")
    err = refused(
        state, "reveal 2:Y2,Y3,Y4,Y5,Y6,Y7,R9,B9,Y9,G3", "lost-cities.card-already-seen", ContradictsKnownFacts
    )
    assert "at most 2" in err.message
    assert do(state, "reveal 2:Y2,Y3,Y4,Y5,Y6,Y7,R9,B9,G3,G4").shared[0] == ("Y9", "G9", "W9", "R10", "B10", "Y10")


def test_consistent_records_after_face_down_passes_are_accepted():
    """lost-cities.es.txt: "un jugador puede elegir dos cartas cualesquiera de su mano y pasárselas a su
    compañero" -- the partner may play what it was passed; passes go back and forth (ruling LC-3)."""
    state = do(new(4), KNOWN_EIGHT, ">?,?", "-G2", "d")
    # seat 2 plays one of the cards it was passed, seat 0 one it kept
    state = do(state, "R9", "d", "-G3", "d", "Y9", "d")
    assert sorted(state.shared[0]) == ["B10", "B9", "G9", "R10", "W9", "Y10"]
    state = do(state, "-G4", "d", ">?,?")  # seat 2 passes two back, face down
    assert state.unknown == (8, 8, 8, 8) and len(state.shared[0]) == 6
    state = do(state, "-G5", "d", "-B10", "d", "-G6", "d", "W9")
    state = do(state, "reveal 0:B9,G9,R10,Y10,B2,B3,B4,B5")
    state = do(state, "reveal 2:G7,G8,G10,Gx,Gx,Gx,W2")
    assert state.shared == ((), ()) and state.unknown[0] == state.unknown[2] == 0


def test_known_pass_keeps_knowledge():
    """lost-cities.es.txt: "dos cartas cualesquiera de su mano y pasárselas a su compañero" (seen passes)"""
    state = do(new(4), "deal R2,R3,B2,?,?,?,?,?;?;?;?", ">R2,R3")
    assert state.hands[0] == ("B2",) and state.unknown[0] == 5
    assert sorted(state.hands[2]) == ["R2", "R3"] and state.unknown[2] == 8


# --- Digital play ----------------------------------------------------------------------------------


def test_digital_shuffle_makes_everything_known():
    """lost-cities.es.txt: "Revuelva las cartas y reparta 8 a cada jugador." -- digital play records
    the whole order; the draws are filled in."""
    state = new()
    chance = T.chance(state)
    assert chance.kind == "shuffle" and len(chance.items) == 60
    state = shuffled(state, [["R2"]], pile=["B7", "B8"])
    assert state.unknown == (0, 0) and state.draw_pile == 44
    state = do(state, "R2")
    (event,) = T.decide(state, T.parse_move(state, "d"))
    assert event == CardDrawn(source="deck", card="B7", seat=0)
    assert T.format_move(event) == "d=B7"
    refused(state, "d=B9", "lost-cities.drawn-card-mismatch", ContradictsKnownFacts)
    assert T.view(state, 0).get("draw_pile_order") is None
    assert T.full_view(state)["draw_pile_order"][:2] == ["B7", "B8"]
    refused(
        new(), DeckShuffled(round=1, order=tuple(full_deck(new())[1:])), "lost-cities.shuffle-not-full-deck"
    )
    refused(new(), DeckShuffled(round=2, order=tuple(full_deck(new()))), "lost-cities.wrong-round")
    refused(state, "deal", "lost-cities.round-in-progress")


def test_hand_revealed_in_digital_play_must_match():
    """lost-cities.es.txt: "Los jugadores pueden ver sus cartas" -- digital hands are known exactly."""
    state = shuffled(new(), [["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]])
    assert do(state, "reveal 0:R9,R8,R7,R6,R5,R4,R3,R2").unknown == (0, 0)
    refused(
        state,
        "reveal 0:R10,R8,R7,R6,R5,R4,R3,R2",
        "lost-cities.reveal-missing-known-card",
        ContradictsKnownFacts,
    )


def test_every_code_is_listed_and_stable():
    """Not a seed rule: every refusal above has a stable, listable code (kebab-case, namespaced)."""
    assert len(set(CODES)) == len(CODES)
    for code in CODES:
        assert code.startswith("lost-cities.") and code == code.lower() and " " not in code
    assert T.codes == CODES


def test_events_round_trip_the_codec():
    """Not a seed rule: every event is stored as msgpack and sent as JSON, unchanged."""
    from events import codec

    for event in (
        DeckShuffled(round=1, order=("R2", "R3")),
        CardsDealt(round=1),
        CardsDealt(round=2, hands=(("R2", None),)),
        CardPlayed(card="R7", seat=1),
        CardDiscarded(card="Rx"),
        CardDrawn(source="deck"),
        CardDrawn(source="red", card="R3", seat=0),
        CardsPassed(cards=("R2", None), seat=2),
        HandRevealed(seat=1, cards=("B10",)),
    ):
        assert codec.decode(codec.encode(event)) == event
        assert codec.decode_json(codec.encode_json(event)) == event
