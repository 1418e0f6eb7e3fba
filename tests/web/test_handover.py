"""Handing a game over and recording through a lost connection (issue 13, items 6 and 11), on a
375×812 phone in real Chromium: the hand-over link and its QR code open recording in a second
browser, a seat's link opens that seat's hand, new tokens shut the old links out with a plain
message; a move tapped offline waits, shown as such, and lands once; the manifest is valid and
linked; no token is in any request line the server logs or in any query string."""

from __future__ import annotations

import io
import json
from urllib.parse import urlparse

import httpx
import live_server
import pytest
from pagehelp import ARTIFACTS, axe_violations, pick, shot, small_targets, start_game, step, wait_ready
from PIL import Image

PHONE_TALL = {"width": 375, "height": 812}
JSQR = live_server.ROOT / "tests" / "web" / "vendor" / "jsqr" / "jsQR.js"


class Phones:
    """Fresh browser contexts, each a phone of its own (its own storage), closed at the end."""

    def __init__(self, browser):
        self.browser, self.contexts, self.errors, self.urls = browser, [], [], []

    def __call__(self):
        context = self.browser.new_context(viewport=PHONE_TALL, device_scale_factor=1, has_touch=True)
        context.set_default_timeout(15_000)
        context.on("request", lambda request: self.urls.append(request.url))
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.contexts.append(context)
        return page


@pytest.fixture
def phones(browser):
    made = Phones(browser)
    yield made
    for context in made.contexts:
        context.close()
    assert not made.errors, made.errors


def stored(page, game_id: str) -> dict:
    return json.loads(page.evaluate("id => localStorage.getItem('tabletape.tokens.' + id) || '{}'", game_id))


def game(http: httpx.Client, game_id: str) -> dict:
    return http.get(f"/games/{game_id}").json()


def frames(http: httpx.Client, game_id: str) -> list[dict]:
    return http.get(f"/games/{game_id}/frames").json()["frames"]


def open_handover(page) -> None:
    page.click("#handover-open")
    page.wait_for_selector("#handover[open] #handover-link")


def shown_link(page) -> str:
    return page.input_value("#handover-link")


def qr_text(page) -> str | None:
    """What the hand-over dialog's QR code says, read back with jsQR from its pixels."""
    if not page.evaluate("() => typeof window.jsQR !== 'undefined'"):
        page.add_script_tag(path=str(JSQR))
    return page.evaluate(
        """async () => {
        const svg = document.querySelector('#handover .qr');
        const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(svg)], {type: 'image/svg+xml'}));
        const img = new Image(); img.src = url; await img.decode();
        const c = document.createElement('canvas'); c.width = c.height = 400;
        const ctx = c.getContext('2d'); ctx.imageSmoothingEnabled = false; ctx.drawImage(img, 0, 0, 400, 400);
        const code = jsQR(ctx.getImageData(0, 0, 400, 400).data, 400, 400);
        return code ? code.data : null;
    }"""
    )


def dialog_shot(page, name: str) -> None:
    """What the phone's screen shows with the dialog open (a full-page shot misplaces a modal)."""
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def a_dealt_game(page, server: str) -> str:
    game_id = start_game(page, server, "lost-cities", ["Ana", "Bea"], {"rounds": 1})
    step(page)  # the deal, hands unseen
    wait_ready(page)
    return game_id


