"""Tournament nights on the page in a real Chromium at 375 x 812 and 1366 x 900, against a real
``tabletape serve``: an organiser opens a night (names typed, or a season's members), draws a round,
sees each table with a QR code that records its game, seats a late player and a drop; a table's
game is finished through the service and the standings change on the page by themselves. In
English and Spanish / Japanese, no id or code shown, tap targets of a finger, axe clean."""

from __future__ import annotations

import random

import httpx
import pytest

import live_server
from pagehelp import axe_violations, shot, small_targets

PLAYERS = ["Ana", "Bea", "Cai", "Dan", "Eva"]
WORDS = {"en": ("Tournament nights", "Draw round 1", "Night points"), "es": ("Veladas de torneo", "Sortear la ronda 1", "Puntos de la velada"),
         "ja": ("大会", "ラウンド 1 の組み合わせを決める", "大会のポイント")}


@pytest.fixture(scope="module")
def night_server(tmp_path_factory):
    from events.duckdb_log import DuckDBEventLog
    from projections.projector import Projector
    from projections.seasons import Seasons
    from replay import seasons as write

    path = tmp_path_factory.mktemp("nights-web") / "nights.duckdb"
    log = DuckDBEventLog(str(path))
    try:
        write.define(Seasons(log, Projector(log).read_models), "Club year 2026", ["lost-cities"], "2026-01-01", "2026-12-31",
                     ["Gil", "Hana", "Ivo"])
    finally:
        log.close()
    base, proc = live_server.start(path)
    yield base
    live_server.stop(proc)


@pytest.fixture(scope="module")
def api(night_server):
    with httpx.Client(base_url=night_server, timeout=20) as client:
        yield client


def finish_over_http(api: httpx.Client, game_id: str, write: str, seed: int = 1) -> None:
    """A table's game played to its end through the service, as its recorder would: each deal
    reported (a shuffle in a random order), then always the first legal move."""
    auth = {"Authorization": f"Bearer {write}"}
    rng = random.Random(f"{game_id}:{seed}")
    for _ in range(2000):
        chance = api.get(f"/games/{game_id}/chance", headers=auth).json()
        if chance["kind"]:
            items = list(chance["items"])
            rng.shuffle(items)
            outcome = items if chance["kind"] == "shuffle" else [rng.randint(1, chance["sides"]) for _ in range(chance["count"])]
            move = api.post(f"/games/{game_id}/chance", headers=auth, json={"outcome": outcome}).json()["move"]
            body = {"move": move, "expected_seq": chance["at"]}
        else:
            legal = api.get(f"/games/{game_id}/legal-moves", headers=auth).json()
            if legal["ended"]:
                return
            body = {"notation": legal["moves"][0]["notation"], "expected_seq": legal["at"]}
        answer = api.post(f"/games/{game_id}/moves", headers=auth, json=body)
        assert answer.status_code == 201, answer.text
    raise AssertionError("the game did not end")


def use_lang(page, base: str, lang: str) -> None:
    page.goto(f"{base}/")
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)


def open_nights(page, base: str, query: str = "") -> None:
    page.goto(f"{base}/?page=stats&view=nights{query}")
    page.wait_for_selector(".stats-page[data-ready=true]")


def plain(page) -> None:
    """What a person at the table reads: words and names, no id, no code, nothing spilling."""
    text = page.locator("#stats-out").inner_text()
    assert "night-" not in text and "lost-cities" not in text and "token" not in text.lower()
    assert not any(len(word) >= 20 and word.isalnum() for word in text.split())  # no game id nor token
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert small_targets(page, "#stats-out") == []
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    assert axe_violations(page) == []


def open_night(page, name: str, players: list[str], game_rounds: int = 1) -> str:
    page.fill("#nt-name", name)
    page.fill("#nt-players", "\n".join(players))
    page.fill("#nt-rounds", "3")
    page.fill("#nt-game-rounds", str(game_rounds))
    page.locator("#nt-open").click()
    page.wait_for_selector("[data-night-board]")
    return page.evaluate("() => new URLSearchParams(location.search).get('night')")


