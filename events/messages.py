"""Message templates: ``str.format`` fields, plus a choice field for words that depend on a value.

A refusal is raised as a template and its parameters (``"{card} cannot go on {name}"``,
``card="R7"``); the message is the template formatted with them, so the same parameters can fill
the template of another language (``api.i18n``). ``{flag:?one|other}`` writes ``one`` when the
parameter is true and ``other`` when it is false: the English plural or optional clause a
translation may not need (``{flag:?|}`` writes nothing).

A move's sentence is a ``Phrase`` in the same way: a key, the English template and parameters
that may be phrases themselves; ``say`` words it in a language's ``sentences`` templates.
"""

from __future__ import annotations

import string
from typing import Any, Mapping, Sequence

import msgspec


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("?"):
            when_true, _, when_false = format_spec[1:].partition("|")
            return when_true if value else when_false
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def render(template: str, params: Mapping[str, Any]) -> str:
    """The template with its fields filled from ``params``."""
    return _FORMATTER.vformat(template, (), params)


def fields(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(template) if name}


class Phrase(msgspec.Struct, frozen=True):
    """Words a person reads (a move's sentence): the key of its template in a catalogue's
    ``sentences`` section, its English template and its parameters. A parameter may be a phrase
    itself (a card, a game word, a list), so that each language words it its own way; ``capital``
    writes the first letter upper-case (a phrase that opens a sentence)."""

    key: str
    template: str
    params: dict[str, Any] = msgspec.field(default_factory=dict)
    capital: bool = False

    def __str__(self) -> str:
        return say(self)


def phrase(key: str, template: str, /, **params: Any) -> Phrase:
    """A phrase keyed ``key`` with its English ``template`` and ``params``."""
    return Phrase(key, template, params)


def listed(items: Sequence[Phrase | str], *, last: str = "and") -> Phrase | str:
    """Items as one phrase: "a, b and c" (``last="and"``) or "a, b, c" (``last="comma"``)."""
    if not items:
        return ""
    out: Phrase | str = items[0]
    for i, item in enumerate(items[1:], start=2):
        if i == len(items) and last == "and":
            out = phrase("list.and", "{rest} and {last}", rest=out, last=item)
        else:
            out = phrase("list.comma", "{rest}, {next}", rest=out, next=item)
    return out


def say(words: Phrase | str, templates: Mapping[str, Any] | None = None) -> str:
    """The phrase in words: each template from ``templates`` (a ``sentences`` section, nested by
    the key's dotted parts), the phrase's English one where it has none; None: English."""
    if not isinstance(words, Phrase):
        return str(words)
    template = _lookup(templates, words.key) or words.template
    params = {k: say(v, templates) if isinstance(v, Phrase) else v for k, v in words.params.items()}
    try:
        text = render(template, params)
    except (KeyError, IndexError, ValueError, AttributeError):
        text = render(words.template, params)
    return text[:1].upper() + text[1:] if words.capital else text


def _lookup(templates: Mapping[str, Any] | None, key: str) -> str | None:
    node: Any = templates
    for part in key.split("."):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node if isinstance(node, str) else None
