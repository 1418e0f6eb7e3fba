"""Sharing in a real Chromium at 375 x 812 and 1366 x 900, in English, Spanish and Japanese: the
end of a game shows its result slip (QR code, line, a check that says it matches) and, for the
recorder, a share link; the link opens the replay with no token, the embed frame shows it inside
another page's <iframe>, and a withdrawn link or a game played again says so in words. Plain
words, fingers' targets, axe clean."""

from __future__ import annotations

import httpx
import pytest

import live_server
from pagehelp import axe_violations, shot, small_targets

FINAL = {"en": "Final scores", "es": "Puntuación final", "ja": "最終得点"}
MATCHES = {"en": "This slip matches the stored, verified log.", "es": "Este comprobante coincide con el registro guardado y verificado.",
           "ja": "この結果票は、保存され検証された記録と一致します。"}
WITHDRAWN = {"en": "withdrawn by the game's owner", "es": "El dueño de la partida retiró", "ja": "持ち主が取り下げました"}
AGAIN = {"en": "being played again", "es": "se está jugando de nuevo", "ja": "再び進行中"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import rules  # noqa: F401
    from events.duckdb_log import DuckDBEventLog
    from events.shares import ShareLinks
    from events.tokens import TokenStore
    from replay.simulate import random_game

    path = tmp_path_factory.mktemp("share-web") / "share.duckdb"
    log = DuckDBEventLog(str(path))
    log.import_games([("share-ended", random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=3)),
                      ("share-going", random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=5)[:30])])
    write = TokenStore(log.store).issue("share-ended", 2).write
    links = ShareLinks(log.store)
    made = {"ended": links.make("share-ended", None), "at": links.make("share-ended", 4),
            "going": links.make("share-going", None), "gone": links.make("share-ended", None)}
    links.withdraw("share-ended", made["gone"])
    log.close()
    base, proc = live_server.start(path)
    yield base, write, made
    live_server.stop(proc)


def in_lang(page, base: str, lang: str) -> None:
    page.goto(f"{base}/")
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)


def plain(page, scope: str = "main") -> None:
    text = page.locator(scope).inner_text()
    for word in ("share-ended", "share-going", "seq", "lost-cities", "unknown-share", "share-withdrawn", "null", "undefined"):
        assert word not in text, word
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert small_targets(page, scope) == []
    assert page.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    assert axe_violations(page) == []


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_a_share_link_opens_the_replay_with_no_token(screen, server, lang):
    base, _, made = server
    in_lang(screen, base, lang)
    screen.goto(f"{base}/?share={made['ended']}")
    screen.wait_for_selector("#shared-ranking li")
    assert screen.locator("#final-h").inner_text() == FINAL[lang]
    assert screen.locator("#shared-ranking li").count() == 2
    frames = httpx.get(f"{base}/games/share-ended/frames").json()["frames"]
    assert screen.locator("#scrub").get_attribute("max") == str(len(frames) - 1)
    assert screen.locator("#drawing").get_attribute("data-index") == str(len(frames) - 1)
    screen.locator("#step-first").click()
    assert screen.locator("#drawing").get_attribute("data-index") == "0"
    png = httpx.get(base + screen.locator("#shared-png").get_attribute("href"))
    assert png.headers["content-type"] == "image/png"
    plain(screen)
    shot(screen, f"share-link-{lang}-{screen.viewport_size['width']}")


def test_a_link_at_a_step_opens_there(phone, server):
    base, _, made = server
    phone.goto(f"{base}/?share={made['at']}")
    phone.wait_for_selector("#shared-ranking li")
    assert phone.locator("#drawing").get_attribute("data-index") == "4"


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_a_withdrawn_link_and_a_game_played_again_say_so_in_words(screen, server, lang):
    base, _, made = server
    in_lang(screen, base, lang)
    for which, words in (("gone", WITHDRAWN), ("going", AGAIN)):
        screen.goto(f"{base}/?share={made[which]}")
        screen.wait_for_selector("#shared-refused")
        assert words[lang] in screen.locator("#shared-refused").inner_text()
        assert "Ana" not in screen.locator("main").inner_text()
        plain(screen)
    shot(screen, f"share-withdrawn-{lang}-{screen.viewport_size['width']}")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_embed_frame_shows_the_replay_inside_another_page(screen, server, lang):
    base, _, made = server
    in_lang(screen, base, lang)
    host = f"<!doctype html><html lang='en'><title>Host</title><main><h1>Our club</h1><iframe src='{base}/embed/{made['ended']}' title='Replay' width='100%' height='700' style='border:0'></iframe></main></html>"
    screen.route(f"{base}/host.html", lambda route: route.fulfill(status=200, content_type="text/html", body=host))
    screen.goto(f"{base}/host.html")
    frame = screen.frame_locator("iframe")
    frame.locator("#shared-ranking li").first.wait_for()
    assert frame.locator("#shared-ranking li").count() == 2
    assert frame.locator("#shared-open").get_attribute("target") == "_blank"
    assert httpx.get(f"{base}/").headers["x-frame-options"] == "DENY"
    shot(screen, f"share-embed-{lang}-{screen.viewport_size['width']}")


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_the_end_of_a_game_shows_its_slip_and_the_recorder_shares_and_withdraws_a_link(screen, server, lang):
    base, write, _ = server
    in_lang(screen, base, lang)
    screen.evaluate("w => localStorage.setItem('tabletape.tokens.share-ended', JSON.stringify({write: w}))", write)
    screen.goto(f"{base}/?game=share-ended")
    screen.wait_for_selector("#slip-qr")
    slip = httpx.get(f"{base}/games/share-ended/slip").json()
    assert screen.locator("#slip-check-slip").input_value() == slip["text"]  # the line to copy
    assert screen.locator("img.slip-qr").evaluate("img => img.complete && img.naturalWidth > 0")
    screen.locator("#slip-check-form button[type=submit]").click()
    screen.wait_for_selector("#slip-verdict")
    assert screen.locator("#slip-verdict .verdict-words").inner_text() == MATCHES[lang]
    assert screen.locator("#slip-verdict li.ok").count() == 5
    screen.locator("#share-make").click()
    screen.wait_for_selector("#share-link")
    link = screen.locator("#share-link").input_value()
    assert "/?share=" in link and "<iframe" in screen.locator("#share-embed").input_value()
    plain(screen, "#share")
    plain(screen, "#slip")
    shot(screen, f"share-end-{lang}-{screen.viewport_size['width']}")
    token = link.split("share=")[1]
    assert httpx.get(f"{base}/shared/{token}").status_code == 200
    screen.locator("#share-withdraw").click()
    screen.wait_for_selector("#share-withdrawn")
    assert httpx.get(f"{base}/shared/{token}").status_code == 410


def test_without_the_write_token_the_end_shows_the_slip_but_no_share_button(phone, server):
    base, _, _ = server
    phone.goto(f"{base}/?game=share-ended")
    phone.wait_for_selector("#slip-qr")
    assert phone.locator("#share-owner-only").is_visible() and phone.locator("#share-make").count() == 0