def test_an_organiser_opens_a_night_draws_and_sees_the_standings_follow_the_games(screen, night_server, api):
    width = screen.viewport_size["width"]
    name = f"Friday {width}"
    open_nights(screen, night_server)
    assert screen.locator("h1").inner_text() == "Tournament nights"
    plain(screen)
    shot(screen, f"nights-open-{width}")
    night_id = open_night(screen, name, PLAYERS)
    assert screen.locator("h1").inner_text() == name
    assert screen.locator("#nt-none-drawn").count() == 1
    plain(screen)
    screen.get_by_role("button", name="Draw round 1").click()
    screen.wait_for_selector("[data-round='1'] .nt-table")
    shown = api.get(f"/nights/{night_id}").json()
    drawn = shown["draws"][0]
    tables = screen.locator("[data-round='1'] .nt-table")
    assert tables.count() == len(drawn["tables"]) == 2
    for i, table in enumerate(drawn["tables"]):
        card = tables.nth(i)
        assert [li.get_attribute("data-player") for li in card.locator(".nt-seats li").all()] == table["players"]
        assert card.locator("svg.qr").count() == 1  # its recording link, to hand over
    assert screen.locator(".nt-byes").inner_text() == f"Sits out this round: {drawn['byes'][0]}"
    assert screen.locator("#nt-draw").is_disabled()
    assert "2 tables still playing" in screen.locator("#nt-draw-note").inner_text()
    plain(screen)
    shot(screen, f"nights-round-{width}")

    # the first table's game ends at its own table (through the service): the page follows
    first = drawn["tables"][0]
    with_token = screen.evaluate("id => localStorage.getItem(`tabletape.night.${id}`)", night_id)
    write = api.get(f"/nights/{night_id}", headers={"Authorization": f"Bearer {with_token}"}).json()["draws"][0]["tables"][0]["write_token"]
    finish_over_http(api, first["game_id"], write)
    card = tables.first
    screen.wait_for_selector("[data-round='1'] .nt-table[data-table='1'][data-ended=true]", timeout=20_000)
    after = api.get(f"/nights/{night_id}").json()
    rows = screen.locator("[data-table=night-standings] tbody tr")
    assert [r.get_attribute("data-row") for r in rows.all()] == [r["player"] for r in after["standings"]]
    top = after["standings"][0]
    assert top["night_points"] == 1.0 and rows.first.locator("[data-col=night_points]").inner_text() == "1"
    assert card.locator("svg.qr").count() == 0 and card.get_by_role("link", name="Replay table 1’s game").count() == 1
    assert "1 table still playing" in screen.locator("#nt-draw-note").inner_text()

    # a late player and a drop, from the next round on; a name playing already is refused in words
    screen.fill("#nt-late", "bea")
    screen.locator("#nt-late-go").click()
    screen.wait_for_selector("#nt-said [role=alert]")
    assert "Name: 'Bea' is playing tonight already" in screen.locator("#nt-said").inner_text()
    screen.fill("#nt-late", "Fay")
    screen.locator("#nt-late-go").click()
    screen.wait_for_selector("#nt-said [role=status]")
    assert "Fay plays from the next round on" in screen.locator("#nt-said").inner_text()
    screen.select_option("#nt-leaves", "Ana")
    screen.locator("#nt-leaves-go").click()
    screen.wait_for_function("() => document.querySelector('#nt-said').innerText.includes('Ana plays no further round')")
    screen.wait_for_function("() => (document.querySelector('[data-table=night-standings] tr[data-row=Ana] th') || {}).innerText.includes('(left)')")
    assert screen.locator("[data-table=night-standings] tr[data-row=Fay]").count() == 1
    assert "Ana" not in [o.get_attribute("value") for o in screen.locator("#nt-leaves option").all()]
    plain(screen)
    shot(screen, f"nights-standings-{width}")


def test_a_seasons_members_fill_the_names(tall_phone, night_server, api):
    open_nights(tall_phone, night_server)
    tall_phone.select_option("#nt-from", label="the season Club year 2026")
    tall_phone.wait_for_function("() => document.querySelector('#nt-players').value !== ''")
    assert tall_phone.locator("#nt-players").input_value().split("\n") == ["Gil", "Hana", "Ivo"]
    tall_phone.fill("#nt-name", "Club night")
    tall_phone.locator("#nt-open").click()
    tall_phone.wait_for_selector("[data-night-board]")
    rows = tall_phone.locator("[data-table=night-standings] tbody tr")
    assert sorted(r.get_attribute("data-row") for r in rows.all()) == ["Gil", "Hana", "Ivo"]
    plain(tall_phone)


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_a_night_in_spanish_and_japanese(tall_phone, night_server, api, lang):
    heading, draw, points = WORDS[lang]
    use_lang(tall_phone, night_server, lang)
    open_nights(tall_phone, night_server)
    assert tall_phone.locator("h1").inner_text() == heading
    plain(tall_phone)
    open_night(tall_phone, f"Noche {lang}", ["Ana", "Bea", "Cai", "Dan"])
    tall_phone.get_by_role("button", name=draw).click()
    tall_phone.wait_for_selector("[data-round='1'] .nt-table")
    assert tall_phone.locator("[data-table=night-standings] th", has_text=points).count() == 1
    plain(tall_phone)
    shot(tall_phone, f"nights-round-{lang}")


