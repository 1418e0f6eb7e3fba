"""Games this code cannot fold or project, set aside one by one so that every other game is served.

A stored game may hold an event this code cannot read (a future event type), a move its rules
refuse, or values the read models' tables cannot hold (an old bug, a hand-edited file). Such a game
is named here with the first seq at fault and why; it answers ``game-unreadable`` and is left out
of the catalogue and the statistics. The list is kept in table ``unreadable_games`` beside the read
models, so that a restart still knows it.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Iterable, Sequence

from events import codec
from events.base import Event
from events.errors import GameUnreadable, MalformedEvent, TabletapeError, game_unreadable
from events.history import History
from events.lifecycle import NOT_STEPS
from projections.fold import GameState, fold, start

_logger = logging.getLogger("tabletape.projections")

EDITS = frozenset(NOT_STEPS)
SCHEMA = "CREATE TABLE IF NOT EXISTS unreadable_games (game_id VARCHAR PRIMARY KEY, seq INTEGER NOT NULL, reason VARCHAR NOT NULL)"


class Unfoldable:
    """The place of a stored event that cannot be read (a body that does not decode, a history edit
    that does not apply), with the reason."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


def decode_each(bodies: list[bytes]) -> list[Event | Unfoldable]:
    """``codec.decode_many``, with an ``Unfoldable`` where a body does not decode."""
    try:
        return codec.decode_many(bodies)
    except MalformedEvent:
        out: list[Event | Unfoldable] = []
        for body in bodies:
            try:
                out.append(codec.decode(body))
            except MalformedEvent as exc:
                out.append(Unfoldable(exc))
        return out


def effective_steps(seqs: Sequence[int], bodies: Sequence[Any]) -> list[tuple[int, Any]]:
    """(seq, body) of a game's effective history from its raw events; it ends at an event that
    cannot be read, as an ``Unfoldable``."""
    if not any(body.__class__ in EDITS for body in bodies):
        return list(zip(seqs, bodies))
    history = History()
    for seq, body in zip(seqs, bodies):
        try:
            if isinstance(body, Unfoldable):
                raise body.error
            history.push(body)
        except Exception as exc:  # noqa: BLE001 - an edit this history cannot apply
            return [(e.seq, e.body) for e in history.entries()] + [(seq, Unfoldable(exc))]
    return [(e.seq, e.body) for e in history.entries()]


def reason_of(exc: BaseException) -> str:
    """Why a game cannot be read, as every reader is told it: our refusal's code, else the
    exception's kind. Their words may quote an event of a game in progress (a card in a hand), so
    they go to the server's log alone."""
    _logger.warning("a game cannot be read: %s: %s", type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")
    return exc.code if isinstance(exc, TabletapeError) else type(exc).__name__


def first_unfoldable(steps: Sequence[tuple[int, Any]]) -> tuple[int, BaseException] | None:
    """The first (seq, error) of an effective history that does not fold, one event at a time
    (the slow path, taken once a whole fold has failed); None: every step folds."""
    game: GameState | None = None
    for seq, body in steps:
        try:
            if isinstance(body, Unfoldable):
                raise body.error
            game = start(body) if game is None else fold(game, (body,))
        except Exception as exc:  # noqa: BLE001 - whatever the rules raise, the game is set aside
            return seq, exc
    return None


def unreadable(game_id: str, steps: Sequence[tuple[int, Any]], exc: BaseException, seq: int) -> GameUnreadable:
    """The refusal for a game whose rows failed with ``exc``: at its first step that does not fold,
    else at ``seq`` (the event its rows are read from)."""
    found = first_unfoldable(steps)
    if found is not None:
        seq, exc = found
    return game_unreadable(game_id, seq, reason_of(exc))


class Quarantine:
    """The games set aside, by id, kept in ``unreadable_games`` of the connection given (if any)."""

    def __init__(self, con: Any = None) -> None:
        self._con = con
        self._lock = threading.Lock()
        self._games: dict[str, tuple[int, str]] = {}
        if con is not None:
            con.execute(SCHEMA)
            self._games = {g: (seq, why) for g, seq, why in con.execute("SELECT * FROM unreadable_games").fetchall()}

    def __contains__(self, game_id: str) -> bool:
        return game_id in self._games

    def get(self, game_id: str) -> GameUnreadable | None:
        found = self._games.get(game_id)
        return None if found is None else game_unreadable(game_id, *found)

    def ids(self) -> list[str]:
        return sorted(self._games)

    def rows(self) -> list[tuple[str, int, str]]:
        """(game id, seq, reason) of every game set aside, by id."""
        return [(g, seq, why) for g, (seq, why) in sorted(self._games.items())]

    def games(self) -> list[GameUnreadable]:
        """Every game set aside, by id."""
        return [game_unreadable(*row) for row in self.rows()]

    def add(self, exc: GameUnreadable) -> None:
        game_id, entry = exc.details["game_id"], (exc.details["seq"], exc.details["reason"])
        with self._lock:
            if self._games.get(game_id) == entry:
                return
            self._games[game_id] = entry
            self._store("INSERT OR REPLACE INTO unreadable_games VALUES (?, ?, ?)", [game_id, *entry])

    def discard(self, game_ids: Iterable[str]) -> None:
        """Take back games that fold again (a newer version of this code reads them)."""
        with self._lock:
            for game_id in game_ids:
                if self._games.pop(game_id, None) is not None:
                    self._store("DELETE FROM unreadable_games WHERE game_id = ?", [game_id])

    def _store(self, sql: str, params: list[Any]) -> None:
        if self._con is not None:
            self._con.execute(sql, params)
