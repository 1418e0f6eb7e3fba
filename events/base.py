"""The base of every event body."""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=False):
    """An immutable fact: a decision or an observation, never a derived effect.

    Every concrete event declares an explicit, namespaced ``tag`` (``"lost-cities.card-played"``);
    the registry refuses one that does not, so renaming a class never changes stored data.
    """
