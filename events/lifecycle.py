"""Lifecycle events shared by every title: creation, the end, and history edits."""

from __future__ import annotations

from typing import Any

from events.base import Event


class GameCreated(Event, frozen=True, tag="game.created"):
    """The first event of every game: what is played, by whom, with which options."""

    title: str
    players: tuple[str, ...]
    options: dict[str, Any] = {}
    seed: int | None = None
    #: content pack id and hash (titles whose components are data)
    content: dict[str, str] | None = None


class GameEnded(Event, frozen=True, tag="game.ended"):
    """The final result as the rules computed it when the game ended.

    Kept in the log so that a later rules change that would alter the result is detected
    rather than silently rewriting history.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


class Undone(Event, frozen=True, tag="game.undone"):
    """The effective history returns to what it was right after event ``to_seq``."""

    to_seq: int


class Redone(Event, frozen=True, tag="game.redone"):
    """Re-applies what the last undo removed, while nothing new was appended since."""


class Amended(Event, frozen=True, tag="game.amended"):
    """Replaces the body of event ``seq`` in the effective history (a mis-entered fact)."""

    seq: int
    body: dict[str, Any]


class Forked(Event, frozen=True, tag="game.forked"):
    """Second event of a forked game: the history so far was copied from ``parent_id`` up to ``at_seq``."""

    parent_id: str
    at_seq: int


LIFECYCLE_EVENTS: tuple[type[Event], ...] = (GameCreated, GameEnded, Undone, Redone, Amended, Forked)
HISTORY_EDITS: tuple[type[Event], ...] = (Undone, Redone, Amended)
