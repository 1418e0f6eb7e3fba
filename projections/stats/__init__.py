"""Play-history statistics: per-title read models (found by title id), questions, safe SQL,
Parquet export and charts.

The registry imports ``projections.stats.<title id with '-' as '_'>`` for every registered title
and uses its ``MODEL``; a title without such a module still gets the shared tables (games,
results, score by source, moves).
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from projections.stats.base import Finished, TitleStats
from rules import titles


def module_name(title_id: str) -> str:
    return f"{__name__}.{title_id.replace('-', '_')}"


@lru_cache(maxsize=None)
def _load(title_id: str) -> TitleStats:
    try:
        module = importlib.import_module(module_name(title_id))
    except ModuleNotFoundError as exc:
        if exc.name != module_name(title_id):
            raise
        return _Plain(title_id)
    return module.MODEL


class _Plain(TitleStats):
    """A title that has no statistics module yet: shared tables only."""

    def __init__(self, title_id: str) -> None:
        self.title = title_id  # type: ignore[misc]


def model(title_id: str) -> TitleStats:
    """The statistics model of a title (a plain one if the title has no module)."""
    return _load(title_id)


def models() -> dict[str, TitleStats]:
    """Every registered title's model, by title id."""
    return {title_id: _load(title_id) for title_id in sorted(titles())}


__all__ = ["Finished", "TitleStats", "model", "models"]
