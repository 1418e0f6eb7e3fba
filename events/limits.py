"""What the read side can hold, checked before anything enters the log.

Every append and every import of both logs calls ``check_storable`` on each event, so no door
(a move, a creation, JSON Lines, Parquet, BG Stats, a pack) stores what a read model, a decoder or
a date cannot take back: an event in the log is never refused later, by every reader at once.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

import msgspec

from events.base import Event
from events.errors import MalformedEvent
from events.names import printable_key

#: the read models keep scores, ranks, seats and counts in 32-bit INTEGER columns
MIN_INT, MAX_INT = -(2**31), 2**31 - 1
#: a game's seed may be any 64-bit number (msgpack's range); it reaches no 32-bit column
MIN_SEED, MAX_SEED = -(2**63), 2**64 - 1
#: a played date (and its end) the read models' TIMESTAMP and Python's datetime both hold with room
FIRST_YEAR, LAST_YEAR = 1900, 2999
#: characters in one string (a name, a card, a uuid): far past any real one
MAX_STRING = 10_000
#: lists and objects inside lists and objects; decoders and JSON readers recurse per level
MAX_DEPTH = 32


def nesting_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deep lists and objects nest in a JSON-like ``value`` (a scalar is 0), counted up to
    ``limit + 1`` at most, so a hostile value costs no more than the limit to measure."""
    if not isinstance(value, (dict, list, tuple)):
        return 0
    level, items = 1, [value]
    while items:
        inner = []
        for item in items:
            inner.extend(v for v in (item.values() if isinstance(item, dict) else item) if isinstance(v, (dict, list, tuple)))
        if not inner:
            return level
        level += 1
        if level > limit:
            return level
        items = inner
    return level


def _refuse(field: str, code: str, message: str, **params: Any) -> None:
    raise MalformedEvent(message, params=dict(field=field, **params), code=code, field=field)


def check_string(text: str, field: str) -> None:
    """A string a store keeps whole and every encoder can write (``string-too-long``,
    ``not-unicode`` for a lone surrogate, which UTF-8 cannot hold)."""
    if len(text) > MAX_STRING:
        _refuse(field, "string-too-long", "{field}: text is longer than {max_string} characters", max_string=MAX_STRING)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            _refuse(field, "not-unicode", "{field}: text holds a lone surrogate, which is not Unicode text")


def check_integer(value: int, field: str, low: int = MIN_INT, high: int = MAX_INT) -> None:
    """A whole number a 32-bit column holds (``value-out-of-range``)."""
    if not low <= value <= high:
        _refuse(field, "value-out-of-range", "{field}: {value} is outside {low}..{high}", value=value, low=low, high=high)


def check_date(moment: datetime, field: str, minutes: int = 0) -> None:
    """A date, and ``minutes`` after it, within years FIRST_YEAR..LAST_YEAR (``date-out-of-range``)."""
    try:
        end = moment + timedelta(minutes=minutes) if moment.year <= LAST_YEAR else moment
    except OverflowError:  # minutes past what any calendar holds
        end = datetime.max
    if not (FIRST_YEAR <= moment.year and end.year <= LAST_YEAR):
        _refuse(field, "date-out-of-range", "{field}: dates must lie within the years {first}-{last}", first=FIRST_YEAR, last=LAST_YEAR)


def _fine(value: Any, depth: int) -> bool:
    """Whether ``value`` is within every limit: the cheap pass of every append, which builds no
    field name (``_walk`` names the field once this says no)."""
    cls = value.__class__
    if cls is str:
        return (len(value) <= 64 and value.isascii()) or _string_fine(value)
    if cls is int:
        return MIN_INT <= value <= MAX_INT
    if cls is float:
        return math.isfinite(value)
    if value is None or cls is bool:
        return True
    if cls is tuple or cls is list:
        return depth < MAX_DEPTH and all(_fine(item, depth + 1) for item in value)
    if cls is dict:
        return depth < MAX_DEPTH and all(
            (key.__class__ is not str or _fine(key, depth)) and _fine(item, depth + 1) for key, item in value.items()
        )
    if isinstance(value, msgspec.Struct):
        return depth < MAX_DEPTH and all(_fine(getattr(value, name), depth + 1) for name in value.__struct_fields__)
    return True


