"""Think time and the BG Stats link on the game page in a real Chromium at 375 x 812 and wide:
each player's medians, total and slowest decision as the API says them, a button that takes the
replay to that step, the BG Stats link at a game's end only (its play decoded from the link), an
imported game that says it has no timings; en, es and ja, plain words, fingers' targets, axe clean."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

import live_server
from pagehelp import axe_violations, shot, small_targets

HEADING = {"en": "Think time", "es": "Tiempo de reflexión", "ja": "考慮時間"}
BUTTON = {"en": "Add this play to BG Stats", "es": "Añadir esta partida a BG Stats", "ja": "このプレイを BG Stats に追加"}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 19, 0)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import random

    from events.duckdb_log import DuckDBEventLog
    from projections.projector import Projector
    from replay.recorder import Recorder
    from replay.simulate import random_game

    path = tmp_path_factory.mktemp("think-web") / "think.duckdb"
    clock = Clock()
    log = DuckDBEventLog(str(path), clock=clock)
    projector = Projector(log)
    recorder = Recorder(log, projector)
    rng = random.Random(5)
    ids = {}
    for name, moves in (("ended", None), ("going", 9)):
        game_id, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=7, game_id=f"think-{name}")
        count = 0
        while projector.state(game_id).ended is None and (moves is None or count < moves):
            clock.now += timedelta(seconds=rng.randrange(5, 200))
            game = projector.state(game_id)
            recorder.record(game_id, game.title.legal_moves(game.state)[0])
            count += 1
        ids[name] = game_id
    log.import_games([("think-imported", random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=3))])
    log.close()
    base, proc = live_server.start(path)
    yield base
    live_server.stop(proc)


def open_game(page, base: str, game_id: str, lang: str) -> None:
    page.goto(f"{base}/")
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    page.goto(f"{base}/?game={game_id}")
    page.wait_for_selector("#think:not([hidden])")


def plain(page) -> None:
    text = page.locator("#think").inner_text()
    assert "think-" not in text and "seq" not in text and "lost-cities" not in text and "untimed" not in text
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert small_targets(page, "#think") == []
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    assert axe_violations(page) == []


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_an_ended_game_shows_each_players_think_time_and_the_bgstats_link(screen, server, lang):
    think = httpx.get(f"{server}/games/think-ended/think-time", params={"lang": lang}).json()
    push = httpx.get(f"{server}/games/think-ended/bgstats-play").json()
    open_game(screen, server, "think-ended", lang)
    panel = screen.locator("#think")
    assert panel.locator("h2").inner_text() == HEADING[lang]
    rows = panel.locator(".think-table tbody tr")
    assert rows.count() == 2
    for index, seat in enumerate(think["seats"]):
        cells = rows.nth(index).locator("th, td").all_inner_texts()
        assert cells == [seat["player"], str(seat["decisions"]), seat["said"]["median_decision"],
                         seat["said"]["median_turn"], seat["said"]["total"]]
    assert seat["slowest"]["words"] in panel.locator(".think-slowest").inner_text()
    link = screen.locator("#bgpush")
    link.wait_for()
    assert link.inner_text() == BUTTON[lang] and link.get_attribute("href") == push["url"]
    play = json.loads(parse_qs(urlsplit(link.get_attribute("href")).query)["data"][0])
    assert [p["name"] for p in play["players"]] == ["Ana", "Bea"] and play["durationMin"] >= 1
    plain(screen)
    shot(screen, f"think-ended-{lang}-{screen.viewport_size['width']}")
    step = think["seats"][0]["slowest"]["step"]
    panel.locator(f".think-go[data-step='{step}']").first.click()
    screen.wait_for_function("n => document.querySelector('#drawing').dataset.index === String(n)", arg=step)


def test_a_game_in_progress_has_think_time_and_no_bgstats_link(screen, server):
    open_game(screen, server, "think-going", "en")
    text = screen.locator("#think").inner_text()
    assert "each move is said as the table saw it" in text
    assert screen.locator(".think-table tbody tr").count() == 2
    assert screen.locator("#bgpush").count() == 0
    plain(screen)
    shot(screen, f"think-going-{screen.viewport_size['width']}")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_imported_game_says_it_has_no_timings(screen, server, lang):
    open_game(screen, server, "think-imported", lang)
    said = screen.locator(".think-untimed").inner_text()
    assert ("it has no timings" if lang == "en" else "時間の記録がありません") in said
    assert screen.locator(".think-table").count() == 0
    screen.locator("#bgpush").wait_for()  # an imported game that has ended is still a play
    plain(screen)


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_the_title_statistics_show_each_players_think_time(screen, server, lang):
    got = httpx.get(f"{server}/stats/think-time", params={"title": "lost-cities", "lang": lang}).json()
    assert (got["games"], got["timed_games"]) == (2, 1)  # the imported game has no timings
    screen.goto(f"{server}/")
    screen.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    screen.goto(f"{server}/?page=stats&view=title&title=lost-cities")
    section = screen.locator("section[data-section='think']")
    section.wait_for()
    assert section.locator("h2").inner_text() == HEADING[lang]
    rows = section.locator("table[data-table='think'] tbody tr")
    assert rows.count() == 2
    ana = got["players"][0]
    cells = rows.nth(0).locator("th, td").all_inner_texts()
    assert cells[:4] == [ana["player"], str(ana["games"]), ana["said"]["median_decision"], ana["said"]["median_turn"]]
    assert ana["slowest"]["words"] in cells[4] and "think-ended" not in section.inner_text()
    assert screen.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert small_targets(screen, "section[data-section='think']") == []
    assert screen.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    assert axe_violations(screen) == []
    shot(screen, f"think-stats-{lang}-{screen.viewport_size['width']}")
    rows.nth(0).locator("a").click()
    screen.wait_for_function("n => (document.querySelector('#drawing') || {dataset: {}}).dataset.index === String(n)", arg=ana["slowest"]["step"])
