"""The statistics page in a real Chromium, at 375 x 812 and 1366 x 900, over a store of seeded
random games of every title: the dashboard, a player's page and each title's page show every
number as the API answers it, keep their filters in the address, draw their charts as SVG with
focusable marks, never break a table cell inside a word, and pass axe-core."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import parse_qs, urlparse

import pytest
from statsseed import GAMES

from pagehelp import ARTIFACTS, axe_violations, own_server, shot, small_targets



@pytest.fixture(scope="module")
def stats_server(tmp_path_factory):
    yield from own_server(tmp_path_factory, "stats-web", seeded=True)


# -- what the page should show, formatted as en-US (Chromium's language here) -------------------


def _fixed(value: float, places: int = 1, scale: int = 1) -> str:
    """As Intl.NumberFormat: the exact value of the double, halves away from zero, no "-0"."""
    d = (Decimal(value) * scale).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if d == 0:
        d = abs(d)
    return f"{d:,}"


def formatted(value, fmt: str) -> str | None:
    """The text the page shows for ``value`` (None: a format the test does not check)."""
    if fmt not in ("int", "num1", "pct"):
        return None
    if value is None:
        return "–"
    if fmt == "int":
        return _fixed(value, 0)
    if fmt == "num1":
        return _fixed(value)
    if fmt == "pct":
        return _fixed(value, 1, 100) + "%"
    return None


def interval(row: dict) -> str:
    return f"{formatted(row['low'], 'pct')} – {formatted(row['high'], 'pct')}"


SHOWN = """() => {
  const tables = {};
  for (const t of document.querySelectorAll('[data-table]')) {
    const rows = tables[t.dataset.table] = {};
    for (const tr of t.querySelectorAll('tbody tr')) {
      const cells = rows[tr.dataset.row] = {};
      for (const c of tr.querySelectorAll('[data-col]')) cells[c.dataset.col] = {fmt: c.dataset.fmt, text: c.querySelector('.v').textContent};
    }
  }
  const figures = {};
  for (const f of document.querySelectorAll('[data-figures]')) {
    const items = figures[f.dataset.figures] = {};
    for (const d of f.querySelectorAll('[data-figure]')) items[d.dataset.figure] = {fmt: d.dataset.fmt, text: d.querySelector('.v').textContent};
  }
  return {tables, figures};
}"""

BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('table td, table th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
        const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


OUTSIDE_ITS_CHART = """() => {
  const out = [];
  for (const svg of document.querySelectorAll('.sv-chart svg')) {
    const b = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.width && (r.left < b.left - 1 || r.right > b.right + 1)) out.push(t.textContent);
    }
  }
  return out;
}"""


#: the rows of the points-by-source bars whose segments are not in the legend's order
OUT_OF_LEGEND_ORDER = """() => { const rows = {}; for (const m of document.querySelectorAll('[data-section=sources] .sv-stacked .sv-mark')) { const [who, rest] = m.getAttribute('aria-label').split(', '); (rows[who] = rows[who] || []).push(rest.split(':')[0]); } const legend = [...document.querySelectorAll('[data-section=sources] .sv-legend li')].map(l => l.textContent); return Object.entries(rows).filter(([k, v]) => v.join() !== legend.filter(x => v.includes(x)).join()).map(([k]) => k); }"""


def open_stats(page, base: str, query: str = "") -> None:
    page.goto(f"{base}/?page=stats{query}")
    page.wait_for_selector(".stats-page[data-ready=true]")
    page.wait_for_function("() => !document.querySelector('main').getAttribute('aria-busy')")
    # the page's own style sheet is in, and every chart is drawn at the width its box has now
    page.wait_for_function(
        """() => { const l = document.querySelector('link[data-stats-css]');
          return l && l.sheet && [...document.querySelectorAll('.sv-box')].every((b) => { const s = b.querySelector('svg');
            return s && +s.getAttribute('width') === Math.max(240, Math.floor(b.clientWidth || 320)); }); }"""
    )


def check_tables(shown: dict, expected: dict[str, tuple[list[dict], callable]]) -> int:
    """Every row of every expected table is shown, each number as the API has it; returns how many
    numbers were compared."""
    compared = 0
    for table, (rows, key) in expected.items():
        on_page = shown["tables"].get(table)
        assert on_page is not None, f"table {table} is missing"
        assert set(on_page) == {key(r) for r in rows}, table
        for row in rows:
            for col, cell in on_page[key(row)].items():
                want = interval(row) if cell["fmt"] == "interval" else formatted(row.get(col), cell["fmt"])
                if want is not None:
                    assert cell["text"] == want, (table, key(row), col)
                    compared += 1
    return compared


def check_figures(shown: dict, figures: str, answer: dict) -> int:
    compared = 0
    for key, cell in shown["figures"][figures].items():
        want = formatted(answer[key], cell["fmt"]) if key in answer else None
        if want is not None:
            assert cell["text"] == want, (figures, key)
            compared += 1
    return compared


def check_page(page, name: str) -> None:
    """What every statistics view must be: no word broken in a cell, charts with marks a keyboard
    reaches and that name their value, no blocking axe finding."""
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate(OUTSIDE_ITS_CHART) == []  # a long name on a phone goes above its bar, not off the chart
    marks = page.locator(".sv-chart svg .sv-mark")
    assert marks.count() > 0
    assert page.evaluate(
        "() => [...document.querySelectorAll('.sv-mark')].every(m => m.tabIndex === 0 && m.getAttribute('aria-label'))"
    )
    assert page.evaluate("() => [...document.querySelectorAll('.sv-chart img')].length") == 0  # drawn, not images
    first = marks.first
    page.mouse.move(0, 0)  # a pointer left resting on another chart's mark would show that mark's tip as the page scrolls
    first.focus()
    tip = page.locator(".sv-tip:not([hidden])")
    assert tip.count() == 1 and tip.inner_text() == first.get_attribute("aria-label")
    other = marks.nth(1)
    other.scroll_into_view_if_needed()
    if page.viewport_size["width"] < 600:
        other.tap()  # a finger: the value shows on a tap
    else:
        other.hover()
    assert tip.inner_text() == other.get_attribute("aria-label")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")  # nothing spills sideways
    assert axe_violations(page) == [], name
    shot(page, f"stats-{name}")


# -- the dashboard ------------------------------------------------------------------------------


def test_the_dashboard_shows_the_api_answer(screen, stats_server, api):
    open_stats(screen, stats_server)
    d = api.get("/stats/dashboard").json()
    shown = screen.evaluate(SHOWN)
    expected = {"leaderboard": (d["leaderboard"], lambda r: r["player"])}
    expected.update({f"title-{t['title']}": (t["leaderboard"], lambda r: r["player"]) for t in d["titles"]})
    compared = check_tables(shown, expected)
    compared += check_figures(shown, "dashboard", {**d, "titles": len(d["titles"])})
    for t in d["titles"]:
        compared += check_figures(shown, f"title-{t['title']}", t)
    assert compared >= 80
    labels = [m.get_attribute("aria-label") for m in screen.locator("[data-section=leaderboard] .sv-mark").all()]
    assert labels == [
        f"{r['player']}: {formatted(r['win_rate'], 'pct')} wins of {r['games']} games" + (" (few games)" if r["games"] < 10 else "")
        for r in sorted(d["leaderboard"][:12], key=lambda r: (-r["win_rate"], -r["games"]))  # best rate first
    ]
    sections = [s.get_attribute("data-section") for s in screen.locator("[data-section^=title-]").all()]
    assert sections == [f"title-{t['title']}" for t in d["titles"]] == [f"title-{t}" for t in GAMES]
    latest = screen.locator("[data-list=latest] > li")
    assert [li.get_attribute("data-game-id") for li in latest.all()] == [g["game_id"] for g in d["latest"]]
    first = d["latest"][0]
    scores = [int(x.get_attribute("data-score")) for x in latest.first.locator("[data-score]").all()]
    assert sorted(scores) == sorted(s["score"] for s in first["seats"])
    assert latest.first.locator(".st-replay").get_attribute("href") == f"/?game={first['game_id']}"
    cells = {c.get_attribute("data-month"): int(c.get_attribute("data-games")) for c in screen.locator(".sv-heat [data-month]").all()}
    assert {m["month"]: m["games"] for m in d["months"]}.items() <= cells.items()
    assert sum(cells.values()) == d["games"]
    check_page(screen, f"dashboard-{screen.viewport_size['width']}")


def test_filters_live_in_the_address_and_a_shared_address_shows_the_same(wide, stats_server, api):
    page = wide
    open_stats(page, stats_server)
    page.click(".st-filter-box summary")
    page.select_option("#s-title", "lost-cities")
    page.select_option("#s-opt-rounds", "3")
    page.fill("#s-from", "2026-02-01")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**date_from=2026-02-01**")
    page.wait_for_selector(".stats-page[data-ready=true]")
    query = parse_qs(urlparse(page.url).query)
    assert query["title"] == ["lost-cities"] and query["option"] == ["rounds=3"] and query["date_from"] == ["2026-02-01"]
    shared = page.context.new_page()
    shared.goto(page.url)
    shared.wait_for_selector(".stats-page[data-ready=true]")
    from_ = page.evaluate("() => new Date('2026-02-01T00:00:00').toISOString()")
    d = api.get("/stats/dashboard", params={"title": "lost-cities", "option": "rounds=3", "date_from": from_}).json()
    assert 0 < d["games"] < GAMES["lost-cities"][0]
    for view in (page, shared):
        shown = view.evaluate(SHOWN)
        assert check_tables(shown, {"leaderboard": (d["leaderboard"], lambda r: r["player"])}) > 0
        assert view.locator("[data-section^=title-]").count() == 1  # a section only for a title with games
        assert view.locator("#s-opt-rounds").input_value() == "3"
    shared.close()
    assert page.locator(".st-filter-box[open]").count() == 1 and axe_violations(page) == []
    forks, words = page.locator("#s-forks").bounding_box(), page.locator("label[for=s-forks]").bounding_box()
    assert forks["width"] == forks["height"] == 44  # a finger's box, not a bar across the filters
    show = page.get_by_role("button", name="Show").bounding_box()
    assert words["y"] + words["height"] <= show["y"] or show["x"] >= words["x"] + words["width"]  # nothing covers it
    assert small_targets(page, ".st-filter-box") == []
    without = {t["title"] for t in api.get("/stats/dashboard", params={"date_from": "2026-02-01T00:00:00Z"}).json()["titles"]}
    assert "marco-polo-2" not in without
    open_stats(page, stats_server, "&date_from=2026-02-01")
    assert page.locator("[data-section='title-marco-polo-2']").count() == 0


# -- a player's page ----------------------------------------------------------------------------


def test_every_name_opens_the_players_page_and_it_shows_the_api_answer(screen, stats_server, api):
    open_stats(screen, stats_server)
    name = api.get("/stats").json()["players"][0]["name"]
    screen.locator(f"[data-table=leaderboard] [data-row='{name}'] a").click()
    screen.wait_for_url("**view=player**")
    screen.wait_for_selector(".stats-page[data-ready=true]")
    assert parse_qs(urlparse(screen.url).query)["name"] == [name]
    p = api.get("/stats/player", params={"name": name}).json()
    assert screen.locator("h1").inner_text() == p["player"]
    shown = screen.evaluate(SHOWN)
    expected = {
        "by-title": (p["by_title"], lambda r: r["title"]),
        "by-month": (p["by_month"], lambda r: r["month"]),
        "rivals": (p["rivals"], lambda r: r["opponent"]),
        "characters": (p["characters"], lambda r: f"{r['title']}:{r['character']}"),
        "expeditions": (p["expeditions"], lambda r: r["colour"]),
    }
    for title in {s["title"] for s in p["sources"]}:
        expected[f"sources-{title}"] = ([s for s in p["sources"] if s["title"] == title], lambda r: r["source"])
    compared = check_tables(shown, expected)
    compared += check_figures(shown, "player", {**p, "longest_wins": p["streaks"]["longest_wins"]})
    assert compared > 40
    rival = p["rivals"][0]["opponent"]
    screen.locator(f"[data-table=rivals] [data-row='{rival}'] a").click()
    screen.wait_for_function("name => document.querySelector('h1') && document.querySelector('h1').textContent === name", arg=rival)
    screen.go_back()
    screen.wait_for_function("name => document.querySelector('h1') && document.querySelector('h1').textContent === name", arg=name)
    screen.wait_for_selector(".stats-page[data-ready=true]")
    check_page(screen, f"player-{screen.viewport_size['width']}")


# -- each title's page --------------------------------------------------------------------------

TITLE_TABLES = {
    "seats": ("seats", lambda r: f"{r['players']}:{r['seat']}"),
    "first_player": ("first-player", lambda r: str(r["players"])),
    "characters": ("characters", lambda r: "null" if r["character"] is None else r["character"]),
    "sources": ("sources", lambda r: r["source"]),
    "wagers": ("wagers", lambda r: str(r["wagers"])),
    "colours": ("colours", lambda r: r["colour"]),
    "rounds": ("rounds", lambda r: "null" if r["round"] is None else str(r["round"])),
}


@pytest.mark.parametrize("title", list(GAMES))
def test_each_title_page_shows_the_api_answer(screen, stats_server, api, title):
    open_stats(screen, stats_server)
    screen.locator(f"[data-section='title-{title}'] .st-more").click()
    screen.wait_for_url(f"**view=title&title={title}**")
    screen.wait_for_selector(".stats-page[data-ready=true]")
    t = api.get(f"/stats/titles/{title}").json()
    assert screen.locator("h1").inner_text() == t["name"]
    assert screen.locator(".st-filter-box[open]").count() == 0  # the page's own title is no filter to show
    shown = screen.evaluate(SHOWN)
    expected = {table: (t[field], key) for field, (table, key) in TITLE_TABLES.items() if t.get(field)}
    if t.get("beijing"):
        expected["beijing"] = (t["beijing"]["by_slot"], lambda r: str(r["slot"]).replace("None", "null"))
    if t.get("contracts"):
        expected["contracts"] = (t["contracts"]["by_count"], lambda r: str(r["contracts"]))
    (board,) = [x["leaderboard"] for x in api.get("/stats/dashboard", params={"title": title}).json()["titles"]]
    expected["title-players"] = (board, lambda r: r["player"])
    compared = check_tables(shown, expected)
    compared += check_figures(shown, "title", t) + check_figures(shown, "scores", t["scores"]["summary"])
    if t.get("bonus"):
        compared += check_figures(shown, "bonus", t["bonus"])
    assert compared > 30
    few = screen.locator("[data-table=seats] .st-few, [data-table=characters] .st-few").count()
    assert few == sum(r["few"] for r in t["seats"] + (t.get("characters") or []))
    expected_sections = {"lost-cities": {"players", "wagers", "bonus", "colours", "rounds"}, "marco-polo": {"characters", "beijing", "contracts"},
                         "marco-polo-2": {"characters", "contracts"}}[title]
    sections = {s.get_attribute("data-section") for s in screen.locator("[data-section]").all()}
    assert expected_sections <= sections
    assert not ({"wagers", "characters", "beijing", "contracts"} - expected_sections) & sections  # nothing "not available"
    assert screen.evaluate(OUT_OF_LEGEND_ORDER) == []  # a source at the same place in every bar
    words = screen.locator("main").inner_text()
    for api_word in ("Rows", "Per side round", "Bin width", "win_rate", "avg_score", "per_match", "Not available"):
        assert api_word not in words
    check_page(screen, f"title-{title}-{screen.viewport_size['width']}")


def test_a_rate_on_few_games_is_marked_on_the_players_page_too(tall_phone, stats_server, api):
    page = tall_phone
    p = api.get("/stats/player", params={"name": "Carl", "title": "marco-polo"}).json()
    assert 0 < p["games"] < 10
    open_stats(page, stats_server, "&view=player&name=Carl&title=marco-polo")
    shown = page.evaluate(SHOWN)
    assert check_figures(shown, "player", {**p, **p["streaks"]}) >= 7
    assert page.locator("[data-figure=win_rate] .st-few").inner_text() == "few games"
    assert page.locator("[data-figure=longest_losses] .v").inner_text() == str(p["streaks"]["longest_losses"])


def test_a_title_without_games_is_said_in_words_with_the_titles_that_have_some(tall_phone, stats_server):
    page = tall_phone
    open_stats(page, stats_server, "&view=title&title=chess")
    words = page.locator("#stats-empty").inner_text()
    assert words.startswith("No finished game of “chess”") and "lost-cities" not in words and "titles:" not in words
    page.get_by_role("link", name="Lost Cities").click()
    page.wait_for_selector("[data-section=wagers]")
    assert axe_violations(page) == []


def test_an_address_typed_by_hand_shows_what_it_can_and_says_in_words_what_it_left_out(wide, stats_server, api):
    page = wide
    open_stats(page, stats_server, "&date_from=yesterday&option=nonsense&title=lost-cities")
    assert page.locator("#stats-unread").inner_text() == (
        "Left out of this view, as the address does not say it in a way it can be read: From “yesterday”, Option “nonsense”.")
    d = api.get("/stats/dashboard", params={"title": "lost-cities"}).json()
    assert check_figures(page.evaluate(SHOWN), "dashboard", {**d, "titles": len(d["titles"])}) == 3
    assert "Value error" not in page.locator("main").inner_text()
    open_stats(page, stats_server, "&view=player")
    names = [a.inner_text() for a in page.locator("[data-list=players] a").all()]
    assert names == [p["name"] for p in api.get("/stats").json()["players"]]
    page.locator("[data-list=players] a").first.click()
    page.wait_for_function("name => document.querySelector('h1') && document.querySelector('h1').textContent === name", arg=names[0])


def test_the_dashboard_hands_every_finished_game_to_bg_stats(wide, stats_server, api):
    open_stats(wide, stats_server)
    with wide.expect_download() as download:
        wide.get_by_role("link", name="download every finished game as a BG Stats file").click()
    document = json.loads(download.value.path().read_text())
    assert download.value.suggested_filename == "BGStatsExport.json"
    assert len(document["plays"]) == api.get("/stats/dashboard").json()["games"]
    assert {g["bggId"] for g in document["games"]} == {50, 171623, 283948}


def test_the_filters_fit_a_phone(tall_phone, stats_server):
    """At 375 px every filter is a finger's size and the forks box sits beside its words."""
    page = tall_phone
    open_stats(page, stats_server)
    page.click(".st-filter-box summary")
    forks, words = page.locator("#s-forks").bounding_box(), page.locator("label[for=s-forks]").bounding_box()
    assert forks["width"] == forks["height"] == 44
    assert words["width"] > 200  # the words on a line or two, not squeezed into a column
    assert small_targets(page, ".st-filter-box") == []
    page.locator(".st-filter-box").screenshot(path=str(ARTIFACTS / "stats-filters-375.png"))


