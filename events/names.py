"""Text that people type and other people read: player names, and the rule for what is a
control character."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from events.errors import InvalidPlayerName

MAX_NAME = 64
#: bidirectional embeddings, overrides and isolates: they reorder how the text around them reads
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def control_character(text: str) -> str | None:
    """The first character of ``text`` that would act on a terminal or a page instead of being
    shown (C0/C1 controls such as NUL and the ANSI escape, line separators, bidi controls)."""
    for char in text:
        if char in _BIDI or unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return char
    return None


def printable_key(key: str) -> str:
    """A key as a refusal names it: a lone surrogate escaped (``\\ud800``), so that the refusal
    itself can be encoded."""
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def same_name_key(name: str) -> str:
    """Names compare without case, spaces or width: ``" ana "``, ``"ANA"`` and ``"Ａｎａ"`` are one."""
    return "".join(unicodedata.normalize("NFKC", name).split()).casefold()


def check_player_names(players: Sequence[str]) -> None:
    """Every player has a name of plain text, and no two are the same name (``same_name_key``)."""
    seen: dict[str, int] = {}
    for number, name in enumerate(players, 1):
        char = control_character(name)
        if char is not None:
            raise InvalidPlayerName(
                "Player {number}'s name holds the control character U+{ord:04X}; names are plain text", params=dict(number=number, ord=ord(char)),
                code="player-name-control-character",
                player=number,
            )
        if not name.strip():
            raise InvalidPlayerName("Player {number} needs a name", params=dict(number=number), code="blank-player-name", player=number)
        if len(name) > MAX_NAME:
            message = "Player {number}'s name is longer than {max_name} characters"
            raise InvalidPlayerName(message, params=dict(number=number, max_name=MAX_NAME), code="player-name-too-long", player=number)
        key = same_name_key(name)
        if key in seen:
            raise InvalidPlayerName(
                "Players {seen_item} and {number} have the same name ({strip!r}); give each player their own", params=dict(seen_item=seen[key], number=number, strip=name.strip()),
                code="duplicate-player-name",
                player=number,
            )
        seen[key] = number
