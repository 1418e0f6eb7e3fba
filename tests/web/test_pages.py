"""The other pages: the start form is built from the API's titles and options; statistics show
what the server has (or say it has none); a title without a drawing of its own is shown by the
generic rendering of its view."""

from __future__ import annotations

from pagehelp import shot



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
    """The statistics the server has (its /stats endpoints and charts), or a note that it has none."""
    page.goto(f"{server}/?page=stats")
    page.wait_for_selector("#stats-none, .stat, .chart")
    paths = [p for p in http.get("/openapi.json").json()["paths"] if p.startswith("/stats")]
    if not paths:
        assert page.locator("#stats-none").is_visible()
        return
    page.wait_for_function("() => !document.querySelector('#stats-out').innerText.includes('Loading')")
    assert page.locator(".stat").count() + page.locator(".chart").count() >= 1
    page.select_option("#s-title", "marco-polo")
    assert "title=marco-polo" in page.url
    page.wait_for_function("() => !document.querySelector('#stats-out').innerText.includes('Loading')")
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
