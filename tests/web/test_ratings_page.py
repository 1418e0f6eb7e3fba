"""Ratings on the statistics page in a real Chromium at 375 x 812 and 1366 x 900, over the seeded
store: a player's rating per title drawn as a line with its band, the title's leaderboard by
rating, and "who is favourite tonight" for ticked players, each as the API answers it, in
English, Spanish and Japanese, with no id or code shown, tap targets of a finger, and axe clean."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest

from pagehelp import axe_violations, own_server, shot, small_targets

#: words each language shows: the section, the leaderboard by rating, the favourite question
WORDS = {
    "en": ("Ratings", "Leaderboard by rating", "Who is favourite tonight?", "chance to win"),
    "es": ("Puntuaciones", "Clasificación por puntuación", "¿Quién es favorito esta noche?", "probabilidad de ganar"),
    "ja": ("レーティング", "レーティング順の順位表", "今夜の本命は？", "勝つ確率"),
}


@pytest.fixture(scope="module")
def stats_server(tmp_path_factory):
    yield from own_server(tmp_path_factory, "ratings-web", seeded=True)


def one(value: float, scale: int = 1) -> str:
    """As Intl.NumberFormat in en-US with one decimal."""
    d = (Decimal(value) * scale).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{abs(d) if d == 0 else d:,}"


def rating(row: dict) -> str:
    return f"{one(row['mu'])} ± {one(row['sigma'])}"


def open_page(page, base: str, query: str, lang: str = "en") -> None:
    if lang != "en":
        page.goto(f"{base}/")
        page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    page.goto(f"{base}/?page=stats{query}")
    page.wait_for_selector(".stats-page[data-ready=true]")


def plain(page, scope: str) -> None:
    """What a person at the table reads: words and names, no game id, no code, nothing spilling."""
    text = page.locator(scope).inner_text()
    assert "01" not in text.split() and "ratings-" not in text and "game_id" not in text
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert small_targets(page, scope) == []
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    assert axe_violations(page) == []


def test_a_players_page_draws_their_rating_in_each_title(screen, stats_server, api):
    name = api.get("/stats").json()["players"][0]["name"]
    open_page(screen, stats_server, f"&view=player&name={name}")
    section = screen.locator("[data-section=ratings]")
    section.wait_for()
    titles = [p["title"] for p in api.get("/stats/player", params={"name": name}).json()["by_title"]]
    drawn = 0
    for title in titles:
        rows = api.get("/stats/ratings/history", params={"title": title, "name": name}).json()["rows"]
        if not rows:
            continue
        drawn += 1
        now = section.locator(f"[data-rating-now='{title}']").inner_text()
        assert rating(rows[-1]) in now and str(len(rows)) in now
        chart = section.locator(f"[data-rating-title='{title}'] svg")
        assert chart.locator(".sv-path").count() == 1 and chart.locator(".sv-band").count() == 1
        marks = chart.locator(".sv-mark")
        assert 2 <= marks.count() <= len(rows) + 1  # the start, then each game (at most 40 to focus, and the last)
        assert marks.first.get_attribute("aria-label") == f"Before the first game: {rating({'mu': rows[0]['mu_before'], 'sigma': rows[0]['sigma_before']})}"
        assert marks.last.get_attribute("aria-label").endswith(rating(rows[-1]))
    assert drawn == len(titles) >= 1
    first = section.locator(".sv-mark").first
    first.focus()
    assert screen.locator("[data-section=ratings] .sv-tip:not([hidden])").inner_text() == first.get_attribute("aria-label")
    plain(screen, "[data-section=ratings]")
    shot(screen, f"ratings-player-{screen.viewport_size['width']}")


def test_a_title_page_orders_its_leaderboard_by_rating_and_names_tonights_favourite(screen, stats_server, api):
    open_page(screen, stats_server, "&view=title&title=lost-cities")
    board = screen.locator("[data-table=by-rating]")
    board.wait_for()
    expected = api.get("/stats/leaderboard", params={"title": "lost-cities", "order": "rating"}).json()["rows"]
    shown = board.locator("tbody tr")
    assert [r.get_attribute("data-row") for r in shown.all()] == [r["player"] for r in expected]
    assert shown.first.locator("[data-col=rating]").inner_text() == rating(expected[0])
    plain(screen, "[data-section=by-rating]")

    favourite = screen.locator("[data-section=favourite]")
    favourite.get_by_role("button").click()
    assert favourite.get_by_role("alert").inner_text() == "Tick at least two players."
    chosen = [expected[-1]["player"], expected[0]["player"]]
    for player in chosen:
        favourite.get_by_label(player, exact=True).check()
    favourite.get_by_role("button").click()
    listed = favourite.locator("[data-list=favourite] li")
    listed.first.wait_for()
    answer = api.get("/stats/ratings/favourite", params={"title": "lost-cities", "player": chosen}).json()["rows"]
    best = max(answer, key=lambda r: r["win_probability"])
    assert listed.first.get_attribute("data-player") == best["player"]
    assert listed.first.inner_text() == f"{best['player']}: {one(best['win_probability'], 100)}% chance to win"
    assert favourite.locator(".sv-mark").count() == 2
    box = favourite.locator("input[type=checkbox]").first.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    plain(screen, "[data-section=favourite]")
    shot(screen, f"ratings-title-{screen.viewport_size['width']}")


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_the_ratings_in_spanish_and_japanese(tall_phone, stats_server, api, lang):
    section, board, question, chance = WORDS[lang]
    name = api.get("/stats").json()["players"][0]["name"]
    open_page(tall_phone, stats_server, f"&view=player&name={name}", lang)
    assert tall_phone.locator("#ratings-h").inner_text() == section
    plain(tall_phone, "[data-section=ratings]")
    open_page(tall_phone, stats_server, "&view=title&title=marco-polo", lang)
    assert tall_phone.locator("#by-rating-h").inner_text() == board
    assert tall_phone.locator("#favourite-h").inner_text() == question
    boxes = tall_phone.locator("[data-section=favourite] input[type=checkbox]")
    boxes.nth(0).check()
    boxes.nth(1).check()
    tall_phone.locator("[data-section=favourite] button").click()
    tall_phone.locator("[data-list=favourite] li").first.wait_for()
    assert chance in tall_phone.locator("[data-list=favourite]").inner_text()
    plain(tall_phone, "[data-section=favourite]")
    shot(tall_phone, f"ratings-{lang}")
