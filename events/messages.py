"""Message templates: ``str.format`` fields, plus a choice field for words that depend on a value.

A refusal is raised as a template and its parameters (``"{card} cannot go on {name}"``,
``card="R7"``); the message is the template formatted with them, so the same parameters can fill
the template of another language (``api.i18n``). ``{flag:?one|other}`` writes ``one`` when the
parameter is true and ``other`` when it is false: the English plural or optional clause a
translation may not need (``{flag:?|}`` writes nothing).

A parameter that is itself words (why a payment is due, which action was refused) is a
``Phrase``: a catalogue key, its English template and its own parameters, so that a translation
renders it from its own catalogue's ``phrases`` (``api.i18n``) rather than embedding English.
"""

from __future__ import annotations

import string
from typing import Any, Mapping


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("?"):
            when_true, _, when_false = format_spec[1:].partition("|")
            return when_true if value else when_false
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


class Phrase:
    """Words passed as a message parameter: ``Phrase("why/bonus-city", "for the bonus of {city}",
    {"city": "Kashgar"})``; it reads as its English text wherever a string would."""

    __slots__ = ("key", "template", "params")

    def __init__(self, key: str, template: str, params: Mapping[str, Any]) -> None:
        self.key, self.template, self.params = key, template, dict(params)

    def __str__(self) -> str:
        return render(self.template, self.params)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return repr(str(self))

    # a phrase stands where an English string stood: it equals that string
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Phrase):
            return (self.key, self.params) == (other.key, other.params)
        return str(self) == other if isinstance(other, str) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


class Joined:
    """Phrases (or words) written one after another with ``sep`` between: each is translated."""

    __slots__ = ("sep", "items")

    def __init__(self, sep: str, items: Any) -> None:
        self.sep, self.items = sep, tuple(items)

    def __str__(self) -> str:
        return self.sep.join(str(i) for i in self.items)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return repr(str(self))

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other) if isinstance(other, (str, Joined)) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __bool__(self) -> bool:
        return bool(self.items)


def phrase(key: str, template: str, /, **params: Any) -> Phrase:
    """A ``Phrase`` with its parameters as keywords."""
    return Phrase(key, template, params)


def render(template: str, params: Mapping[str, Any]) -> str:
    """The template with its fields filled from ``params``."""
    return _FORMATTER.vformat(template, (), params)


def fields(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(template) if name}


def joined(sep: str, items: Any) -> Joined:
    """``sep.join(items)``, its phrases each translated."""
    return Joined(sep, items)
