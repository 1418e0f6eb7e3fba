"""A complete Lost Cities round recorded through the page at a physical table (the deal reported,
hands unseen), with an undo, a refused and an accepted amendment, a spectator following live on
a second device, then the replay scrubbed with the slider and the keys, a ``?at=N`` link, and
the phone layout; every drawing checked against the API's state."""

from __future__ import annotations

from pagehelp import (
    PHONE,
    shot,
    drawn_seq,
    last_seq,
    lost_cities_drawn,
    lost_cities_expected,
    pick,
    start_game,
    state,
    step,
    step_view,
    wait_ready,
)


def check_drawing(page, http, game_id):
    """What the page draws is the API's state: after the step shown (now: ``/state``)."""
    seq = drawn_seq(page)
    now = state(http, game_id)
    view = now["view"] if seq == now["at"] else step_view(http, game_id, seq)
    assert lost_cities_drawn(page) == lost_cities_expected(view), seq


def frames(http, game_id):
    return http.get(f"/games/{game_id}/frames").json()["frames"]


def test_record_a_round_undo_amend_follow_and_scrub(page, browser, server, http):
    game_id = start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    shot(page, "lc-01-new-game")
    assert page.locator("#facts [data-fact=deal]").is_visible()  # the table deals first

    step(page)  # the deal
    # Bea shows her hand at the table: the recorder learns her eight cards
    before = last_seq(page)
    page.get_by_text("A player shows their hand").click()
    page.select_option("#reveal-seat", "1")
    for card in ("R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"):
        page.click(f"[data-fact=reveal] [data-card='{card}']")
    page.click("[data-fact=reveal] button[type=submit]")
    wait_ready(page, after=before)
    page.wait_for_selector("#history li[data-type='lost-cities.hand-revealed']", state="attached")
    for _ in range(6):  # Ana and Bea play and draw
        step(page)
    check_drawing(page, http, game_id)
    # this device holds every seat's token: its timeline names the moves the public view hides
    page.wait_for_selector("#history li[data-type='lost-cities.card-played'] [data-move]")
    shot(page, "lc-02-first-moves")

    # undo: the last move is taken back, by appending
    game = http.get(f"/games/{game_id}").json()
    page.click("#undo")
    wait_ready(page, after=game["last_seq"])
    after = http.get(f"/games/{game_id}").json()
    assert after["steps"] == game["steps"] - 1 and after["last_seq"] == game["last_seq"] + 1
    check_drawing(page, http, game_id)
    step(page)

    # an amendment that would break a later move is refused with the rule, and changes nothing
    first_play = next(f for f in frames(http, game_id) if f["type"] == "lost-cities.card-played")
    assert first_play["seat"] == 0
    before = http.get(f"/games/{game_id}").json()["last_seq"]
    page.click(f"#history [data-amend='{first_play['seq']}']")
    page.wait_for_selector("#amend-dialog[open] .kind")
    pick(page, "lost-cities.card-played", "Y10", scope="#amend-dialog")
    error = page.locator("#amend-dialog .error")
    error.wait_for()
    assert error.get_attribute("data-code") == "amendment-breaks-history"
    assert error.get_attribute("data-rule").startswith("lost-cities.")  # the rule it breaks (its code: under Details)
    shot(page, "lc-03-amendment-refused")
    assert http.get(f"/games/{game_id}").json()["last_seq"] == before

    # one that fits is accepted: Ana's first card was a blue wager, not a yellow one
    pick(page, "lost-cities.card-played", "Bx", scope="#amend-dialog")
    page.wait_for_selector("#amend-dialog", state="hidden")
    wait_ready(page, after=before)
    assert http.get(f"/games/{game_id}").json()["last_seq"] == before + 1
    page.click(f"#history li[data-seq='{first_play['seq']}'] button.link")
    assert drawn_seq(page) == first_play["seq"]
    assert "Bx" in lost_cities_drawn(page)["expeditions"]["0"]["blue"].split(" ")
    check_drawing(page, http, game_id)
    page.keyboard.press("End")

    # a second device follows the game live (no token: public view, no recording)
    spectator_context = browser.new_context(viewport=PHONE)
    spectator = spectator_context.new_page()
    spectator.goto(f"{server}/?game={game_id}")
    spectator.wait_for_selector("#drawing[data-seq]")
    assert spectator.get_by_text("You are following it live").is_visible()
    seen = drawn_seq(spectator)
    step(page)
    spectator.wait_for_function(
        "n => Number(document.querySelector('#drawing').dataset.seq) > n", arg=seen
    )
    assert drawn_seq(spectator) == last_seq(page)
    shot(spectator, "lc-04-spectator-phone")
    spectator_context.close()

    # record to the end of the round
    for _ in range(300):
        if page.locator(".game-meta .badge.ended").count():
            break
        step(page)
    game = http.get(f"/games/{game_id}").json()
    assert game["status"] == "ended"
    page.wait_for_selector("#score:not([hidden]) .ranking")
    scores = {
        int(li.get_attribute("data-seat")): int(li.get_attribute("data-score"))
        for li in page.locator("#score .ranking li").all()
    }
    assert scores == dict(enumerate(game["outcome"]["scores"]))
    check_drawing(page, http, game_id)
    shot(page, "lc-05-round-over")

    # scrub: the slider with its keys, the page's keys, and the URL kept in sync
    steps = frames(http, game_id)
    slider = page.locator("#scrub")
    slider.focus()
    page.keyboard.press("Home")
    assert drawn_seq(page) == steps[0]["seq"]
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert int(page.locator("#drawing").get_attribute("data-index")) == 5
    assert drawn_seq(page) == steps[5]["seq"]
    assert page.url.endswith("at=5")  # the step, as the label numbers it
    check_drawing(page, http, game_id)
    slider.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }", "40")
    assert drawn_seq(page) == steps[40]["seq"]
    check_drawing(page, http, game_id)
    page.locator("h1").click()  # the page's own keys, away from the slider
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert drawn_seq(page) == steps[38]["seq"]
    page.keyboard.press("End")
    assert drawn_seq(page) == steps[-1]["seq"] and "at=" not in page.url
    page.keyboard.press("Home")
    assert drawn_seq(page) == steps[0]["seq"]
    page.click("#step-forward")
    assert drawn_seq(page) == steps[1]["seq"]
    shot(page, "lc-06-scrubbed")

    # a link to any point: ?at=N is step N as the label, the slider and the timeline number it
    at = len(steps) - 10  # after the last history edit
    page.goto(f"{server}/?game={game_id}&at={at}")
    page.wait_for_selector("#drawing[data-seq]")
    assert drawn_seq(page) == steps[at]["seq"]
    assert page.locator("#step-label").inner_text().startswith(f"Step {at} of {len(steps) - 1}:")
    assert page.locator("#scrub").input_value() == str(at)
    assert page.locator("#permalink").get_attribute("href") == f"/?game={game_id}&at={at}"
    assert lost_cities_drawn(page) == lost_cities_expected(state(http, game_id, steps[at]["seq"])["view"])
    shot(page, "lc-06b-link")
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")
    assert page.locator("#step-label").inner_text().startswith(f"Step {at - 1} of")
    assert page.url.endswith(f"at={at - 1}")
    assert page.locator("#permalink").get_attribute("href") == f"/?game={game_id}&at={at - 1}"
    assert not page.locator("#bad-step").is_visible()

    # a link naming no step says so, and shows the latest step rather than another one quietly
    for bad in ("abc", "-3", "1.5", str(len(steps) + 5)):
        page.goto(f"{server}/?game={game_id}&at={bad}")
        page.wait_for_selector("#drawing[data-seq]")
        notice = page.locator("#bad-step")
        notice.wait_for(state="visible")
        assert f"no step “{bad}”" in notice.inner_text() and f"0 to {len(steps) - 1}" in notice.inner_text()
        assert drawn_seq(page) == steps[-1]["seq"]
    shot(page, "lc-06c-bad-link")


def test_phone_layout(phone, server, http):
    game_id = start_game(phone, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    for _ in range(5):
        step(phone)
    shot(phone, "lc-07-phone-recording")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways on a phone: {width}px"
    for selector in ("#step-back", "#step-forward", "#undo", "#picker .kind"):
        box = phone.locator(selector).first.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (selector, box)
    phone.locator("#scrub").focus()
    phone.keyboard.press("Home")
    assert drawn_seq(phone) == 1
    check_drawing(phone, http, game_id)
    phone.goto(f"{server}/")
    phone.wait_for_selector(f"[data-game='{game_id}']")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "lc-08-phone-list")
