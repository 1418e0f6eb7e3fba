"""Think time: how long each seat took over each decision, from the times the log recorded.

A decision is a move made by the seat the rules core had to move (``to_move``) in the state
before it; the facts a table reports (a deal, a roll) are nobody's decision. It starts when the
event just before the move in the log was recorded (the previous move or fact, or an undo, a
redo or an amendment: the seat's clock starts again from an edit) and ends when the move was
recorded. Steps are numbered as the replay numbers them (0: the game's creation).

A decision has no timing when either of its two times is not a table's: the event was imported
(its time is the import's), or both were recorded in the same instant (entered together). A
score-only game has no moves and so no decisions. A turn is a run of one seat's decisions with
no other seat's decision between them.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import msgspec

from events.log import EventLog
from events.messages import Phrase
from projections.fold import GameState, fold, start
from projections.projector import Projector
from replay.frames import PUBLIC, Perspective, known_move, sentence

#: the actor the log writes on every imported event (their times are the import's)
IMPORTED = "import"


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's decision: the replay's step of its move, and how long it took (None: no timing)."""

    step: int
    seat: int
    seconds: float | None
    #: the decision's turn, counted from 0 in the game
    turn: int
    words: Phrase


class SeatTime(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's think time over a game (timed decisions only)."""

    seat: int
    decisions: int
    turns: int
    total_s: float
    median_decision_s: float | None
    median_turn_s: float | None
    slowest: Decision | None


class ThinkTime(msgspec.Struct, frozen=True, kw_only=True):
    """A game's think time as ``public_only`` says: words of moves as the public knew them until the end."""

    players: tuple[str, ...]
    title: str
    #: why there are no timings: "score-only", "imported", "none-yet", or None when there are
    untimed: str | None
    public_only: bool
    decisions: tuple[Decision, ...]
    seats: tuple[SeatTime, ...]


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def seat_times(decisions: Iterable[Decision], seats: int) -> tuple[SeatTime, ...]:
    """Each seat's totals, medians and slowest decision over ``decisions`` (untimed ones left out;
    a turn counts when every decision in it is timed)."""
    decided = list(decisions)
    out = []
    for seat in range(seats):
        own = [d for d in decided if d.seat == seat]
        timed = [d for d in own if d.seconds is not None]
        turns: dict[int, list[float | None]] = {}
        for d in own:
            turns.setdefault(d.turn, []).append(d.seconds)
        whole = [sum(s for s in times if s is not None) for times in turns.values() if None not in times]
        slowest = max(timed, key=lambda d: (d.seconds, -d.step), default=None)
        out.append(SeatTime(
            seat=seat, decisions=len(timed), turns=len(whole), total_s=float(sum(d.seconds for d in timed)),
            median_decision_s=_median([d.seconds for d in timed]), median_turn_s=_median(whole), slowest=slowest,
        ))
    return tuple(out)


def think_time(projector: Projector, log: EventLog, game_id: str) -> ThinkTime:
    """The think time of a game now, each step folded once; the moves' words as the public knows
    them while the game goes on, whole once it has ended."""
    history = projector.history(game_id)
    node = history.at(history.last_seq)
    entries = node.entries() if node is not None else []
    stored = {event.seq: event for event in log.read(game_id)} if entries else {}
    game: GameState | None = None
    states: list[GameState] = []
    for entry in entries:
        game = start(entry.body) if game is None else fold(game, (entry.body,))
        states.append(game)
    if game is None:
        return ThinkTime(players=(), title="", untimed="none-yet", public_only=True, decisions=(), seats=())
    ended = game.ended is not None
    perspective = Perspective(full=True) if ended else PUBLIC
    decisions: list[Decision] = []
    turn, last_seat = -1, None
    if game.score_only is None:
        for index in range(1, len(entries)):
            before, after, entry = states[index - 1], states[index], entries[index]
            if before.ended is not None or type(entry.body) not in before.title.event_types:
                continue
            seat = before.title.to_move(before.state)
            if seat is None:
                continue
            if seat != last_seat:
                turn, last_seat = turn + 1, seat
            decisions.append(Decision(
                step=index, seat=seat, turn=turn, seconds=_seconds(stored, entry.seq),
                words=sentence(before, after, entry.body, known_move(after, entry.body, perspective)),
            ))
    untimed = None
    if game.score_only is not None:
        untimed = "score-only"
    elif not any(d.seconds is not None for d in decisions):
        imported = any(getattr(stored.get(e.seq), "actor", None) == IMPORTED for e in entries)
        untimed = "imported" if imported else "none-yet"
    return ThinkTime(
        players=game.players, title=game.created.title, untimed=untimed, public_only=not ended,
        decisions=tuple(decisions), seats=seat_times(decisions, len(game.players)),
    )


def _seconds(stored: dict[int, Any], seq: int) -> float | None:
    move, previous = stored.get(seq), stored.get(seq - 1)
    if move is None or previous is None or IMPORTED in (move.actor, previous.actor):
        return None
    took = (_naive(move.recorded_at) - _naive(previous.recorded_at)).total_seconds()
    return took if took > 0 else None


def _naive(moment: datetime) -> datetime:
    return moment.replace(tzinfo=None)


class PlayerThink(msgspec.Struct, frozen=True, kw_only=True):
    """One player's think time over a title's finished games that have timings."""

    player: str
    games: int
    decisions: int
    turns: int
    median_decision_s: float | None
    median_turn_s: float | None
    slowest: Decision | None
    #: the game of the slowest decision, and when it began (UTC)
    slowest_game: str | None
    slowest_on: datetime | None


#: the most recent finished games a title's think time reads (each is folded afresh per question)
LATEST = 200


def title_think_time(projector: Projector, log: EventLog, title: str) -> tuple[int, int, tuple[PlayerThink, ...]]:
    """Per player (as named, without case), think time over the title's latest ``LATEST`` finished
    games that are not forks: (games finished, games with timings, players by their name). Every game's words
    are the end's whole knowledge: the games have ended."""
    cur = projector.read_models.log.cursor()
    try:
        rows = cur.execute(
            "SELECT game_id, created_at FROM games WHERE title = ? AND status = 'ended' AND parent_id IS NULL "
            "AND NOT score_only ORDER BY created_at DESC, game_id DESC LIMIT ?", [title, LATEST],
        ).fetchall()
        finished = cur.execute(
            "SELECT count(*) FROM games WHERE title = ? AND status = 'ended' AND parent_id IS NULL", [title]
        ).fetchone()[0]
    finally:
        cur.close()
    by_name: dict[str, dict[str, Any]] = {}
    timed_games = 0
    for game_id, created_at in rows:
        got = think_time(projector, log, game_id)
        if got.untimed is not None:
            continue
        timed_games += 1
        turns: dict[tuple[int, int], list[float | None]] = {}
        for d in got.decisions:
            turns.setdefault((d.seat, d.turn), []).append(d.seconds)
        for seat, player in enumerate(got.players):
            mine = by_name.setdefault(player.casefold(), {"player": player, "games": 0, "decisions": [], "turns": [], "slowest": None})
            own = [d for d in got.decisions if d.seat == seat and d.seconds is not None]
            if not own:
                continue
            mine["games"] += 1
            mine["decisions"].extend(d.seconds for d in own)
            mine["turns"].extend(sum(t for t in times if t is not None) for (s, _), times in turns.items() if s == seat and None not in times)
            top = max(own, key=lambda d: (d.seconds, -d.step))
            if mine["slowest"] is None or top.seconds > mine["slowest"][0].seconds:
                mine["slowest"] = (top, game_id, created_at)
    players = []
    for mine in sorted(by_name.values(), key=lambda m: m["player"].casefold()):
        if not mine["games"]:
            continue
        slow = mine["slowest"]
        players.append(PlayerThink(
            player=mine["player"], games=mine["games"], decisions=len(mine["decisions"]), turns=len(mine["turns"]),
            median_decision_s=_median(mine["decisions"]), median_turn_s=_median(mine["turns"]),
            slowest=slow[0], slowest_game=slow[1], slowest_on=slow[2],
        ))
    return finished, timed_games, tuple(players)
