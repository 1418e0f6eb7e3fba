"""The board stays in view while recording (issue 28 item 1), in real Chromium at 375×812 and
1366×900 for the three titles: the recording sheet takes at most a third of a phone's height (its
list scrolls inside it) and the board's drawing lies on the screen above it, uncovered; on a wide
screen the recording panel lies beside the drawing, never over it."""

from __future__ import annotations

import json

import pytest
from pagehelp import ARTIFACTS, axe_violations, small_targets, to_recording

SHOTS = ARTIFACTS / "board-in-view"

#: the drawing's element each title is seen by: the map, or Lost Cities' table of expeditions
BOARD = {"lost-cities": "#drawing .lc-table", "marco-polo": "#drawing .mp-map", "marco-polo-2": "#drawing .mp-map"}

#: where the board's element and the sheet lie, and whether what lies at the element's middle
#: (and at its top and bottom) is the drawing itself rather than something over it
MEASURE = """sel => {
  const el = document.querySelector(sel); const r = el.getBoundingClientRect();
  const sheet = document.querySelector('#sheet'); const s = sheet.getBoundingClientRect();
  const rec = document.querySelector('#recorder').getBoundingClientRect();
  const drawing = document.querySelector('#drawing');
  const at = (y) => { const hit = document.elementFromPoint(r.left + r.width / 2, y); return !!hit && drawing.contains(hit); };
  return {viewport: [innerWidth, innerHeight], board: [r.left, r.top, r.width, r.height], sheet: [s.left, s.top, s.width, s.height],
          recorder: [rec.left, rec.top, rec.width, rec.height], fixed: getComputedStyle(sheet).position === 'fixed',
          uncovered: [at(r.top + 2), at(r.top + r.height / 2), at(r.bottom - 2)]};
}"""


@pytest.mark.parametrize("title", ["lost-cities", "marco-polo", "marco-polo-2"])
def test_the_board_stays_in_view_above_the_sheet(screen, server, http, title):
    page = screen
    phone = page.viewport_size["width"] < 600
    to_recording(page, server, http, title)
    kinds = page.locator("#picker .kinds:not(.sub) .kind")
    if kinds.count() > 1:
        kinds.first.click()  # a kind of move chosen: its moves fill the sheet
    page.wait_for_selector("#picker .move, #picker .kinds.sub .kind")
    if page.locator("#picker .kinds.sub .kind").count():
        page.locator("#picker .kinds.sub .kind").first.click()  # narrowed by its next word
    page.wait_for_selector("#picker .move")
    page.wait_for_timeout(150)  # the sheet's height measured (a resize observer) and the board placed
    seen = page.evaluate(MEASURE, BOARD[title])
    SHOTS.mkdir(parents=True, exist_ok=True)
    where = "phone" if phone else "wide"
    page.screenshot(path=str(SHOTS / f"{title}-{where}.png"))
    (SHOTS / f"{title}-{where}.json").write_text(json.dumps(seen, indent=1))
    bx, by, bw, bh = seen["board"]
    height = seen["viewport"][1]
    if phone:
        sx, sy, sw, sh = seen["sheet"]
        assert seen["fixed"]
        assert sh <= height / 3 + 1, seen  # at most a third of the screen
        assert sy + sh <= height + 1
        assert by >= 0 and by + bh <= sy + 1, seen  # the drawing wholly on screen, above the sheet
        # the list inside the sheet scrolls; the sheet's own targets stay a finger's size
        assert small_targets(page, "#sheet") == []
    else:
        rx, ry, rw, rh = seen["recorder"]
        assert by >= 0 and by < height and bw > 0, seen
        assert rx >= bx + bw or rx + rw <= bx, seen  # beside the drawing, not over it
    assert all(seen["uncovered"]), seen  # nothing lies over the drawing where it shows
    assert axe_violations(page) == []
