"""The pack editor and the statistics pages in Spanish and Japanese (a real Chromium at 375×812,
a real server): every string from the catalogue (``<html data-missing-i18n>`` fails), the form
schema's labels in the reader's language, the chart captions translated, and the characters by
the full names their rulebooks print. Screenshots in test-artifacts/web/."""

from __future__ import annotations

import pytest

from pagehelp import own_server, shot
from rules.marco_polo_2.content import SYNTHETIC

#: words of the editor as each language says them: the contracts' section, a contract's form, the save bar
EDITOR = {
    "es": ("Contratos", "Contrato", "Entregas", "Aún no hay cambios", "Añadir una ciudad"),
    "ja": ("依頼タイル", "依頼タイル", "支払うもの", "まだ変更はありません", "都市を追加"),
}
STATS = {
    "es": ("Victorias por jugador en", "Puntuaciones finales", "% de victorias por personaje", "¿Compensa el patrocinio?"),
    "ja": ("のプレイヤー別の勝利数", "最終得点", "キャラクター別の勝率", "投資は得か？"),
}
MP_NAMES = ("Raschid ad-Din Sinan", "Matteo Polo", "Berke Khan", "Mercator ex Tabriz", "Kubilai Khan",
            "Niccolo & Marco Polo", "Wilhelm von Rubruk", "Johannes Carpini")
MP2_NAMES = {
    "es": ("Möngke Khan", "De Wu", "Abha Basu", "Mailin & Tian Chin", "Filippo Vitello", "Isabella Donati", "Gantulga Od",
           "Tebaldo Visconti", "Piedro Tartarino", "Vidal Badoer", "Donata Badoer"),
    "ja": ("モンケ・カーン", "デ・ウー", "アブハ・バス", "メイ・リンとテンシン", "フィリップ・ヴィテッロ", "イザベラ・ドナティ",
           "ガントゥルガ・オド", "テバルド・ヴィスコンティ・ダ・ピアチェンツァ", "ピエドロ・タルタリーノ", "ビダル・バドエ", "ドナータ・バドエル"),
}


def names_in(locator) -> list[str]:
    # the page writes a name's hyphen as a non-breaking one
    return [text.replace("\u2011", "-") for text in locator.all_inner_texts()]


def no_missing_strings(page) -> None:
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None


def in_language(page, base: str, lang: str) -> None:
    page.goto(f"{base}/")
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_the_pack_editor_in_the_chosen_language(tall_phone, server, lang):
    page = tall_phone
    in_language(page, server, lang)
    page.goto(f"{server}/?page=packs&title=marco-polo-2&pack={SYNTHETIC.id}")
    page.wait_for_selector("#pk-map svg.me-map")
    section, kind, deliver, no_changes, add_city = EDITOR[lang]
    assert page.locator("details[data-kind=contract] > summary").inner_text().startswith(section)
    assert page.locator("[data-action=save]").inner_text() == no_changes
    assert page.locator("#pk-map [data-tool=city]").inner_text() == add_city
    shot(page, f"lang-{lang}-pack-editor")
    # a contract opened: its form from the schema, in the reader's words, its card above it
    page.locator("details[data-kind=contract] > summary").click()
    page.locator("details[data-kind=contract] .pk-card").first.click()
    form = page.locator("#pk-sheet form[data-kind=contract]")
    form.wait_for()
    assert form.locator(".pf-heading").inner_text().startswith(kind)
    assert form.locator("[data-field=cost] .pf-label").inner_text() == deliver
    shot(page, f"lang-{lang}-pack-editor-contract")
    form.locator(".pf-cancel").click()
    # a city card of each kind the pack has, and a place of the map: their faces and forms
    page.locator("details[data-kind=city_card] > summary").click()
    page.locator("details[data-kind=city_card] .pk-card").first.click()
    page.locator("#pk-sheet form[data-kind=city_card]").wait_for()
    shot(page, f"lang-{lang}-pack-editor-city-card")
    page.locator("#pk-sheet .pf-cancel").click()
    page.locator("#pk-map [data-tool=city]").click()
    box = page.locator("#pk-map svg.me-map").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.15, box["y"] + box["height"] * 0.9)
    node = page.locator("#pk-sheet form[data-kind=node]")
    node.wait_for()
    node.locator("button[type=submit]").click()  # nothing entered: the problem in the reader's words
    problem = node.locator(".pf-problem").inner_text()
    assert problem.endswith({"es": "rellénalo.", "ja": "入力してください。"}[lang]), problem
    shot(page, f"lang-{lang}-pack-editor-place")
    no_missing_strings(page)


@pytest.fixture(scope="module")
def stats_server(tmp_path_factory):
    yield from own_server(tmp_path_factory, "lang-stats-pages", seeded=True)


def open_stats(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".stats-page[data-ready=true]")
    page.wait_for_timeout(150)  # the charts draw at their width on the next frame


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_the_statistics_pages_speak_the_language_with_the_characters_full_names(tall_phone, stats_server, lang):
    page = tall_phone
    in_language(page, stats_server, lang)
    wins_in, final_scores, by_character, wagering = STATS[lang]
    open_stats(page, f"{stats_server}/?page=stats")
    assert wins_in in page.locator("main").inner_html()  # a chart's name, for a screen reader
    shot(page, f"lang-{lang}-stats-dashboard")
    no_missing_strings(page)

    open_stats(page, f"{stats_server}/?page=stats&view=title&title=marco-polo")
    text = page.locator("main").inner_text()
    assert final_scores in text and by_character in text
    names = names_in(page.locator("[data-table=characters] [data-col=character]"))
    assert names and set(names) <= set(MP_NAMES), names
    # the chart's bars are named as the table is
    assert any(name in page.locator("[data-section=characters] figure").inner_html().replace("\u2011", "-") for name in MP_NAMES)
    shot(page, f"lang-{lang}-stats-marco-polo")
    no_missing_strings(page)

    open_stats(page, f"{stats_server}/?page=stats&view=title&title=marco-polo-2")
    if page.locator("[data-table=characters]").count():
        names = names_in(page.locator("[data-table=characters] [data-col=character]"))
        assert names and set(names) <= set(MP2_NAMES[lang]), names
    shot(page, f"lang-{lang}-stats-marco-polo-2")
    no_missing_strings(page)

    open_stats(page, f"{stats_server}/?page=stats&view=title&title=lost-cities")
    assert wagering in page.locator("main").inner_text()
    shot(page, f"lang-{lang}-stats-lost-cities")
    no_missing_strings(page)

    open_stats(page, f"{stats_server}/?page=stats&view=player&name=Ana")
    characters = names_in(page.locator("[data-table=characters] [data-col=character]"))
    assert characters and set(characters) <= set(MP_NAMES) | set(MP2_NAMES[lang]), characters
    shot(page, f"lang-{lang}-stats-player")
    no_missing_strings(page)
