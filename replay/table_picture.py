"""The final table as a picture (SVG or PNG) for a group chat: the title, the date, each player
with their score, the winners marked; a slip's picture adds its QR code and its line of text.
Drawn by the statistics' charts (matplotlib, the ``charts`` extra); the QR code by ``segno``."""

from __future__ import annotations

from typing import Any

from projections.stats.charts import ACCENT, Format, _figure, _render
from replay.race_chart import _COLOURS, _FONTS


def qr_matrix(text: str) -> list[list[int]]:
    """The QR code of ``text`` as rows of 0 (light) and 1 (dark), with its quiet zone."""
    import segno

    return [[int(bool(cell)) for cell in row] for row in segno.make(text, error="m", micro=False).matrix_iter(scale=1, border=2)]


def qr_svg(text: str) -> bytes:
    """The QR code of ``text`` alone, as SVG."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="svg", scale=6, border=2, xmldecl=True, svgns=True, title="QR")
    return out.getvalue()


def draw(card: dict[str, Any], fmt: Format = "svg", slip: str | None = None) -> bytes:
    """``card``: ``heading`` (the title's name), ``date``, ``rows`` (``name``, ``score``,
    ``winner``), ``winner_label``, and with ``slip`` its ``slip_label``; the words already said
    in the reader's language."""
    rows = card["rows"]
    height = 1.5 + 0.42 * len(rows) + (0.6 if slip else 0)
    width = 6.4 if slip else 5.0
    fig = _figure(width, max(height, 3.2 if slip else 0))
    fig.set_layout_engine("none")  # one axes over the whole figure, placed by hand
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, width)
    ax.set_ylim(0, fig.get_figheight())
    top = fig.get_figheight() - 0.45
    ax.text(0.3, top, card["heading"], fontsize=17, fontweight="bold", fontfamily=_FONTS, va="center")
    ax.text(0.3, top - 0.42, card["date"], fontsize=10, color="#555", fontfamily=_FONTS, va="center")
    y = top - 1.0
    for seat, row in enumerate(rows):
        colour = _COLOURS[seat % len(_COLOURS)]
        ax.plot([0.38], [y], marker="o", markersize=9, color=colour)
        ax.text(0.6, y, row["name"], fontsize=13, fontfamily=_FONTS, va="center", fontweight="bold" if row["winner"] else "normal")
        score = "" if row["score"] is None else str(row["score"])
        ax.text(3.3, y, score, fontsize=13, fontfamily=_FONTS, va="center", ha="right")
        if row["winner"]:
            ax.text(3.5, y, card["winner_label"], fontsize=10, color=ACCENT, fontfamily=_FONTS, va="center", fontweight="bold")
        y -= 0.42
    if slip:
        matrix = qr_matrix(slip)
        size = 2.1
        left, bottom = width - size - 0.25, fig.get_figheight() - size - 0.35
        ax.imshow(matrix, cmap="Greys", interpolation="nearest", extent=(left, left + size, bottom, bottom + size), vmin=0, vmax=1)
        ax.set_xlim(0, width)
        ax.set_ylim(0, fig.get_figheight())
        ax.text(0.3, 0.55, card["slip_label"], fontsize=8, color="#555", fontfamily=_FONTS, va="center")
        ax.text(0.3, 0.25, _wrapped(slip, 96), fontsize=5.5, fontfamily="DejaVu Sans Mono", va="center")
    return _render(fig, fmt)


def _wrapped(text: str, width: int) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))
