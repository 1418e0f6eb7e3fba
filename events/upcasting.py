"""Upcasters: a stored body of an older shape is rewritten into today's before it is typed.

A tag is at version 1 until an upcaster is registered for it. An event type at version N >= 2
declares ``v: int = N``, so the bodies it writes say which shape they have; a body without ``v``
is version 1. ``register_upcaster(tag, n, fn)`` rewrites a version-n body (a dict) into n + 1.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

import msgspec

from events.errors import MalformedEvent

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

_lock = threading.Lock()
#: tag -> from version -> upcaster; read without the lock (the decoder is rebuilt on a change)
_upcasters: dict[str, dict[int, Upcaster]] = {}
_listeners: list[Callable[[], None]] = []


def register_upcaster(tag: str, from_version: int, fn: Upcaster) -> None:
    """Let bodies of ``tag`` at ``from_version`` be read: ``fn`` returns the next version's dict."""
    with _lock:
        steps = _upcasters.get(tag, {})
        if from_version != len(steps) + 1 and steps.get(from_version) is not fn:
            raise TypeError(f"{tag}: upcasters go 1, 2, ... in turn; the next is from {len(steps) + 1}, not {from_version}")
        _upcasters[tag] = {**steps, from_version: fn}
    for listener in _listeners:
        listener()


def unregister_upcasters(tag: str) -> None:
    """Forget ``tag``'s upcasters (for a test that registered a version of its own)."""
    with _lock:
        _upcasters.pop(tag, None)
    for listener in _listeners:
        listener()


def on_change(listener: Callable[[], None]) -> None:
    _listeners.append(listener)


def upcast_tags() -> frozenset[str]:
    return frozenset(_upcasters)


def current_version(tag: str) -> int:
    return len(_upcasters.get(tag, ())) + 1


def has_upcaster(tag: str, from_version: int) -> bool:
    return from_version in _upcasters.get(tag, {})


def version_of(event_type: type) -> int:
    """The version an event type writes: its ``v`` field's default, else 1."""
    return next((f.default for f in msgspec.structs.fields(event_type) if f.name == "v"), 1)


def check_type(tag: str, event_type: type) -> None:
    """A type registered for an upcast tag must write today's version."""
    if version_of(event_type) != current_version(tag):
        raise TypeError(f"{event_type.__name__} writes version {version_of(event_type)} of {tag}, whose upcasters lead to {current_version(tag)}: declare v: int = {current_version(tag)}")


def upcast(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` in today's shape of its tag (itself when it is already)."""
    tag = body.get("type")
    steps = _upcasters.get(tag) if isinstance(tag, str) else None
    if not steps:
        return body
    version, current = body.get("v", 1), len(steps) + 1
    if version == current:
        return body
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version < current:
        raise MalformedEvent(
            "{tag} body of version {version} cannot be read here (versions 1 to {current} can)",
            params=dict(tag=tag, version=version, current=current),
            code="unknown-event-version",
        )
    while version < current:
        body = {**steps[version](dict(body)), "v": version + 1}
        version += 1
    return body
