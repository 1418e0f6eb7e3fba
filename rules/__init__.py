"""The rules cores, one subpackage per title, and the registry that names them.

A new title is one folder here plus one line in ``_TITLES``; importing this package registers
every title's events with the codec.
"""

from __future__ import annotations

from events import codec
from events.errors import UnknownTitle
from events.messages import Phrase
from rules.base import Chance, Outcome, Title
from rules.lost_cities import LostCities
from rules.marco_polo import MarcoPolo
from rules.marco_polo_2 import MarcoPolo2

_TITLES: dict[str, Title] = {t.id: t for t in (LostCities(), MarcoPolo(), MarcoPolo2())}

for _title in _TITLES.values():
    codec.register(*_title.event_types)


def get_title(title_id: str) -> Title:
    try:
        return _TITLES[title_id]
    except KeyError:
        raise UnknownTitle(
            "unknown title {title_id!r}; known titles: {titles}", params=dict(title_id=title_id, titles=', '.join(sorted(_TITLES))), title=title_id
        ) from None


def titles() -> dict[str, Title]:
    return dict(_TITLES)


def title_words(title: Title) -> Phrase:
    """The title's name as a phrase (``title/{id}``): each language names the game as its edition does."""
    return Phrase(f"title/{title.id}", title.name)


__all__ = ["Chance", "Outcome", "Title", "get_title", "title_words", "titles"]
