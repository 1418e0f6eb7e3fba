"""The map's words are readable on a phone (issue 28 item 3), in real Chromium at 375×812 for the
Marco Polo and Marco Polo II maps at the zoom used while recording, and once zoomed in: every
label of the map shown on screen is at least 11 CSS px high and no two of them overlap (each
visible label's getBoundingClientRect against every other's), a city's name going before a route's
cost where both would not fit."""

from __future__ import annotations

import json

import pytest
from pagehelp import ARTIFACTS, MAP_LABELS, axe_violations, overlapping, to_recording

SHOTS = ARTIFACTS / "map-labels"

def check(page, title: str, where: str) -> dict:
    page.wait_for_function("() => !!document.querySelector('#drawing .mp-map-wrap[data-labels]')")
    seen = page.evaluate(MAP_LABELS)
    shown = [label for label in seen["labels"] if label["shown"]]
    assert shown, seen
    assert overlapping(shown) == []
    assert [label["text"] for label in shown if label["height"] < 11 or label["px"] < 11] == [], shown
    figures = {
        "zoom": seen["zoom"],
        "shown": len(shown),
        "hidden": sorted(label["text"] for label in seen["labels"] if not label["shown"]),
        "smallest_height_px": round(min(label["height"] for label in shown), 2),
        "smallest_font_px": round(min(label["px"] for label in shown), 2),
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#drawing .mp-map").screenshot(path=str(SHOTS / f"{title}-{where}.png"))
    page.screenshot(path=str(SHOTS / f"{title}-{where}-screen.png"))
    return figures


@pytest.mark.parametrize("title", ["marco-polo", "marco-polo-2"])
def test_the_map_s_labels_are_readable_and_apart_on_a_phone(tall_phone, server, http, title):
    page = tall_phone
    to_recording(page, server, http, title)
    report = {"recording": check(page, title, "recording")}
    # a city's name is hidden only where another city's takes its place
    if title == "marco-polo":
        names = [label for label in page.evaluate(MAP_LABELS)["labels"] if label["name"]]
        assert names and all(label["shown"] for label in names), names
    page.locator("#drawing .map-zoom-in").click()
    page.wait_for_function("z => Number(document.querySelector('#drawing .mp-map-wrap').dataset.zoom) > z", arg=report["recording"]["zoom"])
    report["zoomed in"] = check(page, title, "zoomed-in")
    (SHOTS / f"{title}.json").write_text(json.dumps(report, indent=1))
    assert axe_violations(page) == []