def _string_fine(text: str) -> bool:
    try:
        check_string(text, "")
    except MalformedEvent:
        return False
    return True


def _walk(value: Any, field: str, depth: int) -> None:
    if value.__class__ is str:
        if len(value) > 64 or not value.isascii():  # the common short ASCII string costs one test
            check_string(value, field)
    elif value.__class__ is int:
        if not MIN_INT <= value <= MAX_INT:
            check_integer(value, field)
    elif value.__class__ is float:
        if not math.isfinite(value):
            _refuse(field, "value-out-of-range", "{field}: numbers must be finite")
    elif isinstance(value, (list, tuple, dict)):
        if depth >= MAX_DEPTH:
            _refuse(field, "too-deeply-nested", "{field}: lists and objects nest deeper than {max_depth} levels", max_depth=MAX_DEPTH)
        if isinstance(value, dict):
            for key, item in value.items():
                named = printable_key(key) if key.__class__ is str else key
                if key.__class__ is str and (len(key) > 64 or not key.isascii()):
                    check_string(key, f"{field}.{named[:40]}")
                _walk(item, f"{field}.{named}", depth + 1)
        else:
            for index, item in enumerate(value):
                _walk(item, f"{field}.{index}", depth + 1)
    elif isinstance(value, msgspec.Struct):  # inside a list or an object: walked as its fields
        _walk(msgspec.to_builtins(value), field, depth)


def check_storable(event: Event, what: str = "event") -> None:
    """Refuse an event the read side could not hold, naming the field (``what.field``): an
    integer past 32 bits (a game's seed: 64), a non-finite number, a string past MAX_STRING or not
    Unicode, nesting past MAX_DEPTH, a played date (plus its duration) outside FIRST_YEAR..LAST_YEAR."""
    tag = event.__struct_config__.tag
    for name in event.__struct_fields__:
        value = getattr(event, name)
        if name == "seed" and tag == "game.created" and value.__class__ is int:
            check_integer(value, f"{what}.{name}", MIN_SEED, MAX_SEED)
        elif _fine(value, 1):
            continue
        elif isinstance(value, msgspec.Struct):
            check_storable(value, f"{what}.{name}")
        else:
            _walk(msgspec.to_builtins(value) if _holds_struct(value) else value, f"{what}.{name}", 1)
    if tag == "game.score-only":
        _check_played(event, what)


def _holds_struct(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and any(isinstance(v, msgspec.Struct) for v in value)


def _check_played(marker: Any, what: str) -> None:
    field = f"{what}.played_at"
    try:
        moment = datetime.fromisoformat(marker.played_at)
    except ValueError:
        _refuse(field, "date-out-of-range", "{field}: {value!r} is not a date and time", value=marker.played_at)
    if marker.duration_min is not None and marker.duration_min < 0:
        _refuse(f"{what}.duration_min", "value-out-of-range", "{field}: a duration cannot be negative ({value} minutes)", value=marker.duration_min)
    check_date(moment, field, marker.duration_min or 0)


def check_game(game_id: str, events: Any, first_seq: int = 1) -> None:
    """``check_storable`` on a game's events, the refusal naming the game and the seq."""
    for seq, event in enumerate(events, first_seq):
        try:
            check_storable(event, event.__struct_config__.tag)
        except MalformedEvent as exc:
            raise MalformedEvent(
                "game {game_id} seq {seq}: {message_}", params=dict(game_id=game_id, seq=seq, message_=exc),
                code=exc.code, field=exc.details.get("field"),
            ) from None
