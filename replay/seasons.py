"""Defining and amending seasons: each checked against the rules of a season and the seasons
already in the log, then appended to the season's own stream."""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Iterator

from events.errors import SeasonsBusy
from events.seasons import SeasonAmended, SeasonDefined, new_season_id
from projections.seasons import Season, Seasons, amended, checked

#: one definition or amendment at a time in this process, so two cannot take one name
_writing = threading.Lock()
#: how long a change waits for the other processes of a shared store (PostgreSQL workers)
LOCK_WAIT_S = 10.0


@contextlib.contextmanager
def _changing(seasons: Seasons) -> Iterator[None]:
    """Held around a change: this process's lock and, on a store other processes write too, the
    one they all take, so that the seasons read for the name check are all there are."""
    with _writing, contextlib.ExitStack() as held:
        if seasons.log.shared:
            try:
                held.enter_context(seasons.log.exclusive("seasons", timeout=LOCK_WAIT_S))
            except TimeoutError:
                raise SeasonsBusy(
                    "the seasons are busy with another change; nothing was written: try again in {retry_after} s",
                    params=dict(retry_after=1), retry_after=1,
                ) from None
        yield


def define(seasons: Seasons, name: str, titles: list[str], starts: str, ends: str, members: list[str], actor: str = "") -> Season:
    """A new season in the log; raises SeasonRefused naming the rule."""
    with _changing(seasons):
        season_id = new_season_id()
        season = checked(Season(season_id, name, tuple(titles), starts, ends, tuple(members)), seasons.all())
        body = SeasonDefined(name=season.name, titles=season.titles, starts=season.starts, ends=season.ends, members=season.members)
        seasons.log.append(season_id, [body], 0, actor=actor)
        return season


def amend(seasons: Seasons, season_id: str, actor: str = "", **fields: Any) -> Season:
    """The season with ``fields`` replaced, appended as ``season.amended``; raises UnknownSeason,
    SeasonRefused."""
    with _changing(seasons):
        before = seasons.get(season_id)
        given = {k: (tuple(v) if isinstance(v, list) else v) for k, v in fields.items() if v is not None}
        season = checked(amended(before, SeasonAmended(**given)), seasons.all())
        trimmed = {k: getattr(season, k) for k in given}
        seasons.log.append(season_id, [SeasonAmended(**trimmed)], seasons.last_seq(season_id), actor=actor)
        return season
