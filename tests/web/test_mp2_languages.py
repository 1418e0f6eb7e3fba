"""Marco Polo II and The Voyages of Marco Polo's layout screens in Spanish and Japanese: the layout
entered on the board by taps, the first move recorded with the picker, the round's tiles asked, and
Marco Polo's setup picker; each screen in the reader's language (the page's ``lang``, the words
the catalogue gives, none of the English labels left) with no key missing from the catalogue."""

from __future__ import annotations

import pytest

from pagehelp import ARTIFACTS, marco_polo_setup_by_taps, shot, start_game, step, wait_ready
from test_page_languages import no_missing_strings, switch_to

P = "marco-polo-2."

#: words each screen shows in the reader's language (the rulebooks' terms where they are game words)
MP2_WORDS = {
    "es": {
        "setup": ["La preparación sobre la mesa", "Personajes", "El tablero", "Contratos iniciales", "Cartas de objetivo", "Registrar la preparación",
                  "Loseta de oficina", "Contratos (dos espacios): espacio 1", "· elegido", "Añadir un lugar", "Möngke Khan", "Ana: no vistas"],
        "drawing": ["Tablero de acciones", "Losetas de oferta", "Dados negros restantes", "Contratos", "Sellos", "Caravanas", "Puestos restantes", "De Wu"],
        "picker": ["Quedarse una carta de objetivo", "Una carta de objetivo (no vista)"],
        "round": ["Empieza la ronda 1", "Ronda 1: las losetas de oferta de los libros", "Libro 1", "Las dos cartas de ciudad junto al tablero de acciones",
                  "Registrar las losetas de la ronda"],
    },
    "ja": {
        "setup": ["卓上のセットアップ", "キャラクター", "ゲームボード", "スタート依頼タイル", "任務カード", "セットアップを記録",
                  "商館ボーナスタイル", "依頼タイル（2マス）: 1マス目", "· 選択済み", "場所を追加", "モンケ・カーン", "Ana: 未確認"],
        "drawing": ["アクションボード", "オファータイル", "残りの黒ダイス", "依頼", "ギルドマーカー", "キャラバン", "残りの交易所", "デ・ウー"],
        "picker": ["任務カードを選ぶ", "任務カード（未確認）"],
        "round": ["ラウンド1の開始", "ラウンド1: 書物のオファータイル", "書物1", "アクションエリアの都市カード2枚", "ラウンドのタイルを記録"],
    },
}
#: the English labels of the same screens: none may be left in another language
MP2_ENGLISH = {
    "setup": ["The layout on the table", "Characters", "The board", "Starting contracts", "Goal cards", "Record the layout", "City bonus marker",
              "City card", "Outpost tile", "space 1", "Add a place", "starting contract", "not seen", "chosen", "Tap "],
    "drawing": ["Action board", "Offer tiles", "Coming up", "Black dice left", "Contracts", "Completed", "Seals", "Caravans", "Posts left",
                "Outpost tiles", "to move", "Dice:", "Round ", "Setup"],
    "picker": ["Keep a goal card", "A goal card (not seen)"],
    "round": ["Round 1 begins", "the offer tiles on the books", "Book ", "next round", "City card", "Record the round", "Tap "],
}


#: for a screenshot only: the bottom sheet and the sticky board laid flat, so that one picture shows all of each
FLAT = (".sheet:has(> .recorder.recording) { position: static !important; max-height: none !important; }"
        " .sheet > .recorder { overflow: visible !important; } .game-grid > .board { position: static !important; max-height: none !important; }")


def shot_of(page, selector: str, name: str) -> None:
    """The whole page as a phone shows it, and the screen's part (the recording panel's facts, the
    drawing) whole, the sheet laid flat for that picture."""
    shot(page, name)
    page.evaluate("css => { const s = document.createElement('style'); s.id = 'flat-shot'; s.textContent = css; document.head.append(s); }", FLAT)
    page.locator(selector).screenshot(path=str(ARTIFACTS / f"{name}-part.png"))
    page.evaluate("() => document.getElementById('flat-shot').remove()")


