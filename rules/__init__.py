"""The rules cores, one subpackage per title, and the registry that names them.

A new title is one folder here plus one line in ``_TITLES`` (or one ``register_title`` call);
importing this package registers every title's events with the codec.
"""

from __future__ import annotations

import msgspec

from events import codec
from events.errors import UnknownTitle
from events.messages import Phrase
from rules.base import REQUIRED, Chance, GrowingPacks, Outcome, PackedTitle, Title
from rules.lost_cities import LostCities
from rules.marco_polo import MarcoPolo
from rules.marco_polo_2 import MarcoPolo2

_TITLES: dict[str, Title] = {}


def register_title(title: Title) -> Title:
    """Check a title against ``rules.base.Title`` and register it with its events; raises
    TypeError naming what is missing or wrong."""
    kind = type(title)
    if not isinstance(title, Title):
        raise TypeError(f"{kind.__name__} is not a rules.base.Title")
    for name in ("id", "name", "event_types", "state_type"):
        if not hasattr(kind, name):
            raise TypeError(f"{kind.__name__} has no {name}")
    missing = [name for name in REQUIRED if getattr(kind, name) is getattr(Title, name)]
    if missing:
        raise TypeError(f"{kind.__name__} does not implement {', '.join(missing)}")
    if isinstance(title, PackedTitle) and not isinstance(getattr(kind, "content", None), dict):
        raise TypeError(f"{kind.__name__} has packs but no default content")
    options = kind.options_type
    if options is not None and not (isinstance(options, type) and issubclass(options, msgspec.Struct)):
        raise TypeError(f"{kind.__name__}.options_type is not a msgspec Struct")
    strays = [t.__name__ for t in kind.after_end if t not in kind.event_types]
    if strays:
        raise TypeError(f"{kind.__name__}.after_end names events it does not have: {', '.join(strays)}")
    known = _TITLES.get(title.id)
    if known is not None and type(known) is not kind:
        raise TypeError(f"title id {title.id!r} is taken by {type(known).__name__}")
    codec.register(*kind.event_types)
    _TITLES[title.id] = title
    return title


for _title in (LostCities(), MarcoPolo(), MarcoPolo2()):
    register_title(_title)


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


__all__ = [
    "Chance", "GrowingPacks", "Outcome", "PackedTitle", "Title", "get_title", "register_title", "title_words", "titles",
]