def test_the_hand_over_link_and_its_code_open_recording_on_another_phone(phones, server, http):
    first = phones()
    game_id = a_dealt_game(first, server)
    mine = stored(first, game_id)
    open_handover(first)
    link = shown_link(first)
    assert link == f"{server}/?game={game_id}#write={mine['write']}&seats={','.join(mine['seats'])}"
    assert urlparse(link).query == f"game={game_id}"  # the token is in the fragment only
    assert qr_text(first) == link
    dialog_shot(first, "handover-recording")
    assert axe_violations(first) == []
    assert small_targets(first, "#handover") == []
    first.click("#handover-close")

    second = phones()
    second.goto(link)
    wait_ready(second)
    assert second.url == f"{server}/?game={game_id}"  # out of the address bar, and so of the history
    assert "now records this game" in second.locator("#handover-notice").inner_text()
    assert stored(second, game_id)["write"] == mine["write"]
    before = game(http, game_id)["last_seq"]
    pick(second)
    wait_ready(second, after=before)
    assert game(http, game_id)["last_seq"] > before
    shot(second, "handover-second-phone-records")


def test_a_seat_link_opens_that_players_hand_and_new_tokens_shut_old_links_out(phones, server, http):
    first = phones()
    game_id = a_dealt_game(first, server)
    open_handover(first)
    recording = shown_link(first)
    first.click("#handover [data-handover='seat-1']")
    seat_link = shown_link(first)
    bea = stored(first, game_id)["seats"][1]
    assert seat_link == f"{server}/?game={game_id}#seat=1&token={bea}"
    assert qr_text(first) == seat_link
    dialog_shot(first, "handover-seat")

    bea_phone = phones()
    bea_phone.goto(seat_link)
    bea_phone.wait_for_selector("#drawing .lc-hand")
    assert bea_phone.url == f"{server}/?game={game_id}"
    assert bea_phone.input_value("#eyes") == "seat-1"
    assert "Hand of Bea" in bea_phone.locator("#drawing .lc-hand").inner_text()
    assert bea_phone.locator("#picker").count() == 0  # a seat's link records nothing

    other_recorder = phones()
    other_recorder.goto(recording)
    wait_ready(other_recorder)
    assert other_recorder.locator("#picker .kind").count()

    # new tokens, after a confirmation that says what the other devices lose
    first.click("#handover .reissue summary")
    first.click("#reissue")
    confirm = first.locator("#handover").inner_text()
    assert "Every other device loses access" in confirm and "stop working" in confirm
    dialog_shot(first, "handover-reissue-confirm")
    assert axe_violations(first) == []
    first.click("#reissue-confirm")
    first.wait_for_selector("#reissued")
    assert shown_link(first) != recording
    assert stored(first, game_id)["write"] != urlparse(recording).fragment.split("&")[0][len("write="):]
    assert axe_violations(first) == []
    dialog_shot(first, "handover-reissued")
    first.click("#handover-close")
    wait_ready(first)  # the recorder has asked for its moves again, with the new token
    before = game(http, game_id)["last_seq"]
    pick(first)  # this device records on, with the new token
    wait_ready(first, after=before)
    # the recorder that had the old token hears of the move, and is told why it records no more
    shut_out = other_recorder.locator("#picker .error")
    shut_out.wait_for()
    assert "no longer opens this game: new tokens were issued" in shut_out.inner_text()
    assert other_recorder.locator("#picker .kind").count() == 0

    for old in (recording, seat_link):
        late = phones()
        late.goto(old)
        notice = late.locator("#handover-notice")
        notice.wait_for()
        assert "This hand-over link no longer works: new tokens were issued" in notice.inner_text()
        assert notice.get_attribute("role") == "alert"
        wait_ready(late)
        assert late.locator("#picker").count() == 0 and stored(late, game_id) == {}
        assert late.url == f"{server}/?game={game_id}"
        assert axe_violations(late) == []
    shot(late, "handover-old-link")


