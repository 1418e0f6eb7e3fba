"""Recording at a real table on a phone (issue 13): a Lost Cities turn in three taps with the
discard piles in reach, the keyboard kept in the picker, tap targets and contrast, an undo that
asks first, plain sentences for moves and errors, what followers read, the start form, the score
sheets against the API's breakdown, and axe-core's check of every page."""

from __future__ import annotations

import json
import random

import golden_games
import pytest
from pagehelp import (
    ARTIFACTS,
    PHONE_TALL,
    WIDE,
    axe_violations,
    game_id_of,
    low_contrast,
    last_seq,
    pick,
    shot,
    small_targets,
    start_game,
    state,
    step,
    wait_ready,
)

#: a thumb's swipe of the recording sheet's own list (never the page's): the target to its middle
SWIPE = """e => { const list = e.closest('#sheet .recorder'); const r = e.getBoundingClientRect(), b = list.getBoundingClientRect();
  list.scrollTop += r.top - b.top - (b.height - r.height) / 2; }"""
#: the target lies off the screen inside the phone's fixed sheet, whose list scrolls
IN_SHEET_OFF_SCREEN = """e => { const r = e.getBoundingClientRect(); const sheet = e.closest('#sheet');
  return !!sheet && getComputedStyle(sheet).position === 'fixed' && (r.top < 0 || r.bottom > innerHeight); }"""


class Taps:
    """Counts taps, each on a button in view when tapped. A button off the screen inside the
    phone's recording sheet is first swiped to (the sheet's list scrolled, the page and the board
    left where they are), and that swipe is counted in ``swipes``; any other scrolling fails."""

    def __init__(self, page):
        self.page, self.count, self.swipes = page, 0, 0

    def __call__(self, selector: str) -> None:
        button = self.page.locator(selector)
        if button.evaluate(IN_SHEET_OFF_SCREEN):
            self.swipes += 1
            scrolled = self.page.evaluate("() => scrollY")
            button.evaluate(SWIPE)
            assert self.page.evaluate("() => scrollY") == scrolled  # the page did not move
        box = button.bounding_box()
        height = self.page.viewport_size["height"]
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
        button.click(no_wait_after=True)
        self.count += 1


def write_token(page, game_id: str) -> str:
    return json.loads(page.evaluate("id => localStorage.getItem('tabletape.tokens.' + id)", game_id))["write"]


def focus_in_picker(page) -> bool:
    return page.evaluate("() => !!(document.activeElement && document.activeElement.closest('#picker'))")


def assert_lost_cities_sheet(page, http, game_id: str) -> None:
    """The expedition score sheet on the page, cell by cell, against the API's breakdown."""
    page.wait_for_selector("#score:not([hidden]) .lc-sheet")
    sheet = state(http, game_id)["view"]["scores"]["sheet"]
    assert sheet and sheet[-1]["complete"]
    for r in sheet:
        for side in r["sides"]:
            table = page.locator(f"#score table[data-round='{r['round']}'][data-side='{side['side']}']")
            shown = {
                row.get_attribute("data-colour"): {
                    cell.get_attribute("data-k"): cell.inner_text() for cell in row.locator("td[data-k]").all()
                }
                for row in table.locator("tbody tr[data-colour]").all()
            }
            expected = {
                e["colour"]: {
                    "cards": str(e["cards"]),
                    "sum": str(e["sum"]),
                    "value": str(e["value"]),
                    "wagers": str(e["wagers"]),
                    "multiplier": f"×{e['multiplier']}",
                    "bonus": f"+{e['bonus']}" if e["bonus"] else "—",
                    "score": str(e["score"]),
                }
                for e in side["expeditions"]
                if e["cards"]
            }
            assert shown == expected
            assert table.locator("[data-k='side-score']").inner_text() == str(side["score"])


