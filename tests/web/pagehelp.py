"""Driving the web page the way a person at the table does: forms, the move picker, the facts."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx
import live_server

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
#: the phone and the laptop the issues measure on
PHONE_TALL = {"width": 375, "height": 812}
WIDE = {"width": 1366, "height": 900}


def shot(page, name: str) -> Path:
    """A full-page screenshot into test-artifacts/web/ (kept by the test run, not committed)."""
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def game_id_of(page) -> str:
    return parse_qs(urlparse(page.url).query)["game"][0]


def start_game(page, base: str, title: str, players: list[str], options: dict | None = None) -> str:
    """Fill in the New game form and submit it; the page opens the game (write token stored)."""
    page.goto(f"{base}/?page=new")
    page.select_option("#n-title", title)
    for i, name in enumerate(players):
        if page.locator(f"#n-player-{i}").count() == 0:
            page.get_by_role("button", name="Add a player").click()
        page.fill(f"#n-player-{i}", name)
    for key, value in (options or {}).items():
        field = page.locator(f"#n-opt-{key}")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/?game=*")
    wait_ready(page)
    return game_id_of(page)


def last_seq(page) -> int:
    return int(page.locator("#recorder").get_attribute("data-last-seq") or 0)


#: a script's expression: the recording panel is drawn for a log past seq ``n``
RECORDED_PAST = "(r => r && r.dataset.ready === 'true' && Number(r.dataset.lastSeq) > n)(document.querySelector('#recorder'))"


def wait_ready(page, after: int | None = None) -> None:
    """Until the recording panel shows what can be entered now (past ``after``, the last seq)."""
    if after is None:
        page.wait_for_selector("#recorder[data-ready=true]", state="attached")
    else:
        page.wait_for_function(f"n => {RECORDED_PAST}", arg=after)


def pick(page, group: str | None = None, notation: str | None = None, scope: str = "#picker") -> str:
    """Pick a move with the picker: a kind of move (by its data-group, default the first), then a
    move (by its notation, default the first shown). Returns the picked notation."""
    kinds = page.locator(f"{scope} .kinds:not(.sub) .kind")
    if group is not None:
        page.locator(f"{scope} .kind[data-group='{group}']").click()
    elif kinds.count() > 1 or page.locator(f"{scope} .move").count() == 0:
        kinds.first.click()
    if page.locator(f"{scope} .kinds.sub").count():
        sub = page.locator(f"{scope} .kinds.sub .kind")
        if notation is not None:
            word = notation.split(" ")[1] if " " in notation.lstrip("@0123456789 ") else ""
            target = page.locator(f"{scope} .kinds.sub .kind[data-subgroup='{word}']")
            (target if target.count() else sub.first).click()
        else:
            sub.first.click()
    button = (
        page.locator(f"{scope} .move[data-notation='{notation}']") if notation else page.locator(f"{scope} .move").first
    )
    chosen = button.get_attribute("data-notation")
    button.click()
    return chosen


def report_fact(page) -> bool:
    """Report what chance decided at the table, through the facts forms. False if none is asked."""
    if page.locator("#facts [data-fact=deal]").count():
        page.click("#facts [data-fact=deal]")
    elif page.locator("#facts [data-fact=setup]").count():
        if page.locator("#facts [data-action=random-layout]").count():
            page.click("#facts [data-action=random-layout]")
        else:
            marco_polo_setup_by_taps(page)
        page.click("#facts [data-fact=setup] button[type=submit]")
    elif page.locator("#facts [data-fact=dice]").count():
        type_roll(page)
    elif page.locator("#facts [data-fact=shuffle]").count():
        if page.locator("#facts [data-action=draw-at-random]").count():
            page.click("#facts [data-action=draw-at-random]")
        else:  # at a table: tap what came out, in order
            tap_drawn(page)
    else:
        return False
    return True


def type_roll(page, digits: str | None = None) -> str:
    """The table's roll typed into the dice pad as digits (default a fixed pattern): it records
    itself once the last die is in. Returns the digits."""
    pad = page.locator("#facts [data-fact=dice]")
    count = int(pad.get_attribute("data-count"))
    digits = digits or "".join(str(1 + (5 * i + 2) % 6) for i in range(count))
    pad.locator("[data-pad-typed]").fill(digits)
    return digits


def tap_drawn(page, ids: list[str] | None = None) -> list[str]:
    """Tap the items of a shuffle form (by their ids, default the first ones it needs) and send it."""
    form = page.locator("#facts [data-fact=shuffle]")
    need = int(form.get_attribute("data-need") or 1)
    items = form.locator(".mpf-pick:not([hidden]), [data-item]")
    if ids is None:
        ids = [items.nth(i).get_attribute("data-id") or items.nth(i).get_attribute("data-item") for i in range(need)]
    # a picture form asking for one card sends itself on the tap: decided before tapping, because
    # once sent the form may already be gone
    sends_itself = need == 1 and form.locator(".mpf-pick").count() > 0
    for item in ids:
        form.locator(f".mpf-pick[data-id='{item}'], [data-item='{item}']").first.click()
    if not sends_itself:
        form.locator("button[type=submit]").click()
    return ids


def marco_polo_setup_by_taps(page) -> dict[str, str]:
    """Marco Polo's layout on the map: each city, then the first picture that fits each slot; the
    first free starting contract per seat. Returns {slot: id} (slots ``cards:MOS``, ``start:0``)."""
    form = page.locator("#facts [data-fact=setup]")
    chosen: dict[str, str] = {}
    form.locator(".mpf-city-btn").first.click()
    for _ in range(40):
        slot = form.locator("#mpf-slot-panel .mpf-slot[data-chosen='']").first
        if not slot.count():
            break
        key = slot.get_attribute("data-slot")
        button = slot.locator(".mpf-pick:not([hidden])").first
        chosen[key] = button.get_attribute("data-id")
        button.click()
    for seat in range(form.locator("[data-start-seat]").count()):
        button = form.locator(f"[data-start-seat='{seat}'] .mpf-pick[aria-pressed=false]").first
        chosen[f"start:{seat}"] = button.get_attribute("data-id")
        button.click()
    return chosen


def step(page, prefer: tuple[str, ...] = ()) -> None:
    """One entry through the page: a fact if the table must report one, else a legal move (of the
    first preferred kind on offer)."""
    wait_ready(page)
    before = last_seq(page)
    if not report_fact(page):
        group = next((g for g in prefer if page.locator(f"#picker .kind[data-group='{g}']").count()), None)
        pick(page, group)
    wait_ready(page, after=before)


def to_recording(page, server, http, title: str) -> str:
    """A game of ``title`` past its setup, on the page with its write token: a move waits to be picked."""
    if title == "marco-polo-2":
        from rules.marco_polo_2.content import SYNTHETIC

        made = http.post(
            "/games",
            json={"title": title, "players": ["Ana", "Bea"], "seed": 11, "options": {"content": SYNTHETIC.ref}},
        )
        assert made.status_code == 201, made.text
        game_id, tokens = made.json()["game_id"], made.json()["tokens"]
        page.goto(f"{server}/?page=games")
        page.evaluate(
            "([id, t]) => localStorage.setItem('tabletape.tokens.' + id, JSON.stringify(t))",
            [game_id, {"write": tokens["write_token"], "seats": [s["token"] for s in tokens["seat_tokens"]]}],
        )
        page.goto(f"{server}/?game={game_id}")
        wait_ready(page)
        moves = 4
    else:
        options = {"rounds": 1} if title == "lost-cities" else {"characters": "first-game"}
        game_id = start_game(page, server, title, ["Ana", "Bea"], options)
        moves = 1 if title == "lost-cities" else 5
    for _ in range(moves):
        before = last_seq(page)
        if not report_fact(page):
            pick(page)
        wait_ready(page, after=before)
    page.wait_for_selector("#picker .kind")
    return game_id


#: every text element of the map that lies in the map's box on the screen and is drawn (not
#: hidden, not transparent): its box, its height, its font size on the screen, whether it names a city
MAP_LABELS = """() => {
  const svg = document.querySelector('#drawing svg.mp-map'); const map = svg.getBoundingClientRect();
  const scale = map.width / svg.viewBox.baseVal.width;
  const drawn = (e) => { for (let x = e; x && x !== svg.parentNode; x = x.parentNode) {
    const s = getComputedStyle(x); if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return false; } return true; };
  const out = [];
  for (const e of svg.querySelectorAll('text')) {
    const r = e.getBoundingClientRect();
    if (!r.width || r.right <= map.left || r.left >= map.right || r.bottom <= map.top || r.top >= map.bottom) continue;
    const loc = e.closest('.mp-loc');
    out.push({text: e.textContent, box: [r.left, r.top, r.right, r.bottom], height: r.height, shown: drawn(e),
              px: parseFloat(getComputedStyle(e).fontSize) * scale, name: e.classList.contains('mp-name'),
              place: loc ? loc.dataset.loc : null});
  }
  return {labels: out, zoom: Number(svg.parentNode.dataset.zoom), map: [map.width, map.height]};
}"""


def overlapping(labels: list[dict]) -> list[tuple[str, str]]:
    """The pairs of labels (by their text) whose boxes intersect."""
    pairs = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            (al, at, ar, ab), (bl, bt, br, bb) = a["box"], b["box"]
            if al < br and bl < ar and at < bb and bt < ab:
                pairs.append((a["text"], b["text"]))
    return pairs


def state(http: httpx.Client, game_id: str, at: int | None = None) -> dict:
    """The API's public state after raw seq ``at`` (default now)."""
    params = {} if at is None else {"at": at}
    response = http.get(f"/games/{game_id}/state", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def step_view(http: httpx.Client, game_id: str, seq: int) -> dict:
    """The API's public view after the step whose event is raw seq ``seq`` in the game's effective
    history now (amendments included): what the page draws at that step. Where no later edit
    touched the history, it is ``state(at=seq)``."""
    response = http.get(f"/games/{game_id}/frames", params={"from_seq": seq, "to_seq": seq})
    assert response.status_code == 200, response.text
    (frame,) = response.json()["frames"]
    return frame["view"]


def drawn_seq(page) -> int:
    return int(page.locator("#drawing").get_attribute("data-seq"))


def lost_cities_drawn(page) -> dict:
    """What the page drew: each side's expeditions, the discard piles, the draw pile."""
    return page.evaluate(
        """() => {
        const d = document.querySelector('#drawing');
        const out = {expeditions: {}, piles: {}, draw: Number(d.querySelector('[data-draw-pile]').dataset.drawPile)};
        for (const side of d.querySelectorAll('[data-side]')) {
          const row = out.expeditions[side.dataset.side] = {};
          for (const e of side.querySelectorAll('[data-colour]')) row[e.dataset.colour] = e.dataset.cards;
        }
        for (const p of d.querySelectorAll('[data-pile]')) out.piles[p.dataset.pile] = p.dataset.cards;
        return out;
    }"""
    )


def lost_cities_expected(view: dict) -> dict:
    return {
        "expeditions": {
            str(side["side"]): {c: " ".join(side[c]) for c in view["expedition_order"]} for side in view["expeditions"]
        },
        "piles": {c: " ".join(view["discard_piles"][c]) for c in view["expedition_order"]},
        "draw": view["draw_pile"],
    }


def marco_polo_drawn(page) -> dict:
    return page.evaluate(
        """() => {
        const d = document.querySelector('#drawing');
        const figures = [...d.querySelectorAll('[data-figure]')].map(e => `${e.dataset.seat}@${e.dataset.figure}`).sort();
        const posts = [...d.querySelectorAll('[data-post]')].map(e => `${e.dataset.seat}@${e.dataset.post}`).sort();
        const res = {};
        for (const s of d.querySelectorAll('.mp-seat')) {
          res[s.dataset.seat] = Object.fromEntries([...s.querySelectorAll('.mp-res [data-res]')].map(e => [e.dataset.res, Number(e.textContent)]));
        }
        const board = Object.fromEntries([...d.querySelectorAll('[data-space]')].map(e => [e.dataset.space, e.dataset.dice]));
        const display = [...d.querySelectorAll('[data-contract]')].map(e => e.dataset.contract);
        return {figures, posts, res, board, display, round: Number(d.querySelector('.mp-table').dataset.round)};
    }"""
    )


def marco_polo_expected(view: dict) -> dict:
    board: dict[str, list[str]] = {}
    for space, value, _seat, _kind in view["board"]:
        board.setdefault(space, []).append(str(value))
    keys = ("coins", "camels", "pepper", "silk", "gold", "vp")
    return {
        "figures": sorted(f"{p['seat']}@{c}" for p in view["seats"] for c in p["figures"]),
        "posts": sorted(f"{p['seat']}@{c}" for p in view["seats"] for c in p["posts"]),
        "res": {str(p["seat"]): {k: p[k] for k in keys} for p in view["seats"]},
        "board": board,
        "display": list(view["display"]),
        "round": view["round"],
    }


def marco_polo_board(drawn: dict) -> dict:
    return {k: v.split(" ") for k, v in drawn["board"].items() if v}


AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
#: WCAG 2.1 A and AA, the rules axe-core runs by default, at the impacts that block someone
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")


def axe_violations(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now (the vendored engine,
    injected into the page: nothing is downloaded), each as {id, impact, help, targets}."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
          .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                             targets: v.nodes.slice(0, 8).map(n => n.target.join(' '))})))""",
        AXE_TAGS,
    )
    return [v for v in found if v["impact"] in BLOCKING]


def small_targets(page, scope: str = "body", size: int = 44) -> list[dict]:
    """Visible buttons, links, inputs, selects and summaries smaller than ``size`` px either way
    (a tap target a finger misses)."""
    return page.evaluate(
        """([scope, size]) => [...document.querySelector(scope).querySelectorAll(
              'button, a[href], input:not([type=hidden]), select, summary, [role=button]')]
          .filter(e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
                         return r.width > 0 && r.height > 0 && r.right > 0 && s.visibility !== 'hidden' && !e.closest('[hidden]'); })
          .map(e => { const r = e.getBoundingClientRect();
                      return {tag: e.tagName.toLowerCase(), id: e.id, cls: e.className && String(e.className),
                              text: (e.textContent || e.value || '').trim().slice(0, 30), w: Math.round(r.width), h: Math.round(r.height)}; })
          .filter(t => t.w < size || t.h < size)""",
        [scope, size],
    )


def low_contrast(page, selector: str, ratio: float = 4.5) -> list[dict]:
    """Elements matching ``selector`` whose text contrast with their own background (opacity
    applied, as drawn) is under ``ratio``: {text, ratio}."""
    return page.evaluate(
        """([selector, ratio]) => {
        const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
        const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
                                     return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
        const over = (fg, a, bg) => fg.map((c, i) => c * a + bg[i] * (1 - a));
        const backOf = (e) => {  // translucent backgrounds composited over those beneath
          const layers = [];
          for (let x = e; x; x = x.parentElement) {
            const c = rgb(getComputedStyle(x).backgroundColor);
            const a = c.length > 3 ? c[3] : 1;
            if (a > 0) layers.push([c.slice(0, 3), a]);
            if (a >= 1) break;
          }
          return layers.reverse().reduce((under, [c, a]) => over(c, a, under), [255, 255, 255]);
        };
        const out = [];
        for (const el of document.querySelectorAll(selector)) {
          for (const t of [el, ...el.querySelectorAll('*')]) {
            const own = [...t.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
            if (!own || t.closest('.visually-hidden')) continue;
            let alpha = 1; for (let x = t; x; x = x.parentElement) alpha *= Number(getComputedStyle(x).opacity);
            const c = rgb(getComputedStyle(t).color); const bg = backOf(t);
            const fg = over(c.slice(0, 3), alpha * (c.length > 3 ? c[3] : 1), bg);
            const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
            const r = (hi + 0.05) / (lo + 0.05);
            if (r < ratio) out.push({ text: t.textContent.trim().slice(0, 12), ratio: Math.round(r * 100) / 100 });
          }
        }
        return out;
    }""",
        [selector, ratio],
    )


def own_server(tmp_path_factory, name: str, seeded: bool = False):
    """A real server (``python -m api serve``) on 127.0.0.1 over a DuckDB file of its own (holding
    the statistics' seeded games when ``seeded``): yields its base URL, stops it after."""
    path = tmp_path_factory.mktemp(name) / f"{name}.duckdb"
    if seeded:
        from statsseed import seed_store

        seed_store(path)
    base, proc = live_server.start(path)
    yield base
    live_server.stop(proc)


CLIPPED = """() => {
  const out = [];
  const controls = document.querySelectorAll('button, a[href], summary, label, [role=button], [role=tab], .kind, th, .chip, .badge');
  for (const e of controls) {
    const box = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    if (!box.width || !box.height || s.visibility === 'hidden' || e.closest('[hidden], .visually-hidden')) continue;
    if (!(e.textContent || '').trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(e);
    const text = range.getBoundingClientRect();
    if (!text.width || !text.height) continue;
    // the words stand out of their own box (cut off, or drawn over a neighbour), or an ellipsis hides some
    const out_x = text.left < box.left - 1 || text.right > box.right + 1;
    const out_y = text.top < box.top - 1 || text.bottom > box.bottom + 1;
    const cut = (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1) || (s.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth);
    if (out_x || out_y || cut) out.push({tag: e.tagName.toLowerCase(), id: e.id, cls: String(e.className || ''), text: e.textContent.trim().slice(0, 40),
                                         box: [Math.round(box.width), Math.round(box.height)], words: [Math.round(text.width), Math.round(text.height)]});
  }
  return out;
}"""


def clipped(page) -> list[dict]:
    """Visible controls and headings whose words do not fit their box at this width: cut off,
    hidden behind an ellipsis, or standing out of the box."""
    return page.evaluate(CLIPPED)
