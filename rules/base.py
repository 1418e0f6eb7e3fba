"""The one small interface every title implements (OpenSpiel's Game/State split, functional style).

A title is pure: states are immutable values, ``decide`` turns a move into events or raises
``IllegalMove`` naming the rule, ``evolve`` folds one already-validated event. Chance enters only
through events: ``chance`` says what the table must report next (a shuffle, a roll) so that a
digital game can draw it from a seeded generator *outside* the rules and record the outcome.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Literal, TypeVar

import msgspec

from events.base import Event
from events.messages import Phrase

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


class Title(Generic[S]):
    """What the replay, projection and API layers need from a title; nothing more.

    A title subclasses this and implements the methods that raise ``NotImplementedError``; the
    optional capabilities below have defaults that mean "the title has no such thing", so a
    caller never probes for them. ``rules.register_title`` checks a title before it is used.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    event_types: ClassVar[tuple[type[Event], ...]]
    state_type: ClassVar[type]
    #: the rules' version, part of every snapshot's key (a change of rules never reads an old fold)
    version: ClassVar[str] = "1"
    #: the msgspec Struct of the options, for the page's start form; None: the title has none
    options_type: ClassVar[type[msgspec.Struct] | None] = None
    #: the facts the table may still record once the game has ended (a hand shown to check the
    #: log); they change no score
    after_end: ClassVar[tuple[type[Event], ...]] = ()
    #: the rule codes ``decide`` may refuse with
    codes: ClassVar[tuple[str, ...]] = ()

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> S:
        """The state before any move; raises InvalidOptions."""
        raise NotImplementedError

    def decide(self, state: S, move: Event) -> tuple[Event, ...]:
        """Validate a move (possibly incomplete, e.g. without ``seat``) and return the completed events."""
        raise NotImplementedError

    def evolve(self, state: S, event: Event) -> S:
        """Fold one validated event. Pure; never mutates ``state``."""
        raise NotImplementedError

    def legal_moves(self, state: S) -> list[Event]:
        """Every move the recorder may pick now (facts unknown to the recorder left as None)."""
        raise NotImplementedError

    def to_move(self, state: S) -> int | None:
        """The seat whose decision it is; None when the table must report a fact, or when over."""
        raise NotImplementedError

    def status(self, state: S) -> str:
        """One human line: whose turn and what is expected."""
        raise NotImplementedError

    def chance(self, state: S) -> Chance | None:
        """The chance outcome the game waits for, if any."""
        raise NotImplementedError

    def chance_event(self, state: S, outcome: tuple[Any, ...]) -> Event:
        """The event that records a chance outcome drawn outside the rules core."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: the public); secrets of other seats stripped."""
        raise NotImplementedError

    def full_view(self, state: S) -> dict[str, Any]:
        """Everything known to the log (for a finished game)."""
        raise NotImplementedError

    def score(self, state: S) -> dict[str, Any]:
        """Score breakdown by source (per seat, per round where the title has rounds)."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        """The final result once the game is over, else None."""
        raise NotImplementedError

    def parse_move(self, state: S, text: str) -> Event:
        """The title's human notation to a move; raises IllegalMove(code='<title>.bad-notation')."""
        raise NotImplementedError

    def format_move(self, event: Event) -> str:
        """A move or event in the title's human notation (round-trips with parse_move)."""
        raise NotImplementedError

    # -- optional: each default says the title has no such thing ----------------------------------

    def table_content(self, state: S | None = None) -> dict[str, Any] | None:
        """The public content a game (or, without a state, any game) is drawn with: the pack it
        pins plus components its log described; None: nothing beyond the rules."""
        return None

    def dice_groups(self, state: S) -> list[int] | None:
        """How a roll of many dice splits by seat; None: one group."""
        return None

    def described(self, state: S, event: Event) -> tuple[str, ...]:
        """The components (``"kind:id"``) the step that led to ``state`` rests on although the
        game's content pack lacks them (described by the events instead)."""
        return ()

    def public_move(self, event: Event) -> Event | None:
        """The move as the whole table saw it (hidden facts emptied); None: a move stays hidden
        from those who may not read it."""
        return None

    def describe(self, state: S, event: Event, after: S) -> Phrase | None:
        """One plain sentence with names for an event recorded in ``state`` (``after``: the state
        it led to); None: the event's kind in words."""
        return None

    def status_words(self, state: S) -> Phrase | None:
        """``status`` as a phrase the API says in a language; None: ``status`` as it is."""
        return None

    def round_of(self, state: S) -> int | None:
        """The round the game is in (or just finished); None: the title has no rounds."""
        return None

    def score_after(self, state: S, public_only: bool) -> tuple[int, ...] | None:
        """Each seat's score now by the end's scoring (``public_only``: only what lies open on the
        table counts); None: the title keeps no score during play."""
        return None


class PackedTitle(Title[S]):
    """A title whose components are data: content packs, shipped with it and listed read-only."""

    #: the pack a game pins when its options name none (``{"id", "hash"}``)
    content: ClassVar[dict[str, str]]

    def builtin_packs(self) -> tuple[dict[str, Any], ...]:
        """The packs the title ships, as data."""
        raise NotImplementedError


class GrowingPacks(PackedTitle[S]):
    """A title whose packs a store may add to, derive from and grow from its games."""

    def load_pack(self, data: Any) -> Any:
        raise NotImplementedError

    def register_pack(self, pack: Any) -> Any:
        raise NotImplementedError

    def pack_components(self, data: dict) -> dict[str, int]:
        raise NotImplementedError

    def derive_pack(self, data: dict, new_id: str, add: Any = (), replace: Any = (), remove: Any = ()) -> dict:
        raise NotImplementedError

    def diff_packs(self, a: dict, b: dict) -> dict[str, list[dict]]:
        raise NotImplementedError

    def merge_packs(self, a: dict, b: dict, new_id: str, keep: Any = ()) -> dict[str, Any]:
        raise NotImplementedError

    def grow_pack(self, data: dict, new_id: str, states: Any) -> tuple[dict | None, list[dict], list[dict]]:
        raise NotImplementedError

    def pack_forms(self) -> dict[str, Any]:
        raise NotImplementedError


#: the methods every title implements itself (the base's raise NotImplementedError)
REQUIRED = (
    "setup", "decide", "evolve", "legal_moves", "to_move", "status", "chance", "chance_event",
    "view", "full_view", "score", "outcome", "parse_move", "format_move",
)
