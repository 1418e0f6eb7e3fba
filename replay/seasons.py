"""Defining and amending seasons: each checked against the rules of a season and the seasons
already in the log, then appended to the season's own stream."""

from __future__ import annotations

import threading
from typing import Any

from events.seasons import SeasonAmended, SeasonDefined, new_season_id
from projections.seasons import Season, Seasons, amended, checked

#: one definition or amendment at a time in this process, so two cannot take one name
_writing = threading.Lock()


def define(seasons: Seasons, name: str, titles: list[str], starts: str, ends: str, members: list[str], actor: str = "") -> Season:
    """A new season in the log; raises SeasonRefused naming the rule."""
    with _writing:
        season_id = new_season_id()
        season = checked(Season(season_id, name, tuple(titles), starts, ends, tuple(members)), seasons.all())
        body = SeasonDefined(name=season.name, titles=season.titles, starts=season.starts, ends=season.ends, members=season.members)
        seasons.log.append(season_id, [body], 0, actor=actor)
        return season


def amend(seasons: Seasons, season_id: str, actor: str = "", **fields: Any) -> Season:
    """The season with ``fields`` replaced, appended as ``season.amended``; raises UnknownSeason,
    SeasonRefused."""
    with _writing:
        before = seasons.get(season_id)
        given = {k: (tuple(v) if isinstance(v, list) else v) for k, v in fields.items() if v is not None}
        season = checked(amended(before, SeasonAmended(**given)), seasons.all())
        trimmed = {k: getattr(season, k) for k in given}
        seasons.log.append(season_id, [SeasonAmended(**trimmed)], seasons.last_seq(season_id), actor=actor)
        return season
