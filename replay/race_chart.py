"""The score race as an image (SVG or PNG): a line per seat over the steps, the turning point
and the biggest swing marked, their sentences as the caption. Drawn by the statistics' charts
(matplotlib, the ``charts`` extra)."""

from __future__ import annotations

from typing import Any

from projections.stats.charts import ACCENT, Format, _figure, _render

_COLOURS = ("#0b6bcb", "#c25400", "#17723e", "#b0307a", "#6d4fc2")
#: Japanese words and names need a CJK font; matplotlib falls back along the list, glyph by glyph
_FONTS = ["DejaVu Sans", "Noto Sans CJK JP"]


def draw(race: dict[str, Any], fmt: Format = "svg") -> bytes:
    """``race``: the route's answer (``steps``, ``players``, ``turning_point``, ``biggest_swing``,
    the words already said in the reader's language)."""
    fig = _figure(7.0, 4.2)
    ax = fig.add_subplot()
    steps = [s["step"] for s in race["steps"]]
    for seat, player in enumerate(race["players"]):
        ax.plot(steps, [s["scores"][seat] for s in race["steps"]], label=player, color=_COLOURS[seat % len(_COLOURS)], linewidth=1.8)
    captions = []
    if race["turning_point"] is not None:
        ax.axvline(race["turning_point"], color=ACCENT, linestyle="--", linewidth=1.2)
        captions.append(race["turning_words"])
    swing = race["biggest_swing"]
    if swing is not None:
        at = steps.index(swing["step"])
        ax.plot([swing["step"]], [race["steps"][at]["scores"][swing["seat"]]], marker="o", markersize=9,
                markerfacecolor="none", markeredgecolor=ACCENT, markeredgewidth=2)
        captions.append(swing["words"])
    ax.set_xlabel(race["labels"]["step"], fontfamily=_FONTS)
    ax.set_ylabel(race["labels"]["score"], fontfamily=_FONTS)
    ax.axhline(0, color="#888", linewidth=0.6)
    if race["players"]:
        ax.legend(loc="upper left", prop={"family": _FONTS, "size": 9})
    ax.set_title("\n".join(captions), fontsize=9, loc="left", wrap=True, fontfamily=_FONTS)
    return _render(fig, fmt)