def test_a_move_tapped_offline_waits_and_lands_once_when_the_connection_is_back(phones, server, http):
    page = phones()
    game_id = a_dealt_game(page, server)
    before = game(http, game_id)["last_seq"]
    steps = len(frames(http, game_id))
    page.context.set_offline(True)
    pick(page, "lost-cities.card-played")
    waiting = page.locator("#outbox")
    waiting.wait_for()
    assert "1 move not sent yet" in waiting.inner_text() and "no connection" in waiting.inner_text()
    pending = page.locator("#history li.pending")
    assert pending.count() == 1 and "not sent yet" in pending.inner_text()
    assert "Ana: Card played:" in pending.inner_text()  # who made which move, as the picker named it
    assert page.locator("#picker-waits").count() == 1  # no next move offered on a stale table
    queued = json.loads(page.evaluate("id => localStorage.getItem('tabletape.outbox.' + id)", game_id))
    assert len(queued) == 1 and queued[0]["body"]["idempotency_key"].startswith("web-")
    assert game(http, game_id)["last_seq"] == before
    live = page.locator("#live")
    assert "live" not in live.inner_text() and "off" in live.get_attribute("class")  # not "live" without a network
    shot(page, "offline-pending")
    assert axe_violations(page) == []

    page.context.set_offline(False)
    wait_ready(page, after=before)
    page.wait_for_selector("#outbox", state="hidden")
    page.wait_for_selector("#live:not(.off)")  # live again
    assert page.locator("#history li.pending").count() == 0
    page.wait_for_timeout(2500)  # past the first retry's pause: nothing is sent again
    assert game(http, game_id)["last_seq"] == before + 1
    assert len(frames(http, game_id)) == steps + 1
    assert page.locator("#history li:not(.pending)").count() == steps + 1
    assert page.evaluate("id => localStorage.getItem('tabletape.outbox.' + id)", game_id) is None
    shot(page, "offline-landed")


def test_a_move_whose_answer_was_lost_is_sent_again_and_recorded_once(phones, server, http):
    page = phones()
    game_id = a_dealt_game(page, server)
    before = game(http, game_id)["last_seq"]
    bodies = []

    def lose_the_first_answer(route):
        bodies.append(json.loads(route.request.post_data))
        if len(bodies) == 1:
            route.fetch()  # the server records it ...
            route.abort()  # ... and its answer never comes back
        else:
            route.continue_()

    page.route("**/moves", lose_the_first_answer)
    pick(page)
    wait_ready(page, after=before)
    page.wait_for_selector("#outbox", state="hidden")
    assert len(bodies) == 2
    assert bodies[0]["idempotency_key"] == bodies[1]["idempotency_key"]
    assert game(http, game_id)["last_seq"] == before + 1


TAKEN_BACK = {
    "en": ("Taken back.", "taken back on another device"),
    "es": ("Retirado.", "se retiró en otro dispositivo"),
    "ja": ("取り消されました。", "別の端末で取り消されました"),
}


@pytest.mark.parametrize("lang", list(TAKEN_BACK))
def test_a_move_taken_back_on_another_phone_while_its_answer_was_lost_is_shown_as_taken_back(phones, server, http, lang):
    page = phones()
    game_id = a_dealt_game(page, server)
    if lang != "en":
        with page.expect_navigation():
            page.click(f".game-lang [data-lang={lang}]")
        page.wait_for_selector(f"html[lang={lang}] main:not([aria-busy])")
        wait_ready(page)
    before = game(http, game_id)["last_seq"]
    steps = len(frames(http, game_id))
    sent = []

    def answer_lost_then_no_connection(route):
        sent.append(route.request.post_data)
        if len(sent) == 1:
            route.fetch()  # the server records it, and the phone never hears
        route.abort("internetdisconnected")

    page.route("**/moves", answer_lost_then_no_connection)
    pick(page, "lost-cities.card-played")
    page.locator("#outbox").wait_for()
    page.context.set_offline(True)
    assert game(http, game_id)["last_seq"] == before + 1

    other = phones()
    mine = stored(page, game_id)
    other.goto(f"{server}/?game={game_id}#write={mine['write']}&seats={','.join(mine['seats'])}")
    wait_ready(other, after=before)
    other.click("#undo")
    wait_ready(other, after=before + 1)
    undone = game(http, game_id)["last_seq"]

    page.unroute("**/moves")
    page.context.set_offline(False)
    alert = page.locator("#recorder .error[data-code='move-taken-back']")
    alert.wait_for()
    lead, words = TAKEN_BACK[lang]
    assert alert.inner_text().startswith(lead) and words in alert.inner_text()
    assert page.locator("#outbox").is_hidden() and page.locator("#history li.pending").count() == 0
    assert page.locator("#history li:not(.pending)").count() == steps  # not shown as recorded
    assert page.evaluate("id => localStorage.getItem('tabletape.outbox.' + id)", game_id) is None
    page.wait_for_timeout(2500)  # past the first retry's pause: it is not sent again
    assert game(http, game_id)["last_seq"] == undone
    shot(page, f"offline-taken-back-{lang}")
    assert axe_violations(page) == []


