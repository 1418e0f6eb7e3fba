"""What a title's statistics read model provides: its tables and the facts of one finished game.

A title's module (``projections/stats/<title id with _>.py``) defines ``MODEL``, an instance of a
``TitleStats`` subclass; the registry finds it by the title id, so a new title is picked up by
adding that module and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

import pyarrow as pa

from projections.fold import GameState
from events.base import Event

#: one canned question of a title: (connection, selection CTE sql, its parameters) -> rows
Question = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Finished:
    """A folded game as the statistics see it: its final state and its effective history."""

    game_id: str
    game: GameState
    #: the bodies of the effective history, creation first
    bodies: list[Event]

    @property
    def state(self) -> Any:
        return self.game.state


class TitleStats:
    """Base of every title's statistics read model."""

    #: the title id this model describes
    title: ClassVar[str]
    #: the title's own tables (each has ``game_id`` first), by name; their names are the SQL views
    tables: ClassVar[dict[str, pa.Schema]] = {}
    #: a column description per table, for the README and ``GET /sql/views``
    docs: ClassVar[dict[str, str]] = {}
    #: the column of the title's seats table that breaks a tie on points (None: the title has none)
    tiebreak: ClassVar[str | None] = None

    def rounds(self, game: GameState) -> int:
        """Rounds played (0 where the title has none)."""
        return 0

    def first_seat(self, game: GameState) -> int:
        """The seat that made the first move of the game."""
        return 0

    def teams(self, game: GameState) -> list[int]:
        """Per seat its team (seats sharing a team share a score); by default every seat alone."""
        return list(range(len(game.players)))

    def options(self, game: GameState) -> dict[str, Any]:
        """The options in force, defaults filled in (so a filter on a default matches)."""
        return dict(game.created.options)

    def sources(self, game: GameState) -> list[dict[str, int]]:
        """Per seat, points by source; the sources add up to the seat's score."""
        return [{"total": s} for s in game.ended.scores] if game.ended else []

    def facts(self, finished: Finished) -> dict[str, list[dict[str, Any]]]:
        """Rows of the title's own tables for one finished game."""
        return {}
