"""The score race: each seat's score after every step of a game, its turning point and its
biggest swing.

The series comes from one fold of the effective history, each step scored by the title's
``score_after``: before the end only what lies open on the table counts (the score track, the
expeditions), after it the end's whole scoring. Steps are numbered as the replay numbers them
(0: the game's creation). ``turning_point`` and ``biggest_swing`` read the series alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from events.messages import Phrase, phrase
from projections.fold import GameState, fold, start
from projections.projector import Projector
from replay.frames import PUBLIC, Perspective, known_move, sentence

Scores = tuple[int, ...]


class Swing(msgspec.Struct, frozen=True):
    """The step that moved one seat's score the most (``delta``: by how much, signed)."""

    step: int
    seat: int
    delta: int


class Race(msgspec.Struct, kw_only=True):
    """A game's score race as ``perspective`` may see it."""

    players: tuple[str, ...]
    #: the steps' numbers in the replay (those whose state the title could score)
    steps: tuple[int, ...]
    #: one score per seat after each of ``steps``
    scores: tuple[Scores, ...]
    #: the final winners' seats (empty while the game goes on)
    winners: tuple[int, ...] = ()
    public_only: bool = True
    turning_point: int | None = None
    swing: Swing | None = None
    #: the turning point's and the swing's steps in words, as ``perspective`` may know them
    turning_words: Phrase | None = None
    swing_words: Phrase | None = None


def leads(scores: Scores, winners: Sequence[int]) -> bool:
    """Whether every winner is ahead of every other seat (partners, sharing a score, both win)."""
    others = [s for seat, s in enumerate(scores) if seat not in winners]
    return bool(winners) and bool(others) and min(scores[w] for w in winners) > max(others)


def turning_point(series: Sequence[Scores], winners: Sequence[int]) -> int | None:
    """The index of the step after which the winners led for good; None when the game ended level
    (everyone won) or there is no winner. The last step counts as led: the outcome decides it
    (a tie-break on camels wins with a score equal to another's)."""
    if not series or not winners or len(set(winners)) >= len(series[0]):
        return None
    point = len(series) - 1
    while point > 0 and leads(series[point - 1], winners):
        point -= 1
    return point


def biggest_swing(series: Sequence[Scores], movers: Sequence[int | None] = ()) -> Swing | None:
    """The step and seat whose score changed the most from the step before (by size). On a tie
    the earliest step, and within a step the seat that moved (a partner's side moves with it),
    else the first seat. None when no score ever changed."""
    best: Swing | None = None
    for index in range(1, len(series)):
        mover = movers[index] if index < len(movers) else None
        deltas = [after - before for before, after in zip(series[index - 1], series[index])]
        top = max((abs(d) for d in deltas), default=0)
        if top == 0 or (best is not None and top <= abs(best.delta)):
            continue
        seat = mover if mover is not None and 0 <= mover < len(deltas) and abs(deltas[mover]) == top else next(
            s for s, d in enumerate(deltas) if abs(d) == top
        )
        best = Swing(step=index, seat=seat, delta=deltas[seat])
    return best


def _signed(delta: int) -> str:
    return f"+{delta}" if delta > 0 else f"−{-delta}"


def race(projector: Projector, game_id: str) -> Race:
    """The race of a game now: public scores while it goes on, the end's scoring once it has
    ended; each step folded once."""
    history = projector.history(game_id)
    node = history.at(history.last_seq)
    entries = node.entries() if node is not None else []
    games: list[GameState] = []
    game: GameState | None = None
    for entry in entries:
        game = start(entry.body) if game is None else fold(game, (entry.body,))
        games.append(game)
    if game is None:
        return Race(players=(), steps=(), scores=())
    ended = game.ended is not None
    perspective = Perspective(full=True) if ended else PUBLIC
    steps: list[int] = []
    scores: list[Scores] = []
    movers: list[int | None] = []
    if game.score_only is None:
        for index, step in enumerate(games):
            got = step.title.score_after(step.state, not ended)
            if got is not None:
                steps.append(index)
                scores.append(tuple(got))
                seat = getattr(entries[index].body, "seat", None)
                movers.append(seat if isinstance(seat, int) else None)
    # the winners the log recorded at the end (a table may end a game before its rules do)
    winners = tuple(game.ended.winners) if game.ended is not None and game.score_only is None else ()
    point = turning_point(scores, winners)
    swing = biggest_swing(scores, movers)

    def words(index: int) -> Phrase:
        step = steps[index]
        body = entries[step].body
        before = games[step - 1] if step > 0 else None
        return sentence(before, games[step], body, known_move(games[step], body, perspective))

    out = Race(players=game.players, steps=tuple(steps), scores=tuple(scores), winners=winners, public_only=not ended)
    if point is not None:
        out.turning_point = steps[point]
        names = ", ".join(game.players[w] for w in winners)
        out.turning_words = phrase(
            "race.turning", "{who} led for good from step {step}: {words}", who=names, step=steps[point], words=words(point)
        )
    if swing is not None:
        out.swing = Swing(step=steps[swing.step], seat=swing.seat, delta=swing.delta)
        said = dict(words=words(swing.step), step=steps[swing.step], delta=_signed(swing.delta), who=game.players[swing.seat])
        round_no = game.title.round_of(games[steps[swing.step]].state)
        if round_no is None:
            out.swing_words = phrase("race.swing", "{words} (step {step}): {delta} points for {who}", **said)
        else:
            out.swing_words = phrase(
                "race.swing-round", "{words} (round {round}, step {step}): {delta} points for {who}", round=round_no, **said
            )
    return out