def test_the_manifest_is_valid_linked_and_its_icons_are_there(phones, server, http):
    response = http.get("/static/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["name"]
    assert manifest["theme_color"] == "#0b5cad"
    purposes = set()
    for icon in manifest["icons"]:
        got = http.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == "image/png"
        width, height = Image.open(io.BytesIO(got.content)).size
        assert f"{width}x{height}" == icon["sizes"]
        purposes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes

    page = phones()
    page.goto(server)
    page.wait_for_selector("main:not([aria-busy])")
    cdp = page.context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert read["url"] == f"{server}/static/manifest.webmanifest"
    assert read["errors"] == [], read["errors"]
    assert json.loads(read["data"])["short_name"] == "tabletape"


def test_no_token_is_in_a_logged_request_line_or_a_query_string(phones, tmp_path):
    log = tmp_path / "server.log"
    base, proc = live_server.start(tmp_path / "t.duckdb", args=("--access-log",), output=log)
    try:
        first = phones()
        game_id = a_dealt_game(first, base)
        tokens = {stored(first, game_id)["write"], *stored(first, game_id)["seats"]}
        open_handover(first)
        links = [shown_link(first)]
        first.click("#handover [data-handover='seat-0']")
        links.append(shown_link(first))
        for link in links:
            other = phones()
            other.goto(link)
            wait_ready(other)
        first.click("#handover .reissue summary")
        first.click("#reissue")
        first.click("#reissue-confirm")
        first.wait_for_selector("#reissued")
        first.click("#handover-close")
        wait_ready(first)  # the recorder asks for its moves again with the new token: online still
        tokens |= {stored(first, game_id)["write"], *stored(first, game_id)["seats"]}
        first.context.set_offline(True)
        before = int(first.locator("#recorder").get_attribute("data-last-seq"))
        pick(first)
        first.locator("#outbox").wait_for()
        first.context.set_offline(False)
        wait_ready(first, after=before)
        late = phones()
        late.goto(links[0])  # an old link: refused
        late.locator("#handover-notice").wait_for()
    finally:
        live_server.stop(proc)
    assert len(tokens) == 6
    written = log.read_text()
    assert f'"POST /games/{game_id}/tokens HTTP/1.1" 200' in written  # the log holds request lines
    assert f"/games/{game_id}/moves" in written
    for token in tokens:
        assert token not in written
        for url in phones.urls:
            assert token not in urlparse(url).query and token not in urlparse(url).path, url
    asked = [u for u in phones.urls if u.startswith(base)]
    assert any("#" not in u and f"game={game_id}" in u for u in asked)


def test_the_hand_over_dialog_passes_axe_on_a_desktop(browser, server):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, device_scale_factor=1)
    try:
        page = context.new_page()
        a_dealt_game(page, server)
        open_handover(page)
        assert axe_violations(page) == []
        page.click("#handover [data-handover='seat-0']")
        page.click("#handover .reissue summary")
        page.click("#reissue")
        assert axe_violations(page) == []
        dialog_shot(page, "handover-desktop-confirm")
    finally:
        context.close()
