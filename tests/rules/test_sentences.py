"""Moves read as sentences with names (in English, the words the rules give); what the public
reads of a move keeps only public facts."""

from __future__ import annotations

import golden_games
from events.messages import say
from rules import get_title
from rules.lost_cities.events import CardDrawn, CardPlayed, CardsDealt


def sentences(title_id: str) -> list[str]:
    players, options, moves, *_ = golden_games.load(golden_games.files(title_id)[0])
    title = get_title(title_id)
    state, out = title.setup(players, options), []
    for text in moves:
        for event in title.decide(state, title.parse_move(state, text)):
            after = title.evolve(state, event)
            known = title.public_move(event)
            out.append(say(title.describe(state, known, after)) if known is not None else "")
            state = after
    return out


def test_marco_polo_moves_say_who_did_what_and_what_it_cost():
    said = sentences("marco-polo")
    assert "Ana travelled to Moscow, paying 4 coins" in said
    assert "Bea took 3 camels at the camels bazaar" in said
    assert "Ana took 1 coin and 2 pepper at the pepper bazaar" in said
    assert not any("Event" in s or "@" in s for s in said)


def test_marco_polo_ii_moves_are_sentences_and_goal_cards_stay_out():
    said = sentences("marco-polo-2")
    assert "Ana took 1 camel and 1 pepper using a book" in said
    assert "Ana kept a goal card" in said
    assert not any("MarcoPolo2" in s for s in said)


def test_lost_cities_the_public_reads_a_draw_without_its_card():
    title = get_title("lost-cities")
    state = title.setup(("Ana", "Bea"), {"rounds": 1})
    dealt = title.evolve(state, CardsDealt(round=1))
    drawn = CardDrawn(source="deck", card="R7", seat=0)
    assert title.public_move(drawn) == CardDrawn(source="deck", card=None, seat=0)
    assert say(title.describe(dealt, title.public_move(drawn), dealt)) == "Ana drew from the draw pile"
    assert say(title.describe(dealt, drawn, dealt)) == "Ana drew the red 7 from the draw pile"
    assert title.public_move(CardPlayed(card="Bx", seat=0)) == CardPlayed(card="Bx", seat=0)
    assert say(title.describe(dealt, CardPlayed(card="Bx", seat=0), dealt)) == "Ana played the blue wager"
    taken = CardDrawn(source="green", card="G5", seat=1)
    assert say(title.describe(dealt, title.public_move(taken), dealt)) == "Bea took the green 5 from the green discard pile"
