"""The page in English, Spanish and Japanese: the language the browser asks for, a switch on every
page that is remembered over a reload (on a phone's game page, one above the recording sheet), a
Lost Cities and a Marco Polo turn recorded in each language with the timeline's sentences in it, a
refusal's message in the chosen language with its card, and no string missing from a catalogue on
any screen visited (the page marks a missing key with ``data-missing-i18n``)."""

from __future__ import annotations

import re

import pytest

from pagehelp import PHONE_TALL, last_seq, own_server, shot, start_game, step, wait_ready

HEADING = {"en": "Games", "es": "Partidas", "ja": "ゲーム"}
NEW_GAME = {"en": "New game", "es": "Nueva partida", "ja": "新しいゲーム"}
ROUND = {"es": "Ronda 1 de 1", "ja": "ラウンド 1/1"}
PLAY = {"es": "Jugar", "ja": "出す"}
REFUSED = {"en": "cannot be there", "es": "no puede estar ahí", "ja": "ありえません"}
ROUNDS_HELP = {"en": "How many rounds to play; the rules suggest 3.", "es": "Cuántas rondas jugar; el reglamento propone 3.", "ja": "何ラウンド遊ぶか。ルールでは3ラウンドです。"}
STATS = {"en": ("Statistics of the group", "Win %"), "es": ("Estadísticas del grupo", "% de victorias"), "ja": ("グループの統計", "勝率")}
NOT_RECORDED = {"en": "Not recorded.", "es": "No registrado.", "ja": "記録されていません。"}


def no_missing_strings(page) -> None:
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None


def switch_to(page, lang: str) -> None:
    with page.expect_navigation():
        page.click(f"footer .lang-switch [data-lang={lang}]")
    page.wait_for_selector(f"html[lang={lang}] main:not([aria-busy])")


@pytest.fixture
def spanish_browser(browser):
    """A phone whose browser asks for Spanish first."""
    context = browser.new_context(viewport=PHONE_TALL, device_scale_factor=1, has_touch=True, locale="es-ES")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def test_the_language_is_the_browsers_until_the_reader_switches_it(spanish_browser, server):
    page = spanish_browser
    page.goto(f"{server}/")
    page.wait_for_selector("main h1")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator("main h1").inner_text() == HEADING["es"]
    no_missing_strings(page)


def test_the_switch_is_on_every_page_a_finger_wide_and_remembered(tall_phone, server):
    page = tall_phone
    page.goto(f"{server}/")
    page.wait_for_selector("main h1")
    buttons = page.locator("footer .lang-switch button")
    assert buttons.all_inner_texts() == ["English", "Español", "日本語"]
    for i in range(3):
        box = buttons.nth(i).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
    for lang in ("es", "ja", "en"):
        page.goto(f"{server}/")
        page.wait_for_selector("main h1")
        switch_to(page, lang)
        assert page.locator("main h1").inner_text() == HEADING[lang]
        assert page.locator("[data-nav=new]").inner_text() == NEW_GAME[lang]
        assert page.locator(f"footer [data-lang={lang}]").get_attribute("aria-pressed") == "true"
        no_missing_strings(page)
        page.reload()
        page.wait_for_selector("main h1")
        assert page.locator("main h1").inner_text() == HEADING[lang]  # remembered over a reload
        for where in ("?page=new", "?page=stats", "?page=packs"):
            page.goto(f"{server}/{where}")
            page.wait_for_selector("main:not([aria-busy]) h1")
            assert page.locator("html").get_attribute("lang") == lang
            assert page.locator(f"footer [data-lang={lang}]").get_attribute("aria-pressed") == "true"
            no_missing_strings(page)
        shot(page, f"lang-{lang}-packs")
        page.goto(f"{server}/?page=new")
        page.wait_for_selector("form.new-game [data-option]")
        page.select_option("#n-title", "lost-cities")
        assert page.locator("#n-opt-rounds-help").inner_text() == ROUNDS_HELP[lang]  # the reader's language, not the rulebook's
        shot(page, f"lang-{lang}-new-game")


