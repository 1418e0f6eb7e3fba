"""Tournament nights, kept as events of their own stream in the same log as the games.

A night's stream id is ``night-`` and a time-ordered id. ``night.opened`` names its title, players,
rounds and seed; each round's draw is a ``night.round_drawn`` holding the inputs it was drawn from
(who was present, their night points and ratings) beside the tables and their games, so the draw
can be made again from the log alone; late players and drops are events too.
"""

from __future__ import annotations

from typing import Any

from events.base import Event
from events.log import new_game_id

#: the stream ids of nights begin so; no game id may
NIGHT_PREFIX = "night-"


class NightOpened(Event, frozen=True, tag="night.opened"):
    """A night: its name, the title every table plays (with these options), how many rounds, the
    draws' seed, the players."""

    name: str
    title: str
    rounds: int
    seed: str
    players: tuple[str, ...]
    options: dict[str, Any] = {}


class NightRoundDrawn(Event, frozen=True, tag="night.round_drawn"):
    """A round's draw: its tables (names in seat order) and each table's game, who sat out, and
    what it was drawn from: the players present, their night points and ratings (same order)."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    games: tuple[str, ...]
    byes: tuple[str, ...]
    present: tuple[str, ...]
    points: tuple[float, ...]
    ratings: tuple[float, ...]


class NightPlayerJoined(Event, frozen=True, tag="night.player_joined"):
    """A player who came late (or came back after a drop): in the draws from the next round on."""

    player: str


class NightPlayerDropped(Event, frozen=True, tag="night.player_dropped"):
    """A player who left: in no draw from the next round on (a game at a table goes on)."""

    player: str


NIGHT_EVENTS: tuple[type[Event], ...] = (NightOpened, NightRoundDrawn, NightPlayerJoined, NightPlayerDropped)


def is_night(stream_id: str) -> bool:
    """Whether a stream of the log is a night's rather than a game's."""
    return stream_id.startswith(NIGHT_PREFIX)


def new_night_id() -> str:
    return NIGHT_PREFIX + new_game_id()
