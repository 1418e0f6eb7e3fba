"""What a seat, the public, or the whole log may see; whose decision it is; the one-line status.

Secret: goal cards (dealt and kept), which a seat sees only for itself until the end; the goal
card's part of the score is hidden with them.
"""

from __future__ import annotations

from typing import Any

from rules.marco_polo_2 import codes
from rules.marco_polo_common.views import (
    SecretCards, hide_secret_scores, public_head, seat_head, seat_to_move, seat_view, status_line, whole_view,
)
from rules.marco_polo_2.state import (
    OVER, PICKS, REFILL, REVEAL, ROLL, ROLL_DIE, ROUND, SETUP, MP2State, pack_of,
)

#: score fields that would betray another seat's goal card before the end
SECRET_SCORE = ("goal_seals", "shields")

#: what the table reports next, by phase
WAITING = {
    SETUP: "setup: waiting for the table's layout (characters, contracts, goal cards, board)",
    ROUND: "round {next_round}: waiting for the offer tiles and action-area city cards",
    ROLL: "round {round}: waiting for the dice roll",
    REVEAL: "after the last round: waiting for the goal cards",
}


def to_move(state: MP2State) -> int | None:
    return seat_to_move(state, (PICKS,), (ROLL_DIE, REFILL))


def status(state: MP2State) -> str:
    from rules.marco_polo_2.decide import describe_pending
    from rules.marco_polo_2.scoring import outcome

    return status_line(state, outcome, describe_pending, WAITING)


def _seat_public(state: MP2State, seat: int) -> dict[str, Any]:
    p = state.seats[seat]
    return {
        **seat_head(state, seat), "jade": p.jade, "vp": p.vp, "figures": list(p.figures),
        "posts": list(p.posts), "posts_left": p.posts_left, "contracts": list(p.contracts),
        "completed": list(p.completed), "seals": list(p.seals), "improved": list(p.improved), "dice": list(p.dice),
        "black": list(p.black), "pieces": list(p.pieces), "used_spaces": list(p.used),
        "compensation_due": p.compensation, "caravans": [list(c) for c in p.caravans], "outpost_tiles": list(p.tiles),
    }


def _score_for(state: MP2State, seat: int | None) -> dict[str, Any]:
    from rules.marco_polo_2.scoring import score

    out = score(state)
    return out if state.phase == OVER else hide_secret_scores(out, seat, SECRET_SCORE, blank=("shields_count",))


def _public(state: MP2State, seat: int | None, secret: bool = True) -> dict[str, Any]:
    from rules.marco_polo_2.scoring import score

    return {
        **public_head(state, "marco-polo-2", to_move(state), status(state), _seat_public, content=pack_of(state).id),
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


SECRET_CARDS = SecretCards("goal", "dealt_goals", "all_goals", "all_dealt_goals", lambda p: p.goal)


def view(state: MP2State, seat: int | None) -> dict[str, Any]:
    return seat_view(state, seat, codes, _public, SECRET_CARDS)


def full_view(state: MP2State) -> dict[str, Any]:
    return whole_view(state, _public, SECRET_CARDS)
