"""Any earlier move corrected or taken back in at most 3 taps from the recording view on a phone,
the board in view (issue 28 item 5), in real Chromium at 375×812: each tap's target is on the
screen before it is tapped, and the drawing is not covered when the correction opens."""

from __future__ import annotations

import json

import pytest

from pagehelp import ARTIFACTS, axe_violations, last_seq, pick, report_fact, shot, start_game, wait_ready  # noqa: F401

ON_SCREEN = """e => { const r = e.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""

#: part of the drawing is on the screen and is what a finger there would touch (no sheet over it)
BOARD_SHOWN = """() => { const d = document.querySelector('#drawing'); const r = d.getBoundingClientRect();
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  if (bottom - top < 120) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, top + 20);
  return !!hit && d.contains(hit); }"""


class Taps:
    """Taps made, swipes of the earlier moves' own list (an older move is further down it), and taps
    whose target was off the screen before the tap."""

    def __init__(self, page):
        self.page, self.made, self.off, self.swipes = page, [], [], 0

    def tap(self, selector: str) -> None:
        target = self.page.locator(selector).first
        target.wait_for(state="visible")
        if not target.evaluate(ON_SCREEN) and target.evaluate("e => !!e.closest('.em-list')"):
            self.swipes += 1  # the list scrolls on its own, the page and the board stay where they are
            target.evaluate("e => { const l = e.closest('.em-list'); l.scrollTop = e.closest('li').offsetTop; }")
        if not target.evaluate(ON_SCREEN):
            self.off.append(selector)
        self.made.append(selector)
        target.click()


def record(page, moves: int) -> None:
    for _ in range(moves):
        before = last_seq(page)
        wait_ready(page)
        if not report_fact(page):
            pick(page)
        wait_ready(page, after=before)


@pytest.mark.parametrize("title, options", [("lost-cities", {"rounds": 1}), ("marco-polo", {"characters": "first-game"})])
def test_an_earlier_move_is_corrected_or_taken_back_in_three_taps_with_the_board_in_view(tall_phone, server, http, title, options):
    page = tall_phone
    game_id = start_game(page, server, title, ["Ana", "Bea"], options)
    record(page, 6)
    report = {}

    # a correction: open the earlier moves, tap the move's Correct; its picker opens over nothing of the board's top
    taps = Taps(page)
    taps.tap("#earlier-moves > summary")
    assert page.evaluate(BOARD_SHOWN)
    scrolled = page.evaluate("() => scrollY")
    taps.tap("#earlier-moves [data-correct='2']")
    assert page.evaluate("() => scrollY") == scrolled  # only the list moved
    page.wait_for_selector("#amend-dialog[open] #amend-h")
    assert page.locator("#amend-h").inner_text().endswith("2")
    # the correction's sheet leaves the board above it on the screen
    top = page.locator("#amend-dialog").bounding_box()["y"]
    board = page.locator("#drawing").bounding_box()
    assert min(board["y"] + board["height"], top) - max(board["y"], 0) >= 120, (board, top)
    page.screenshot(path=str(ARTIFACTS / f"earlier-moves-{title}-correct.png"))  # what the phone shows
    assert len(taps.made) <= 3 and taps.off == [], (taps.made, taps.off)
    report["correct"] = {"taps": len(taps.made), "list_swipes": taps.swipes, "off_screen": len(taps.off)}
    page.keyboard.press("Escape")

    # a take-back to just before step 2: the list, the step's Take back, the confirmation
    before = last_seq(page)
    taps = Taps(page)
    if not page.locator("#earlier-moves[open]").count():
        taps.tap("#earlier-moves > summary")
    assert page.evaluate(BOARD_SHOWN)
    page.screenshot(path=str(ARTIFACTS / f"earlier-moves-{title}-list.png"))
    taps.tap("#earlier-moves [data-take-back='2']")
    if page.locator("#undo-to-confirm").count():
        taps.tap("#undo-to-confirm")
    wait_ready(page, after=before)
    assert len(taps.made) <= 3 and taps.off == [], (taps.made, taps.off)
    report["take_back"] = {"taps": len(taps.made), "list_swipes": taps.swipes, "off_screen": len(taps.off)}
    # the log now ends at step 1: the table's state as it stood then
    assert page.locator("#earlier-moves li").count() == 1
    assert axe_violations(page) == []
    shot(page, f"earlier-moves-{title}-taken-back")
    (ARTIFACTS / f"earlier-moves-{title}.json").write_text(json.dumps(report, indent=1))
