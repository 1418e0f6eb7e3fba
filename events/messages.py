"""Message templates: ``str.format`` fields, plus a choice field for words that depend on a value.

A refusal is raised as a template and its parameters (``"{card} cannot go on {name}"``,
``card="R7"``); the message is the template formatted with them, so the same parameters can fill
the template of another language (``api.i18n``). ``{flag:?one|other}`` writes ``one`` when the
parameter is true and ``other`` when it is false: the English plural or optional clause a
translation may not need (``{flag:?|}`` writes nothing).
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


def render(template: str, params: Mapping[str, Any]) -> str:
    """The template with its fields filled from ``params``."""
    return _FORMATTER.vformat(template, (), params)


def fields(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(template) if name}