def test_a_lost_cities_turn_on_a_phone_at_a_table(tall_phone, server, http):
    page = tall_phone
    game_id = start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    step(page)  # the deal: hands unseen
    taps = Taps(page)

    # Ana discards the yellow 5, then draws: the only draw choice is the draw pile
    # (a hand nobody has seen is fifty cards: more than a third of the screen holds, so the card
    # may take a swipe of the sheet's list; the draw that follows is in view by itself)
    before = last_seq(page)
    taps("#picker .kind[data-group='lost-cities.card-discarded']")
    taps("#picker .move[data-notation='-Y5']")
    wait_ready(page, after=before)
    assert focus_in_picker(page)  # the keyboard stays in the picker, not on the page's body
    draws = page.locator("#picker .move")
    assert [d.get_attribute("data-notation") for d in draws.all()] == ["d"]
    card_swipes = taps.swipes
    before = last_seq(page)
    taps("#picker .move[data-notation='d']")
    wait_ready(page, after=before)
    assert taps.count == 3 and card_swipes <= 1 and taps.swipes == card_swipes, (taps.count, taps.swipes)

    # Bea plays the blue 7 and takes Ana's yellow 5: three taps, the last one without scrolling
    taps.count = taps.swipes = 0
    before = last_seq(page)
    taps("#picker .kind[data-group='lost-cities.card-played']")
    taps("#picker .move[data-notation='B7']")
    wait_ready(page, after=before)
    assert focus_in_picker(page)
    draws = [d.get_attribute("data-notation") for d in page.locator("#picker .move").all()]
    assert draws == ["d", "dY"]  # the draw pile and the discard piles' tops, nothing else
    assert "from the yellow pile" in page.locator("#picker .move[data-notation='dY']").inner_text()
    shot(page, "table-01-phone-draw")
    card_swipes = taps.swipes
    before = last_seq(page)
    taps("#picker .move[data-notation='dY']")
    wait_ready(page, after=before)
    assert taps.count == 3 and card_swipes <= 1 and taps.swipes == card_swipes, (taps.count, taps.swipes)
    assert state(http, game_id)["view"]["discard_piles"]["yellow"] == []

    # tap targets and contrast on the phone's game page: every card, pile and empty slot
    assert small_targets(page) == []
    assert low_contrast(page, "#drawing .lc-card, #picker .lc-card, .lc-back") == []
    assert axe_violations(page) == []

    # the round recorded to its end (through the API), then the score sheet against its breakdown
    token = write_token(page, game_id)
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(400):
        game = http.get(f"/games/{game_id}").json()
        if game["status"] == "ended":
            break
        legal = http.get(f"/games/{game_id}/legal-moves", headers=auth).json()["moves"]
        move = next((m for m in legal if m["notation"] == "d"), legal[0])
        answer = http.post(
            f"/games/{game_id}/moves",
            json={"notation": move["notation"], "expected_seq": game["last_seq"]},
            headers=auth,
        )
        assert answer.status_code == 201, answer.text
    page.reload()
    assert_lost_cities_sheet(page, http, game_id)
    shot(page, "table-02-phone-score-sheet")
    # a wide sheet scrolls in its own box: the page itself never scrolls sideways
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert axe_violations(page) == []


