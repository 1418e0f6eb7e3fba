"""Scoring exactly as the seed says, the next round's starting seat, and the final outcome.

"Se suman los valores numéricos en cada expedición y se restan 20 de esa suma [...] si un jugador
no jugó ninguna carta en una determinada expedición, el valor de esa expedición es 0 y no -20."
"El jugador entonces multiplica el valor [...] por el número de cartas de patrocinio [...] más 1."
"cada expedición que se componga de por lo menos 8 cartas, recibe un bono de 20 puntos, que se
agrega después de la multiplicación".
"""

from __future__ import annotations

from typing import Any

from rules.base import Outcome
from rules.lost_cities.cards import CARD_VALUE, COLOURS
from rules.lost_cities.state import DRAW, OVER, PLAY, SIDES, Cards, LostCitiesState

EXPEDITION_COST = 20
BONUS_MIN_CARDS = 8
BONUS = 20


def expedition_score(cards: Cards) -> int:
    if not cards:
        return 0
    wagers = 0
    total = 0
    for card in cards:
        value = CARD_VALUE[card]
        if value:
            total += value
        else:
            wagers += 1
    score = (total - EXPEDITION_COST) * (1 + wagers)
    if len(cards) >= BONUS_MIN_CARDS:
        score += BONUS
    return score


def side_score(expeditions: tuple[Cards, ...]) -> int:
    return sum(expedition_score(cards) for cards in expeditions)


def expedition_breakdown(colour: int, cards: Cards) -> dict[str, Any]:
    wagers = sum(1 for card in cards if CARD_VALUE[card] == 0)
    total = sum(CARD_VALUE[card] for card in cards)
    started = bool(cards)
    value = total - EXPEDITION_COST if started else 0
    multiplier = 1 + wagers
    bonus = BONUS if len(cards) >= BONUS_MIN_CARDS else 0
    return {
        "colour": COLOURS[colour],
        "cards": list(cards),
        "wagers": wagers,
        "sum": total,
        "value": value,
        "multiplier": multiplier,
        "bonus": bonus,
        "score": value * multiplier + bonus,
    }


def side_seats(n_players: int, side: int) -> list[int]:
    return [seat for seat in range(n_players) if seat % SIDES == side]


def next_starting_seat(n_players: int, previous_start: int, totals: tuple[int, ...]) -> int:
    """ "El jugador con mayor número de puntos hasta el momento inicia el juego en la siguiente ronda."

    Ruling: the leading side starts; on a tie the side that did not start the previous round.
    Its starting seat is the first seat of that side after the previous starting seat in turn order.
    """
    if totals[0] != totals[1]:
        side = 0 if totals[0] > totals[1] else 1
    else:
        side = 1 - previous_start % SIDES
    for step in range(1, n_players + 1):
        seat = (previous_start + step) % n_players
        if seat % SIDES == side:
            return seat
    raise AssertionError("unreachable")  # pragma: no cover


def _round_breakdown(
    state: LostCitiesState, round_no: int, starting_seat: int, expeditions, totals_before, complete: bool
) -> tuple[dict[str, Any], list[int]]:
    sides = []
    running = []
    for side in range(SIDES):
        exps = [expedition_breakdown(c, cards) for c, cards in enumerate(expeditions[side])]
        side_total = sum(e["score"] for e in exps)
        running.append(totals_before[side] + side_total)
        sides.append(
            {
                "side": side,
                "seats": side_seats(len(state.players), side),
                "players": [state.players[s] for s in side_seats(len(state.players), side)],
                "expeditions": exps,
                "score": side_total,
                "running_total": running[-1],
            }
        )
    return (
        {"round": round_no, "complete": complete, "starting_seat": starting_seat, "sides": sides},
        running,
    )


def score(state: LostCitiesState) -> dict[str, Any]:
    """Per round, per side, per expedition: cards, wagers, sum, value, multiplier, bonus, score;
    plus running totals. A round in progress is included with ``complete: false``."""
    rounds = []
    totals = [0] * SIDES
    for result in state.history:
        breakdown, totals = _round_breakdown(
            state, result.round, result.starting_seat, result.expeditions, totals, True
        )
        rounds.append(breakdown)
    provisional = list(totals)
    if state.phase in (PLAY, DRAW):
        breakdown, provisional = _round_breakdown(
            state, state.round, state.starting_seat, state.expeditions, totals, False
        )
        rounds.append(breakdown)
    n = len(state.players)
    return {
        "expedition_order": list(COLOURS[: state.expedition_count]),
        "rounds": rounds,
        "totals": {
            "sides": list(totals),
            "seats": [totals[seat % SIDES] for seat in range(n)],
            "with_round_in_progress": {
                "sides": list(provisional),
                "seats": [provisional[seat % SIDES] for seat in range(n)],
            },
        },
        "rounds_played": len(state.history),
        "rounds_agreed": state.rounds,
    }


def outcome(state: LostCitiesState) -> Outcome | None:
    """ "El jugador con mayor cantidad de puntos es el ganador." Both partners get their side's score.

    Ranks are dense (1 = best; equal scores share a rank; the next score gets the next rank)."""
    if state.phase != OVER:
        return None
    scores = tuple(state.totals[seat % SIDES] for seat in range(len(state.players)))
    distinct = sorted(set(scores), reverse=True)
    ranks = tuple(distinct.index(s) + 1 for s in scores)
    winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    return Outcome(scores=scores, ranks=ranks, winners=winners)


def score_after(state: LostCitiesState) -> tuple[int, ...]:
    """Each seat's side's score now: the rounds played plus the expeditions on the table as they
    would score if the round ended here (every card counted lies open; no hand counts)."""
    totals = list(state.totals)
    if state.phase in (PLAY, DRAW):
        totals = [totals[side] + side_score(state.expeditions[side]) for side in range(SIDES)]
    return tuple(totals[seat % SIDES] for seat in range(len(state.players)))
