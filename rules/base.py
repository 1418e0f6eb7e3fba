"""The one small interface every title implements (OpenSpiel's Game/State split, functional style).

A title is pure: states are immutable values, ``decide`` turns a move into events or raises
``IllegalMove`` naming the rule, ``evolve`` folds one already-validated event. Chance enters only
through events: ``chance`` says what the table must report next (a shuffle, a roll) so that a
digital game can draw it from a seeded generator *outside* the rules and record the outcome.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

import msgspec

from events.base import Event

S = TypeVar("S")


class Outcome(msgspec.Struct, frozen=True):
    """Final result: one score per seat, rank 1 = best (ties share a rank), winners by seat."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


class Chance(msgspec.Struct, frozen=True):
    """What chance must decide next, for a digital game to draw outside the rules core.

    ``kind == "shuffle"``: a permutation of ``items``; ``kind == "dice"``: ``count`` values in 1..``sides``.
    """

    kind: Literal["shuffle", "dice"]
    items: tuple[str, ...] = ()
    count: int = 0
    sides: int = 6


class Title(Protocol, Generic[S]):
    """What the replay, projection and API layers need from a title; nothing more."""

    id: ClassVar[str]
    name: ClassVar[str]
    event_types: ClassVar[tuple[type[Event], ...]]
    state_type: ClassVar[type]

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> S:
        """The state before any move; raises InvalidOptions."""

    def decide(self, state: S, move: Event) -> tuple[Event, ...]:
        """Validate a move (possibly incomplete, e.g. without ``seat``) and return the completed events."""

    def evolve(self, state: S, event: Event) -> S:
        """Fold one validated event. Pure; never mutates ``state``."""

    def legal_moves(self, state: S) -> list[Event]:
        """Every move the recorder may pick now (facts unknown to the recorder left as None)."""

    def to_move(self, state: S) -> int | None:
        """The seat whose decision it is; None when the table must report a fact, or when over."""

    def status(self, state: S) -> str:
        """One human line: whose turn and what is expected."""

    def chance(self, state: S) -> Chance | None:
        """The chance outcome the game waits for, if any."""

    def chance_event(self, state: S, outcome: tuple[Any, ...]) -> Event:
        """The event that records a chance outcome drawn outside the rules core."""

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: the public); secrets of other seats stripped."""

    def full_view(self, state: S) -> dict[str, Any]:
        """Everything known to the log (for a finished game)."""

    def score(self, state: S) -> dict[str, Any]:
        """Score breakdown by source (per seat, per round where the title has rounds)."""

    def outcome(self, state: S) -> Outcome | None:
        """The final result once the game is over, else None."""

    def parse_move(self, state: S, text: str) -> Event:
        """The title's human notation to a move; raises IllegalMove(code='<title>.bad-notation')."""

    def format_move(self, event: Event) -> str:
        """A move or event in the title's human notation (round-trips with parse_move)."""

    # Optional, for the web page's start form and drawings: ``options_type`` (the msgspec Struct of
    # the options), ``table_content(state | None) -> dict | None`` (the public content a game is
    # drawn with: the pack it pins plus components its log described; None: the title's own pack)
    # and ``dice_groups(state) -> list[int]`` (how a roll of many dice splits by seat).
    #
    # Optional: ``after_end`` (a tuple of event types), the facts the table may still record once the
    # game has ended, e.g. a hand shown to check the log; they change no score.
    #
    # Optional: ``described(state, event) -> tuple[str, ...]``, the components (``"kind:id"``) the
    # step that led to ``state`` rests on although the game's content pack lacks them (described
    # by the events instead). Replay frames mark such steps; titles without packs leave it out.
    #
    # Optional: ``public_move(event) -> Event``, the move as the whole table saw it (hidden facts
    # emptied: a card drawn from a pile, passed cards); replay frames show its notation to
    # followers. Without it a move stays hidden from those who may not read it.
    # Optional: ``describe(state, event, after) -> Phrase``, one plain sentence with names for an
    # event recorded in ``state`` (``after``: the state it led to), worded from the event as given
    # (a template key and its parameters, ``events.messages``: the API says it in a language).
    # Optional: ``status_words(state) -> Phrase``, ``status`` as such a phrase.
