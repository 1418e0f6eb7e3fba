"""A finished game as one play, read from its log: what a play-logging app records of it (the
title, the players and their scores, ranks and winners, who started, when and for how long).

Times are the table's when the log recorded them as moves were made. A game imported from JSON
Lines carries the import's time on every event: its date is that day and it has no duration. A
score-only game is dated by its play (``played_at`` and its duration, as its source had them).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from events.lifecycle import GameEnded
from events.log import EventLog, naive_utc
from projections.projector import Projector
from projections.read_models import played_span
from projections.stats import model as stats_model
from replay.think_time import IMPORTED


class PlayRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game as a play; ``source`` names where a score-only game came from."""

    game_id: str
    title: str
    players: tuple[str, ...]
    #: empty where a score-only game's source named its winners alone
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    start_seat: int | None
    #: per seat its team (seats sharing a team share a score)
    teams: tuple[int, ...]
    began: datetime
    #: whole minutes, None when the log knows no table times
    duration_min: int | None
    location: str | None = None
    source: str | None = None
    forked: bool = False


def play_record(projector: Projector, log: EventLog, game_id: str) -> PlayRecord | None:
    """The game as a play, or None while it goes on."""
    game = projector.state(game_id)
    if game.ended is None:
        return None
    history = projector.history(game_id)
    entries = history.entries()
    ended_seq = next(e.seq for e in reversed(entries) if isinstance(e.body, GameEnded))
    marker = game.score_only
    if marker is not None:
        began, _ = played_span(marker)
        duration, start_seat, location, source = marker.duration_min, marker.start_seat, marker.location, marker.source
    else:
        first, last = (log.read(game_id, seq, seq)[0] for seq in (1, ended_seq))
        began = naive_utc(first.recorded_at)
        took = naive_utc(last.recorded_at) - began
        timed = IMPORTED not in (first.actor, last.actor) and took > timedelta(0)
        duration = max(1, round(took.total_seconds() / 60)) if timed else None
        start_seat, location, source = stats_model(game.created.title).first_seat(game), None, None
    return PlayRecord(
        game_id=game_id, title=game.created.title, players=game.players, scores=tuple(game.ended.scores),
        ranks=tuple(game.ended.ranks), winners=tuple(game.ended.winners), start_seat=start_seat,
        teams=tuple(stats_model(game.created.title).teams(game)) if marker is None else tuple(range(len(game.players))),
        began=began, duration_min=duration, location=location, source=source, forked=game.forked is not None,
    )
