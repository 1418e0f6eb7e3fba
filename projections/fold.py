"""Folding a game's effective history into state through its title's rules core."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable

from events.base import Event
from events.errors import MalformedEvent
from events.lifecycle import Forked, GameCreated, GameEnded, ScoreOnly
from events.messages import Phrase, phrase
from rules import Title, get_title


@dataclass(frozen=True, slots=True)
class GameState:
    """A game's state after some prefix of its effective history."""

    title: Title
    created: GameCreated
    state: Any
    ended: GameEnded | None = None
    forked: Forked | None = None
    #: how many effective events were folded (creation included)
    length: int = 1
    #: a game recorded by its result alone: no moves were folded into ``state``
    score_only: ScoreOnly | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.created.players


def start(created: Event) -> GameState:
    if not isinstance(created, GameCreated):
        raise MalformedEvent("a game's first event must be game.created", code="not-created")
    title = get_title(created.title)
    return GameState(title, created, title.setup(created.players, created.options))


def fold(game: GameState, bodies: Iterable[Event]) -> GameState:
    """Apply validated events; lifecycle events are handled here, the rest by the title's evolve."""
    evolve = game.title.evolve
    state, ended, forked, length = game.state, game.ended, game.forked, game.length
    score_only = game.score_only
    for body in bodies:
        length += 1
        cls = body.__class__
        if cls is GameEnded:
            ended = body  # type: ignore[assignment]
        elif cls is Forked:
            forked = body  # type: ignore[assignment]
        elif cls is ScoreOnly:
            score_only = body  # type: ignore[assignment]
        else:
            state = evolve(state, body)
    return replace(game, state=state, ended=ended, forked=forked, length=length, score_only=score_only)


#: how a score-only game's source is named to people
SOURCES = {"bgstats": "BG Stats"}


def status_line(game: GameState) -> str:
    """The title's one-line status; a score-only game's says that it has no moves."""
    if game.score_only is not None:
        source = SOURCES.get(game.score_only.source, game.score_only.source)
        return f"recorded by its result alone (imported from {source}): there are no moves to replay"
    return game.title.status(game.state)


def status_words(game: GameState) -> Phrase:
    """``status_line`` as a phrase (the title's ``status_words``) for the API to say in a language."""
    if game.score_only is not None:
        source = SOURCES.get(game.score_only.source, game.score_only.source)
        return phrase(
            "status.score-only",
            "recorded by its result alone (imported from {source}): there are no moves to replay",
            source=source,
        )
    words = game.title.status_words(game.state)
    if words is None:
        return phrase("status.plain", "{text}", text=game.title.status(game.state))
    return words


def fold_all(bodies: Iterable[Event]) -> GameState:
    """Fold a whole effective history, the first event being game.created."""
    iterator = iter(bodies)
    try:
        first = next(iterator)
    except StopIteration:
        raise MalformedEvent("an empty history has no game", code="not-created") from None
    return fold(start(first), iterator)