TABLES_FIT_OR_SAY_SO = """() => [...document.querySelectorAll('.st-table-box')].map((box) => {
  const wrap = box.querySelector('.st-table'), grid = wrap.querySelector('table'), hint = box.querySelector('.st-scroll-hint');
  return {table: grid.dataset.table, wide: grid.scrollWidth > wrap.clientWidth + 1,
          hinted: !hint.hidden && hint.getBoundingClientRect().height > 0, faded: wrap.classList.contains('st-scrolls')};
})"""


@pytest.mark.parametrize("query", ["", "&view=player&name=Ana", "&view=title&title=lost-cities",
                                   "&view=title&title=marco-polo", "&view=title&title=marco-polo-2"])
def test_on_a_phone_a_table_fits_or_says_it_scrolls_and_every_link_is_a_fingers_size(tall_phone, stats_server, query):
    """Issue 28 item 9: at 375 px a table wider than the screen says in words that it scrolls (and
    fades at its right edge until scrolled to its end); one that fits says nothing; every link and
    button of the page is a 44 px target."""
    page = tall_phone
    open_stats(page, stats_server, query)
    tables = page.evaluate(TABLES_FIT_OR_SAY_SO)
    assert tables
    for t in tables:
        assert t["hinted"] == t["wide"] and t["faded"] == t["wide"], t
    assert small_targets(page, "main") == []
    wide = [t["table"] for t in tables if t["wide"]]
    if wide:
        wrap = page.locator(f"[data-table='{wide[0]}']").locator("xpath=..")
        wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; w.dispatchEvent(new Event('scroll')); }")
        page.wait_for_function("w => !w.classList.contains('st-scrolls')", arg=wrap.element_handle())
    page.screenshot(path=str(ARTIFACTS / f"stats-tables-375{query.replace('&', '-').replace('=', '-')}.png"), full_page=True)