def switch_on_the_game_page(page, lang: str) -> None:
    """The game's own switch, over the recording sheet of a phone: tapped where it lies."""
    button = page.locator(f".game-head .lang-switch [data-lang={lang}]")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('.game-head .lang-switch button')?.dataset.lang",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert on_top == lang  # nothing (the sheet) covers it
    with page.expect_navigation():
        button.tap()
    page.wait_for_selector(f"html[lang={lang}] main:not([aria-busy])")
    wait_ready(page)
    assert page.locator(f"footer [data-lang={lang}]").get_attribute("aria-pressed") == "true"


#: what the timeline says of Ana's card played and her draw, in each language
LC_PLAYED = {"en": "Ana played the ", "es": "Ana jugó la carta ", "ja": "を出した"}
LC_DREW = {"en": "from the draw pile", "es": "del mazo", "ja": "山札から"}
LC_STATUS = {
    "en": "round 1: Bea to play or discard",
    "es": "ronda 1: Bea juega o descarta una carta",
    "ja": "ラウンド1: Beaがカードを出すか捨てる",
}
GAME_LABELS = {
    "en": ("Undo last move", "Timeline"),
    "es": ("Deshacer el último movimiento", "Cronología"),
    "ja": ("最後の手を取り消す", "経過"),
}


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_a_lost_cities_turn_and_a_refusal_in_the_chosen_language(tall_phone, server, lang):
    page = tall_phone
    start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    switch_on_the_game_page(page, lang)
    if lang != "en":
        assert page.locator("#facts [data-fact=deal]").inner_text() != "Cards dealt (8 each, not seen)"
    step(page)  # the deal
    # Bea shows her hand; then Ana is said to hold one of Bea's cards: refused, naming the card
    reveal = page.locator("details.fact:has([data-fact=reveal])")
    reveal.locator("summary").click()
    page.select_option("#reveal-seat", "1")
    for card in ("R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"):
        page.click(f"[data-fact=reveal] [data-card='{card}']")
    before = last_seq(page)
    page.click("[data-fact=reveal] button[type=submit]")
    wait_ready(page, after=before)
    for _ in range(2):  # Ana plays and draws: the turn
        step(page)
    if lang != "en":
        assert page.locator("#drawing .lc-round").inner_text() == ROUND[lang]
        assert PLAY[lang] in page.locator("#picker .kind[data-group]").first.inner_text()
    played = page.locator("#history li[data-type='lost-cities.card-played'] .said").last.inner_text()
    drew = page.locator("#history li[data-type='lost-cities.card-drawn'] .said").last.inner_text()
    assert LC_PLAYED[lang] in played and LC_DREW[lang] in drew, (played, drew)
    assert page.locator("#status-line").inner_text() == LC_STATUS[lang]
    assert page.locator("#undo").inner_text() == GAME_LABELS[lang][0]
    assert page.locator("#hist-h").inner_text() == GAME_LABELS[lang][1]
    shot(page, f"lang-{lang}-lost-cities-turn")
    reveal = page.locator("details.fact:has([data-fact=reveal])")
    if reveal.get_attribute("open") is None:
        reveal.locator("summary").click()
    page.select_option("#reveal-seat", "0")
    for card in ("R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"):
        page.click(f"[data-fact=reveal] [data-card='{card}']")
    page.click("[data-fact=reveal] button[type=submit]")
    error = page.locator(".error[data-code='lost-cities.card-already-seen']")
    error.wait_for()
    text = error.locator("p").first.inner_text()
    assert REFUSED[lang] in text and "R2" in text, text
    assert NOT_RECORDED[lang] in text
    shot(page, f"lang-{lang}-lost-cities-refused")
    no_missing_strings(page)


