"""Notes on steps in a real Chromium at 375 x 812 and 1366 x 900: the write token's holder writes a
note from the timeline and corrects it; it shows beside its step in the replay and in the
timeline, for a follower too; in English, Spanish and Japanese, plain words, fingers' targets, axe
clean."""

from __future__ import annotations

import httpx
import pytest

import live_server
from pagehelp import ARTIFACTS, axe_violations, shot, small_targets

WORDS = {
    "en": {"add": "Note", "save": "Save note", "edit": "Edit", "empty": "A note needs some text."},
    "es": {"add": "Nota", "save": "Guardar nota", "edit": "Editar", "empty": "Una nota necesita algo de texto."},
    "ja": {"add": "メモ", "save": "メモを保存", "edit": "編集", "empty": "メモには文字が必要です"},
}
TEXT = {"en": "Bea kept the red eight back", "es": "Bea se guardó el ocho rojo", "ja": "ベアは赤の8を残した"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    path = tmp_path_factory.mktemp("notes-web") / "notes.duckdb"
    base, proc = live_server.start(path)
    yield base
    live_server.stop(proc)


def new_game(base: str) -> tuple[str, str]:
    """A digital Lost Cities game four moves in, and its write token."""
    made = httpx.post(f"{base}/games", json={"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"rounds": 1}, "seed": 5}).json()
    game_id, token = made["game_id"], made["tokens"]["write_token"]
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(4):
        legal = httpx.get(f"{base}/games/{game_id}/legal-moves", headers=headers).json()
        moved = httpx.post(f"{base}/games/{game_id}/moves", headers=headers,
                           json={"notation": legal["moves"][0]["notation"], "expected_seq": legal["at"]})
        assert moved.status_code == 201, moved.text
    return game_id, token


def open_game(page, base: str, game_id: str, lang: str, token: str | None) -> None:
    page.goto(f"{base}/")
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    if token:
        page.evaluate("([id, t]) => localStorage.setItem('tabletape.tokens.' + id, JSON.stringify({ write: t }))", [game_id, token])
    page.goto(f"{base}/?game={game_id}")
    page.wait_for_selector("#history li[data-index='3']")


def plain(page) -> None:
    text = page.locator("main").inner_text()
    assert "game.annotated" not in text and "game.annotated" not in text and "seq" not in text
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert small_targets(page, "#history") == []
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    assert axe_violations(page) == []


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_a_note_written_from_the_timeline_shows_beside_its_step(screen, server, lang):
    game_id, token = new_game(server)
    words = WORDS[lang]
    open_game(screen, server, game_id, lang, token)
    step = screen.locator("#history li[data-index='3']")
    phone = screen.viewport_size["width"] < 600
    if phone:  # the recording sheet lies over the timeline: its list of earlier moves writes notes too
        screen.locator("#earlier-moves > summary").click()
        screen.locator("#earlier-moves [data-note='3']").click()
    else:
        step.locator("button.add-note").click()
    dialog = screen.locator("#amend-dialog")
    dialog.locator("#note-save").click()  # nothing written: refused in plain words, nothing changes
    assert words["empty"] in dialog.locator(".error").inner_text()
    assert small_targets(screen, "#amend-dialog") == [] and axe_violations(screen) == []
    # the dialog lies over the viewport: a full-page picture would leave it out
    screen.screenshot(path=str(ARTIFACTS / f"notes-dialog-{lang}-{screen.viewport_size['width']}.png"))
    dialog.locator("#note-text").fill(TEXT[lang])
    dialog.locator("#note-save").click()
    screen.wait_for_selector(f"#history li[data-index='3'] .note-text:text('{TEXT[lang]}')")
    assert screen.locator("#drawing").get_attribute("data-index") == "3"  # the replay stays on the noted step
    assert TEXT[lang] in screen.locator("#step-notes").inner_text()
    plain(screen)
    shot(screen, f"notes-written-{lang}-{screen.viewport_size['width']}")

    # correcting it replaces its text (on a phone, from the timeline under the closed sheet)
    if phone and screen.locator("#sheet-handle[aria-expanded='true']").count():
        screen.locator("#sheet-handle").click()
    step.locator("button.edit-note").click()
    screen.locator("#note-text").fill(TEXT[lang] + "!")
    screen.locator("#note-save").click()
    screen.wait_for_selector(f"#history li[data-index='3'] .note-text:text('{TEXT[lang]}!')")
    assert step.locator(".note").count() == 1

    # a follower without the token reads it, and has no button to write one
    follower = screen.context.browser.new_page(viewport=screen.viewport_size)
    try:
        open_game(follower, server, game_id, lang, None)
        follower.locator("#history li[data-index='3'] button.step-no").click()
        assert (TEXT[lang] + "!") in follower.locator("#step-notes").inner_text()
        assert follower.locator("button.add-note").count() == 0
        assert axe_violations(follower) == []
    finally:
        follower.close()
    # undone back to just before it was written: the note goes, from the page too
    frames = httpx.get(f"{server}/games/{game_id}/frames").json()["frames"]
    written = frames[3]["notes"][0]["seq"]
    last = httpx.get(f"{server}/games/{game_id}").json()["last_seq"]
    undone = httpx.post(f"{server}/games/{game_id}/undo", headers={"Authorization": f"Bearer {token}"},
                        json={"to_seq": written - 1, "expected_seq": last})
    assert undone.status_code == 201, undone.text
    screen.wait_for_function("() => !document.querySelector('#history .note')")  # the live stream reloads
