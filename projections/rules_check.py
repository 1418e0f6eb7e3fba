"""Ended games whose recorded result today's rules (and pinned content packs) compute differently.

``game.ended`` keeps the result the rules computed when the game ended, so that a later rules
change shows instead of silently rewriting history. Nothing here writes: a differing game is named,
its log stays as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from events.base import Event
from events.errors import TabletapeError
from events.history import build
from events.lifecycle import GameEnded
from projections.fold import GameState, fold_all
from rules import Outcome


@dataclass(frozen=True, slots=True)
class ResultDiffers:
    """A recorded result and what today's rules make of the same game (None: no result)."""

    recorded: GameEnded
    today: Outcome | None
    reason: str


def result_differs(game: GameState) -> ResultDiffers | None:
    """Whether today's rules score an ended game's final state as it was recorded (None: they do)."""
    recorded = game.ended
    if recorded is None or game.score_only is not None:
        return None  # a score-only game has no moves to score: its result is its source's
    try:
        today = game.title.outcome(game.state)
    except TabletapeError as exc:
        return ResultDiffers(recorded, None, f"today's rules cannot score it ({exc.code}: {exc.message})")
    if today is None:
        return ResultDiffers(recorded, None, "today's rules would not end the game here")
    if (tuple(today.scores), tuple(today.ranks), tuple(today.winners)) == (
        tuple(recorded.scores),
        tuple(recorded.ranks),
        tuple(recorded.winners),
    ):
        return None
    return ResultDiffers(
        recorded,
        today,
        f"today's rules compute scores {list(today.scores)}, winners {list(today.winners)}; "
        f"recorded scores {list(recorded.scores)}, winners {list(recorded.winners)}",
    )


def refold_differs(bodies: Iterable[Event]) -> ResultDiffers | None:
    """Refold a whole log from ``game.created`` with today's rules (no snapshot) and compare the
    result of an ended game with the recorded one; None for a game that agrees or has not ended."""
    entries = build(bodies).entries()
    recorded = next((e.body for e in reversed(entries) if isinstance(e.body, GameEnded)), None)
    if recorded is None:
        return None
    try:
        game = fold_all(e.body for e in entries)
    except TabletapeError as exc:
        return ResultDiffers(recorded, None, f"today's rules cannot refold it ({exc.code}: {exc.message})")
    except Exception as exc:  # noqa: BLE001 - an evolve that no longer accepts a recorded event
        return ResultDiffers(recorded, None, f"today's rules cannot refold it ({type(exc).__name__}: {exc})")
    return result_differs(game)
