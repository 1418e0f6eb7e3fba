"""Marco Polo's board shows what is printed on the cards and tiles at each city (issue 13): the
map's tags are the faces; tapping a city (or Enter on it) shows them large in a dialog, at 375 x 812."""

from __future__ import annotations

from pagehelp import ARTIFACTS, axe_violations, start_game, state, step


def test_a_city_s_card_is_on_the_board_and_opens_large(tall_phone, server, http):
    page = tall_phone
    game_id = start_game(page, server, "marco-polo", ["Ana", "Bea"], {"characters": "first-game"})
    for _ in range(2):  # the layout, the contracts
        step(page)
    view = state(http, game_id)["view"]
    lying = {c: [x for x in (view["city_cards"].get(c), view["city_bonuses"].get(c), view["outposts"].get(c)) if x] for c in
             page.evaluate("() => [...document.querySelectorAll('#drawing .mp-loc')].map(g => g.dataset.loc)")}
    shown = {c: [f.get_attribute("data-id") for f in page.locator(f"#drawing [data-tag-of={c}] .mp-tag-faces > .mpf-face").all()] for c in lying}
    lying["SUM"] = [view["city_cards"][k] for k in ("SUM-1", "SUM-2", "SUM-3")] + lying["SUM"]
    assert shown == lying  # every card and tile on the map drawn as its face, where it lies
    city = next(c for c in lying if c in view["city_cards"] and view["outposts"].get(c))
    assert not any(i in page.locator(f"#drawing [data-tag-of={city}] .mp-tag-faces").inner_text() for i in lying[city])

    # by keyboard: the city is focusable, Enter opens its faces large, the close button is in reach
    page.locator(f"#drawing [data-loc={city}]").focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#mp-face-dialog[open]")
    dialog.wait_for()
    assert [f.get_attribute("data-id") for f in dialog.locator(".mpf-face:not(.mpf-small)").all()] == lying[city]
    close = dialog.locator(".mp-face-close")
    box = close.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert page.evaluate("() => document.activeElement.classList.contains('mp-face-close')")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "mp-board-face-dialog.png"))
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    page.wait_for_selector("#mp-face-dialog[open]", state="detached")
    # focus back on the city (given back once the dialog has closed)
    page.wait_for_function("c => document.activeElement && document.activeElement.dataset.loc === c", arg=city)

    # by a tap: the dialog opens, Close closes it
    page.locator(f"#drawing [data-loc={city}] .mp-city-shape").click()
    dialog.wait_for()
    close.click()
    page.wait_for_selector("#mp-face-dialog[open]", state="detached")
    page.screenshot(path=str(ARTIFACTS / "mp-board-faces.png"))
