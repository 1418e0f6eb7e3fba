"""Lifecycle events shared by every title: creation, the end, and history edits."""

from __future__ import annotations

from typing import Any

from events.base import Event
from events.errors import NoteRefused


class GameCreated(Event, frozen=True, tag="game.created"):
    """The first event of every game: what is played, by whom, with which options."""

    title: str
    players: tuple[str, ...]
    options: dict[str, Any] = {}
    seed: int | None = None
    #: content pack id and hash (titles whose components are data)
    content: dict[str, str] | None = None


class GameEnded(Event, frozen=True, tag="game.ended"):
    """The final result as the rules computed it when the game ended (a score-only game's as its
    source had it; ``scores`` empty where the source named its winners alone).

    Kept in the log so that a later rules change that would alter the result is detected
    rather than silently rewriting history.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


class ScoreOnly(Event, frozen=True, tag="game.score-only"):
    """Second event of a game played elsewhere and recorded by its result alone (a BG Stats play):
    there are no moves, and the ``game.ended`` that follows holds the scores as the source had them.

    ``ref`` is the play's id at its source (BG Stats' play ``uuid``), so the same play is imported
    once. ``played_at`` (UTC, ISO 8601) is when it was played, not when it was imported.
    """

    source: str
    ref: str
    played_at: str
    duration_min: int | None = None
    #: the seat that started, when the source says
    start_seat: int | None = None
    location: str | None = None


def score_only_end(
    scores: tuple[int, ...], winners: tuple[int, ...], ranks: tuple[int, ...] | None = None, seats: int | None = None
) -> GameEnded:
    """The end of a score-only game: the source's ranks where they fit its winners, else the winners
    rank 1 and the others by score (dense, from 2). No ``scores`` (of ``seats`` seats): the source
    named the winners alone, and everyone else ranks 2."""
    seats = len(scores) if seats is None else seats
    if not scores and (ranks is None or not fitting_ranks(ranks, winners, seats)):
        ranks = tuple(1 if seat in winners else 2 for seat in range(seats))
    elif ranks is None or not fitting_ranks(ranks, winners, seats):
        others = sorted({s for seat, s in enumerate(scores) if seat not in winners}, reverse=True)
        ranks = tuple(1 if seat in winners else 2 + others.index(s) for seat, s in enumerate(scores))
    return GameEnded(scores=tuple(scores), ranks=tuple(ranks), winners=tuple(sorted(winners)))


def fitting_ranks(ranks: tuple[int, ...], winners: tuple[int, ...], seats: int) -> bool:
    """Ranks of every seat from 1, where exactly the winners rank 1."""
    return (
        len(ranks) == seats
        and all(isinstance(r, int) and 1 <= r <= seats for r in ranks)
        and {seat for seat, r in enumerate(ranks) if r == 1} == set(winners)
    )


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


#: a note's longest text, in characters
NOTE_MAX_CHARS = 500


class Noted(Event, frozen=True, tag="game.annotated"):
    """A note the table wrote on one step: the step whose event is raw ``seq`` (the ``seq`` of its
    replay frame). It never changes the state and is not a move; it follows its step through undo,
    redo and amendments (``events/history.py``)."""

    seq: int
    text: str


def check_note(text: str) -> str:
    """The note's text with its ends trimmed; refused empty, longer than ``NOTE_MAX_CHARS`` or with
    control characters other than line breaks and tabs."""
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        raise NoteRefused("a note needs some text", code="note-empty")
    if len(text) > NOTE_MAX_CHARS:
        raise NoteRefused(
            "a note holds at most {max_chars} characters, not {chars}", params=dict(max_chars=NOTE_MAX_CHARS, chars=len(text)),
            code="note-too-long",
        )
    if any((ord(c) < 32 and c not in "\n\t") or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in text):
        raise NoteRefused("a note cannot hold control characters", code="note-control-characters")
    return text


LIFECYCLE_EVENTS: tuple[type[Event], ...] = (GameCreated, GameEnded, Undone, Redone, Amended, Forked, ScoreOnly, Noted)
HISTORY_EDITS: tuple[type[Event], ...] = (Undone, Redone, Amended)
#: events that are not steps of the effective history: the edits, and notes on steps
NOT_STEPS: tuple[type[Event], ...] = (*HISTORY_EDITS, Noted)
