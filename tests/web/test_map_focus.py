"""The map zooms by itself to the part a decision needs and back (issue 28 item 1), in real Chromium
at 375×812: with a travel's moves shown (Travel tapped, then a narrowing chip) the Marco Polo and
Marco Polo II maps zoom to the places those moves go to, each of them on the screen with its name
readable and apart; once the move is recorded the whole map is back. A zoom by hand stays the
reader's: recording a move leaves it."""

from __future__ import annotations

import json

import pytest
from pagehelp import ARTIFACTS, MAP_LABELS, last_seq, overlapping, pick, report_fact, step, to_recording, wait_ready

SHOTS = ARTIFACTS / "map-focus"
TRAVEL = {"marco-polo": "marco-polo.travelled", "marco-polo-2": "marco-polo-2.travelled"}

#: the places the shown moves go to (a travel's path), and where each one's centre lies on the screen
DESTINATIONS = """() => {
  const svg = document.querySelector('#drawing svg.mp-map'); const map = svg.getBoundingClientRect();
  const shown = [...document.querySelectorAll('#picker .options-area .move')].map((b) => b.dataset.notation);
  const places = [...document.querySelectorAll('#drawing .mp-loc[data-loc]')];
  const at = Object.fromEntries(places.map((g) => { const r = g.querySelector('.mp-city-shape, .mp-oasis-shape').getBoundingClientRect();
    return [g.dataset.loc, [r.left + r.width / 2, r.top + r.height / 2]]; }));
  return {shown, at, map: [map.left, map.top, map.right, map.bottom], zoom: Number(svg.parentNode.dataset.zoom),
          focused: svg.parentNode.dataset.focused === 'true'};
}"""


def zoom(page) -> float:
    return float(page.locator("#drawing .mp-map-wrap").get_attribute("data-zoom"))


def to_travel(page, server, http, title: str) -> None:
    """A game at the table where the seat to move may travel."""
    to_recording(page, server, http, title)
    for _ in range(12):
        if page.locator(f"#picker .kind[data-group='{TRAVEL[title]}']").count():
            return
        step(page, prefer=("marco-polo.turn-ended", "marco-polo-2.turn-ended"))
    pytest.fail("no travel was offered")


@pytest.mark.parametrize("title", ["marco-polo", "marco-polo-2"])
def test_the_map_zooms_to_a_travel_s_places_and_back(tall_phone, server, http, title):
    page = tall_phone
    SHOTS.mkdir(parents=True, exist_ok=True)
    to_travel(page, server, http, title)
    assert zoom(page) == 1.0
    page.locator(f"#picker .kind[data-group='{TRAVEL[title]}']").click()
    if page.locator("#picker .kinds.sub .kind").count():
        page.locator("#picker .kinds.sub .kind").first.click()
    page.wait_for_selector("#drawing .mp-map-wrap[data-focused=true]")
    seen = page.evaluate(DESTINATIONS)
    legal = {m["notation"]: m["move"] for m in page.evaluate(
        "async () => { const t = JSON.parse(localStorage.getItem('tabletape.tokens.' + new URL(location).searchParams.get('game'))).write;"
        " const r = await fetch(`/games/${new URL(location).searchParams.get('game')}/legal-moves`, {headers: {Authorization: `Bearer ${t}`}});"
        " return (await r.json()).moves; }")}
    places = {p for n in seen["shown"] for k in ("path", "path2") for p in (legal[n].get(k) or [])}
    assert places, seen
    left, top, right, bottom = seen["map"]
    off = [p for p in places if p in seen["at"] and not (left <= seen["at"][p][0] <= right and top <= seen["at"][p][1] <= bottom)]
    assert off == [], (off, seen)  # every place the moves go to is on the map's view
    labels = [label for label in page.evaluate(MAP_LABELS)["labels"] if label["shown"]]
    assert overlapping(labels) == [] and min(label["height"] for label in labels) >= 11
    page.screenshot(path=str(SHOTS / f"{title}-travel.png"))
    report = {"zoom": seen["zoom"], "places": len(places), "labels shown": len(labels)}
    if title == "marco-polo":
        assert seen["zoom"] > 1.0, seen  # one figure's reach is a part of the map, not all of it

    # recorded: the whole map again
    before = last_seq(page)
    page.locator("#picker .options-area .move").first.click()
    wait_ready(page, after=before)
    page.wait_for_function("() => document.querySelector('#drawing .mp-map-wrap').dataset.zoom === '1.00'")
    assert page.locator("#drawing .mp-map-wrap[data-focused]").count() == 0
    page.screenshot(path=str(SHOTS / f"{title}-after.png"))

    # zoomed by hand, the map stays so through the next move
    page.locator("#drawing .map-zoom-in").click()
    by_hand = zoom(page)
    assert by_hand > 1.0
    before = last_seq(page)
    if not report_fact(page):  # any move but a travel (which would zoom to its own places)
        groups = [k.get_attribute("data-group") for k in page.locator("#picker .kinds:not(.sub) .kind").all()]
        pick(page, next(g for g in groups if g != TRAVEL[title]))
    wait_ready(page, after=before)
    assert zoom(page) == by_hand
    report["by hand"] = by_hand
    (SHOTS / f"{title}.json").write_text(json.dumps(report, indent=1))


#: how much of the action board shows inside the board's own scrolling box, and that box's scroll
ACTION_BOARD = """() => { const box = document.querySelector('.board'); const b = box.getBoundingClientRect();
  const r = document.querySelector('#drawing .mp-board').getBoundingClientRect();
  const sheet = document.querySelector('#sheet').getBoundingClientRect();
  return {shows: Math.min(r.bottom, b.bottom, sheet.top) - Math.max(r.top, b.top, 0), scrolled: box.scrollTop}; }"""
DICE_KINDS = ("marco-polo.bazaar-used", "marco-polo.five-coins-taken", "marco-polo.khans-favor-taken",
              "marco-polo.money-bag-taken", "marco-polo.contracts-taken")


def test_dice_for_the_action_board_bring_it_into_view_and_back(tall_phone, server, http):
    page = tall_phone
    to_recording(page, server, http, "marco-polo")
    for _ in range(12):
        kind = next((k for k in DICE_KINDS if page.locator(f"#picker .kind[data-group='{k}']").count()), None)
        if kind:
            break
        step(page, prefer=("marco-polo.turn-ended",))
    assert kind, "no action on the action board was offered"
    page.evaluate("() => { const b = document.querySelector('.board'); b.scrollTop = b.scrollHeight; }")  # a look at the seats
    assert page.evaluate(ACTION_BOARD)["shows"] < 200
    page.locator(f"#picker .kind[data-group='{kind}']").click()
    if page.locator("#picker .kinds.sub .kind").count():
        page.locator("#picker .kinds.sub .kind").first.click()
    seen = page.evaluate(ACTION_BOARD)
    assert seen["shows"] >= 200, seen  # where the dice go, above the sheet
    page.screenshot(path=str(SHOTS / "marco-polo-action-board.png"))
    before = last_seq(page)
    page.locator("#picker .options-area .move").first.click()
    wait_ready(page, after=before)
    page.wait_for_function("() => document.querySelector('.board').scrollTop === 0")  # the board from its top again
