"""What a seat, the public, or the whole log may see; whose decision it is; the one-line status.

Public: everything on the table (map, posts, figures, resources, contracts, dice, the display, the
special pile's size and its known cards, scores so far). Secret: objective cards, which a seat
sees only for itself (``full_view`` shows all, for a finished game).
"""

from __future__ import annotations

from typing import Any

from rules.marco_polo import codes
from rules.marco_polo.content import CITY_CARD_SPACES, LARGE_CITIES, SMALL_CITIES
from rules.marco_polo_common.views import (
    SecretCards, hide_secret_scores, public_head, seat_head, seat_to_move, seat_view, status_line, whole_view,
)
from rules.marco_polo.state import (
    CONTRACTS,
    DRAFT,
    DRAW,
    KEEP,
    OVER,
    REVEAL,
    ROLL,
    ROLL_DIE,
    SETUP,
    MarcoPoloState,
)

#: what the table reports next, by phase
WAITING = {
    SETUP: "setup: waiting for the table's layout (characters, city cards, bonuses, contracts, objectives)",
    CONTRACTS: "round {round}: waiting for the six contracts of the round",
    ROLL: "round {round}: waiting for the dice roll",
    REVEAL: "after round 5: waiting for the objective cards",
}


def to_move(state: MarcoPoloState) -> int | None:
    return seat_to_move(state, (DRAFT, KEEP), (ROLL_DIE, DRAW))


def status(state: MarcoPoloState) -> str:
    from rules.marco_polo.decide import describe_pending
    from rules.marco_polo.scoring import outcome

    return status_line(state, outcome, describe_pending, WAITING)


def _seat_public(state: MarcoPoloState, seat: int) -> dict[str, Any]:
    p = state.seats[seat]
    return {
        **seat_head(state, seat),
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
    return out if state.phase == OVER else hide_secret_scores(out, seat, SECRET_SCORE)


def _public(state: MarcoPoloState, seat: int | None = None, secret: bool = True) -> dict[str, Any]:
    from rules.marco_polo.scoring import score

    return {
        **public_head(state, "marco-polo", to_move(state), status(state), _seat_public),
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


SECRET_CARDS = SecretCards("objectives", "dealt_objectives", "all_objectives", "all_dealt_objectives", lambda p: list(p.objectives))


def view(state: MarcoPoloState, seat: int | None) -> dict[str, Any]:
    return seat_view(state, seat, codes, _public, SECRET_CARDS)


def full_view(state: MarcoPoloState) -> dict[str, Any]:
    return whole_view(state, _public, SECRET_CARDS)
