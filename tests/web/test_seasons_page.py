"""Seasons on the statistics page in a real Chromium at 375 x 812 and 1366 x 900, over the seeded
store with seasons defined in it: the list, a season's standings per title as the API answers them,
its CSV link, in English, Spanish and Japanese, with no id or code shown, tap targets of a finger,
and axe clean."""

from __future__ import annotations

import pytest

import live_server
from pagehelp import axe_violations, shot, small_targets

WORDS = {"en": ("Seasons", "Points", "Camels"), "es": ("Temporadas", "Puntos", "Camellos"), "ja": ("シーズン", "得点", "ラクダ")}


@pytest.fixture(scope="module")
def stats_server(tmp_path_factory):
    from statsseed import seed_store

    from events.duckdb_log import DuckDBEventLog
    from projections.projector import Projector
    from projections.seasons import Seasons
    from replay import seasons as write

    path = tmp_path_factory.mktemp("seasons-web") / "seasons.duckdb"
    seed_store(path)
    log = DuckDBEventLog(str(path))
    try:
        seasons = Seasons(log, Projector(log).read_models)
        write.define(seasons, "Club year 2026", ["lost-cities", "marco-polo", "marco-polo-2"], "2026-01-01", "2026-12-31",
                     ["Ana", "Bea", "Carl", "Dana", "Emil"])
        write.define(seasons, "Quiet summer", ["lost-cities"], "2026-07-01", "2026-08-31", ["Ana", "Bea"])
    finally:
        log.close()
    base, proc = live_server.start(path)
    yield base
    live_server.stop(proc)


def open_page(page, base: str, query: str, lang: str = "en") -> None:
    if lang != "en":
        page.goto(f"{base}/")
        page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    page.goto(f"{base}/?page=stats{query}")
    page.wait_for_selector(".stats-page[data-ready=true]")


def plain(page) -> None:
    """What a person at the table reads: words and names, no id, no code, nothing spilling."""
    text = page.locator("#stats-out").inner_text()
    assert "season-" not in text and "lost-cities" not in text and "tiebreak" not in text
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert small_targets(page, "#stats-out") == []
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    assert axe_violations(page) == []


def test_the_dashboard_leads_to_the_seasons_and_a_seasons_standings(screen, stats_server, api):
    open_page(screen, stats_server, "")
    screen.locator("[data-link=seasons]").click()
    screen.wait_for_selector("[data-list=seasons]")
    listed = [li.get_attribute("data-season") for li in screen.locator("[data-list=seasons] li").all()]
    assert listed == [s["name"] for s in api.get("/seasons").json()["seasons"]] == ["Quiet summer", "Club year 2026"]
    plain(screen)
    shot(screen, f"seasons-list-{screen.viewport_size['width']}")
    screen.get_by_role("link", name="Club year 2026").click()
    screen.wait_for_selector("[data-section=season-marco-polo]")
    season_id = api.get("/seasons").json()["seasons"][1]["season_id"]
    want = api.get(f"/seasons/{season_id}").json()
    assert screen.locator("h1").inner_text() == "Club year 2026"
    for t in want["standings"]:
        section = screen.locator(f"[data-section=season-{t['title']}]")
        assert section.locator("h2").inner_text() == t["title_name"]
        rows = section.locator("tbody tr")
        assert [r.get_attribute("data-row") for r in rows.all()] == [r["player"] for r in t["rows"]]
        first = t["rows"][0]
        assert rows.first.locator("[data-col=games]").inner_text() == str(first["games"])
        assert rows.first.locator("[data-col=points]").inner_text().replace(",", "") == str(first["points"])
        # each row's rating over the season's games, as mu ± sigma to one decimal
        for row, r in zip(rows.all(), t["rows"]):
            shown = row.locator("[data-col=rating]").inner_text().replace("\u00a0", " ")
            assert shown == ("–" if r["mu"] is None else f"{r['mu']:.1f} ± {r['sigma']:.1f}")
        assert any(r["mu"] is not None for r in t["rows"])
        has_camels = section.locator("th", has_text="Camels").count() == 1
        assert has_camels == (t["title"] != "lost-cities")
    csv = screen.locator("a[download]")
    assert api.get(csv.get_attribute("href")).headers["content-type"].startswith("text/csv")
    box = csv.bounding_box()
    assert box["height"] >= 44
    plain(screen)
    shot(screen, f"seasons-standings-{screen.viewport_size['width']}")


def test_a_season_without_games_yet_still_shows_its_members(tall_phone, stats_server, api):
    season_id = api.get("/seasons").json()["seasons"][0]["season_id"]
    open_page(tall_phone, stats_server, f"&view=seasons&season={season_id}")
    assert tall_phone.locator("h1").inner_text() == "Quiet summer"
    assert "Ana, Bea" in tall_phone.locator("#stats-out").inner_text()
    assert tall_phone.locator("[data-section=season-lost-cities] tbody tr").count() == 2
    plain(tall_phone)


def test_an_unknown_season_is_said_in_words(tall_phone, stats_server):
    open_page(tall_phone, stats_server, "&view=seasons&season=season-nothing")
    assert tall_phone.get_by_role("alert").count() == 1
    assert axe_violations(tall_phone) == []


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_the_seasons_in_spanish_and_japanese(tall_phone, stats_server, api, lang):
    seasons_word, points, camels = WORDS[lang]
    open_page(tall_phone, stats_server, "&view=seasons", lang)
    assert tall_phone.locator("h1").inner_text() == seasons_word
    plain(tall_phone)
    season_id = api.get("/seasons").json()["seasons"][1]["season_id"]
    open_page(tall_phone, stats_server, f"&view=seasons&season={season_id}", lang)
    section = tall_phone.locator("[data-section=season-marco-polo]")
    assert section.locator("th", has_text=points).count() == 1 and section.locator("th", has_text=camels).count() == 1
    want = api.get(f"/seasons/{season_id}", headers={"Accept-Language": lang}).json()
    assert section.locator("h2").inner_text() == want["standings"][1]["title_name"]
    plain(tall_phone)
