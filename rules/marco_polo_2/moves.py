"""Legal moves for the seat to act, as completed events (a picker for the recorder).

Listed: every pending decision's options (picks, goal cards, round-start income), then for a turn
every main action with each distinct set of dice, then the bonus actions and the end of the turn.
To keep the list finite and short, equivalent moves are listed once: a travel per dice set, row
and end (and extra post) takes the cheapest path; a caravan after a market moves to each end it can
reach (by a shortest path); Möngke Khan takes all coins or all camels for skipped oases.
``decide`` accepts the unlisted equivalents too. The generator applies the rules' conditions itself
(no trial runs, to stay fast); the tests hold it to ``decide``: every listed move is accepted.
A component the log has not described yet (partial pack) lists no move that needs it.
"""

from __future__ import annotations

from itertools import product

from events.base import Event
from rules.marco_polo_2.events import CharacterPicked, GoalKept, IncomeTaken
from rules.marco_polo_2.state import INCOME, KEEP, PICK, MP2State
from rules.marco_polo_2.views import to_move
from rules.marco_polo_common.moves import legal_moves as pending_or_turn_moves
from rules.marco_polo_2.moves_map import map_of, marker_choices
from rules.marco_polo_2.moves_turn import _turn_moves


def _income_moves(state: MP2State, seat: int) -> list[Event]:
    from rules.marco_polo_2.engine import Work, round_sources

    p = state.seats[seat]
    due = p.compensation
    m = map_of(state)
    sources = round_sources(Work(state, False), seat)
    doubles: list = [None]
    if p.character == "mailin":
        doubles = [k for k, _ in sources] or [None]
    # "any other bonus" markers paying this round: one pick each, then one more for a doubled one
    lists = [marker_choices(state, m, b[1]) for _, b in sources if type(b) is tuple]
    lists = [c for c in lists if c]
    kinds = dict(sources)
    pairs = [0]
    if p.character == "isabella":
        pairs += sorted({v for v in p.dice if p.dice.count(v) >= 2})
    picks_of = {}
    for d in doubles:
        b = kinds.get(d)
        extra = [marker_choices(state, m, b[1])] if type(b) is tuple and marker_choices(state, m, b[1]) else []
        picks_of[d] = list(product(*(lists + extra))) if lists or extra else [()]
    return [
        IncomeTaken(coins=c, camels=due - c, double=d, pair=pr, choices=pick, seat=seat)
        for c in range(due, -1, -1)
        for d in doubles
        for pr in pairs
        for pick in picks_of[d]
    ]


def _goal_kept(state: MP2State, seat: int, p) -> list[Event]:
    if None in p.dealt or not p.dealt:
        return [GoalKept(goal=None, seat=seat)]
    return [GoalKept(goal=g, seat=seat) for g in p.dealt]


#: the moves answering each pending item a seat decides
PENDING_MOVES = {
    INCOME: lambda state, seat, p: _income_moves(state, seat),
    PICK: lambda state, seat, p: [CharacterPicked(character=c, seat=seat) for c in state.offered],
    KEEP: _goal_kept,
}


def legal_moves(state: MP2State) -> list[Event]:
    return pending_or_turn_moves(state, to_move, PENDING_MOVES, _turn_moves)
