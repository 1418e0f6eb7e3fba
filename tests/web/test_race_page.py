"""The score race under the board in a real Chromium at 375 x 812 and 1366 x 900: a line per
player, the turning point and the biggest swing said as the API says them, a button that takes
the replay to either step, in English, Spanish and Japanese, plain words, fingers' targets, axe
clean; a game in progress says that only the table's points count."""

from __future__ import annotations

import httpx
import pytest

import live_server
from pagehelp import axe_violations, shot, small_targets

HEADING = {"en": "Score race", "es": "Carrera de puntos", "ja": "得点の推移"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from events.duckdb_log import DuckDBEventLog
    from replay.simulate import random_game

    path = tmp_path_factory.mktemp("race-web") / "race.duckdb"
    log = DuckDBEventLog(str(path))
    lost_cities = random_game("lost-cities", ("Ana", "Bea"), {"rounds": 2}, seed=3)
    going = random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=5)[:40]
    partners = random_game("lost-cities", ("Ana", "Bea", "Cy", "Dee"), {"rounds": 1}, seed=4)
    log.import_games([("race-ended", lost_cities), ("race-going", going),
                      ("race-partners", partners)])
    log.close()
    base, proc = live_server.start(path)
    yield base
    live_server.stop(proc)


def open_game(page, base: str, game_id: str, lang: str) -> None:
    page.goto(f"{base}/")
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    page.goto(f"{base}/?game={game_id}")
    page.wait_for_selector("#race:not([hidden]) .sv-box svg")


def plain(page) -> None:
    text = page.locator("#race").inner_text()
    assert "race-" not in text and "seq" not in text and "lost-cities" not in text
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert small_targets(page, "#race") == []
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    assert axe_violations(page) == []


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_an_ended_game_shows_its_race_under_the_board(screen, server, lang):
    race = httpx.get(f"{server}/games/race-ended/race", params={"lang": lang}).json()
    open_game(screen, server, "race-ended", lang)
    panel = screen.locator("#race")
    assert panel.locator("h2").inner_text() == HEADING[lang]
    assert screen.locator("#race polyline.sv-path").count() == 2
    board = screen.locator(".board").bounding_box()
    box = panel.bounding_box()
    assert box["y"] >= board["y"] + board["height"] - 1  # below the board
    assert panel.locator(".race-swing").inner_text() == race["biggest_swing"]["words"]
    if race["turning_point"] is not None:
        assert panel.locator(".race-turning").inner_text() == race["turning_words"]
    plain(screen)
    shot(screen, f"race-ended-{lang}-{screen.viewport_size['width']}")
    step = race["biggest_swing"]["step"]
    panel.locator(f".race-go[data-step='{step}']").click()
    screen.wait_for_function("n => document.querySelector('#drawing').dataset.index === String(n)", arg=step)
    assert f"at={step}" in screen.url


def test_a_game_in_progress_counts_only_the_table(screen, server):
    open_game(screen, server, "race-going", "en")
    text = screen.locator("#race").inner_text()
    assert "only the points on the table count" in text
    assert "The turning point shows once the game has ended." in text
    assert screen.locator("#race polyline.sv-path").count() == 2
    plain(screen)


def test_partners_share_one_line(screen, server):
    open_game(screen, server, "race-partners", "en")
    assert screen.locator("#race polyline.sv-path").count() == 2
    legend = screen.locator("#race .sv-legend").inner_text()
    assert "Ana & Cy" in legend and "Bea & Dee" in legend
    plain(screen)
