"""The event codec: msgpack in storage, JSON on the wire, one typed decoder for every title.

Titles register their event types once at import (``rules`` does it for each title); the
decoder is rebuilt over the union of all registered types whenever the registry grows.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import Any, Sequence, Union

import msgspec
from msgspec import inspect

from events import upcasting
from events.base import Event
from events.errors import MalformedEvent, UnknownEventType
from events.lifecycle import LIFECYCLE_EVENTS
from events.nights import NIGHT_EVENTS
from events.seasons import SEASON_EVENTS

_lock = threading.Lock()
_types: dict[str, type[Event]] = {}
_decoders: tuple[msgspec.msgpack.Decoder, msgspec.json.Decoder, Any, msgspec.msgpack.Decoder] | None = None
#: for each tag with upcasters, a struct holding only ``v``: what the stored-form decoders give
_shells: frozenset[type] = frozenset()
_upcast: frozenset[str] = frozenset()

_msgpack_encoder = msgspec.msgpack.Encoder()
_json_encoder = msgspec.json.Encoder()


def tag_of(event_type: type[Event]) -> str:
    tag = event_type.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{event_type.__name__} has no string tag")
    return tag


def register(*event_types: type[Event]) -> None:
    """Add event types to the union; each needs an explicit namespaced tag, unique across titles."""
    global _decoders
    with _lock:
        for event_type in event_types:
            if not (isinstance(event_type, type) and issubclass(event_type, Event)):
                raise TypeError(f"{event_type!r} is not an Event")
            tag = tag_of(event_type)
            if "." not in tag or tag == event_type.__name__:
                raise TypeError(f"{event_type.__name__} needs an explicit namespaced tag, got {tag!r}")
            known = _types.get(tag)
            if known is not None and known is not event_type:
                raise TypeError(f"tag {tag!r} is used by both {known.__name__} and {event_type.__name__}")
            _types[tag] = event_type
        _decoders = None


def registered() -> dict[str, type[Event]]:
    return dict(_types)


def _forget_decoders() -> None:
    global _decoders
    with _lock:
        _decoders = None


upcasting.on_change(_forget_decoders)


def _shell(tag: str) -> type[Event]:
    return msgspec.defstruct("Shell", [("v", int, 1)], bases=(Event,), tag=tag, frozen=True, kw_only=True)


def _build() -> tuple[msgspec.msgpack.Decoder, msgspec.json.Decoder, Any, msgspec.msgpack.Decoder]:
    global _decoders, _shells, _upcast
    with _lock:
        if _decoders is None:
            union = Union[tuple(_types.values())]  # type: ignore[valid-type]
            upcast = _upcast = upcasting.upcast_tags() & _types.keys()
            for tag in upcast:
                upcasting.check_type(tag, _types[tag])
            # a body of an upcast tag is first read as its shell, whose ``v`` says how to read the rest
            shells = {tag: _shell(tag) for tag in upcast}
            _shells = frozenset(shells.values())
            stored = Union[tuple(shells.get(tag, t) for tag, t in _types.items())] if upcast else union  # type: ignore[valid-type]
            _decoders = (
                msgspec.msgpack.Decoder(stored),
                msgspec.json.Decoder(union),
                union,
                msgspec.msgpack.Decoder(list[stored]),  # type: ignore[valid-type]
            )
        return _decoders


def _lifted(shell: Any, body: bytes) -> Event:
    """The event a stored body of an upcast tag holds, in today's shape."""
    tag = tag_of(type(shell))
    event_type = _types[tag]
    if shell.v == upcasting.current_version(tag):
        return msgspec.msgpack.decode(body, type=event_type)
    return msgspec.convert(upcasting.upcast(msgspec.msgpack.decode(body)), event_type)


def event_union() -> Any:
    """The typing Union of every registered event type (for msgspec.convert and schemas)."""
    return _build()[2]


