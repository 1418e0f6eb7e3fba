"""Lost Cities (Reiner Knizia): the rules core, as the seed ``lost-cities.es.txt`` specifies it.

Modules: ``cards`` (ids, decks, tables), ``events`` (the title's event types), ``state``
(state, options, setup), ``codes`` (every error code), ``knowledge`` (where card copies are:
consistency of partial information), ``decide`` (all validation), ``evolve`` (the fast fold),
``moves`` (legal moves), ``scoring`` (score, next starting seat, outcome), ``views`` (views and
status), ``notation`` (parse / format), ``sentences`` (moves in words; what the public knows of one).
"""

from __future__ import annotations

from typing import Any, ClassVar

from events.base import Event
from events.messages import Phrase
from rules.base import Chance, Outcome, Title
from rules.lost_cities import codes
from rules.lost_cities.codes import CODES
from rules.lost_cities.decide import decide as _decide
from rules.lost_cities.events import EVENT_TYPES, CardDiscarded, CardDrawn, CardPlayed, CardsDealt, CardsPassed
from rules.lost_cities.events import DeckShuffled, HandRevealed
from rules.lost_cities.evolve import evolve as _evolve
from rules.lost_cities.moves import legal_moves as _legal_moves
from rules.lost_cities.notation import format_move as _format_move
from rules.lost_cities.notation import parse_move as _parse_move
from rules.lost_cities.scoring import outcome as _outcome
from rules.lost_cities.scoring import score as _score
from rules.lost_cities.scoring import score_after as _score_after
from rules.lost_cities.sentences import describe as _describe
from rules.lost_cities.sentences import status_words as _status_words
from rules.lost_cities.sentences import public_move as _public_move
from rules.lost_cities.state import DEAL, LostCitiesState, Options, RoundResult
from rules.lost_cities.state import setup as _setup
from rules.lost_cities.views import full_view as _full_view
from rules.lost_cities.views import status as _status
from rules.lost_cities.views import to_move as _to_move
from rules.lost_cities.views import view as _view


class LostCities(Title[LostCitiesState]):
    """The Lost Cities title (implements ``rules.base.Title``)."""

    id: ClassVar[str] = "lost-cities"
    name: ClassVar[str] = "Lost Cities"
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    state_type: ClassVar[type] = LostCitiesState
    options_type: ClassVar[type] = Options
    codes: ClassVar[tuple[str, ...]] = CODES
    #: ruling LC-10: a hand may be shown after the game, and is checked like any other fact
    after_end: ClassVar[tuple[type[Event], ...]] = (HandRevealed,)
    #: 2: a face-down pass keeps the passer's known cards as shared (LC-3); older snapshots differ
    version: ClassVar[str] = "2"

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> LostCitiesState:
        return _setup(players, options)

    def decide(self, state: LostCitiesState, move: Event) -> tuple[Event, ...]:
        return _decide(state, move)

    def evolve(self, state: LostCitiesState, event: Event) -> LostCitiesState:
        return _evolve(state, event)

    def legal_moves(self, state: LostCitiesState) -> list[Event]:
        return _legal_moves(state)

    def to_move(self, state: LostCitiesState) -> int | None:
        return _to_move(state)

    def status(self, state: LostCitiesState) -> str:
        return _status(state)

    def chance(self, state: LostCitiesState) -> Chance | None:
        if state.phase != DEAL:
            return None
        return Chance(kind="shuffle", items=state.deck)

    def chance_event(self, state: LostCitiesState, outcome: tuple[Any, ...]) -> Event:
        if state.phase != DEAL:
            codes.illegal(codes.ROUND_IN_PROGRESS, "no shuffle is expected now: {status}", status=_status_words(state))
        return DeckShuffled(round=state.round + 1, order=tuple(outcome))

    def view(self, state: LostCitiesState, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def full_view(self, state: LostCitiesState) -> dict[str, Any]:
        return _full_view(state)

    def score(self, state: LostCitiesState) -> dict[str, Any]:
        return _score(state)

    def outcome(self, state: LostCitiesState) -> Outcome | None:
        return _outcome(state)

    def round_of(self, state: LostCitiesState) -> int:
        return state.round

    def score_after(self, state: LostCitiesState, public_only: bool) -> tuple[int, ...]:
        return _score_after(state)

    def parse_move(self, state: LostCitiesState, text: str) -> Event:
        return _parse_move(state, text)

    def format_move(self, event: Event) -> str:
        return _format_move(event)

    def public_move(self, event: Event) -> Event:
        return _public_move(event)

    def describe(self, state: LostCitiesState, event: Event, after: LostCitiesState) -> Phrase:
        return _describe(state, event, after)

    def status_words(self, state: LostCitiesState) -> Phrase:
        return _status_words(state)


__all__ = [
    "CODES",
    "CardDiscarded",
    "CardDrawn",
    "CardPlayed",
    "CardsDealt",
    "CardsPassed",
    "DeckShuffled",
    "HandRevealed",
    "LostCities",
    "LostCitiesState",
    "Options",
    "RoundResult",
]
