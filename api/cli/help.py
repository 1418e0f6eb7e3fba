"""The help of commands in the CLI's language: the ``cli`` catalogue's ``help/<command>`` and
``help/<command>/<parameter>`` strings put in place of the English ones once ``--lang`` (or the
locale) is known; click formats a subcommand's help after the main callback has run."""

from __future__ import annotations

from typing import Any


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
