"""The other pages: the start form is built from the API's titles and options; statistics show
what the server has (or say it has none); a title without a drawing of its own is shown by the
generic rendering of its view."""

from __future__ import annotations

from pagehelp import axe_violations, shot, small_targets



def test_new_game_form_follows_the_titles(page, server, http):
    page.goto(f"{server}/?page=new")
    page.wait_for_selector("form.new-game [data-option]")
    details = http.get("/titles/details").json()
    options = [o.get_attribute("value") for o in page.locator("#n-title option").all()]
    assert options == [t["id"] for t in details]
    page.select_option("#n-title", "marco-polo")
    assert page.locator("#n-opt-characters option").count() == 3
    page.select_option("#n-title", "lost-cities")
    assert page.locator("#n-opt-rounds").input_value() == "3"
    assert page.locator("#n-opt-first_seat option").count() == 2  # one per seat, named
    page.fill("#n-player-1", "")
    page.get_by_role("button", name="Start the game").click()
    assert "page=new" in page.url  # a name is missing: the page says so, nothing is created
    assert "has no name yet" in page.locator("form.new-game [role=alert]").inner_text()
    shot(page, "pages-01-new-game")


def test_statistics_page(page, server, http):
    """The statistics page finds its answers in the server's index (GET /stats), not in the
    OpenAPI schema: the dashboard once a game has ended, else a note that there is nothing yet."""
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"{server}/?page=stats")
    page.wait_for_selector("#stats-none, .stats-page[data-ready=true]")
    assert not any(u.endswith("/openapi.json") for u in asked)
    assert any(u.endswith("/stats") for u in asked)
    if not http.get("/stats").json()["games"]:
        assert page.locator("#stats-none").is_visible()
        return
    assert page.locator("[data-section=leaderboard]").count() == 1
    shot(page, "pages-02-statistics")


def test_generic_drawing_reads_any_view(page, server, http):
    page.goto(f"{server}/")
    page.wait_for_selector("h1")
    text = page.evaluate(
        """async () => {
        const generic = await import('/static/draw/generic.js');
        const box = document.createElement('div');
        generic.draw(box, {title: 'x', players: ['Ana', 'Bea'], round: 2,
          seats: [{seat: 0, coins: 3, caravans: ['c1']}, {seat: 1, coins: 5, caravans: []}]}, {players: ['Ana', 'Bea']});
        return box.innerText;
    }"""
    )
    assert "Ana, Bea" in text and "Coins" in text and "Round" in text


def test_new_game_form_on_a_phone(phone, server):
    """Every control of the start form, the digital-chance box too, is a finger's size at 375 px."""
    phone.goto(f"{server}/?page=new")
    phone.wait_for_selector("form.new-game [data-option]")
    for title in ("lost-cities", "marco-polo", "marco-polo-2"):
        phone.select_option("#n-title", title)
        assert small_targets(phone, "main") == [], title
    phone.check("#n-digital")
    assert phone.locator("#n-seed").is_enabled()
    assert axe_violations(phone) == []
    shot(phone, "pages-01-new-game-phone")
