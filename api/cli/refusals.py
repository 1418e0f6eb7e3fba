"""A refusal as the command line prints it: its message, and the rulebook's words it quotes on a
line of their own after it. Its own module so that ``common`` and ``recording`` both import it."""

from __future__ import annotations

import re
from typing import Any


def refusal(exc: Any) -> str:
    """A refusal's message in the CLI's language, the rulebook's words it quotes taken out onto a
    line of their own after it."""
    from api import i18n

    return rulebook_apart(i18n.message(exc, i18n.cli_lang), i18n.rule(exc))


def rulebook_apart(message: str, quoted: dict[str, str] | None) -> str:
    """``message`` without the rulebook's words ``quoted`` (``{lang, text}``), and them on the next line."""
    from api import i18n

    words = None if quoted is None else f'"{quoted["text"]}"'
    if words is None or words not in message:
        return message
    rest = message.replace(words, "")
    # what led to the quote or held it: "...: ", "(...)", "(...; ruling MP-2)"
    rest = re.sub(r"\(\s*\)|:\s*(?=\(|$)", " ", re.sub(r"\(\s*;\s*", "(", rest))
    rest = re.sub(r" {2,}", " ", re.sub(r" +([.,;])", r"\1", rest)).strip()
    return rest + "\n" + i18n.cli("rulebook-words", lang=quoted["lang"], text=quoted["text"])