#: the faces that stick out of their buttons, or past the panel (a face must fit, whatever its words)
FACES_OUT = """scope => { const box = document.querySelector(scope).getBoundingClientRect();
  return [...document.querySelectorAll(scope + ' .mpf-pick')].filter((b) => b.offsetParent).flatMap((b) => {
    const r = b.getBoundingClientRect();
    const out = [...b.querySelectorAll('*')].some((e) => { const f = e.getBoundingClientRect(); return f.width > 0 && f.right > r.right + 1; });
    return out || r.right > box.right + 1 ? [b.dataset.id] : []; }); }"""


def visible(page, selector: str) -> str:
    return page.locator(selector).inner_text()


def in_language(text: str, words: list[str], english: list[str]) -> None:
    missing = [w for w in words if w not in text]
    left = [w for w in english if w in text]
    assert missing == [] and left == [], (missing, left, text)


def open_recording(page, server: str, game_id: str, token: str, lang: str) -> None:
    """The game opened with its write token (entered in English), then read in ``lang``."""
    page.goto(f"{server}/?game={game_id}")
    page.get_by_text("I have the write token").click()
    page.fill("#write-token", token)
    page.get_by_role("button", name="Use it").click()
    wait_ready(page)
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    page.reload()
    page.wait_for_selector(f"html[lang={lang}]")
    wait_ready(page)


def layout_by_taps(page, cities: list[str]) -> None:
    """Marco Polo II's layout on the board: two characters, each city's slots by their first
    picture, a starting contract per seat; goal cards left unseen."""
    form = page.locator("#facts [data-fact=setup]")
    for character in ("dewu", "abha"):
        form.locator(f".mp2-char[data-character='{character}']").click()
    for city in cities:
        # the invented pack's places have no x/y and some overlap on a phone: the keyboard reaches each
        form.locator(f".mp2-place[data-place='{city}']").press("Enter")
        for _ in range(4):
            slot = form.locator("#mp2-slot-panel .mpf-slot[data-chosen='']").first
            if not slot.count():
                break
            slot.locator(".mp2-pick[aria-pressed=false]").first.click()
    for seat in (0, 1):
        form.locator(f"[data-start-seat='{seat}'] .mp2-pick").first.click()
    form.locator(".mp2-place[data-place='C2']").press("Enter")  # a city with an outpost tile and two contracts


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_a_marco_polo_2_layout_and_first_move_in_the_chosen_language(tall_phone, server, http, lang):
    from rules.marco_polo_2.content import SYNTHETIC

    page = tall_phone
    # a table game (the table reports the layout) on the complete invented pack: every face is known
    made = http.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"],
                                     "options": {"characters": "chosen", "content": SYNTHETIC.ref}})
    assert made.status_code == 201, made.text
    game_id, token = made.json()["game_id"], made.json()["tokens"]["write_token"]
    open_recording(page, server, game_id, token, lang)
    words = MP2_WORDS[lang]

    cities = [n["id"] for n in SYNTHETIC.data["map"]["nodes"] if n.get("slots")]
    layout_by_taps(page, cities)
    form = page.locator("#facts [data-fact=setup]")
    assert form.locator(f".mp2-place[data-place='{cities[0]}']").get_attribute("aria-label").endswith(
        {"es": ": hecho", "ja": ": 済み"}[lang])
    in_language(visible(page, "#facts"), words["setup"], MP2_ENGLISH["setup"])
    shot_of(page, "#facts", f"lang-{lang}-mp2-setup")
    assert page.evaluate(FACES_OUT, "#facts") == []
    no_missing_strings(page)
    form.locator("button[type=submit]").click()
    wait_ready(page, after=1)

    # the first move: Ana keeps a goal card, by the picker
    in_language(visible(page, "#picker"), words["picker"], MP2_ENGLISH["picker"])
    step(page, prefer=(P + "goal-kept",))
    assert http.get(f"/games/{game_id}/state").json()["last_seq"] == 3
    in_language(visible(page, "#drawing"), words["drawing"], MP2_ENGLISH["drawing"])
    shot_of(page, "#drawing", f"lang-{lang}-mp2-first-move")
    no_missing_strings(page)

    step(page, prefer=(P + "goal-kept",))  # Bea's: then the table turns up round 1's tiles
    page.locator("#facts [data-fact=round]").wait_for()
    in_language(visible(page, "#facts"), words["round"], MP2_ENGLISH["round"])
    shot_of(page, "#facts", f"lang-{lang}-mp2-round-tiles")
    assert page.evaluate(FACES_OUT, "#facts") == []
    no_missing_strings(page)