def in_sheet(page, selector: str) -> list[str]:
    """The notations of the picker's moves matching ``selector`` that lie in the phone's sheet,
    on screen or a swipe of its list away (the list scrolls, the page does not)."""
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)].filter((b) => {
            const list = b.closest('#sheet .recorder');
            return !!list && getComputedStyle(list.parentElement).position === 'fixed' && b.getBoundingClientRect().width > 0;
        }).map((b) => b.dataset.notation)""",
        selector,
    )


def in_view(page, selector: str) -> list[str]:
    """The notations of the picker's moves matching ``selector`` wholly on screen now."""
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)].filter((b) => {
            const r = b.getBoundingClientRect();
            return r.width && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
        }).map((b) => b.dataset.notation)""",
        selector,
    )


def test_a_whole_lost_cities_round_at_a_table_by_taps(tall_phone, server, http):
    """Every turn of a round with hands unseen, tapped on the phone: a card (play or discard), then
    a draw; every few turns the next player takes the card just discarded from its pile."""
    page = tall_phone
    shots = ARTIFACTS / "lc-round"
    shots.mkdir(parents=True, exist_ok=True)
    game_id = start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    step(page)  # the deal: hands unseen
    taps = Taps(page)
    chooser = random.Random(13)
    per_turn: list[int] = []
    swipes: list[int] = []
    pile_draws = 0
    for turn in range(200):
        if http.get(f"/games/{game_id}").json()["status"] == "ended":
            break
        taps.count = taps.swipes = 0
        kind = "card-discarded" if turn % 4 == 0 else "card-played"
        if not page.locator(f"#picker .kind[data-group='lost-cities.{kind}']").count():
            kind = "card-discarded"
        taps(f"#picker .kind[data-group='lost-cities.{kind}']")
        cards = in_sheet(page, "#picker .move")
        if turn in (0, 1, 21):
            page.screenshot(path=str(shots / f"turn-{turn:02d}-cards.png"))
        # every card in reach: in the sheet, on screen or a swipe of its list away; some on screen at once
        assert cards and len(cards) == page.locator("#picker .move").count(), (turn, kind)
        assert in_view(page, "#picker .move"), (turn, kind)
        before = last_seq(page)
        taps(f"#picker .move[data-notation='{chooser.choice(cards)}']")
        wait_ready(page, after=before)
        draws = [d.get_attribute("data-notation") for d in page.locator("#picker .move").all()]
        tops = [d for d in draws if d != "d"]
        draw = tops[0] if turn % 4 == 1 and tops else "d"
        if turn in (0, 1, 21):
            page.screenshot(path=str(shots / f"turn-{turn:02d}-draw.png"))
        before = last_seq(page)
        taps.count, card_taps, card_swipes = 0, taps.count, taps.swipes
        taps(f"#picker .move[data-notation='{draw}']")  # one tap, on screen without scrolling
        assert taps.count == 1 and taps.swipes == card_swipes, (turn, draw)
        pile_draws += draw != "d"
        wait_ready(page, after=before) if turn < 199 else None
        per_turn.append(card_taps + taps.count)
        swipes.append(card_swipes)
    else:
        pytest.fail("the round did not end")
    assert max(per_turn) <= 3 and max(swipes) <= 1 and pile_draws >= 5, (per_turn, swipes, pile_draws)
    print(f"turns {len(per_turn)}, taps {sum(per_turn)} (max {max(per_turn)} a turn), swipes of the sheet's list "
          f"{sum(swipes)} (max {max(swipes)} a turn), draws from a discard pile {pile_draws}")
    (shots / "taps.json").write_text(json.dumps({"turns": len(per_turn), "taps": sum(per_turn), "max_taps": max(per_turn),
                                                 "swipes": sum(swipes), "max_swipes": max(swipes)}, indent=1))
    assert_lost_cities_sheet(page, http, game_id)  # shown by the page itself, no reload
    page.screenshot(path=str(shots / "end-score-sheet.png"), full_page=True)
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert axe_violations(page) == []


def test_undo_back_asks_first_and_a_correction_returns_to_the_latest_step(wide, server, http):
    page = wide
    game_id = start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    for _ in range(7):
        step(page)
    steps = http.get(f"/games/{game_id}").json()["steps"]

    # one step back: undo back to it takes one move, and asks nothing
    page.click(f"#history li[data-index='{steps - 2}'] button.step-no")
    page.wait_for_selector("#undo-to:not([disabled])")
    assert page.locator("#undo-to").is_enabled()

    # five steps back: the page asks first, saying how many moves go
    page.click("#history li[data-index='2'] button.step-no")
    page.click("#undo-to")
    dialog = page.locator("#amend-dialog[open]")
    dialog.wait_for()
    assert f"takes back {steps - 3} moves" in dialog.inner_text()
    assert page.locator("#undo-to-confirm").inner_text() == f"Take back {steps - 3} moves"
    shot(page, "table-03-undo-asks")
    page.click("#undo-to-cancel")
    assert http.get(f"/games/{game_id}").json()["steps"] == steps  # nothing changed
    page.click("#undo-to")
    before = last_seq(page)
    page.click("#undo-to-confirm")
    wait_ready(page, after=before)
    assert http.get(f"/games/{game_id}").json()["steps"] == 3

    # record again, then correct an early move: the page goes back to the latest step
    for _ in range(4):
        step(page)
    first_play = page.locator("#history li[data-type='lost-cities.card-played']").first
    seq = first_play.get_attribute("data-seq")
    before = last_seq(page)
    page.click(f"#history [data-amend='{seq}']")
    page.wait_for_selector("#amend-dialog[open] .kind")
    assert "Correct step" in page.locator("#amend-h").inner_text()
    pick(page, "lost-cities.card-played", "Bx", scope="#amend-dialog")
    page.wait_for_selector("#amend-dialog", state="hidden")
    wait_ready(page, after=before)
    frames = http.get(f"/games/{game_id}/frames").json()["frames"]
    assert int(page.locator("#drawing").get_attribute("data-index")) == len(frames) - 1
    assert page.locator("#picker .kind").count()  # at the latest step: recording goes on


def test_moves_and_errors_read_as_sentences_and_followers_see_public_moves(wide, browser, server, http):
    page = wide
    game_id = start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    for _ in range(7):
        step(page)
    items = page.locator("#history li .said")
    texts = [t.inner_text() for t in items.all()]
    assert texts[0] == "Lost Cities began: Ana, Bea"
    assert any(t.startswith("Ana played the ") or t.startswith("Ana discarded the ") for t in texts)
    assert "Ana drew from the draw pile" in texts or "Bea drew from the draw pile" in texts
    label = page.locator("#step-label").inner_text()
    assert label.startswith("Step 7 of 7: ") and "seq" not in label

    # a correction that breaks a later move: a sentence naming the rule, the step (not the seq);
    # the code and the rulebook's own words behind "Details"
    first_play = next(f for f in http.get(f"/games/{game_id}/frames").json()["frames"] if f["type"] == "lost-cities.card-played")
    page.click(f"#history [data-amend='{first_play['seq']}']")
    page.wait_for_selector("#amend-dialog[open] .kind")
    pick(page, "lost-cities.card-played", "Y10", scope="#amend-dialog")
    error = page.locator("#amend-dialog .error")
    error.wait_for()
    assert error.get_attribute("data-code") == "amendment-breaks-history"
    assert error.get_attribute("data-rule").startswith("lost-cities.")
    visible = error.inner_text()
    assert "step " in visible and "seq" not in visible and "lost-cities." not in visible and "\"" not in visible
    details = error.locator("details")
    assert not details.get_attribute("open") is not None
    details.locator("summary").click()
    assert "amendment-breaks-history" in details.inner_text()
    quote = details.locator("blockquote [lang=es]")
    assert quote.count() >= 1  # the rulebook's words, marked as Spanish
    shot(page, "table-04-error-details")
    page.keyboard.press("Escape")

    # a follower (no token) reads public moves as sentences; a drawn card stays hidden
    context = browser.new_context(viewport={"width": 375, "height": 812})
    follower = context.new_page()
    follower.goto(f"{server}/?game={game_id}")
    follower.wait_for_selector("#history li .said")
    said = [t.inner_text() for t in follower.locator("#history li .said").all()]
    assert not any(s.endswith("Card played") or s.endswith("card played") for s in said)
    plays = follower.locator("#history li[data-type='lost-cities.card-played'] .said")
    assert plays.count() and all(" played the " in p.inner_text() for p in plays.all())
    draws = [d.inner_text() for d in follower.locator("#history li[data-type='lost-cities.card-drawn'] .said").all()]
    assert draws and all(d.endswith("drew from the draw pile") for d in draws)
    status = follower.locator("#status-line").inner_text()
    assert "seat 0" not in status and "seat 1" not in status
    # on a phone each step is said in words alone: no notation (R2, d, deal) beside it
    assert follower.locator("#history li .notation").count() and not follower.locator("#history li .notation").first.is_visible()
    assert axe_violations(follower) == []
    context.close()


def test_the_start_form_speaks_the_table_s_language(wide, server, http):
    page = wide
    page.goto(f"{server}/?page=new")
    page.select_option("#n-title", "lost-cities")
    page.wait_for_selector("#n-opt-first_seat")
    first = page.locator("#n-opt-first_seat")
    assert first.evaluate("e => e.selectedOptions[0] && e.selectedOptions[0].textContent") == "Player 1"
    assert page.locator("label[for='n-player-0']").inner_text() == "Seat 1"
    assert page.locator("#n-player-0").input_value() == ""
    assert page.locator("#n-player-0").get_attribute("placeholder") == "Name of player 1"
    page.fill("#n-player-0", "Ana")
    page.fill("#n-player-1", "Bea")
    assert [o.inner_text() for o in first.locator("option").all()] == ["Ana", "Bea"]
    form = page.locator("form.new-game").inner_text()
    for title in ("lost-cities", "marco-polo", "marco-polo-2"):
        page.select_option("#n-title", title)
        form = page.locator("form.new-game").inner_text()
        assert "``" not in form and "content:" not in form and "hash" not in form
        assert "El jugador" not in form and not any("\u3040" <= c <= "\u9fff" for c in form)
    page.select_option("#n-title", "lost-cities")
    assert "oldest player" in page.locator("form.new-game").inner_text()
    games_before = len(http.get("/games").json()["games"])

    page.fill("#n-player-0", "Ana")
    page.fill("#n-player-1", "")
    page.get_by_role("button", name="Start the game").click()
    alert = page.locator("form.new-game [role=alert]")
    assert alert.inner_text() == "Seat 2 has no name yet: type the name of the player in seat 2."
    assert page.evaluate("document.activeElement.id") == "n-player-1"
    page.fill("#n-player-1", " ana ")
    page.get_by_role("button", name="Start the game").click()
    assert "Seats 1 and 2 are both called “ana”" in alert.inner_text()
    assert page.locator("#n-player-1").get_attribute("aria-invalid") == "true"
    shot(page, "table-05-form-names")
    assert len(http.get("/games").json()["games"]) == games_before
    assert axe_violations(page) == []

    page.fill("#n-player-1", "Bea")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/?game=*")
    assert game_id_of(page)


def test_the_marco_polo_score_sheet_adds_up_with_camels_apart(wide, server, http):
    page = wide
    players, options, moves, expect, _ = golden_games.load(golden_games.files("marco-polo")[0])
    made = http.post("/games", json={"title": "marco-polo", "players": list(players), "options": options})
    assert made.status_code == 201, made.text
    game_id, token = made.json()["game_id"], made.json()["tokens"]["write_token"]
    auth = {"Authorization": f"Bearer {token}"}
    seq = 1
    for text in moves:
        answer = http.post(f"/games/{game_id}/moves", json={"notation": text, "expected_seq": seq}, headers=auth)
        assert answer.status_code == 201, (text, answer.text)
        seq = answer.json()["last_seq"]
    page.goto(f"{server}/?game={game_id}")
    page.wait_for_selector("#score:not([hidden]) .mp-sheet")
    score = state(http, game_id)["view"]["score"]
    for i, row in enumerate(score["seats"]):
        column = i + 2  # the first column names the source
        points = [
            int(c.get_attribute("data-points"))
            for c in page.locator(f"#score .mp-sheet tr[data-source] td:nth-child({column})").all()
        ]
        total = int(page.locator(f"#score .mp-sheet tfoot td:nth-child({column})").get_attribute("data-total"))
        assert sum(points) == total == row["total"] == expect[i]["total"]
        camels = page.locator(f"#score .tiebreak [data-seat='{row['seat']}']").get_attribute("data-camels")
        assert int(camels) == row["camels"]
    assert page.locator("#score .mp-sheet tr[data-source='camels']").count() == 0
    assert "Tie-break" in page.locator("#score .tiebreak").inner_text()
    shot(page, "table-06-marco-polo-sheet")
    assert axe_violations(page) == []


@pytest.mark.parametrize("viewport", [PHONE_TALL, WIDE], ids=["phone", "desktop"])
def test_every_page_passes_axe(browser, server, http, viewport):
    context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE_TALL)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        lc = start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
        for _ in range(3):
            step(page)
        found = {"lost-cities game": axe_violations(page)}
        mp = start_game(page, server, "marco-polo", ["Ana", "Bea"], {"characters": "first-game"})
        for _ in range(4):  # the layout, the contracts, the roll (a neutral die on the board), a move
            step(page)
        found["marco-polo game"] = axe_violations(page)
        assert page.locator("#drawing .die[data-kind='n']").count()
        assert low_contrast(page, "#drawing .die") == []
        made = http.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "seed": 3})
        if made.status_code == 201:
            page.goto(f"{server}/?game={made.json()['game_id']}")
            page.wait_for_selector("#drawing[data-seq]")
            found["marco-polo-2 game"] = axe_violations(page)
        for name, url, ready in (
            ("games", "/", f"[data-game='{lc}']"),
            ("new game", "/?page=new", "#n-title"),
            ("statistics", "/?page=stats", "#stats-none, .stats-page[data-ready=true]"),
            ("content packs", "/?page=packs", ".pk-pack"),
            ("a content pack", "/?page=packs&title=marco-polo-2&pack=marco-polo-2-synthetic-test-1", "#pk-map svg"),
            ("a point of a game", f"/?game={mp}&at=2", "#drawing[data-seq]"),
        ):
            page.goto(f"{server}{url}")
            page.wait_for_selector(ready)
            page.wait_for_function("() => !document.querySelector('main').getAttribute('aria-busy')")
            found[name] = axe_violations(page)
        assert {k: v for k, v in found.items() if v} == {}
        if viewport is PHONE_TALL:
            for game_id in (lc, mp):
                page.goto(f"{server}/?game={game_id}")
                wait_ready(page)
                assert small_targets(page) == [], game_id
    finally:
        context.close()
