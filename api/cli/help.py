"""The help of commands in the CLI's language: the ``cli`` catalogue's ``help/<command>`` and
``help/<command>/<parameter>`` strings put in place of the English ones once ``--lang`` (or the
locale) is known; click formats a subcommand's help after the main callback has run."""

from __future__ import annotations

import inspect
from typing import Any

from typer.core import TyperGroup


def localise_help(group: Any, lang: str, path: str = "") -> None:
    """Every command under ``group`` (a click group) takes its help in ``lang`` where the
    catalogue has it; English stays where it has none."""
    from api import i18n

    texts = i18n.catalogue(lang).get("cli", {})
    for name, command in getattr(group, "commands", {}).items():
        key = f"help/{path}{name}"
        if key in texts:
            command.help = texts[key]
            if getattr(command, "short_help", None) is not None:
                command.short_help = None
        for param in command.params:
            text = texts.get(f"{key}/{param.name}")
            if text is not None and hasattr(param, "help"):
                param.help = text
        localise_help(command, lang, f"{path}{name} ")


def flowing(text: str | None) -> str | None:
    """A help text whose paragraphs are each one line: rich keeps a docstring's single line breaks
    (typer's rich mode), so a paragraph wrapped in the source broke mid-sentence at any width."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split()) for p in paragraphs)


def flow_help(command: Any) -> None:
    """Every help under ``command`` (a click command or group) made of one-line paragraphs."""
    command.help = flowing(command.help)
    if getattr(command, "short_help", None):
        command.short_help = flowing(command.short_help)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = flowing(param.help)
    for sub in getattr(command, "commands", {}).values():
        flow_help(sub)


class FlowingGroup(TyperGroup):
    """The program's click group: its help texts flowed (``flow_help``) before any is shown."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        flow_help(self)
        return super().make_context(info_name, args, parent=parent, **extra)
