"""What seasons and nights share: a stream of the log beside the games, read whole and checked."""

from __future__ import annotations

import logging
from typing import Any, Callable, Generic, TypeVar

from events.errors import LogCorrupted, TabletapeError

T = TypeVar("T")


class Streams(Generic[T]):
    """Every stream of one kind in one log, over its read models. A kind is declared with its
    ids' ``prefix``, its ``kind`` (``night``), the ``fold`` of a stream's bodies and the error
    raised for one the log does not hold (``unknown``)."""

    prefix: str
    kind: str
    _fold: Callable[[str, list[Any]], T]
    _unknown: type[TabletapeError]

    def __init_subclass__(cls, prefix: str = "", kind: str = "", fold: Any = None, unknown: Any = None, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls.prefix, cls.kind, cls._fold, cls._unknown = prefix, kind, staticmethod(fold), unknown

    def __init__(self, log: Any, read_models: Any = None) -> None:
        self.log = log
        self.read_models = read_models

    def ids(self) -> list[str]:
        """Their ids, in the order they were made (ids are time-ordered)."""
        self.log.sync()
        cur = self.log.cursor()
        try:
            rows = cur.execute("SELECT DISTINCT game_id FROM events WHERE starts_with(game_id, ?) ORDER BY 1", [self.prefix]).fetchall()
        finally:
            cur.close()
        return [r[0] for r in rows]

    def get(self, stream_id: str) -> T:
        """One of them, its chain checked (raises ``unknown``, ChainBroken)."""
        if not stream_id.startswith(self.prefix) or not self.log.exists(stream_id):
            # the catalogue's templates: "no night {night_id!r}", "no season {season_id!r}"
            named = {f"{self.kind}_id": stream_id[:64]}
            raise self._unknown(f"no {self.kind} {{{self.kind}_id!r}}", params=named, **named)
        return self._fold(stream_id, self.log.read_checked(stream_id))

    def readable(self) -> list[T]:
        """Each one ``get`` reads; one whose log was altered is left out (``get`` and ``tabletape
        verify`` name it), as an altered game is."""
        out = []
        for stream_id in self.ids():
            try:
                out.append(self.get(stream_id))
            except LogCorrupted:
                logging.getLogger(f"tabletape.{self.kind}s").warning("%s %s is left out: its log was altered", self.kind, stream_id)
        return out

    def last_seq(self, stream_id: str) -> int:
        return self.log.last_seq(stream_id)
