"""What a seat, the public, or the whole log may see; and the one-line status.

Public information: every expedition, every discard pile (the whole pile: each card was shown
when discarded), the draw pile's size, each hand's size, scores so far (by round, side and
expedition). A seat also sees its own
hand (as far as the log knows it). Never shown outside ``full_view``: other hands' cards and the
digital deck order.
"""

from __future__ import annotations

from typing import Any

from rules.lost_cities import codes
from rules.lost_cities.cards import COLOURS, sort_cards
from rules.lost_cities.knowledge import draw_pile_cards, player
from rules.lost_cities.scoring import outcome, score, side_score, side_seats
from rules.lost_cities.state import DEAL, DRAW, PLAY, SIDES, LostCitiesState


def to_move(state: LostCitiesState) -> int | None:
    return state.turn if state.phase in (PLAY, DRAW) else None


def status(state: LostCitiesState) -> str:
    where = f"round {state.round}"
    if state.phase == PLAY:
        who = player(state, state.turn)
        size = len(state.hands[state.turn]) + state.unknown[state.turn]
        extra = " or pass two cards to the partner" if state.partnership and size >= 8 else ""
        return f"{where}: {who} to play or discard{extra}"
    if state.phase == DRAW:
        who = player(state, state.turn)
        return f"{where}: {who} to draw (draw pile: {state.draw_pile} left, or the top of a discard pile)"
    if state.phase == DEAL:
        first = player(state, state.starting_seat)
        return (
            f"round {state.round + 1} of {state.rounds}: waiting for the shuffle or the deal; {first} starts"
        )
    result = outcome(state)
    assert result is not None
    names = " and ".join(state.players[s] for s in result.winners)
    scores = ", ".join(f"{state.players[s]} {result.scores[s]}" for s in range(len(state.players)))
    per_side = 2 if state.partnership else 1
    rounds = f"{state.rounds} round{'' if state.rounds == 1 else 's'}"
    if len(result.winners) > per_side:
        return f"game over after {rounds}: a tie ({scores})"
    verb = "win" if per_side > 1 else "wins"
    return f"game over after {rounds}: {names} {verb} ({scores})"


def _expeditions(state: LostCitiesState, expeditions) -> list[dict[str, Any]]:
    return [
        {
            "side": side,
            "seats": side_seats(len(state.players), side),
            **{COLOURS[c]: list(cards) for c, cards in enumerate(expeditions[side])},
        }
        for side in range(SIDES)
    ]


def _sheet(state: LostCitiesState) -> list[dict[str, Any]]:
    """Each round's score by side and expedition (sum, wagers, multiplier, bonus), the round in
    progress last (``complete: false``): public, as the expeditions are."""
    keep = ("colour", "sum", "wagers", "value", "multiplier", "bonus", "score")
    return [
        {
            "round": r["round"],
            "complete": r["complete"],
            "sides": [
                {
                    "side": side["side"],
                    "score": side["score"],
                    "expeditions": [{**{k: e[k] for k in keep}, "cards": len(e["cards"])} for e in side["expeditions"]],
                }
                for side in r["sides"]
            ],
        }
        for r in score(state)["rounds"]
    ]


def _public(state: LostCitiesState) -> dict[str, Any]:
    in_round = state.phase in (PLAY, DRAW)
    return {
        "title": "lost-cities",
        "players": list(state.players),
        "partnership": state.partnership,
        "sides": [side_seats(len(state.players), side) for side in range(SIDES)],
        "rounds": state.rounds,
        "round": state.round,
        "phase": state.phase,
        "to_move": to_move(state),
        "status": status(state),
        "starting_seat": state.starting_seat,
        "expedition_order": list(COLOURS[: state.expedition_count]),
        "expeditions": _expeditions(state, state.expeditions),
        "discard_piles": {COLOURS[c]: list(pile) for c, pile in enumerate(state.discard_piles)},
        "discarded_onto": COLOURS[state.discarded_onto] if state.discarded_onto >= 0 else None,
        "draw_pile": state.draw_pile,
        "hand_sizes": [len(h) + u for h, u in zip(state.hands, state.unknown)],
        "scores": {
            "rounds": [list(r.scores) for r in state.history],
            "totals": list(state.totals),
            "round_in_progress": [side_score(e) for e in state.expeditions] if in_round else None,
            "sheet": _sheet(state),
        },
        "digital": bool(state.deck_order),
    }


def view(state: LostCitiesState, seat: int | None) -> dict[str, Any]:
    out = _public(state)
    out["seat"] = seat
    if seat is not None:
        if not isinstance(seat, int) or not 0 <= seat < len(state.players):
            codes.illegal(
                codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{n_players_minus})", seat=seat, n_players_minus=len(state.players) - 1
            )
        out["hand"] = {"cards": sort_cards(state.hands[seat]), "unknown": state.unknown[seat]}
    return out


def full_view(state: LostCitiesState) -> dict[str, Any]:
    out = _public(state)
    out["seat"] = None
    out["hands"] = [
        {"seat": s, "cards": sort_cards(h), "unknown": u}
        for s, (h, u) in enumerate(zip(state.hands, state.unknown))
    ]
    out["draw_pile_order"] = list(draw_pile_cards(state)) if state.deck_order else None
    out["history"] = [
        {
            "round": r.round,
            "starting_seat": r.starting_seat,
            "expeditions": _expeditions(state, r.expeditions),
            "scores": list(r.scores),
        }
        for r in state.history
    ]
    return out
