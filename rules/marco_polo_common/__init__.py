"""What The Voyages of Marco Polo and Marco Polo II share because their rules really are the same:
the score sheet and the final ranking (most VP, then most camels, else a shared win), the
compensation for a low roll, and the +/-1 bonus action that never wraps 6 <-> 1. Pure functions,
no title knowledge."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.base import Outcome


def ranked_by_camels(scores: Sequence[int], camels: Sequence[int]) -> Outcome:
    """Ranks by (score, camels), dense; seats equal on both share the rank and the victory."""
    keys = list(zip(scores, camels))
    distinct = sorted(set(keys), reverse=True)
    ranks = tuple(distinct.index(k) + 1 for k in keys)
    return Outcome(scores=tuple(scores), ranks=ranks, winners=tuple(s for s, r in enumerate(ranks) if r == 1))


def compensation(values: Sequence[int], total: int) -> int:
    """Coins or camels due for a roll below ``total`` (the difference; 0 otherwise)."""
    return max(0, total - sum(values))


def turns(value: int, delta: int) -> bool:
    """Whether a die may turn by ``delta`` (+1 / -1): never past 1 or 6."""
    return delta in (1, -1) and 1 <= value + delta <= 6


def totalled(row: dict[str, int], end_sources: tuple[str, ...]) -> dict[str, int]:
    """A seat's breakdown row with its ``final`` (the end's sources summed) and ``total``."""
    row["final"] = sum(row[k] for k in end_sources)
    row["total"] = row["in_game"] + row["final"]
    return row


def score_sheet(state: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The score breakdown both titles show: per seat (player, character, camels, points by source),
    totals, and the in-game VP of each round so far."""
    return {
        "round": state.round,
        "final": state.phase == "over",
        "seats": [
            {"seat": s, "player": state.players[s], "character": p.character, "camels": p.camels, **rows[s]}
            for s, p in enumerate(state.seats)
        ],
        "totals": [r["total"] for r in rows],
        "rounds": [{"round": i + 1, "in_game_vp": list(track)} for i, track in enumerate(state.round_vp)],
    }


def scoring(breakdown: Callable[[Any], list[dict[str, int]]]) -> tuple[Callable[[Any], dict[str, Any]], Callable[[Any], Outcome | None], Callable[[Any, bool], tuple[int, ...]]]:
    """A title's ``score`` (its sheet), ``outcome`` (None until the game is over; ranked by total,
    then camels, seats equal on both sharing the rank and the victory) and ``score_after`` (each
    seat's score now: the score track alone while it is public only, else the end's whole sum as if
    the game ended here), all read from ``breakdown``."""

    def score(state: Any) -> dict[str, Any]:
        return score_sheet(state, breakdown(state))

    def outcome(state: Any) -> Outcome | None:
        if state.phase != "over":
            return None
        return ranked_by_camels([r["total"] for r in breakdown(state)], [p.camels for p in state.seats])

    def score_after(state: Any, public_only: bool) -> tuple[int, ...]:
        if public_only:
            return tuple(p.vp for p in state.seats)
        return tuple(r["total"] for r in breakdown(state))

    return score, outcome, score_after


__all__ = ["compensation", "ranked_by_camels", "score_sheet", "scoring", "totalled", "turns"]