def encode(event: Event) -> bytes:
    """msgpack bytes, the storage form."""
    try:
        return _msgpack_encoder.encode(event)
    except OverflowError as exc:  # an integer past 64 bits that nothing bounded earlier
        raise MalformedEvent("{tag_of} cannot be stored: {exc}", params=dict(tag_of=tag_of(type(event)), exc=exc)) from None


def encode_json(event: Event) -> bytes:
    return _json_encoder.encode(event)


def encode_json_lines(events: Sequence[Event]) -> bytes:
    """Every event's ``encode_json``, each followed by a newline, in one call."""
    return _json_encoder.encode_lines(events)


def stored_json(event: Event, body: bytes) -> bytes:
    """The JSON copy a log keeps beside ``body``: ``encode_json(event)``, unless ``event`` was read
    through an upcaster, whose stored body and JSON copy keep the shape they were written in."""
    if _shells and tag_of(type(event)) in _upcast:
        return _json_encoder.encode(msgspec.msgpack.decode(body))
    return _json_encoder.encode(event)


def stored_json_lines(events: Sequence[Event], bodies: Sequence[bytes]) -> bytes:
    """``stored_json`` of each event, each followed by a newline, in one call."""
    if not _shells:
        return _json_encoder.encode_lines(events)
    return b"".join([stored_json(event, body) + b"\n" for event, body in zip(events, bodies)])


def to_builtins(event: Event) -> dict[str, Any]:
    return msgspec.to_builtins(event)


def _raise_decode_error(exc: Exception, kind: str) -> None:
    text = str(exc)
    if "`$.type`" in text or "missing required field `type`" in text.lower():
        raise UnknownEventType("unknown or missing event type: {text}", params=dict(text=text)) from exc
    raise MalformedEvent("{kind} is not a valid event: {text}", params=dict(kind=kind, text=text)) from exc


def decode(data: bytes) -> Event:
    """Decode stored msgpack bytes; raises MalformedEvent / UnknownEventType."""
    try:
        event = _build()[0].decode(data)
        return _lifted(event, data) if _shells and type(event) in _shells else event
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        _raise_decode_error(exc, "msgpack")
        raise  # unreachable


def decode_many(bodies: list[bytes]) -> list[Event]:
    """Decode many stored bodies in one call (framed as one msgpack array)."""
    try:
        events = _build()[3].decode(b"\xdd" + len(bodies).to_bytes(4, "big") + b"".join(bodies))
        if _shells:
            events = [_lifted(e, body) if type(e) in _shells else e for e, body in zip(events, bodies)]
        return events
    except (msgspec.DecodeError, msgspec.ValidationError):
        return [decode(body) for body in bodies]  # names the body at fault


def decode_json(data: bytes | str) -> Event:
    decoders = _build()
    try:
        return from_builtins(msgspec.json.decode(data)) if _shells else decoders[1].decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        _raise_decode_error(exc, "JSON")
        raise


def from_builtins(obj: Any) -> Event:
    """Convert a JSON-like dict (``{"type": ..., ...}``) into a typed event."""
    # converting to the one tagged class is ~10x cheaper than to the union (whose type info
    # msgspec rebuilds on every call); the union still names what is wrong with a bad tag
    event_type = _types.get(obj.get("type")) if isinstance(obj, dict) and isinstance(obj.get("type"), str) else None
    if event_type is not None:
        obj = upcasting.upcast(obj)
    try:
        return msgspec.convert(obj, event_type or _build()[2])
    except msgspec.ValidationError as exc:
        _raise_decode_error(exc, "body")
        raise


# -- what the edge lets in -------------------------------------------------------------------------

#: the largest magnitude of a number in a move or an option: far past any count a board game
#: makes, and far inside what the log (64-bit msgpack) and the read models (32-bit scores) hold
MAX_NUMBER = 1_000_000


