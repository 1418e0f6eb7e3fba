"""The dice pad and the phone layout (issue 13, items 2 and 3): a 4-player Marco Polo round's roll
tapped on the pad within its budget and compared with the API's state, a reroll in two taps, the
board above the bottom sheet on a phone, and the map fitting the width with every place reachable
by zoom and pan, at 375 x 812 and 1366 x 900."""

from __future__ import annotations

import json
import re

import pytest
from pagehelp import ARTIFACTS, axe_violations, last_seq, low_contrast, small_targets, start_game, state, step, wait_ready

PHONE = {"width": 375, "height": 812}
WIDE = {"width": 1366, "height": 900}
SHOTS = ARTIFACTS / "dicepad"


def opened(browser, viewport):
    context = browser.new_context(viewport=viewport, device_scale_factor=1, has_touch=viewport is PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


@pytest.fixture
def phone(browser):
    context, page, errors = opened(browser, PHONE)
    yield page
    context.close()
    assert not errors, errors


def shot(page, name: str) -> None:
    """What the screen shows (not the whole page: the sheet is fixed to it)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


class Taps:
    """Taps (touch) on elements already on screen, counted by the page itself (trusted clicks)."""

    def __init__(self, page):
        self.page = page
        page.evaluate(
            "() => { window.__taps = 0; if (window.__tapsOn) return; window.__tapsOn = true;"
            " document.addEventListener('click', (e) => { if (e.isTrusted) window.__taps++; }, true); }"
        )

    def __call__(self, selector: str) -> None:
        target = self.page.locator(selector).first
        box = target.bounding_box()
        view = self.page.viewport_size
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (selector, box)
        assert box["width"] >= 44 and box["height"] >= 44, (selector, box)
        target.tap(no_wait_after=True)

    @property
    def count(self) -> int:
        return self.page.evaluate("() => window.__taps")


def write_token(page, game_id: str) -> str:
    return json.loads(page.evaluate("id => localStorage.getItem('tabletape.tokens.' + id)", game_id))["write"]


def report(http, game_id: str, token: str, notation: str) -> None:
    game = http.get(f"/games/{game_id}").json()
    answer = http.post(
        f"/games/{game_id}/moves",
        json={"notation": notation, "expected_seq": game["last_seq"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 201, answer.text


def composed(http, game_id: str, token: str, outcome: list) -> str:
    answer = http.post(f"/games/{game_id}/chance", json={"outcome": outcome}, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    return answer.json()["notation"]


def chance(http, game_id: str, token: str) -> dict:
    return http.get(f"/games/{game_id}/chance", headers={"Authorization": f"Bearer {token}"}).json()


def four_seats_to_the_roll(page, server, http) -> tuple[str, str]:
    """A 4-player game at the table with Matteo (6 dice) and no Raschid (who rolls none), its layout
    and round 1's contracts reported through the API: the page waits for the roll."""
    game_id = start_game(page, server, "marco-polo", ["Ana", "Bea", "Cem", "Dai"], {"characters": "chosen"})
    token = write_token(page, game_id)
    setup = composed(http, game_id, token, list(chance(http, game_id, token)["items"]))
    chars = [c["id"] for c in http.get(f"/games/{game_id}/content").json()["characters"] if c["id"] not in ("raschid", "matteo")]
    setup = re.sub(r"chars=[^ ]+", "chars=" + ",".join(["matteo", *chars[:3]]), setup)
    report(http, game_id, token, setup)
    report(http, game_id, token, composed(http, game_id, token, list(chance(http, game_id, token)["items"])))
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#facts [data-fact=dice]")
    return game_id, token


def test_a_four_player_round_roll_on_the_pad_and_a_reroll_in_two_taps(phone, server, http):
    page = phone
    game_id, token = four_seats_to_the_roll(page, server, http)
    groups = chance(http, game_id, token)["groups"]
    assert groups == [6, 5, 5, 5]
    pad = page.locator("#facts [data-fact=dice]")
    assert pad.get_attribute("data-count") == "21"
    shot(page, "01-pad-empty")

    # the board and the sheet on screen together: the map above the sheet, not under it
    sheet = page.locator("#sheet").bounding_box()
    map_box = page.locator("#drawing .mp-map").bounding_box()
    assert map_box["y"] >= 0 and map_box["y"] + map_box["height"] <= sheet["y"] + 1, (map_box, sheet)
    assert sheet["y"] + sheet["height"] <= PHONE["height"] + 1
    assert small_targets(page, "#sheet") == []
    assert low_contrast(page, ".dice-pad .pad-die:not(.empty), .dice-pad .pad-key") == []
    assert axe_violations(page) == []

    # each seat's dice in any order; one slip on the way, taken back with the undo key
    rolled = [[3, 1, 6, 6, 2, 5], [4, 4, 1, 2, 6], [5, 3, 3, 1, 2], [6, 2, 4, 5, 1]]
    taps = Taps(page)
    before = last_seq(page)
    for seat, dice in enumerate(rolled):
        for k, value in enumerate(dice):
            if seat == 1 and k == 2:
                taps("[data-pad-value='3']")  # the wrong die: Bea's third shows 1
                assert page.locator(".dice-pad [data-slot='8']").inner_text() == "3"
                taps("[data-pad-undo]")
                assert page.locator(".dice-pad [data-slot='8']").inner_text() == ""
            taps(f"[data-pad-value='{value}']")
            if seat == 2 and k == 0:
                shot(page, "02-pad-filling")
                # the dice drawn in their seats' colours: Cem's first die is in, in Cem's colour
                assert page.locator(".dice-pad [data-pad-group='2'].now").count() == 1
    wait_ready(page, after=before)
    dice_taps = sum(len(d) for d in rolled)
    assert taps.count == dice_taps + 2 <= 24  # 21 dice, 2 for the slip: one move recorded
    assert last_seq(page) == before + 1
    view = state(http, game_id)["view"]
    # Matteo's sixth die is his white one
    assert [sorted(p["dice"]) for p in view["seats"]] == [sorted(d[:5]) for d in rolled]
    assert view["seats"][0]["white"] == [rolled[0][5]]
    drawn = page.evaluate(
        "() => [...document.querySelectorAll('#drawing .mp-seat')].map(s => [...s.querySelectorAll('.die[data-kind=c]')].map(d => Number(d.dataset.die)))"
    )
    assert [sorted(d) for d in drawn] == [sorted(d[:5]) for d in rolled]
    shot(page, "03-rolled")

    # Matteo's contract from the special pile (reported through the API: another item's form)
    drawn_contract = chance(http, game_id, token)
    assert drawn_contract["kind"] == "shuffle"
    report(http, game_id, token, composed(http, game_id, token, list(drawn_contract["items"])))
    page.reload()
    wait_ready(page)
    for _ in range(8):  # the income choices first (a tap each), until a seat holds its dice and a camel
        if page.locator("#picker .die-strip").count():
            break
        before = last_seq(page)
        camel = page.locator("#picker .move[data-notation$='income 0/1']")  # a camel: 3 for a black die
        (camel if camel.count() else page.locator("#picker .move").first).click()
        wait_ready(page, after=before)
    view = state(http, game_id)["view"]

    # a reroll: the die on the strip, then the value it shows - two taps, two moves
    seat = http.get(f"/games/{game_id}").json()["to_move"]
    camels = view["seats"][seat]["camels"]
    strip = page.locator("#picker .die-strip [data-reroll]")
    assert strip.count() == len(set(map(str, view["seats"][seat]["dice"])) | {f"w{v}" for v in view["seats"][seat]["white"]})
    old = int(page.locator("#picker .die-strip [data-reroll]:not([data-reroll^=w]):not([data-reroll^=b])").first.get_attribute("data-reroll"))
    new = 1 if old != 1 else 2
    taps = Taps(page)
    before = last_seq(page)
    taps(f"#picker .die-strip [data-reroll='{old}']")
    wait_ready(page, after=before)
    assert page.locator("#facts [data-fact=dice][data-count='1']").count() == 1
    shot(page, "04-reroll-value")
    before = last_seq(page)
    taps(f"[data-pad-value='{new}']")
    wait_ready(page, after=before)
    assert taps.count == 2
    after = state(http, game_id)["view"]["seats"][seat]
    expected = sorted(view["seats"][seat]["dice"])
    expected.remove(old)
    assert sorted(after["dice"]) == sorted([*expected, new])
    assert after["camels"] == camels - 1
    assert axe_violations(page) == []

    # the next seat buys a black die: the die on the strip, then its value - two taps
    for _ in range(12):
        if http.get(f"/games/{game_id}").json()["to_move"] != seat and page.locator("#picker .die-strip [data-black]").count():
            break
        step(page, prefer=("marco-polo.turn-ended", "marco-polo.income-taken", "marco-polo.five-coins-taken"))
    buyer = http.get(f"/games/{game_id}").json()["to_move"]
    assert buyer != seat
    taps = Taps(page)
    before = last_seq(page)
    taps("#picker .die-strip [data-black]")
    wait_ready(page, after=before)
    pad = page.locator("#facts [data-fact=dice][data-count='1']")
    assert "black die" in pad.inner_text()
    assert low_contrast(page, ".dice-pad .pad-key") == []
    before = last_seq(page)
    taps("[data-pad-value='6']")
    wait_ready(page, after=before)
    assert taps.count == 2
    assert state(http, game_id)["view"]["seats"][buyer]["black"] == [6]


def test_typed_digits_fill_the_pad(phone, server, http):
    page = phone
    game_id, token = four_seats_to_the_roll(page, server, http)
    before = last_seq(page)
    typed = page.locator("#facts [data-pad-typed]")
    typed.fill("316625")  # Ana's six
    assert page.locator(".dice-pad [data-slot='5']").inner_text() == "5"
    assert page.locator(".dice-pad [data-pad-group='1'].now").count() == 1
    typed.fill("316625 44126 53312 6245")  # spaces and all: one die short
    assert last_seq(page) == before
    typed.fill("316625 44126 53312 62451")
    wait_ready(page, after=before)
    view = state(http, game_id)["view"]
    assert [sorted(p["dice"]) for p in view["seats"]] == [sorted(d) for d in ([3, 1, 6, 6, 2], [4, 4, 1, 2, 6], [5, 3, 3, 1, 2], [6, 2, 4, 5, 1])]
    assert view["seats"][0]["white"] == [5]


def test_a_marco_polo_2_round_roll_on_the_pad(phone, server, http):
    """Marco Polo II's roll (``roll N a,b,c,d,e;...``) on the same pad: three seats, fifteen taps."""
    page = phone
    made = http.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea", "Cem"], "options": {"content": synthetic_ref()}})
    assert made.status_code == 201, made.text
    game_id, token = made.json()["game_id"], made.json()["tokens"]["write_token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(20):  # the layout, characters and the round's offers, through the API
        asked = chance(http, game_id, token)
        if asked.get("kind") == "dice":
            break
        if asked.get("kind"):
            report(http, game_id, token, composed(http, game_id, token, list(asked["items"])))
        else:
            report(http, game_id, token, http.get(f"/games/{game_id}/legal-moves", headers=auth).json()["moves"][0]["notation"])
    assert asked["kind"] == "dice" and asked["groups"] == [5, 5, 5]
    page.goto(f"{server}/?game={game_id}")
    page.get_by_text("I have the write token").click()
    page.fill("#write-token", token)
    page.get_by_role("button", name="Use it").click()
    page.wait_for_selector("#facts [data-fact=dice]")
    rolled = [[2, 6, 1, 1, 4], [5, 5, 3, 6, 2], [1, 4, 6, 3, 3]]
    taps = Taps(page)
    before = last_seq(page)
    for dice in rolled:
        for value in dice:
            taps(f"[data-pad-value='{value}']")
    wait_ready(page, after=before)
    assert taps.count == 15
    game = http.get(f"/games/{game_id}").json()
    assert game["last_seq"] == before + 1
    view = state(http, game_id)["view"]
    assert [sorted(p["dice"]) for p in view["seats"]] == [sorted(d) for d in rolled]
    frames = http.get(f"/games/{game_id}/frames", params={"from_seq": before + 1}).json()["frames"]
    assert frames[0]["move"].startswith("roll 1 "), frames[0]["move"]
    shot(page, "06-mp2-rolled")
    assert axe_violations(page) == []


MAP_CHECK = """() => {
  const svg = document.querySelector('#drawing .mp-map');
  const r = svg.getBoundingClientRect();
  const out = [];
  for (const g of svg.querySelectorAll('.mp-loc')) {
    const b = g.getBoundingClientRect();
    const cx = (b.left + b.right) / 2, cy = (b.top + b.bottom) / 2;
    if (!(cx >= r.left && cx <= r.right && cy >= r.top && cy <= r.bottom && b.width > 0)) out.push(g.dataset.loc);
  }
  return {outside: out, count: svg.querySelectorAll('.mp-loc').length, left: r.left, right: r.right, width: innerWidth,
          scrollWidth: document.documentElement.scrollWidth, viewBox: svg.getAttribute('viewBox')};
}"""


def synthetic_ref() -> str:
    from rules.marco_polo_2.content import SYNTHETIC

    return SYNTHETIC.ref


def map_game(http, title: str) -> str:
    options = {"content": synthetic_ref()} if title == "marco-polo-2" else {}
    made = http.post("/games", json={"title": title, "players": ["Ana", "Bea", "Cem"], "seed": 3, "options": options})
    assert made.status_code == 201, made.text
    return made.json()["game_id"]


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "desktop"])
@pytest.mark.parametrize("title", ["marco-polo", "marco-polo-2"])
def test_the_map_fits_and_zooms_with_every_place_reachable(browser, server, http, viewport, title):
    context, page, errors = opened(browser, viewport)
    try:
        game_id = map_game(http, title)
        page.goto(f"{server}/?game={game_id}")
        page.wait_for_selector("#drawing .mp-map")
        fit = page.evaluate(MAP_CHECK)
        assert fit["count"] >= (25 if title == "marco-polo" else 1)
        assert fit["outside"] == [], fit  # every drawn place on screen at the start
        assert fit["left"] >= 0 and fit["right"] <= fit["width"] and fit["scrollWidth"] <= fit["width"], fit
        name = f"05-map-{title}-{'phone' if viewport is PHONE else 'desktop'}"
        shot(page, name)

        # zoomed in (a button, then the wheel), a place is off the view; panning to the corners brings each back
        if viewport is WIDE:  # the wheel over a whole map scrolls the page; with ctrl (a trackpad's pinch) it zooms
            box = page.locator("#drawing .mp-map").bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.wheel(0, -200)
            assert page.locator(".mp-map-wrap").get_attribute("data-zoom") == "1.00"
            page.keyboard.down("Control")
            page.mouse.wheel(0, -100)
            page.keyboard.up("Control")
            page.wait_for_function("() => Number(document.querySelector('.mp-map-wrap').dataset.zoom) > 1.1")
            page.locator(".map-zoom-fit").click()
        page.locator(".map-zoom-in").click()
        if viewport is WIDE:
            box = page.locator("#drawing .mp-map").bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.wheel(0, -200)
            page.wait_for_function("() => Number(document.querySelector('.mp-map-wrap').dataset.zoom) > 1.6")
        assert float(page.locator(".mp-map-wrap").get_attribute("data-zoom")) > 1.4
        zoomed = page.evaluate(MAP_CHECK)
        assert zoomed["outside"], zoomed
        reached = set(fit["outside"])
        box = page.locator("#drawing .mp-map").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        for dx, dy in ((1, 1), (-1, 1), (-1, -1), (1, -1), (0, 0)):
            for _ in range(3):  # far enough to reach the map's edge: the view stops there
                page.mouse.move(cx, cy)
                page.mouse.down()
                page.mouse.move(cx + dx * box["width"] / 2.2, cy + dy * box["height"] / 2.2, steps=4)
                page.mouse.up()
            seen = page.evaluate(MAP_CHECK)
            reached |= {loc for loc in page.evaluate("() => [...document.querySelectorAll('#drawing .mp-loc')].map(g => g.dataset.loc)")} - set(seen["outside"])
        every = set(page.evaluate("() => [...document.querySelectorAll('#drawing .mp-loc')].map(g => g.dataset.loc)"))
        assert reached == every, every - reached
        shot(page, name + "-zoomed")
        page.locator(".map-zoom-fit").click()
        assert page.evaluate(MAP_CHECK)["outside"] == []
        assert axe_violations(page) == []
    finally:
        context.close()
    assert not errors, errors


