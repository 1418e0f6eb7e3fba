"""What a seat, the public, or the whole log may see; whose decision it is; the one-line status.

Secret: goal cards (dealt and kept), which a seat sees only for itself until the end; the goal
card's part of the score is hidden with them.
"""

from __future__ import annotations

from typing import Any

from rules.marco_polo_2 import codes
from rules.marco_polo_2.state import (
    OVER, PICKS, PLAY, REFILL, REVEAL, ROLL, ROLL_DIE, ROUND, SETUP, MP2State, pack_of,
)

#: score fields that would betray another seat's goal card before the end
SECRET_SCORE = ("goal_seals", "shields")


def to_move(state: MP2State) -> int | None:
    if state.phase == PICKS:
        return state.pending[0][1] if state.pending else None
    if state.phase != PLAY:
        return None
    if state.pending:
        kind, seat, _ = state.pending[0]
        return None if kind in (ROLL_DIE, REFILL) else seat
    return state.turn


def status(state: MP2State) -> str:
    from rules.marco_polo_2.decide import describe_pending
    from rules.marco_polo_2.scoring import outcome

    if state.phase == SETUP:
        return "setup: waiting for the table's layout (characters, contracts, goal cards, board)"
    if state.phase == OVER:
        result = outcome(state)
        scores = ", ".join(f"{state.players[s]} {result.scores[s]}" for s in range(state.n))
        names = " and ".join(state.players[s] for s in result.winners)
        return f"game over: {names} {'win' if len(result.winners) > 1 else 'wins'} ({scores})"
    if state.pending:
        return f"round {state.round}: {describe_pending(state)}"
    if state.phase == ROUND:
        return f"round {state.round + 1}: waiting for the offer tiles and action-area city cards"
    if state.phase == ROLL:
        return f"round {state.round}: waiting for the dice roll"
    if state.phase == REVEAL:
        return "after the last round: waiting for the goal cards"
    who = state.players[state.turn]
    if state.main_done:
        return f"round {state.round}: {who} may take bonus actions, then ends the turn"
    return f"round {state.round}: {who} to take a main action (bonus actions before or after)"


def _seat_public(state: MP2State, seat: int) -> dict[str, Any]:
    p = state.seats[seat]
    return {
        "seat": seat, "player": state.players[seat], "character": p.character, "coins": p.coins, "camels": p.camels,
        "pepper": p.pepper, "silk": p.silk, "gold": p.gold, "jade": p.jade, "vp": p.vp, "figures": list(p.figures),
        "posts": list(p.posts), "posts_left": p.posts_left, "contracts": list(p.contracts),
        "completed": list(p.completed), "seals": list(p.seals), "improved": list(p.improved), "dice": list(p.dice),
        "black": list(p.black), "pieces": list(p.pieces), "used_spaces": list(p.used),
        "compensation_due": p.compensation, "caravans": [list(c) for c in p.caravans], "outpost_tiles": list(p.tiles),
    }


def _score_for(state: MP2State, seat: int | None) -> dict[str, Any]:
    from rules.marco_polo_2.scoring import score

    out = score(state)
    if state.phase == OVER:
        return out
    for row in out["seats"]:
        if row["seat"] != seat:
            hidden = sum(row[k] for k in SECRET_SCORE)
            for k in SECRET_SCORE:
                row[k] = None
            row["shields_count"] = None
            row["final"] -= hidden
            row["total"] -= hidden
    out["totals"] = [row["total"] for row in out["seats"]]
    return out


def _public(state: MP2State, seat: int | None, secret: bool = True) -> dict[str, Any]:
    from rules.marco_polo_2.scoring import score

    return {
        "title": "marco-polo-2",
        "content": pack_of(state).id,
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
        "offered": list(state.offered),
        "bonuses": [list(x) for x in state.bonuses],
        "outposts": [list(x) for x in state.outposts],
        "cards": [list(x) for x in state.cards],
        "city_contracts": [list(x) for x in state.city_contracts],
        "area_cards": list(state.area_cards),
        "offers": list(state.offers),
        "upcoming": list(state.upcoming),
        "black_dice_left": state.black_supply,
        "black_pool": list(state.black_pool),
        "board": [list(x) for x in state.board],
        "route_tiles_up": list(state.tiles_up),
        "route_tiles_down": list(state.tiles_down),
        # goal cards stay secret until the end, described or not
        "described": [[k, i] for k, i, _ in state.described if k != "goal" or state.phase == OVER or not secret],
        "score": _score_for(state, seat) if secret else score(state),
    }


def view(state: MP2State, seat: int | None) -> dict[str, Any]:
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.n):
        codes.illegal(codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{state_n_minus})", seat=seat, state_n_minus=state.n - 1)
    out = _public(state, seat)
    out["seat"] = seat
    if seat is not None:
        out["goal"] = state.seats[seat].goal
        out["dealt_goals"] = list(state.seats[seat].dealt)
    if state.phase == OVER:
        out["all_goals"] = [p.goal for p in state.seats]
    return out


def full_view(state: MP2State) -> dict[str, Any]:
    out = _public(state, None, secret=False)
    out["seat"] = None
    out["all_goals"] = [p.goal for p in state.seats]
    out["all_dealt_goals"] = [list(p.dealt) for p in state.seats]
    return out