MP_SETUP = {"ja": ["卓上のセットアップ", "スタート依頼", "目標カード", "セットアップを記録", "都市カード", "商館ボーナスタイル", "済み"]}
MP_SETUP_ENGLISH = ["The layout on the table", "Starting contracts", "Objective cards", "Record the layout", "City card", "Outpost bonus tile",
                    "still to set", "Every city is set", "starting contract", "not seen", "chosen", "Tap "]


def test_the_marco_polo_setup_picker_in_japanese(tall_phone, server):
    page = tall_phone
    game = start_game(page, server, "marco-polo", ["Ana", "Bea"], {"characters": "first-game"})
    page.goto(f"{server}/")
    page.wait_for_selector("main h1")
    switch_to(page, "ja")
    page.goto(f"{server}/?game={game}")
    wait_ready(page)
    form = page.locator("#facts [data-fact=setup]")
    assert "都市中" in form.locator("[aria-live=polite]").first.inner_text()  # "n of m cities still to set"
    marco_polo_setup_by_taps(page)
    text = visible(page, "#facts")
    in_language(text, MP_SETUP["ja"], MP_SETUP_ENGLISH)
    assert "すべての都市を設定しました。" in text
    labels = form.locator(".mpf-city-btn").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert labels and all(label.endswith(": 済み") for label in labels), labels
    shot_of(page, "#facts", "lang-ja-mp-setup")
    no_missing_strings(page)
    form.locator("button[type=submit]").click()
    wait_ready(page, after=1)
    assert page.locator("html").get_attribute("lang") == "ja"


PLAY_WORDS = ["Xianに補充された依頼タイル", "公開された依頼タイルをタップしてください。"]
ASK_WORDS = ["依頼タイルを入力", "グループのパックにはまだありません"]
TRAVEL_WORDS = ["移動: ボード上で道筋をタップ", "次の場所をタップしてください", "中段: 4 + 4", "下段: 4"]
PLAY_ENGLISH = ["The contract laid in", "Tap the contract", "Describe", "Your group's pack", "Travel:", "Tap the next place",
                "Middle row", "Lower row", "Next: a place", "Another one", "Describe it"]


def test_a_refill_a_component_asked_and_a_travel_drawn_on_the_board_in_japanese(tall_phone, server, http):
    from test_mp2_table import OPENING, Counter, fill_form
    from test_mp2_table_polish import recorded

    page = tall_phone
    game_id, token = recorded(http, OPENING)
    open_recording(page, server, game_id, token, "ja")
    refill = page.locator("#facts [data-fact=refill]")
    in_language(visible(page, "#facts"), PLAY_WORDS, PLAY_ENGLISH)
    c = Counter(page)
    c.tap(refill.locator("[data-new]"))
    dialog = page.locator("dialog.mp2-ask[open]")
    dialog.wait_for()
    in_language(dialog.locator("h2").inner_text() + dialog.locator("p.small").first.inner_text(), ASK_WORDS, PLAY_ENGLISH)
    shot(page, "lang-ja-mp2-describe")
    before = int(page.locator("#recorder").get_attribute("data-last-seq"))
    fill_form(c, {"cost.silk": 2, "reward.vp": 5})
    wait_ready(page, after=before)
    step(page, prefer=(P + "turn-ended",))  # Ana's turn ends: Bea travels from Beijing, on the board
    travel = page.locator("#facts [data-fact=new-route]")
    travel.locator("summary").click()
    travel.locator(".mp2-place[data-place='BEI']").click()
    travel.locator(".mp2-place[data-place='XIA']").click()
    assert travel.locator("[data-path]").get_attribute("data-path") == "XIA"
    in_language(visible(page, "#facts [data-fact=new-route]"), TRAVEL_WORDS, PLAY_ENGLISH)
    assert travel.locator(".mp2-place[data-place='XIA']").get_attribute("aria-label") == "Xian: 1歩目"
    shot_of(page, "#facts", "lang-ja-mp2-travel")
    no_missing_strings(page)
    before = int(page.locator("#recorder").get_attribute("data-last-seq"))
    travel.locator(".mp2-travel-dice .move[data-row='2']").first.click()
    wait_ready(page, after=before)
    assert "Xian" in [n["name"] for n in http.get(f"/games/{game_id}/content").json()["map"]["nodes"]]
    no_missing_strings(page)