@pytest.fixture(scope="module")
def stats_server(tmp_path_factory):
    yield from own_server(tmp_path_factory, "lang-stats", seeded=True)


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_the_statistics_page_in_each_language_with_its_numbers(tall_phone, stats_server, lang):
    page = tall_phone
    page.goto(f"{stats_server}/")
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    page.goto(f"{stats_server}/?page=stats")
    page.wait_for_selector(".stats-page[data-ready=true]")
    heading, win_rate = STATS[lang]
    assert page.locator("main h1").inner_text() == heading
    board = page.locator("[data-section=leaderboard] table")
    assert win_rate.replace(" %", "\u00a0%") in board.locator("thead").inner_text()
    # the percentages as the reader's locale writes them (Spanish: a decimal comma and a spaced %)
    rate = board.locator("tbody tr").first.locator("[data-col=win_rate] .v").inner_text()
    expected = page.evaluate(
        "([lang, text]) => { const n = new Intl.NumberFormat(lang, {style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1});"
        " return n.formatToParts(0.5).find((p) => p.type === 'decimal').value; }",
        [lang, rate],
    )
    assert expected in rate and "%" in rate, rate
    if lang == "es":
        assert "," in rate and "\u00a0%" in rate, rate
    if lang == "ja":  # the calendar's months by their numbers, whole (not 1, 1, 1 for October to December)
        ticks = [t.text_content() for t in page.locator(".sv-heat .sv-tick").all()][:12]  # the months, then the years
        assert ticks in ([str(n) for n in range(1, 13)], [f"{n}月" for n in range(1, 13)]), ticks
    shot(page, f"lang-{lang}-statistics")
    no_missing_strings(page)


MP_ROUND = {"es": "Ronda 1 de 5", "ja": "ラウンド 1/5"}
MP_BOARD = {"es": "Tablero de acciones", "ja": "アクションボード"}
MP_FIVE_COINS = {"es": "Coger 5 monedas", "ja": "5コインを取る"}


#: Ana's action as the timeline says it (what she gains, net of what the space costs)
MP_FIVE_COINS_SAID = {
    "en": r"Ana took \d coins at the 5 coins space",
    "es": r"Ana cogió \d monedas en Coger 5 monedas",
    "ja": r"Anaは5コインのマスで\dコインを得た",
}


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_a_marco_polo_turn_in_the_chosen_language(tall_phone, server, lang):
    page = tall_phone
    start_game(page, server, "marco-polo", ["Ana", "Bea"], {"characters": "first-game"})
    game = page.url
    page.goto(f"{server}/")
    page.wait_for_selector("main h1")
    switch_to(page, lang)
    with page.expect_request(lambda r: "/stream?" in r.url) as stream:
        page.goto(game)
    assert f"lang={lang}" in stream.value.url  # the live stream's sentences in the page's language
    wait_ready(page)
    for _ in range(8):  # the layout, the contracts, the roll: until Ana chooses an action
        if page.locator("#picker .kind").count():
            break
        step(page)
    if lang != "en":
        assert page.locator("#drawing .lc-round").inner_text().startswith(MP_ROUND[lang])
        assert page.locator("#drawing .mp-board h3").inner_text() == MP_BOARD[lang]
        kinds = page.locator("#picker .kind").all_inner_texts()
        assert any(MP_FIVE_COINS[lang] in k for k in kinds), kinds
    step(page, prefer=("marco-polo.five-coins-taken",))  # Ana's action
    # in one look: the timeline's names are filled in again a moment later
    said, label = page.evaluate(
        """() => [document.querySelector("#history li[data-type='marco-polo.five-coins-taken'] .said").innerText,
                  document.querySelector('#step-label').innerText]"""
    )
    assert re.fullmatch(MP_FIVE_COINS_SAID[lang], said), said
    assert label.endswith(said)
    shot(page, f"lang-{lang}-marco-polo-turn")
    no_missing_strings(page)
