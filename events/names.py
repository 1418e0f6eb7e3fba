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
                f"Player {number}'s name holds the control character U+{ord(char):04X}; names are plain text",
                code="player-name-control-character",
                player=number,
            )
        if not name.strip():
            raise InvalidPlayerName(f"Player {number} needs a name", code="blank-player-name", player=number)
        if len(name) > MAX_NAME:
            message = f"Player {number}'s name is longer than {MAX_NAME} characters"
            raise InvalidPlayerName(message, code="player-name-too-long", player=number)
        key = same_name_key(name)
        if key in seen:
            raise InvalidPlayerName(
                f"Players {seen[key]} and {number} have the same name ({name.strip()!r}); give each player their own",
                code="duplicate-player-name",
                player=number,
            )
        seen[key] = number
