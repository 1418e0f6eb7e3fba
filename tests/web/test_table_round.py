"""A table's whole first round of Marco Polo on a phone (issue 13): three players, from the layout
to the start of round 2, entered only by taps on pictures, the dice pad and the picker; the taps
of every move counted and held to their budgets; the page's drawing then compared with the API's
state. And at a table the page never offers to invent a shuffle."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from pagehelp import (
    ARTIFACTS,
    last_seq,
    marco_polo_board,
    marco_polo_drawn,
    marco_polo_expected,
    marco_polo_setup_by_taps,
    start_game,
    state,
    tap_drawn,
    wait_ready,
)

SHOTS = ARTIFACTS / "table-round"
END_TURN = "marco-polo.turn-ended"
#: the main actions of a turn (rulebook: one per turn, each placing dice or not)
MAIN = (
    "marco-polo.bazaar-used",
    "marco-polo.contracts-taken",
    "marco-polo.travelled",
    "marco-polo.khans-favor-taken",
    "marco-polo.city-card-used",
    "marco-polo.money-bag-taken",
    "marco-polo.five-coins-taken",
)
#: extras a test run avoids: each opens a die's own fact (measured in test_dice_pad.py)
AVOID = ("marco-polo.die-rerolled", "marco-polo.black-die-bought")


class Taps:
    """Every trusted click on the page (a person's tap), counted by the page itself."""

    def __init__(self, page):
        self.page = page
        page.evaluate(
            "() => { window.__taps = 0; if (window.__tapsOn) return; window.__tapsOn = true;"
            " document.addEventListener('click', (e) => { if (e.isTrusted) window.__taps++; }, true); }"
        )

    @property
    def count(self) -> int:
        return self.page.evaluate("() => window.__taps")


#: the taps whose target was not on screen first (the page had to scroll to it)
OFF_SCREEN: list[str] = []


def tap(page, selector: str) -> None:
    target = page.locator(selector).first
    box = target.bounding_box()
    if not box or box["y"] < 0 or box["y"] + box["height"] > page.viewport_size["height"]:
        OFF_SCREEN.append(target.get_attribute("data-notation") or selector)
    target.click()


def kinds_on_offer(page) -> list[str]:
    return [k.get_attribute("data-group") for k in page.locator("#picker .kinds:not(.sub) .kind").all()]


#: a place as the pack codes it (``ALE``, ``O1``): never what the picker says
PLACE_CODE = re.compile(r"\b(?:[A-Z]{3}|O\d+)\b")
#: the travel moves the picker offered, as it said them
TRAVELS: list[str] = []


def choose_move(page, turn: int, acted: bool) -> str:
    """A move through the picker: its kind (unless it is the only one, already open), then a
    narrowing chip if the page offers them, then the first move shown. The main actions go round
    from turn to turn so every kind is measured; a seat that has acted ends its turn."""
    offered = kinds_on_offer(page)
    order = MAIN[turn % len(MAIN):] + MAIN[: turn % len(MAIN)]
    group = next((g for g in ((END_TURN,) if acted else ()) + (*order, END_TURN) if g in offered), None)
    group = group or next(g for g in offered if g not in AVOID)
    if len(offered) > 1:
        tap(page, f"#picker .kind[data-group='{group}']")
    if page.locator("#picker .kinds.sub").count():
        tap(page, "#picker .kinds.sub .kind")
    if group == "marco-polo.travelled":  # where the figure goes, by the names on the board
        said = page.locator("#picker .options-area .move").all_inner_texts()
        assert said and not [s for s in said if PLACE_CODE.search(s)], said
        TRAVELS.extend(said)
    page.screenshot(path=str(SHOTS / f"{last_seq(page):03d}-{group.replace('marco-polo.', '')}-choosing.png"))
    tap(page, "#picker .options-area .move")
    return group


def roll_by_pad(page, dice: list[int]) -> None:
    for value in dice:
        tap(page, f"#facts [data-fact=dice] [data-pad-value='{value}']")


def test_a_three_player_first_round_by_taps_on_a_phone(tall_phone, server, http):
    page = tall_phone
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    game_id = start_game(page, server, "marco-polo", ["Ana", "Bea", "Cem"], {"characters": "first-game"})
    taps = Taps(page)
    OFF_SCREEN.clear()
    TRAVELS.clear()
    per_move: list[tuple[str, int]] = []
    turn, acted = 0, False
    offers = []
    for _ in range(300):
        wait_ready(page)
        if state(http, game_id)["view"]["round"] >= 2:
            break
        before, start = last_seq(page), taps.count
        facts = page.locator("#facts")
        if facts.locator("[data-fact=setup]").count():
            marco_polo_setup_by_taps(page)
            tap(page, "#facts [data-fact=setup] button[type=submit]")
            kind = "setup"
        elif facts.locator("[data-fact=shuffle]").count():
            tap_drawn(page)
            kind = "contracts drawn"
        elif facts.locator("[data-fact=dice]").count():
            count = int(facts.locator("[data-fact=dice]").get_attribute("data-count"))
            roll_by_pad(page, [1 + (5 * i + 2) % 6 for i in range(count)])
            kind = "round roll" if count > 1 else "one die"
            if count > 1:
                rolled = count
        else:
            offers.append(kinds_on_offer(page))
            kind = choose_move(page, turn, acted)
            if kind in MAIN:
                turn, acted = turn + 1, True
            elif kind == END_TURN:
                acted = False
        wait_ready(page, after=before)
        per_move.append((kind, taps.count - start))
        page.screenshot(path=str(SHOTS / f"{before:03d}-{kind.replace('marco-polo.', '')}.png"))
    view = state(http, game_id)["view"]
    assert view["round"] == 2

    # budgets: the round's roll within 18 taps (6 a seat), every main action within 3
    by_kind: dict[str, list[int]] = {}
    for kind, count in per_move:
        by_kind.setdefault(kind, []).append(count)
    summary = {k: {"moves": len(v), "fewest": min(v), "most": max(v)} for k, v in by_kind.items()}
    (SHOTS / "taps.json").write_text(json.dumps({"taps": summary, "kinds offered": offers}, indent=1))
    assert OFF_SCREEN == []  # every tap on something already on screen: no scrolling to reach it
    assert TRAVELS and all(" → " in said for said in TRAVELS)  # travel was offered, and said in names
    # one tap a die on the pad, whatever the characters make of the count (first game: 11)
    assert by_kind["round roll"] == [rolled] and rolled <= 18
    mains = {k: v for k, v in by_kind.items() if k in MAIN}
    assert len(mains) >= 4, by_kind
    assert {k: max(v) for k, v in mains.items() if max(v) > 3} == {}

    # the page draws what the API holds at the start of round 2
    page.wait_for_function("n => Number(document.querySelector('#drawing').dataset.seq) >= n", arg=last_seq(page))
    expected = marco_polo_expected(view)
    drawn = marco_polo_drawn(page)
    assert marco_polo_board(drawn) == expected.pop("board")
    drawn.pop("board")
    assert drawn == expected
    assert page.locator("#facts [data-fact=shuffle]").count() == 1  # round 2's contracts, by their faces
    page.screenshot(path=str(SHOTS / "999-round-2-begins.png"))


FAKE_SHUFFLE = """async ([module, digital, items]) => {
  const facts = await import(module);
  const box = document.createElement('div');
  document.body.append(box);
  const ctx = {chance: {kind: 'shuffle', items: Array.from({length: items}, (_, i) => `C${i}`), count: 0},
               info: {digital, players: ['Ana', 'Bea']}, view: {phase: 'deal'}, content: null,
               compose: async () => { throw new Error('not sent'); }, record: async () => true};
  await facts.render(box, ctx);
  const out = {buttons: [...box.querySelectorAll('button')].map((b) => b.textContent.trim()),
               tappable: box.querySelectorAll('[data-item]').length};
  box.remove();
  return out;
}"""


@pytest.mark.parametrize("module", ["generic", "lost-cities"])
def test_a_table_is_never_offered_a_random_fill(tall_phone, server, module):
    """More than 80 items (a generic title) or the Lost Cities deal: at a table the page offers
    only what the table saw; shuffling at random stays for digital play."""
    page = tall_phone
    page.goto(f"{server}/")
    url = f"/static/facts/{module}.js"
    table = page.evaluate(FAKE_SHUFFLE, [url, False, 120])
    digital = page.evaluate(FAKE_SHUFFLE, [url, True, 120])
    randomly = ("Shuffle at random", "Let the page shuffle (then deal as it says)", "Draw at random")
    assert not set(randomly) & set(table["buttons"]), table
    assert set(randomly) & set(digital["buttons"]), digital
    if module == "generic":
        assert table["tappable"] == 120  # the table taps what came out, in order
        assert "Record" in table["buttons"]
    else:
        assert table["buttons"] == ["Cards dealt (8 each, not seen)"]


def test_a_lost_cities_deal_at_the_table_offers_no_page_shuffle(tall_phone, server):
    page = tall_phone
    start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    deal = page.locator("#facts [data-fact=deal]")
    deal.wait_for()
    assert page.locator("#facts").get_by_text("Let the page shuffle").count() == 0
    assert page.locator("#facts button").count() == 1
