"""The seed documents, found at ``../shared/seeds/`` beside the repository or in ``TABLETAPE_SEEDS``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def seeds_dir() -> Path:
    return Path(os.environ.get("TABLETAPE_SEEDS") or ROOT.parent / "shared" / "seeds")


def found(name: str) -> str | None:
    """The text of seed ``name``, or None when it is not there."""
    path = seeds_dir() / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


def quoted(name: str, phrase: str) -> None:
    """The phrase a rule test rests on is really in the seed; without the seed the rule is still tested
    (``test_seed_is_here`` of each seed file reports the skip)."""
    text = found(name)
    if text is not None:
        assert phrase in text, phrase


def seed_text(name: str) -> str:
    """The text of seed ``name`` (``marco-polo.es.txt``); the test is skipped when it is not there."""
    path = seeds_dir() / name
    if not path.is_file():
        pytest.skip(f"seed {name} not found at {path} (set TABLETAPE_SEEDS to the folder of the seeds)")
    return path.read_text(encoding="utf-8")
