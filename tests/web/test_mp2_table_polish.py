"""Marco Polo II at a table, what a demanding table hits (375 x 812, real Chromium, real server):
the map shows the cards and tiles as printed (a city tapped shows them large), a travel whose path
mixes a known route with new ones is tapped place by place, a correction asks for a component the
pack lacks, and the round screen leaves out the offer tiles and city cards of earlier rounds."""

from __future__ import annotations

import re

from pagehelp import ARTIFACTS, axe_violations, last_seq, state, wait_ready
from test_mp2_table import OPENING, P, Counter, board_spot, check_drawing, check_screen, choose, d, described, fill_form

SHOTS = ARTIFACTS / "mp2-polish"
#: what reads as a code: a component's (K01, CB01, OT01, Q1...), a place's (BEI, XIA), a seat's number
CODE = re.compile(r"\b(?:[A-Z]{1,2}\d{1,2}|BEI|XIA|KAS|seat \d)\b")


def open_game(page, server, game_id: str, token: str) -> None:
    page.goto(f"{server}/?game={game_id}")
    page.get_by_text("I have the write token").click()
    page.fill("#write-token", token)
    page.get_by_role("button", name="Use it").click()
    wait_ready(page)


def recorded(http, lines: list[str], players=("Ana", "Bea")) -> tuple[str, str]:
    """A game pinned to the public pack, ``lines`` recorded through the API: its id and write token."""
    from rules.marco_polo_2.content import PUBLIC

    made = http.post("/games", json={"title": "marco-polo-2", "players": list(players),
                                     "options": {"characters": "chosen", "content": PUBLIC.ref}})
    assert made.status_code == 201, made.text
    game_id, token = made.json()["game_id"], made.json()["tokens"]["write_token"]
    for seq, line in enumerate(lines, start=1):
        response = http.post(f"/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"},
                             json={"notation": line, "expected_seq": seq})
        assert response.status_code == 201, (line, response.text)
    return game_id, token


