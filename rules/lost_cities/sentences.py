"""Moves as plain sentences with names, and each move as the public may know it.

``public_move`` keeps what the whole table saw (a card played, discarded, taken from a discard
pile) and empties what it did not (a card drawn from the draw pile, passed cards, the deal, a
digital shuffle's order, a hand shown to the recorder). ``describe`` words an event as given: a
draw without its card reads "drew from the draw pile"; the words are a ``Phrase`` (a template
key and its parameters) that the API says in the reader's language.
"""

from __future__ import annotations

import msgspec

from events.base import Event
from events.messages import Phrase, listed, phrase
from rules.lost_cities.cards import CARD_COLOUR, CARD_VALUE, COLOURS
from rules.lost_cities.events import CardDiscarded, CardDrawn, CardPlayed, CardsDealt, CardsPassed, DeckShuffled, HandRevealed
from rules.lost_cities.knowledge import player
from rules.lost_cities.scoring import outcome
from rules.lost_cities.state import DEAL, DRAW, PLAY, LostCitiesState


def public_move(event: Event) -> Event:
    """The event with what only its seat (or the recorder) saw left out."""
    replace = msgspec.structs.replace
    if isinstance(event, CardDrawn) and event.source == "deck":
        return replace(event, card=None)
    if isinstance(event, CardsPassed):
        return replace(event, cards=(None, None))
    if isinstance(event, CardsDealt):
        return replace(event, hands=())
    if isinstance(event, DeckShuffled):
        return replace(event, order=())
    if isinstance(event, HandRevealed):
        return replace(event, cards=())
    return event


def card_words(card: str) -> Phrase:
    """``R7`` -> "red 7", ``Bx`` -> "blue wager"."""
    colour = _colour(COLOURS[CARD_COLOUR[card]])
    value = CARD_VALUE[card]
    if value == 0:
        return phrase("lost-cities.wager", "{colour} wager", colour=colour)
    return phrase("lost-cities.card", "{colour} {value}", colour=colour, value=value)


def _colour(colour: str) -> Phrase:
    return phrase(f"lost-cities.colour.{colour}", colour)


def _pile(colour: str) -> Phrase:
    """A discard pile's colour: a word of its own, as a language may agree it with "pile"."""
    return phrase(f"lost-cities.pile.{colour}", colour)


def _name(state: LostCitiesState, seat: int | None) -> Phrase | str:
    if seat is not None and 0 <= seat < len(state.players):
        return state.players[seat]
    return phrase("someone", "Someone")


def describe(state: LostCitiesState, event: Event, after: LostCitiesState | None = None) -> Phrase:
    """One sentence for ``event``, recorded in ``state`` (the state before it)."""
    who = _name(state, getattr(event, "seat", None))
    if isinstance(event, CardPlayed):
        return phrase("lost-cities.played", "{who} played the {card}", who=who, card=card_words(event.card))
    if isinstance(event, CardDiscarded):
        return phrase("lost-cities.discarded", "{who} discarded the {card}", who=who, card=card_words(event.card))
    if isinstance(event, CardDrawn):
        if event.source == "deck":
            if event.card:
                return phrase(
                    "lost-cities.drew-card", "{who} drew the {card} from the draw pile", who=who, card=card_words(event.card)
                )
            return phrase("lost-cities.drew", "{who} drew from the draw pile", who=who)
        pile = _pile(event.source)
        if event.card:
            return phrase(
                "lost-cities.took",
                "{who} took the {card} from the {pile} discard pile",
                who=who,
                card=card_words(event.card),
                pile=pile,
            )
        return phrase("lost-cities.took-top", "{who} took the top card from the {pile} discard pile", who=who, pile=pile)
    if isinstance(event, CardsPassed):
        named = [card_words(c) for c in event.cards if c]
        if named:
            return phrase(
                "lost-cities.passed-cards",
                "{who} passed two cards to their partner ({cards})",
                who=who,
                cards=listed(named, last="comma"),
            )
        return phrase("lost-cities.passed", "{who} passed two cards to their partner", who=who)
    if isinstance(event, CardsDealt):
        return phrase("lost-cities.dealt", "The cards for round {round} were dealt, 8 each", round=event.round)
    if isinstance(event, DeckShuffled):
        return phrase("lost-cities.shuffled", "The deck was shuffled and dealt for round {round}", round=event.round)
    if isinstance(event, HandRevealed):
        if event.cards:
            cards = listed([card_words(c) for c in event.cards], last="comma")
            return phrase("lost-cities.showed-cards", "{who} showed their hand: {cards}", who=who, cards=cards)
        return phrase("lost-cities.showed", "{who} showed their hand", who=who)
    return phrase("event", "{name}", name=type(event).__name__)


def status_words(state: LostCitiesState) -> Phrase:
    """The one-line status (``views.status``) as a phrase the API says in the reader's language."""
    if state.phase == PLAY:
        who = player(state, state.turn)
        size = len(state.hands[state.turn]) + state.unknown[state.turn]
        if state.partnership and size >= 8:
            return phrase(
                "lost-cities.status.play-or-pass",
                "round {round}: {who} to play or discard or pass two cards to the partner",
                round=state.round,
                who=who,
            )
        return phrase("lost-cities.status.play", "round {round}: {who} to play or discard", round=state.round, who=who)
    if state.phase == DRAW:
        return phrase(
            "lost-cities.status.draw",
            "round {round}: {who} to draw (draw pile: {left} left, or the top of a discard pile)",
            round=state.round,
            who=player(state, state.turn),
            left=state.draw_pile,
        )
    if state.phase == DEAL:
        return phrase(
            "lost-cities.status.deal",
            "round {round} of {rounds}: waiting for the shuffle or the deal; {first} starts",
            round=state.round + 1,
            rounds=state.rounds,
            first=player(state, state.starting_seat),
        )
    result = outcome(state)
    assert result is not None
    scores = ", ".join(f"{state.players[s]} {result.scores[s]}" for s in range(len(state.players)))
    per_side = 2 if state.partnership else 1
    if len(result.winners) > per_side:
        return phrase(
            "lost-cities.status.tie", "game over after {rounds} {one:?round|rounds}: a tie ({scores})", rounds=state.rounds,
            one=state.rounds == 1, scores=scores
        )
    return phrase(
        "lost-cities.status.over",
        "game over after {rounds} {one:?round|rounds}: {names} {many:?win|wins} ({scores})",
        rounds=state.rounds,
        one=state.rounds == 1,
        names=listed([state.players[s] for s in result.winners], last="and"),
        many=per_side > 1,
        scores=scores,
    )
