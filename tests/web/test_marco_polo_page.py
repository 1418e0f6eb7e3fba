"""A Marco Polo round recorded through the page at a physical table: the layout, the round's
contracts, the roll and every drawn contract reported through the facts forms, each move picked
from the legal moves; the map, the action board and the resources checked against the API's
state as it goes; then scrubbed, forked, and looked at on a phone."""

from __future__ import annotations

from pagehelp import (
    PHONE,
    shot,
    drawn_seq,
    marco_polo_board,
    marco_polo_drawn,
    marco_polo_expected,
    start_game,
    state,
    step,
)

END_TURN = "marco-polo.turn-ended"


def check_drawing(page, http, game_id):
    seq = drawn_seq(page)
    expected = marco_polo_expected(state(http, game_id, seq)["view"])
    drawn = marco_polo_drawn(page)
    assert marco_polo_board(drawn) == expected.pop("board"), seq
    drawn.pop("board")
    assert drawn == expected, seq


def test_record_a_round_at_the_table(page, browser, server, http):
    game_id = start_game(page, server, "marco-polo", ["Ana", "Bea"], {"characters": "first-game"})
    assert page.locator("#facts [data-fact=setup]").is_visible()
    shot(page, "mp-01-setup-form")
    # a layout left half filled in is refused with the rule it breaks, and nothing is recorded
    page.click("#facts [data-fact=setup] button[type=submit]")
    error = page.locator("#rec-error .error")
    error.wait_for()
    assert error.get_attribute("data-code").startswith("marco-polo.")
    assert http.get(f"/games/{game_id}").json()["last_seq"] == 1
    shot(page, "mp-01b-setup-refused")
    step(page)  # the layout
    assert page.locator("#facts [data-fact=shuffle]").is_visible()  # the six contracts of round 1
    step(page)
    assert page.locator("#facts [data-fact=dice]").is_visible()  # the roll
    shot(page, "mp-02-roll-form")
    step(page)
    check_drawing(page, http, game_id)

    for n in range(120):
        if int(page.locator("#drawing .mp-table").get_attribute("data-round")) >= 2:
            break
        step(page, prefer=(END_TURN,))
        if n % 6 == 0:
            check_drawing(page, http, game_id)
        if n == 4:
            shot(page, "mp-03-recording")
    assert state(http, game_id)["view"]["round"] == 2  # round 1 is complete; round 2 waits for its contracts
    check_drawing(page, http, game_id)
    assert page.locator("#facts [data-fact=shuffle]").is_visible()
    shot(page, "mp-04-round-one-done")

    # scrub back with the keys, checking the drawing against the state at each seq
    page.locator("h1").click()
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
        check_drawing(page, http, game_id)
    page.keyboard.press("Home")
    assert int(page.locator("#drawing").get_attribute("data-index")) == 0
    page.keyboard.press("End")

    # fork from an earlier step: a new game opens, and the parent lists it
    page.locator("#scrub").focus()
    for _ in range(10):
        page.keyboard.press("ArrowLeft")
    at = drawn_seq(page)
    at_step = int(page.locator("#drawing").get_attribute("data-index"))
    page.click("#fork")
    page.wait_for_url(lambda url: game_id not in url)
    page.wait_for_selector("#recorder[data-ready=true]", state="attached")
    fork_id = page.url.split("game=")[1].split("&")[0]
    fork = http.get(f"/games/{fork_id}").json()
    assert fork["parent_id"] == game_id and fork["forked_at"] == at
    assert page.locator(".game-meta a", has_text="fork of").is_visible()
    page.locator(".game-meta a", has_text="fork of").click()  # the parent, at the step it branched
    page.wait_for_url(lambda url: game_id in url and url.endswith(f"at={at_step}"))
    page.wait_for_selector("#drawing[data-seq]")
    assert drawn_seq(page) == at
    page.goto(f"{server}/?game={game_id}")
    page.wait_for_selector(f"#forks [data-fork='{fork_id}']")

    # a phone opens a point of the game by its link
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.goto(f"{server}/?game={game_id}&at={at_step}")
    phone.wait_for_selector("#drawing[data-seq]")
    assert drawn_seq(phone) == at
    assert phone.locator("#step-label").inner_text().startswith(f"Step {at_step} of")
    check_drawing(phone, http, game_id)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "mp-05-phone")
    context.close()
