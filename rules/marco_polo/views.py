"""What a seat, the public, or the whole log may see; whose decision it is; the one-line status.

Public: everything on the table (map, posts, figures, resources, contracts, dice, the display, the
special pile's size and its known cards, scores so far). Secret: objective cards, which a seat
sees only for itself (``full_view`` shows all, for a finished game).
"""

from __future__ import annotations

from typing import Any

from rules.marco_polo import codes
from rules.marco_polo.content import CITY_CARD_SPACES, LARGE_CITIES, SMALL_CITIES
from rules.marco_polo.state import (
    CONTRACTS,
    DRAFT,
    DRAW,
    KEEP,
    OVER,
    PLAY,
    REVEAL,
    ROLL,
    ROLL_DIE,
    SETUP,
    MarcoPoloState,
)


def to_move(state: MarcoPoloState) -> int | None:
    if state.phase in (DRAFT, KEEP):
        return state.pending[0][1] if state.pending else None
    if state.phase != PLAY:
        return None
    if state.pending:
        kind, seat, _ = state.pending[0]
        if kind in (ROLL_DIE, DRAW):
            return None
        return seat
    return state.turn


def status(state: MarcoPoloState) -> str:
    from rules.marco_polo.decide import describe_pending
    from rules.marco_polo.scoring import outcome

    if state.phase == SETUP:
        return "setup: waiting for the table's layout (characters, city cards, bonuses, contracts, objectives)"
    if state.phase == OVER:
        result = outcome(state)
        scores = ", ".join(f"{state.players[s]} {result.scores[s]}" for s in range(state.n))
        names = " and ".join(state.players[s] for s in result.winners)
        return f"game over: {names} {'win' if len(result.winners) > 1 else 'wins'} ({scores})"
    where = f"round {state.round}"
    if state.pending:
        return f"{where}: {describe_pending(state)}"
    if state.phase == CONTRACTS:
        return f"{where}: waiting for the six contracts of the round"
    if state.phase == ROLL:
        return f"{where}: waiting for the dice roll"
    if state.phase == REVEAL:
        return "after round 5: waiting for the objective cards"
    who = state.players[state.turn]
    if state.main_done:
        return f"{where}: {who} may take bonus actions, then ends the turn"
    return f"{where}: {who} to take a main action (bonus actions before or after)"


def _seat_public(state: MarcoPoloState, seat: int) -> dict[str, Any]:
    p = state.seats[seat]
    return {
        "seat": seat,
        "player": state.players[seat],
        "character": p.character,
        "coins": p.coins,
        "camels": p.camels,
        "pepper": p.pepper,
        "silk": p.silk,
        "gold": p.gold,
        "vp": p.vp,
        "figures": list(p.figures),
        "posts": list(p.posts),
        "posts_left": p.posts_left,
        "contracts": list(p.contracts),
        "completed": list(p.completed),
        "dice": list(p.dice),
        "black": list(p.black),
        "white": list(p.white),
        "used_spaces": list(p.used),
        "compensation_due": p.compensation,
        "objectives": len(p.objectives),
    }


SECRET_SCORE = ("objectives", "objective_cities")


def _score_for(state: MarcoPoloState, seat: int | None) -> dict[str, Any]:
    """The score, without other seats' objective VP before the end (they would betray the cards)."""
    from rules.marco_polo.scoring import score

    out = score(state)
    if state.phase == OVER:
        return out
    for row in out["seats"]:
        if row["seat"] != seat:
            hidden = sum(row[k] for k in SECRET_SCORE)
            for k in SECRET_SCORE:
                row[k] = None
            row["final"] -= hidden
            row["total"] -= hidden
    out["totals"] = [row["total"] for row in out["seats"]]
    return out


def _public(state: MarcoPoloState, seat: int | None = None, secret: bool = True) -> dict[str, Any]:
    from rules.marco_polo.scoring import score

    return {
        "title": "marco-polo",
        "players": list(state.players),
        "round": state.round,
        "phase": state.phase,
        "to_move": to_move(state),
        "status": status(state),
        "start_seat": state.start_seat,
        "turn": state.turn,
        "main_done": state.main_done,
        "pending": [list(p) for p in state.pending],
        "seats": [_seat_public(state, s) for s in range(state.n)],
        "city_cards": dict(zip(CITY_CARD_SPACES, state.city_cards)),
        "outposts": dict(zip(LARGE_CITIES, state.outposts)),
        "city_bonuses": dict(zip(SMALL_CITIES, state.city_bonuses)),
        "beijing": list(state.beijing),
        "display": list(state.display),
        "special_pile": {"size": len(state.special), "known": [k for k in state.special if k is not None]},
        "black_dice_left": state.black_supply,
        "board": [list(x) for x in state.board],
        "draft": list(state.draft),
        "score": _score_for(state, seat) if secret else score(state),
    }


def view(state: MarcoPoloState, seat: int | None) -> dict[str, Any]:
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.n):
        codes.illegal(codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{state_n_minus})", seat=seat, state_n_minus=state.n - 1)
    out = _public(state, seat)
    out["seat"] = seat
    if seat is not None:
        p = state.seats[seat]
        out["objectives"] = list(p.objectives)
        out["dealt_objectives"] = list(p.dealt)
    if state.phase == OVER:
        out["all_objectives"] = [list(p.objectives) for p in state.seats]
    return out


def full_view(state: MarcoPoloState) -> dict[str, Any]:
    out = _public(state, None, secret=False)
    out["seat"] = None
    out["all_objectives"] = [list(p.objectives) for p in state.seats]
    out["all_dealt_objectives"] = [list(p.dealt) for p in state.seats]
    return out