def test_a_night_on_another_device_shows_the_tables_without_their_codes(tall_phone, night_server, api):
    made = api.post("/nights", json={"name": "Elsewhere", "title": "marco-polo", "rounds": 2, "players": [f"P{n}" for n in range(7)]}).json()
    assert api.post(f"/nights/{made['night_id']}/rounds", headers={"Authorization": f"Bearer {made['token']}"}).status_code == 201
    open_nights(tall_phone, night_server, f"&night={made['night_id']}")
    tall_phone.wait_for_selector("[data-round='1'] .nt-table")
    assert sorted(len(c.locator(".nt-seats li").all()) for c in tall_phone.locator(".nt-table").all()) == [3, 4]
    assert tall_phone.locator("svg.qr").count() == 0 and tall_phone.locator("#nt-draw").count() == 0
    assert tall_phone.locator("#nt-no-token").count() == 1
    assert tall_phone.locator("[data-table=night-standings] th", has_text="Camels").count() == 1
    plain(tall_phone)


def test_a_refused_night_is_said_in_words_and_nothing_is_opened(tall_phone, night_server, api):
    before = len(api.get("/nights").json()["nights"])
    open_nights(tall_phone, night_server)
    tall_phone.fill("#nt-name", "Alone")
    tall_phone.fill("#nt-players", "Ana")
    tall_phone.locator("#nt-open").click()
    tall_phone.wait_for_selector("#nt-open-said [role=alert]")
    assert "Players, one name a line: a night needs at least two players" in tall_phone.locator("#nt-open-said").inner_text()
    assert len(api.get("/nights").json()["nights"]) == before
    assert axe_violations(tall_phone) == []


def test_a_link_hands_the_organising_to_a_projector(tall_phone, browser, night_server, api):
    from pagehelp import WIDE

    open_nights(tall_phone, night_server)
    night_id = open_night(tall_phone, "Projected", ["Ana", "Bea", "Cai", "Dan"])
    tall_phone.get_by_role("button", name="Draw round 1").click()
    tall_phone.wait_for_selector("[data-round='1'] .nt-table")
    tall_phone.locator(".nt-elsewhere summary").click()
    link = tall_phone.locator("#nt-elsewhere-link").input_value()
    assert tall_phone.locator(".nt-elsewhere svg.qr").count() == 1
    plain(tall_phone)
    context = browser.new_context(viewport=WIDE, device_scale_factor=1)
    try:
        projector = context.new_page()
        projector.goto(link)
        projector.wait_for_selector("#nt-taken[role=status]")
        projector.wait_for_selector(".stats-page[data-ready=true]")
        assert "#" not in projector.url  # the token is out of the address bar
        assert projector.locator(".nt-table svg.qr").count() == 2 and projector.locator("#nt-draw").count() == 1
        standings = projector.locator(".nt-standings").bounding_box()
        tables = projector.locator(".nt-tables").bounding_box()
        organise = projector.locator(".nt-organise").bounding_box()
        assert standings["x"] + standings["width"] <= tables["x"] and abs(standings["y"] - tables["y"]) < 2  # side by side
        assert organise["y"] >= tables["y"] + tables["height"]  # the room's part first
        plain(projector)
        shot(projector, "nights-projector-1366")
        projector.get_by_role("link", name="Record table 1’s game here").click()  # this screen records it too
        projector.wait_for_selector("#recorder.recording[data-ready=true]")
    finally:
        context.close()
    context = browser.new_context(viewport=WIDE, device_scale_factor=1)  # a device that never held the token
    try:
        stranger = context.new_page()
        stranger.goto(link.replace("night-token=", "night-token=nope"))
        stranger.wait_for_selector("#nt-taken[role=alert]")
        assert stranger.locator("svg.qr").count() == 0 and stranger.locator("#nt-draw").count() == 0
    finally:
        context.close()
    assert api.get(f"/nights/{night_id}").json()["rounds_drawn"] == 1