def shot(page, name: str, element=None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    (element or page).screenshot(path=str(SHOTS / f"{name}.png"))


def test_the_map_shows_each_city_s_cards_as_printed_and_a_tap_shows_them_large(tall_phone, server, http):
    page = tall_phone
    game_id, token = recorded(http, OPENING)
    open_game(page, server, game_id, token)
    tags = page.locator("#drawing [data-tag-of=XIA]")
    # Xian's city card and the contract left there (Ana took the other), drawn as their faces
    assert sorted(f.get_attribute("data-face") for f in tags.locator("[data-face]").all()) == ["city_card", "contract"]
    assert sorted(f.get_attribute("data-id") for f in tags.locator("[data-face]").all()) == ["Q1", "R02"]
    text = page.locator("#drawing").inner_text()
    assert CODE.findall(text) == [], text  # no code, no seq, no seat number in the drawing's text
    assert "Xian" in page.locator("#drawing svg.mp-map").text_content()
    assert page.locator("#status-line").inner_text() == "round 1: the contract refilled in Xian"
    shot(page, "map", page.locator("#drawing"))
    page.get_by_text("Hide the recording panel").click()
    page.locator("#drawing .mp-lower").scroll_into_view_if_needed()
    shot(page, "seats", page.locator("#drawing .mp-lower"))
    page.get_by_text("Show the recording panel").click()

    page.locator("#drawing [data-loc=XIA] .mp-city-shape").click()
    dialog = page.locator("#mp-face-dialog[open]")
    dialog.wait_for()
    assert dialog.locator("#mp-face-h").inner_text() == "On Xian"
    assert sorted(f.get_attribute("data-id") for f in dialog.locator(".mp-face-body > [data-face]").all()) == ["Q1", "R02"]
    assert CODE.findall(dialog.inner_text()) == []
    assert dialog.locator(".mp-face-body [data-face=contract] [data-res=gold]").count() == 1  # R02: 1 gold → 6 VP
    shot(page, "map-city-dialog")
    assert axe_violations(page) == []
    dialog.locator(".mp-face-close").click()
    page.wait_for_selector("#mp-face-dialog[open]", state="detached")


#: Ana went to Xian along a free route and ended her turn: Bea (figure in Beijing, four 4s) is to move
TO_XIAN = OPENING[:-1] + [
    "@0 travel 2 dice=3,3 path=XIA" + described(
        d("node", "XIA", name="Xian", kind="city", shield="fish", x=400, y=500),
        d("route", "BEI-XIA", ends=["BEI", "XIA"])),
    "@0 end",
]


def test_a_travel_along_a_known_route_then_a_new_one_is_tapped_place_by_place(tall_phone, server, http):
    page = tall_phone
    game_id, token = recorded(http, TO_XIAN)
    open_game(page, server, game_id, token)
    c = Counter(page)
    box = page.locator("#facts [data-fact=new-route]")
    c.tap(box.locator("summary"))
    c.tap(box.locator(".mp2-place[aria-label^='Beijing']"))
    c.tap(box.locator(".mp2-place[aria-label^='Xian']"))
    assert page.locator("dialog.mp2-ask[open]").count() == 0  # Beijing–Xian is on the map: nothing asked
    board_spot(c, "#facts [data-fact=new-route]", 0.15, 0.2)
    fill_form(c, {"name": "Kashgar", "shield": "bow"})  # the new place, then the leg to it
    fill_form(c, {"camels": 1})
    assert box.locator("[data-path]").get_attribute("data-path") == "XIA,KAS"
    assert CODE.findall(box.inner_text()) == []
    check_screen(page, "#facts")
    shot(page, "travel-path")
    # two steps: the lower row (one step at most) is not offered
    assert box.locator(".mp2-travel-dice .move[data-row='1']").count() == 0
    before = last_seq(page)
    c.tap(box.locator(".mp2-travel-dice .move[data-row='2'][data-dice='4,4']"))
    wait_ready(page, after=before)
    view = state(http, game_id)["view"]
    assert view["seats"][1]["figures"] == ["KAS"] and "KAS" in view["seats"][1]["posts"]
    routes = {r["id"]: r for r in http.get(f"/games/{game_id}/content").json()["map"]["routes"]}
    assert routes["KAS-XIA"]["camels"] == 1 and set(routes["KAS-XIA"]["ends"]) == {"KAS", "XIA"}
    check_drawing(page, http, game_id)


def test_a_travel_tapped_back_and_forth_comes_back_to_a_place(tall_phone, server, http):
    """marco-polo-2.ja.txt: "ダイス目の最も小さい数字の値の歩数移動できます。" (ruling MP2-5: a path may pass or end on a place
    again): Bea taps Beijing, Xian, Beijing, Xian; each step is marked, the move is recorded, one post."""
    page = tall_phone
    game_id, token = recorded(http, TO_XIAN)
    open_game(page, server, game_id, token)
    c = Counter(page)
    box = page.locator("#facts [data-fact=new-route]")
    c.tap(box.locator("summary"))
    for place in ("Beijing", "Xian", "Beijing", "Xian"):
        c.tap(box.locator(f".mp2-place[aria-label^='{place}']"))
    assert page.locator("dialog.mp2-ask[open]").count() == 0  # every leg is on the map
    assert box.locator("[data-path]").get_attribute("data-path") == "XIA,BEI,XIA"
    assert CODE.findall(box.inner_text()) == []
    before = last_seq(page)
    c.tap(box.locator(".mp2-travel-dice .move[data-row='2'][data-dice='4,4']"))
    wait_ready(page, after=before)
    bea = state(http, game_id)["view"]["seats"][1]
    assert bea["figures"] == ["XIA"] and bea["posts"].count("XIA") == 1


def test_a_correction_asks_for_the_component_it_needs(tall_phone, server, http):
    """Ana's travel corrected to a book the pack has no free options for: the book's form opens, and
    the correction goes in carrying it."""
    page = tall_phone
    game_id, token = recorded(http, TO_XIAN)
    open_game(page, server, game_id, token)
    c = Counter(page)
    travel = next(f for f in http.get(f"/games/{game_id}/frames").json()["frames"] if f["type"] == P + "travelled")
    page.locator(f"#history .amend[data-amend='{travel['seq']}']").focus()  # under the recording panel on a phone
    page.keyboard.press("Enter")
    amend = page.locator("#amend-dialog[open]")
    amend.wait_for()
    group = P + "book-used"
    c.tap(amend.locator(f".kind[data-group='{group}']"))
    if amend.locator(".kinds.sub").count():
        c.tap(amend.locator(".kinds.sub .kind[data-subgroup='2']").first)
    move = amend.locator(".options-area .move[data-notation*='book 2 '][data-notation*='option=1']").first
    before = last_seq(page)
    c.tap(move)
    page.locator("dialog.mp2-ask[open][data-ask-kind=book][data-ask-id='2']").wait_for()
    shot(page, "correction-asks")
    fill_form(c, {"fixed.0.coins": 3, "fixed.1.pepper": 1})
    page.wait_for_selector("#amend-dialog[open]", state="detached")
    wait_ready(page, after=before)  # the dialog closes before the page has the correction
    frames = http.get(f"/games/{game_id}/frames").json()["frames"]
    assert [f["type"] for f in frames].count(P + "travelled") == 0
    assert any(f["type"] == P + "book-used" for f in frames)
    books = http.get(f"/games/{game_id}/content").json()["books"]
    assert books[1]["fixed"] == [{"coins": 3}, {"pepper": 1}]


def test_the_round_screen_leaves_out_the_tiles_and_cards_of_earlier_rounds(tall_phone, server, http):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules" / "marco_polo_2"))
    from test_mp2_recording import game_lines

    lines = game_lines()
    third = next(i for i, x in enumerate(lines) if x.startswith("round 3 "))
    page = tall_phone
    game_id, token = recorded(http, lines[:third])
    open_game(page, server, game_id, token)
    form = page.locator("#facts [data-fact=round]")
    used_offers = {f"O{r}{b}" for r in (1, 2, 3) for b in (1, 2, 3)}
    used_cards = {f"A{r}{i}" for r in (1, 2) for i in (1, 2)}
    offered = {x.get_attribute("data-id") for x in form.locator(".mpf-slot[aria-label*='next round'] .mp2-pick").all()}
    cards = {x.get_attribute("data-id") for x in form.locator(".mpf-slot[aria-label^='City card'] .mp2-pick").all()}
    assert not offered & used_offers and not cards & used_cards, (offered, cards)
    assert CODE.findall(form.inner_text()) == []  # this round's tiles (shown last round) by their faces
    assert form.locator(".mp2-shown [data-face=offer]").count() == 3
    shot(page, "round-3")
    # what the table turned up, described: the round goes in (the server refuses a used one)
    c = Counter(page)
    for _ in range(5):
        section = form.locator(".mpf-slot[data-chosen='']").first
        label = section.get_attribute("aria-label")
        c.tap(section.locator("[data-new]"))
        fill_form(c, {"gain.camels": 1} if label.startswith("City card") else {"jade1.coins": 2, "jade2.gold": 1})
    before = last_seq(page)
    c.tap(form.locator("button[type=submit]"))
    wait_ready(page, after=before)
    assert state(http, game_id)["view"]["round"] == 3
