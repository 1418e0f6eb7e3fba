"""Marco Polo II on the page: a digital game on the (invented, complete) synthetic content pack,
opened on a second device that then enters the write token; moves recorded through the picker;
the map laid out from the game's content, figures, posts, the action board, resources and
caravans checked against the API's state; scrubbed with the keys."""

from __future__ import annotations

import pytest
from pagehelp import drawn_seq, marco_polo_board, marco_polo_drawn, shot, state, step

KEYS = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")


def expected(view: dict) -> dict:
    board: dict[str, list[str]] = {}
    for space, value, _seat, _kind in view["board"]:
        board.setdefault(space, []).append(str(value))
    return {
        "figures": sorted(f"{p['seat']}@{c}" for p in view["seats"] for c in p["figures"]),
        "posts": sorted(f"{p['seat']}@{c}" for p in view["seats"] for c in p["posts"]),
        "res": {str(p["seat"]): {k: p[k] for k in KEYS} for p in view["seats"]},
        "board": board,
        "round": view["round"],
        "caravans": {str(p["seat"]): len(p["caravans"]) for p in view["seats"]},
    }


def drawn(page) -> dict:
    out = marco_polo_drawn(page)
    out.pop("display")
    out["board"] = marco_polo_board(out)
    out["caravans"] = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#drawing .mp-seat')]"
        ".map(s => [s.dataset.seat, Number(s.querySelector('[data-caravans]').dataset.caravans)]))"
    )
    return out


def check_drawing(page, http, game_id):
    seq = drawn_seq(page)
    assert drawn(page) == expected(state(http, game_id, seq)["view"]), seq


def test_a_digital_game_on_the_synthetic_pack(page, server, http):
    try:
        from rules.marco_polo_2.content import SYNTHETIC
    except ImportError:  # pragma: no cover - the title is not in this build
        pytest.skip("Marco Polo II is not registered")
    made = http.post(
        "/games",
        json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "seed": 11, "options": {"content": SYNTHETIC.ref}},
    )
    assert made.status_code == 201, made.text
    game_id, token = made.json()["game_id"], made.json()["tokens"]["write_token"]

    page.goto(f"{server}/?game={game_id}")
    page.wait_for_selector("#drawing[data-drawing='marco-polo-2']")
    check_drawing(page, http, game_id)
    page.get_by_text("I have the write token").click()  # a second device takes over the recording
    page.fill("#write-token", token)
    page.get_by_role("button", name="Use it").click()
    page.wait_for_selector("#picker .kind")

    for n in range(14):
        step(page, prefer=("marco-polo-2.turn-ended",))
        if n % 4 == 0:
            check_drawing(page, http, game_id)
    check_drawing(page, http, game_id)
    assert page.locator("#drawing .mp-loc").count() == len(SYNTHETIC.data["map"]["nodes"])
    shot(page, "mp2-01-recording")

    page.locator("h1").click()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
        check_drawing(page, http, game_id)
    page.keyboard.press("Home")
    check_drawing(page, http, game_id)
