"""Draw the page's app icons (``static/icons/*.png``): a cassette tape, white on the page's blue.

Run ``python api/web/make_icons.py`` after changing the drawing; the PNGs are committed. Needs
Pillow (matplotlib, a dependency, brings it). A maskable icon fills its square and keeps the
drawing inside the central circle of 80 % that every launcher's mask leaves visible.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

BLUE = (11, 92, 173, 255)
WHITE = (255, 255, 255, 255)
HERE = Path(__file__).resolve().parent / "static" / "icons"
SCALE = 4  # drawn larger, then scaled down: smooth edges


def cassette(draw: ImageDraw.ImageDraw, size: int, inset: float) -> None:
    """A tape inside the square ``size``, leaving ``inset`` (a fraction) free on every side."""
    left, right = size * inset, size * (1 - inset)
    width = right - left
    top, bottom = size / 2 - width * 0.32, size / 2 + width * 0.32
    line = max(2, round(width * 0.06))
    draw.rounded_rectangle((left, top, right, bottom), radius=width * 0.08, outline=WHITE, width=line)
    for cx in (left + width * 0.3, left + width * 0.7):
        r = width * 0.12
        cy = top + (bottom - top) * 0.42
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=WHITE, width=line)
        draw.ellipse((cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3), fill=WHITE)
    # the tape's window between the reels, and the head's notch at the bottom
    draw.line((left + width * 0.3, top + (bottom - top) * 0.42 + width * 0.12,
               left + width * 0.7, top + (bottom - top) * 0.42 + width * 0.12), fill=WHITE, width=line)
    draw.polygon(((left + width * 0.28, bottom), (left + width * 0.34, bottom - width * 0.12),
                  (left + width * 0.66, bottom - width * 0.12), (left + width * 0.72, bottom)), fill=WHITE)


def icon(size: int, maskable: bool) -> Image.Image:
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=BLUE)
        cassette(draw, big, 0.24)
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.18, fill=BLUE)
        cassette(draw, big, 0.14)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    icon(192, False).save(HERE / "icon-192.png", optimize=True)
    icon(512, False).save(HERE / "icon-512.png", optimize=True)
    icon(512, True).save(HERE / "maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