def test_the_sheet_folds_away_and_the_board_stays_above_it(phone, server, http):
    page = phone
    start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    page.locator("#facts [data-fact=deal]").click()  # the deal: hands unseen
    wait_ready(page, after=1)
    handle = page.locator("#sheet-handle")
    sheet = page.locator("#sheet").bounding_box()
    table = page.locator("#drawing .lc-table").bounding_box()
    assert table["y"] >= 0 and table["y"] < sheet["y"]  # the board shows above the sheet
    assert page.locator("#picker .kind").first.is_visible()

    # a tap folds the sheet to its handle, another opens it again
    handle.tap()
    assert handle.get_attribute("aria-expanded") == "false"
    assert not page.locator("#picker").is_visible()
    assert page.locator("#sheet").bounding_box()["height"] <= 60
    shot(page, "07-sheet-folded")
    handle.tap()
    assert handle.get_attribute("aria-expanded") == "true" and page.locator("#picker .kind").first.is_visible()

    # dragged down to the bottom edge, it folds; dragged up, it opens that high
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, PHONE["height"] - 5, steps=6)
    page.mouse.up()
    assert handle.get_attribute("aria-expanded") == "false"
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, 600, steps=6)
    page.mouse.up()
    assert handle.get_attribute("aria-expanded") == "true"
    assert abs(page.locator("#sheet").bounding_box()["y"] - 600) < 40  # lower than its contents: they scroll inside
    assert small_targets(page, "#sheet") == []
    assert axe_violations(page) == []

