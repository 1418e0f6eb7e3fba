"""A club's seasons, kept as events of their own stream in the same log as the games.

A season's stream id is ``season-`` and a time-ordered id; its first event is ``season.defined``
and every correction is a ``season.amended`` appended after it, so a season, like a game, is
never updated in place and its chain is verified as a game's is.
"""

from __future__ import annotations

from events.base import Event
from events.log import new_game_id

#: the stream ids of seasons begin so; no game id may
SEASON_PREFIX = "season-"


class SeasonDefined(Event, frozen=True, tag="season.defined"):
    """A named season: the titles it counts, its first and last day (ISO dates, UTC), its members."""

    name: str
    titles: tuple[str, ...]
    starts: str
    ends: str
    members: tuple[str, ...]


class SeasonAmended(Event, frozen=True, tag="season.amended"):
    """A correction of a season: each field given replaces the one in force; None keeps it."""

    name: str | None = None
    titles: tuple[str, ...] | None = None
    starts: str | None = None
    ends: str | None = None
    members: tuple[str, ...] | None = None


SEASON_EVENTS: tuple[type[Event], ...] = (SeasonDefined, SeasonAmended)


def is_season(stream_id: str) -> bool:
    """Whether a stream of the log is a season's rather than a game's."""
    return stream_id.startswith(SEASON_PREFIX)


def is_club_stream(stream_id: str) -> bool:
    """Whether a stream of the log is no game's: a season's or a tournament night's."""
    return stream_id.startswith((SEASON_PREFIX, "night-"))


def new_season_id() -> str:
    return SEASON_PREFIX + new_game_id()
