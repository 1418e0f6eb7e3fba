"""The packs page at 375x812 with packs a careless group uploaded: a name that is one long word,
an id with slashes and letters beyond ASCII. Nothing scrolls sideways, every tap is >= 44 px."""

from __future__ import annotations

import copy
import re

import httpx
import pytest
from pagehelp import shot, small_targets

import live_server
from rules.marco_polo_2.content import SYNTHETIC


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile-packs")
    out = d / "out.txt"
    base, proc = live_server.start(d / "h.duckdb", output=out)
    try:
        token = re.search(r"admin token\b.*:\s*(\S+)\s*$", out.read_text(), re.M).group(1)
        yield base, token
    finally:
        live_server.stop(proc)


def test_long_and_strange_pack_ids_fit_a_phone(phone, store):
    base, token = store
    ids = ["Z" * 120, "groupe d'été ✓", "a/b/c"]
    for pack_id in ids:
        data = copy.deepcopy(SYNTHETIC.data)
        data["id"] = pack_id
        made = httpx.post(f"{base}/titles/marco-polo-2/packs", json=data, headers={"Authorization": f"Bearer {token}"})
        assert made.status_code == 201, made.text
    phone.goto(f"{base}/?page=packs")
    phone.locator(f".pk-pack[data-pack='{'Z' * 120}']").wait_for()
    shot(phone, "packs-hostile-list")
    width = phone.evaluate("innerWidth")
    assert phone.evaluate("document.documentElement.scrollWidth") <= width
    assert small_targets(phone) == []
    phone.locator(f".pk-pack[data-pack='{'Z' * 120}']").get_by_role("link", name=re.compile("^Open")).click()
    phone.wait_for_selector("#pk-map svg")
    shot(phone, "packs-hostile-open")
    assert phone.evaluate("document.documentElement.scrollWidth") <= width
    assert small_targets(phone) == []
    assert phone.errors == []


def test_a_bad_pack_file_is_refused_in_words_naming_the_field_once(phone, store):
    import json

    base, token = store
    phone.goto(f"{base}/?page=packs")
    phone.locator(".pk-pack").first.wait_for()
    phone.evaluate("t => localStorage.setItem('tabletape.admin-token', t)", token)
    bad = copy.deepcopy(SYNTHETIC.data)
    bad["id"] = "mine"
    bad["caravan"]["steps"] = 5
    phone.set_input_files("input[type=file]", files=[{"name": "mine.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()}])
    phone.get_by_role("button", name="Upload").click()
    alert = phone.locator("[role=alert][data-code='marco-polo-2.bad-content-pack']")
    alert.wait_for()
    text = alert.locator("p").first.inner_text()
    assert text.count("content pack") == 1 and "pack.caravan.steps: must be a list of three steps" in text, text
    assert httpx.get(f"{base}/titles/marco-polo-2/packs/mine").status_code == 404
