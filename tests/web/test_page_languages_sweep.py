"""A Spanish and a Japanese table read every main screen of each title in their own language: an
in-progress game (a few moves recorded) and a finished one of Lost Cities, The Voyages of Marco
Polo and Marco Polo II, in real Chromium at 375×812. No visible string (text, aria-label, title,
placeholder) holds one of the English words that had leaked onto those screens, and no key is
missing from the catalogue (``<html data-missing-i18n>``). Player names and the notation (a move's
code, the same in every language) are not words of the page."""

from __future__ import annotations

import re

import httpx
import pytest

from pagehelp import own_server, shot, step, wait_ready
from test_page_languages import no_missing_strings

#: English words once seen on these screens in Spanish or Japanese
LEAKED = ("round", "Undo", "Redo", "Record", "players", "score", "move", "Legal", "draw", "hand",
          "coin", "camel", "pepr", "column", "reroll", "die", "blocked", "trading post", "is here", "Moscow", "Alexandria")
LEAK = re.compile(r"\b(" + "|".join(re.escape(w) for w in LEAKED) + r")\b")

#: every visible string of the page: its text nodes and its labels, outside the notation
VISIBLE = r"""() => {
  const out = [];
  const shown = (e) => { if (e.closest('[hidden], code, .notation, script, style')) return false;
                         if (!e.getClientRects().length) return false;
                         const s = getComputedStyle(e); return s.visibility !== 'hidden'; };
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) { const text = n.textContent.trim(); if (text && shown(n.parentElement)) out.push(text); }
  for (const e of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (e.closest('code, .notation')) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) if (e.hasAttribute(a)) out.push(e.getAttribute(a));
  }
  for (const e of document.body.querySelectorAll('svg title')) if (!e.closest('code')) out.push(e.textContent.trim());
  return out;
}"""


def leaks(page, names: tuple[str, ...]) -> list[str]:
    """The page's visible strings holding a leaked English word (player names taken out)."""
    found = []
    for text in page.evaluate(VISIBLE):
        bare = text
        for name in names:
            bare = bare.replace(name, "")
        if LEAK.search(bare):
            found.append(text)
    return sorted(set(found))


@pytest.fixture(scope="module")
def sweep_server(tmp_path_factory):
    """A server whose store holds finished games of every title (the statistics' seed)."""
    yield from own_server(tmp_path_factory, "lang-sweep", seeded=True)


def finished_games(base: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """One finished game of each title: {title: (game id, its players)}."""
    listed = httpx.get(f"{base}/games", timeout=10).json()
    games = listed["games"] if isinstance(listed, dict) else listed
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for game in games:
        out.setdefault(game["title"], (game["game_id"], tuple(game.get("players") or ())))
    return out


def open_recording(page, base: str, title: str, players: list[str], options: dict, lang: str) -> None:
    """A new game made through the API, opened with its write token, read in ``lang``."""
    made = httpx.post(f"{base}/games", json={"title": title, "players": players, "options": options}, timeout=10)
    assert made.status_code == 201, made.text
    body = made.json()
    page.goto(f"{base}/")
    page.evaluate("lang => localStorage.setItem('tabletape.lang', 'en')", lang)
    page.goto(f"{base}/?game={body['game_id']}")
    page.get_by_text("I have the write token").click()
    page.fill("#write-token", body["tokens"]["write_token"])
    page.get_by_role("button", name="Use it").click()
    wait_ready(page)
    page.evaluate("lang => localStorage.setItem('tabletape.lang', lang)", lang)
    page.reload()
    page.wait_for_selector(f"html[lang={lang}]")
    wait_ready(page)


def in_progress_options() -> dict[str, tuple[dict, int]]:
    from rules.marco_polo_2.content import PACKS

    public = next(p for p in PACKS.values() if not p.invented)
    return {
        "lost-cities": ({"rounds": 1}, 4),  # the deal, then plays and draws
        "marco-polo": ({"characters": "first-game"}, 6),  # the layout, the contracts, the roll, a move
        "marco-polo-2": ({"characters": "chosen", "content": public.ref}, 2),  # the layout asked, then the first picks
    }


@pytest.mark.parametrize("lang", ["es", "ja"])
@pytest.mark.parametrize("title", ["lost-cities", "marco-polo", "marco-polo-2"])
def test_the_main_screens_of_each_title_hold_no_english(tall_phone, sweep_server, lang, title):
    page = tall_phone
    players = ["Ana", "Bea"]
    options, steps = in_progress_options()[title]
    open_recording(page, sweep_server, title, players, options, lang)
    for _ in range(steps):
        if title == "marco-polo-2" and page.locator("#facts [data-fact=setup]").count():
            break  # the public pack's layout is the table's to describe: the screen is swept as it asks
        step(page)
    assert leaks(page, tuple(players)) == [], leaks(page, tuple(players))
    shot(page, f"lang-sweep-{lang}-{title}-recording")
    no_missing_strings(page)

    game_id, names = finished_games(sweep_server)[title]
    page.goto(f"{sweep_server}/?game={game_id}")
    page.wait_for_selector("main:not([aria-busy]) #drawing[data-seq]", state="attached")
    page.wait_for_selector("#forks > *", state="attached")  # the last part to fill in after the drawing
    assert leaks(page, names) == [], leaks(page, names)
    shot(page, f"lang-sweep-{lang}-{title}-finished")
    no_missing_strings(page)
