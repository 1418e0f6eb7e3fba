"""One error hierarchy for every layer, each error with a stable machine-readable code.

Codes never change once released; clients match on them. ``status`` is the HTTP status the
API maps the error to, kept here so every layer agrees on it.
"""

from __future__ import annotations

from typing import Any, NoReturn

from events.messages import render


class TabletapeError(Exception):
    """Base of every error tabletape raises on purpose."""

    code: str = "tabletape-error"
    status: int = 400

    def __init__(
        self, message: str, *, code: str | None = None, params: dict[str, Any] | None = None, **details: Any
    ) -> None:
        # with ``params`` the message is a template (events.messages), kept so it can be translated
        self.template = message if params is not None else None
        self.params = params if params is not None else {}
        if params is not None:
            message = render(message, params)
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.details}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


class MalformedEvent(TabletapeError):
    """Bytes or JSON that do not decode into a known event."""

    code = "malformed-event"
    status = 422


class UnknownEventType(MalformedEvent):
    """An event whose tag no registered title knows."""

    code = "unknown-event-type"


class InvalidPlayerName(TabletapeError):
    """A player's name that is blank, too long, holds control characters or repeats another's;
    ``code`` says which (``blank-player-name``, ``duplicate-player-name``, ...)."""

    code = "invalid-player-name"
    status = 422


class UnknownTitle(TabletapeError):
    code = "unknown-title"
    status = 422


class InvalidOptions(TabletapeError):
    code = "invalid-options"
    status = 422


class IllegalMove(TabletapeError):
    """A move the rules forbid; ``code`` names the rule (e.g. ``lost-cities.expedition-must-ascend``)."""

    code = "illegal-move"
    status = 422


class ContradictsKnownFacts(IllegalMove):
    """A recorded fact that cannot be true given what is already known (a card seen twice)."""

    code = "contradicts-known-facts"


def illegal(code: str, message: str, details: dict[str, Any] | None = None, **params: Any) -> NoReturn:
    """Refuses a move with the rule's ``code``; ``message`` a template filled from ``params``."""
    raise IllegalMove(message, code=code, params=params or None, **(details or {}))


def contradiction(code: str, message: str, **params: Any) -> NoReturn:
    raise ContradictsKnownFacts(message, code=code, params=params or None)


def bad_options(code: str, message: str, **params: Any) -> NoReturn:
    raise InvalidOptions(message, code=code, params=params or None)


class SlipUnreadable(TabletapeError):
    """Text that is not a tabletape slip (``replay.slip``)."""

    code = "bad-slip"
    status = 422


class UnknownGame(TabletapeError):
    code = "unknown-game"
    status = 404


class GameExists(TabletapeError):
    code = "game-exists"
    status = 409


class ConcurrencyConflict(TabletapeError):
    """The writer's ``expected_seq`` is stale: someone appended first."""

    code = "stale-expected-seq"
    status = 409


class IdempotencyKeyReused(TabletapeError):
    """An idempotency key already used for a different batch of events."""

    code = "idempotency-key-reused"
    status = 409


class MoveTakenBack(TabletapeError):
    """A retried move whose first sending was recorded and has since been undone or amended: it is
    not in the game, and sending it again will not put it there."""

    code = "move-taken-back"
    status = 409


class HistoryEditRefused(TabletapeError):
    """An undo, redo, amendment or fork that the effective history does not allow."""

    code = "history-edit-refused"
    status = 409


class NoteRefused(TabletapeError):
    """A note's text that cannot be kept: empty, too long, or with control characters."""

    code = "note-refused"
    status = 422


class PackRefused(TabletapeError):
    """A pack library write that would change an immutable pack or drop one in use; ``code`` says
    which (``pack-id-taken``, ``pack-in-use``, ``pack-id-ambiguous``, ``packs-read-only``)."""

    code = "pack-refused"
    status = 409


class PacksBusy(TabletapeError):
    """A pack library change (a Marco Polo II creation among them) that waited its whole bound
    for the store's pack lock: nothing was written; ``retry_after`` seconds is when to try again."""

    code = "packs-busy"
    status = 503


class UnknownPack(TabletapeError):
    """A pack the store's library does not hold (``no-packs``: a title that has no packs)."""

    code = "unknown-pack"
    status = 404


class LogCorrupted(TabletapeError):
    """Stored bytes no longer match their hash chain."""

    code = "log-corrupted"
    status = 500


class ChainBroken(LogCorrupted):
    """A game's stored events no longer match their hash chain or its keyed anchor; ``seq`` names
    the first altered event. The game is served and written no further until it is repaired."""

    code = "chain-broken"
    status = 409


class GameUnreadable(TabletapeError):
    """A game whose stored events are intact but that this code cannot fold or project (an event
    type it does not know, a move its rules refuse, a value its tables cannot hold); ``seq`` names
    the first such event. The game is left out of everything and written no further."""

    code = "game-unreadable"
    status = 409


def game_unreadable(game_id: str, seq: int, reason: str) -> GameUnreadable:
    """The refusal that names the first event of a game this code cannot read, and why."""
    return GameUnreadable(
        "game {game_id} cannot be read from seq {seq} ({reason}); it is left out of the statistics and neither "
        "served nor written until this code can read it",
        params=dict(game_id=game_id, seq=seq, reason=reason),
        game_id=game_id,
        seq=seq,
        reason=reason,
    )


class ChainSecretMissing(LogCorrupted):
    """The database holds keyed anchors but the secret file that made them is gone."""

    code = "chain-secret-missing"


class StatsQueryRefused(TabletapeError):
    """A statistics question asked with filters that do not fit it (e.g. a title it does not cover)."""

    code = "stats-query-refused"
    status = 422


class SqlRefused(TabletapeError):
    """A read-only SQL query that is not allowed (not one SELECT, a file, an unknown view), that
    fails, or that runs past its time, memory or answer size limit; ``code`` says which."""

    code = "sql-refused"
    status = 400


class SqlBusy(SqlRefused):
    """Every SQL sandbox stayed busy for the whole of a query's time limit."""

    code = "sql-busy"
    status = 503


class ChartsNotInstalled(TabletapeError):
    """A server chart asked of an install without matplotlib (the ``charts`` extra)."""

    code = "charts-not-installed"
    status = 503


class PostgresNotInstalled(TabletapeError):
    """A PostgreSQL ``--db`` on an install without psycopg (the ``postgres`` extra)."""

    code = "postgres-not-installed"
    status = 503


class LogClosed(TabletapeError):
    """An append that came after the event log began to close: nothing was written."""

    code = "log-closed"
    status = 503


class SeasonRefused(TabletapeError):
    """A season definition or amendment that breaks a rule; ``code`` and ``field`` name which."""

    code = "season-refused"
    status = 422


class SeasonsBusy(TabletapeError):
    """A season definition or amendment that waited its whole bound for the store's season lock
    (another process of the store was changing seasons): nothing was written."""

    code = "seasons-busy"
    status = 503


class UnknownSeason(TabletapeError):
    code = "unknown-season"
    status = 404


class NightRefused(TabletapeError):
    """A night, a draw, a join or a drop that breaks a rule; ``code`` (and ``field``) name which."""

    code = "night-refused"
    status = 422


class NightConflict(TabletapeError):
    """A draw the night is not ready for (a table still playing, every round drawn)."""

    code = "night-conflict"
    status = 409


class UnknownNight(TabletapeError):
    code = "unknown-night"
    status = 404
