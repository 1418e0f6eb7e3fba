"""No code, id or seq in the main text of any page of the three titles' flows, in English, Spanish
and Japanese (issue 28 item 6): a game recorded through the page move by move (every kind of move
the picker offers opened on the way), a refused stale entry, an undo, the finished game's replay
and timeline, the games list and the statistics, in real Chromium at 375×812. What a person reads
is names and words; the notation (``code``, ``.notation``) and an error's details stay as they are."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from pagehelp import ARTIFACTS, last_seq, own_server, pick, report_fact, shot, wait_ready
from test_page_languages_sweep import VISIBLE, finished_games, open_recording


def _codes() -> dict[str, re.Pattern]:
    import rules  # noqa: F401  (registers every title)
    from rules.marco_polo import content as mp

    ids = sorted(set(mp.CHARACTER_IDS))
    return {
        "a log's seq": re.compile(r"\bseq\b|expected_seq|\bsecuencia \d+|\bseq ?\d+で"),
        "a game id": re.compile(r"\b0[0-9a-z]{25}\b|\b0[0-9a-z]{5,}…"),
        "a character id": re.compile(r"(?<![\w-])(" + "|".join(ids) + r")(?![\w-])"),
        "a contract, goal or objective code": re.compile(r"(?<![\w-])([KS]\d{1,2}|G\d\d|O\d\d)(?![\w-])"),
        "a place's code": re.compile(r"\((?:[A-Z]{2,3}|[A-Z]\d{1,2})\)|(?<![\w-])(?:" + "|".join(mp.LOCATION_IDS) + r")(?![\w-])"),
        "a word said twice": re.compile(r"(?i)\b(\w{3,}) · \1\b"),
        "a raw ±1 option": re.compile(r"\b\d -1\b|\b\d \+1\b"),
        "a misspelling": re.compile(r"(?i)deshech(?:ar|ad|ó)|deshecha una"),
    }


CODES = _codes()


#: each visible string with where it is (the classes of its element and two parents), for the report
WHERE = VISIBLE.replace("out.push(text)", "out.push([text, [n.parentElement, n.parentElement.parentElement, n.parentElement.parentElement && n.parentElement.parentElement.parentElement].filter(Boolean).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '')).join(' < ')])").replace("out.push(e.getAttribute(a))", "out.push([e.getAttribute(a), a + ' of ' + e.tagName.toLowerCase()])").replace("out.push(e.textContent.trim())", "out.push([e.textContent.trim(), 'svg title'])")


#: Lost Cities' cards are named as printed (a colour's letter and a number, "G10"): no code there
MARCO_POLO_ONLY = ("a contract, goal or objective code", "a place's code", "a character id", "a raw ±1 option")


def codes_on(page, names: tuple[str, ...], title: str = "") -> list[tuple[str, str, str]]:
    """(what, text, where) of every visible string holding a code; a button's ``title`` (its tooltip,
    which keeps the notation) is not main text."""
    found = set()
    for text, where in page.evaluate(WHERE):
        if where.startswith("title of"):
            continue
        bare = text
        for name in names:
            bare = bare.replace(name, "·")
        for what, pattern in CODES.items():
            if title == "lost-cities" and what in MARCO_POLO_ONLY:
                continue
            if pattern.search(bare):
                found.add((what, text, where))
    return sorted(found)


@pytest.fixture(scope="module")
def codes_server(tmp_path_factory):
    yield from own_server(tmp_path_factory, "no-codes", seeded=True)


OPTIONS = {
    "lost-cities": ({"rounds": 1}, 8),
    "marco-polo": ({"characters": "first-game"}, 14),
    "marco-polo-2": None,  # filled in below: the public pack
}


def _options(title: str):
    if title != "marco-polo-2":
        return OPTIONS[title]
    from rules.marco_polo_2.content import PACKS

    public = next(p for p in PACKS.values() if not p.invented)
    return {"characters": "chosen", "content": public.ref}, 3


def open_every_kind(page, seen: list, names, title) -> None:
    """Open each kind of move the picker offers, reading its rows, and close it again."""
    kinds = page.locator("#picker .kinds:not(.sub) .kind")
    for i in range(min(kinds.count(), 8)):
        kind = kinds.nth(i)
        if not kind.is_visible() or not kind.is_enabled():
            continue
        kind.click()
        seen.extend(codes_on(page, names, title))
        back = page.locator("#picker .back, #picker [data-back]")
        if back.count() and back.first.is_visible():
            back.first.click()


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
@pytest.mark.parametrize("title", ["lost-cities", "marco-polo", "marco-polo-2"])
def test_no_code_id_or_seq_in_the_main_text(tall_phone, codes_server, lang, title):
    page = tall_phone
    players = ["Ana", "Bea"]
    options, steps = _options(title)
    open_recording(page, codes_server, title, players, options, lang)
    names = tuple(players)
    seen: list = []
    seen.extend(codes_on(page, names, title))
    for _ in range(steps):
        if title == "marco-polo-2" and page.locator("#facts [data-fact=setup]").count():
            break
        wait_ready(page)
        before = last_seq(page)
        if not report_fact(page):
            open_every_kind(page, seen, names, title)
            pick(page)
        wait_ready(page, after=before)
        seen.extend(codes_on(page, names, title))
    shot(page, f"no-codes-{lang}-{title}-recording")
    game_id = page.url.split("game=")[1].split("&")[0]
    # a stale entry: another device records the same move just before this page's reaches the server
    ahead = []

    def another_device_first(route):
        body = json.loads(route.request.post_data or "{}")
        if not ahead and "expected_seq" in body:
            token = route.request.headers.get("authorization", "")
            ahead.append(httpx.post(route.request.url, json={**body, "idempotency_key": "another-device"},
                                    headers={"Authorization": token}, timeout=10).status_code)
        route.continue_()

    page.route("**/games/*/moves", another_device_first)
    if not page.locator("#facts [data-fact]").count():
        wait_ready(page)
        pick(page)
        page.wait_for_selector("[role=alert][data-code=stale-expected-seq]")
        shot(page, f"no-codes-{lang}-{title}-stale")
        assert ahead == [201] or ahead == [200], ahead
    page.unroute("**/games/*/moves")
    seen.extend(codes_on(page, names, title))

    finished, finished_names = finished_games(codes_server)[title]
    page.goto(f"{codes_server}/?game={finished}")
    page.wait_for_selector("main:not([aria-busy]) #drawing[data-seq]", state="attached")
    page.wait_for_selector("#forks > *", state="attached")
    seen.extend(codes_on(page, finished_names, title))
    shot(page, f"no-codes-{lang}-{title}-finished")
    for where in ("/", "/?page=stats"):
        page.goto(f"{codes_server}{where}")
        page.wait_for_function("() => !document.querySelector('main').getAttribute('aria-busy')")
        seen.extend(codes_on(page, finished_names + names, title))
    found = sorted(set(seen))
    (ARTIFACTS / f"no-codes-{lang}-{title}.json").write_text(json.dumps(found, ensure_ascii=False, indent=1))
    assert found == [], found
