"""Message templates: ``str.format`` fields, plus a choice field for words that depend on a value.

A refusal is raised as a template and its parameters (``"{card} cannot go on {name}"``,
``card="R7"``); the message is the template formatted with them, so the same parameters can fill
the template of another language (``api.i18n``). ``{flag:?one|other}`` writes ``one`` when the
parameter is true and ``other`` when it is false: the English plural or optional clause a
translation may not need (``{flag:?|}`` writes nothing).

A parameter that is itself words (why a payment is due, which action was refused) is a
``Phrase``: a catalogue key, its English template and its own parameters, so that a translation
renders it from its own catalogue's ``phrases`` (``api.i18n``) rather than embedding English.

A move's sentence is a ``Phrase`` in the same way: a key, the English template and parameters
that may be phrases themselves; ``say`` words it in a language's ``sentences`` templates.
"""

from __future__ import annotations

import string
from typing import Any, Callable, Mapping, Sequence


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("?"):
            when_true, _, when_false = format_spec[1:].partition("|")
            return when_true if value else when_false
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


class Phrase:
    """Words a person reads, as a catalogue key, its English template and its parameters (which
    may be phrases themselves): a refusal's parameter (``Phrase("why/bonus-city", "for the bonus
    of {city}", {"city": "Kashgar"})``, keyed in ``phrases``) or a move's sentence (keyed in
    ``sentences``); ``capital`` writes the first letter upper-case. It reads as its English text
    wherever a string would."""

    __slots__ = ("key", "template", "params", "capital")

    def __init__(self, key: str, template: str, params: Mapping[str, Any] | None = None, capital: bool = False) -> None:
        self.key, self.template, self.params, self.capital = key, template, dict(params or {}), capital

    def __str__(self) -> str:
        return say(self)

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


class Templated(ValueError):
    """A complaint kept as its English template and parameters, so that a refusal wrapping it can
    write it in the reader's language (``api.i18n``)."""

    def __init__(self, template: str, params: Mapping[str, Any]) -> None:
        self.template, self.params = template, dict(params)
        super().__init__(render(template, self.params))


def fields(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(template) if name}


def joined(sep: str, items: Any) -> Joined:
    """``sep.join(items)``, its phrases each translated."""
    return Joined(sep, items)


def listed(items: Sequence[Phrase | str], *, last: str = "and") -> Phrase | str:
    """Items as one phrase: "a, b and c" (``last="and"``), "a, b or c" (``last="or"``) or "a, b, c"
    (``last="comma"``)."""
    if not items:
        return ""
    out: Phrase | str = items[0]
    for i, item in enumerate(items[1:], start=2):
        if i == len(items) and last == "and":
            out = phrase("list.and", "{rest} and {last}", rest=out, last=item)
        elif i == len(items) and last == "or":
            out = phrase("who/or", "{rest} or {last}", rest=out, last=item)
        else:
            out = phrase("list.comma", "{rest}, {next}", rest=out, next=item)
    return out


def say(
    words: Any,
    templates: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    term: Callable[[str, Any], Any] | None = None,
) -> str:
    """The phrase in words: each template from ``templates`` (a catalogue section, or several
    looked up in turn; a key found as it is or nested by its dotted parts), the phrase's English
    one where they have none; None: English. ``term(name, value)`` puts a plain parameter (a
    character's id) in the language's words."""
    if isinstance(words, Joined):
        return words.sep.join(say(i, templates, term) for i in words.items)
    if not isinstance(words, Phrase):
        return str(words)
    template = template_in(templates, words.key) or words.template
    params = {
        k: say(v, templates, term) if isinstance(v, (Phrase, Joined)) else (term(k, v) if term else v)
        for k, v in words.params.items()
    }
    try:
        text = render(template, params)
    except (KeyError, IndexError, ValueError, AttributeError):
        text = render(words.template, params)
    return text[:1].upper() + text[1:] if words.capital else text


def template_in(templates: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None, key: str) -> str | None:
    """The template keyed ``key`` in a catalogue section (flat, or nested by the key's dotted
    parts), or in the first of several that has it; None where none has."""
    if isinstance(templates, Sequence):
        return next((t for t in (template_in(one, key) for one in templates) if t is not None), None)
    if templates is not None and isinstance(templates.get(key), str):
        return templates[key]
    node: Any = templates
    for part in key.split("."):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node if isinstance(node, str) else None
