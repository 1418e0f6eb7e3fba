"""The score race as the API and the CLI answer it: the replay's race with its words said in a
language, and the CLI's picture of it."""

from __future__ import annotations

from typing import Any

from api import i18n
from replay import race as replay_race


def _page(lang: str, key: str) -> str:
    return i18n.catalogue(lang)["page"]["race"][key]


def race_out(svc: Any, game_id: str, lang: str) -> dict[str, Any]:
    """The race as the route answers it, its words said in ``lang``."""
    got = replay_race.race(svc.projector, game_id)
    swing = None
    if got.swing is not None and got.swing_words is not None:
        swing = {
            "step": got.swing.step, "seat": got.swing.seat, "player": got.players[got.swing.seat],
            "delta": got.swing.delta, "words": i18n.sentence(got.swing_words, lang),
        }
    return {
        "game_id": game_id,
        "public_only": got.public_only,
        "players": list(got.players),
        "steps": [{"step": step, "scores": list(scores)} for step, scores in zip(got.steps, got.scores)],
        "winners": list(got.winners),
        "turning_point": got.turning_point,
        "turning_words": i18n.sentence(got.turning_words, lang) if got.turning_words is not None else None,
        "biggest_swing": swing,
        "labels": {"step": _page(lang, "step-axis"), "score": _page(lang, "score-axis")},
    }


_BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[int], lo: int, hi: int, width: int = 48) -> str:
    """The values as one line of bars (``width`` at most, evenly picked, the last kept)."""
    if not values:
        return ""
    picked = [values[round(i * (len(values) - 1) / (width - 1))] for i in range(width)] if len(values) > width else values
    span = (hi - lo) or 1
    return "".join(_BARS[min(len(_BARS) - 1, (v - lo) * len(_BARS) // span)] for v in picked)


def race_lines(answer: dict[str, Any], lang: str) -> list[str]:
    """The race as lines of text: each player's final score and curve, the turning point, the swing."""
    words = i18n.catalogue(lang)["page"]["race"]
    out = [words["heading"]]
    if answer["public_only"]:
        out.append(words["public-only"])
    steps = answer["steps"]
    if not steps:
        return out + [words["none"]]
    every = [score for step in steps for score in step["scores"]]
    lo, hi = min(every), max(every)
    width = max(len(p) for p in answer["players"])
    for seat, player in enumerate(answer["players"]):
        series = [step["scores"][seat] for step in steps]
        out.append(f"{player.ljust(width)} {series[-1]:>5}  {sparkline(series, lo, hi)}")
    if answer["turning_words"]:
        out.append(f"{words['turning-label']}: {answer['turning_words']}")
    elif not answer["public_only"]:
        out.append(words["level"])
    if answer["biggest_swing"]:
        out.append(f"{words['swing-label']}: {answer['biggest_swing']['words']}")
    return out
