"""Charts of the canned questions, as SVG (or PNG): score distribution, win rate by seat and by
character. matplotlib draws them off-screen (no display, no pyplot state shared between threads)."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from events.errors import ChartsNotInstalled

Format = Literal["svg", "png"]
MEDIA_TYPES = {"svg": "image/svg+xml", "png": "image/png"}
COLOUR = "#3b6ea5"
ACCENT = "#c4572e"


@lru_cache(maxsize=1)
def _figure_class() -> type["Figure"]:
    """matplotlib, imported on the first chart: importing it took ~0.6 s of the server's start,
    and `make serve` leaves it out (the ``charts`` extra: ~170 MB with numpy and Pillow)."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise ChartsNotInstalled(
            "the server charts need matplotlib: install it with make serve EXTRAS=charts (pip's extra '.[charts]')",
            params={},
        ) from None

    # fixed SVG element ids; set once, since rcParams are shared by every thread
    matplotlib.rcParams["svg.hashsalt"] = "tabletape"
    return Figure


def _figure(width: float = 7.0, height: float = 4.0) -> "Figure":
    return _figure_class()(figsize=(width, height), dpi=100, layout="constrained")


def _render(fig: "Figure", fmt: Format) -> bytes:
    buffer = io.BytesIO()
    # no date in the file: the same data draws the same bytes (with the fixed id salt above)
    fig.savefig(buffer, format=fmt, metadata={"Date": None} if fmt == "svg" else {})
    return buffer.getvalue()


def _empty(ax, what: str) -> None:
    ax.text(0.5, 0.5, f"no finished games for {what}", ha="center", va="center", transform=ax.transAxes)
    ax.set_axis_off()


def scores(answer: dict[str, Any], fmt: Format = "svg") -> bytes:
    """Histogram of final scores with the mean and median marked."""
    fig = _figure()
    ax = fig.add_subplot()
    bins = answer["histogram"]
    summary = answer["summary"]
    title = answer.get("title") or "all titles"
    if not bins:
        _empty(ax, title)
        return _render(fig, fmt)
    width = answer["bin_width"]
    ax.bar([b["low"] for b in bins], [b["count"] for b in bins], width=width, align="edge", color=COLOUR,
           edgecolor="white", linewidth=0.5)
    ax.axvline(summary["mean"], color=ACCENT, linestyle="-", label=f"mean {summary['mean']:.1f}")
    ax.axvline(summary["median"], color=ACCENT, linestyle="--", label=f"median {summary['median']:.1f}")
    ax.set_xlabel("final score (per seat)")
    ax.set_ylabel("seats")
    ax.set_title(f"{title}: score distribution ({summary['count']:,} seats)")
    ax.legend(frameon=False)
    return _render(fig, fmt)


def seats(answer: dict[str, Any], fmt: Format = "svg") -> bytes:
    """Win rate by seat, one group of bars per player count; the even chance as a line."""
    fig = _figure()
    ax = fig.add_subplot()
    rows = answer["by_seat"]
    title = answer.get("title") or "all titles"
    if not rows:
        _empty(ax, title)
        return _render(fig, fmt)
    labels, rates, chances = [], [], []
    for row in rows:
        labels.append(f"{row['players']}p seat {row['seat']}")
        rates.append(row["win_rate"])
        chances.append(1 / row["players"])
    xs = range(len(rows))
    ax.bar(xs, rates, color=COLOUR)
    ax.scatter(xs, chances, color=ACCENT, marker="_", s=400, label="even chance", zorder=3)
    ax.set_xticks(list(xs), labels, rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.set_title(f"{title}: win rate by seat")
    ax.legend(frameon=False)
    return _render(fig, fmt)


def characters(answer: list[dict[str, Any]], title: str, fmt: Format = "svg") -> bytes:
    """Win rate by character (bars, sorted), with each character's average score written on it."""
    fig = _figure()
    ax = fig.add_subplot()
    if not answer:
        _empty(ax, title)
        return _render(fig, fmt)
    rows = sorted(answer, key=lambda r: r["win_rate"])
    ys = range(len(rows))
    ax.barh(ys, [r["win_rate"] for r in rows], color=COLOUR)
    ax.set_yticks(list(ys), [r["character"] or "?" for r in rows])
    for y, row in zip(ys, rows):
        ax.text(row["win_rate"], y, f"  avg {row['avg_score']:.1f} ({row['seats']:,} seats)", va="center",
                fontsize=8)
    ax.set_xlim(0, max(r["win_rate"] for r in rows) * 1.45 + 0.05)  # room for the labels
    ax.set_xlabel("win rate")
    ax.set_title(f"{title}: win rate by character")
    return _render(fig, fmt)
