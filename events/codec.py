"""The event codec: msgpack in storage, JSON on the wire, one typed decoder for every title.

Titles register their event types once at import (``rules`` does it for each title); the
decoder is rebuilt over the union of all registered types whenever the registry grows.
"""

from __future__ import annotations

import threading
from typing import Any, Union

import msgspec

from events.base import Event
from events.errors import MalformedEvent, UnknownEventType
from events.lifecycle import LIFECYCLE_EVENTS

_lock = threading.Lock()
_types: dict[str, type[Event]] = {}
_decoders: tuple[msgspec.msgpack.Decoder, msgspec.json.Decoder, Any, msgspec.msgpack.Decoder] | None = None

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


def _build() -> tuple[msgspec.msgpack.Decoder, msgspec.json.Decoder, Any, msgspec.msgpack.Decoder]:
    global _decoders
    with _lock:
        if _decoders is None:
            union = Union[tuple(_types.values())]  # type: ignore[valid-type]
            _decoders = (
                msgspec.msgpack.Decoder(union),
                msgspec.json.Decoder(union),
                union,
                msgspec.msgpack.Decoder(list[union]),  # type: ignore[valid-type]
            )
        return _decoders


def event_union() -> Any:
    """The typing Union of every registered event type (for msgspec.convert and schemas)."""
    return _build()[2]


def encode(event: Event) -> bytes:
    """msgpack bytes, the storage form."""
    return _msgpack_encoder.encode(event)


def encode_json(event: Event) -> bytes:
    return _json_encoder.encode(event)


def to_builtins(event: Event) -> dict[str, Any]:
    return msgspec.to_builtins(event)


def _raise_decode_error(exc: Exception, kind: str) -> None:
    text = str(exc)
    if "`$.type`" in text or "missing required field `type`" in text.lower():
        raise UnknownEventType(f"unknown or missing event type: {text}") from exc
    raise MalformedEvent(f"{kind} is not a valid event: {text}") from exc


def decode(data: bytes) -> Event:
    """Decode stored msgpack bytes; raises MalformedEvent / UnknownEventType."""
    try:
        return _build()[0].decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        _raise_decode_error(exc, "msgpack")
        raise  # unreachable


def decode_many(bodies: list[bytes]) -> list[Event]:
    """Decode many stored bodies in one call (framed as one msgpack array)."""
    try:
        return _build()[3].decode(b"\xdd" + len(bodies).to_bytes(4, "big") + b"".join(bodies))
    except (msgspec.DecodeError, msgspec.ValidationError):
        return [decode(body) for body in bodies]  # names the body at fault


def decode_json(data: bytes | str) -> Event:
    try:
        return _build()[1].decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        _raise_decode_error(exc, "JSON")
        raise


def from_builtins(obj: Any) -> Event:
    """Convert a JSON-like dict (``{"type": ..., ...}``) into a typed event."""
    # converting to the one tagged class is ~10x cheaper than to the union (whose type info
    # msgspec rebuilds on every call); the union still names what is wrong with a bad tag
    event_type = _types.get(obj.get("type")) if isinstance(obj, dict) and isinstance(obj.get("type"), str) else None
    try:
        return msgspec.convert(obj, event_type or _build()[2])
    except msgspec.ValidationError as exc:
        _raise_decode_error(exc, "body")
        raise


register(*LIFECYCLE_EVENTS)