def out_of_range(value: Any, path: str = "") -> str | None:
    """Where in a JSON-like ``value`` a number lies outside ±``MAX_NUMBER`` (or is not finite)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    if isinstance(value, int):
        return path if not -MAX_NUMBER <= value <= MAX_NUMBER else None
    if isinstance(value, float):
        return path if not (math.isfinite(value) and -MAX_NUMBER <= value <= MAX_NUMBER) else None
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        where = out_of_range(item, f"{path}.{key}" if path else str(key))
        if where is not None:
            return where
    return None


def check_numbers(event: Event, what: str = "move") -> None:
    """Refuse an event from outside holding a number no game uses (``number-out-of-range``)."""
    where = out_of_range(to_builtins(event))
    if where is not None:
        field = f"{what}.{where}"
        raise MalformedEvent("{field}: numbers must be within ±{max_number}", params=dict(field=field, max_number=MAX_NUMBER), code="number-out-of-range", field=field)


@lru_cache(maxsize=None)
def _fields(struct: type) -> tuple[frozenset[str], tuple[tuple[str, Any], ...]]:
    """A struct's field names (its tag field included) and the fields that hold structs."""
    info = inspect.type_info(struct)
    names = {f.encode_name for f in info.fields} | ({info.tag_field} if info.tag_field else set())
    return frozenset(names), tuple((f.encode_name, f.type) for f in info.fields if _holds_struct(f.type))


def _holds_struct(t: Any) -> bool:
    if isinstance(t, inspect.StructType):
        return True
    inner = [getattr(t, a) for a in ("item_type", "value_type") if hasattr(t, a)]
    inner += list(getattr(t, "item_types", ())) + list(getattr(t, "types", ()))
    return any(_holds_struct(i) for i in inner)


def _unknown(value: Any, t: Any, path: str) -> tuple[str, frozenset[str]] | None:
    """Where in ``value`` (of type ``t``) a field is unknown, and the fields known there."""
    if isinstance(t, inspect.StructType):
        if not isinstance(value, dict):
            return None  # the decoder names the wrong type
        names, nested = _fields(t.cls)
        extra = [k for k in value if k not in names]
        if extra:
            return f"{path}.{extra[0]}", names
        for name, field_type in nested:
            if name in value:
                where = _unknown(value[name], field_type, f"{path}.{name}")
                if where is not None:
                    return where
        return None
    if isinstance(t, inspect.UnionType):
        structs = [u for u in t.types if isinstance(u, inspect.StructType)]
        return _unknown(value, structs[0], path) if len(structs) == 1 else None
    if isinstance(value, (list, tuple)):
        types = getattr(t, "item_types", None) or [getattr(t, "item_type", None)] * len(value)
        for index, (item, item_type) in enumerate(zip(value, types)):
            where = _unknown(item, item_type, f"{path}.{index}")
            if where is not None:
                return where
    elif isinstance(value, dict) and hasattr(t, "value_type"):
        for key, item in value.items():
            where = _unknown(item, t.value_type, f"{path}.{key}")
            if where is not None:
                return where
    return None


def from_wire(obj: Any, what: str = "move") -> Event:
    """``from_builtins`` for input from outside: a field the event does not have is refused
    (``unknown-field``, naming it), where the stored form's decoding ignores it."""
    event_type = _types.get(obj.get("type")) if isinstance(obj, dict) and isinstance(obj.get("type"), str) else None
    if event_type is not None:
        obj = upcasting.upcast(obj)  # an older client's shape is read as the log reads it
        names, nested = _fields(event_type)
        if nested or not names.issuperset(obj):
            unknown = _unknown(obj, inspect.type_info(event_type), what)
            if unknown is not None:
                where, known = unknown
                raise MalformedEvent(
                    "{where}: no such field in {tag_of} (known there: {known})", params=dict(where=where, tag_of=tag_of(event_type), known=', '.join(sorted(known))),
                    code="unknown-field",
                    field=where,
                )
    return from_builtins(obj)


register(*LIFECYCLE_EVENTS)
register(*SEASON_EVENTS)
register(*NIGHT_EVENTS)
