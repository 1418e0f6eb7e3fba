"""Packs passing between groups on the page, in a real Chromium at 375x812 over two real stores
(each grew its partial Marco Polo II pack from a game recorded over HTTP): a pack's link copied
and its QR code shown on one store, the link pasted into the other's page, which offers the pack
and adds it on one tap, and the two packs merged with the clash shown side by side and the side
to keep tapped; then the same in Spanish with a share link opened directly and a place that the
two packs draw at different points. axe-core clean, tap targets of 44 px, no ids or hashes in
visible text; screenshots in test-artifacts/web/."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import pytest
from packgroups import GROUP_A, GROUP_B, R02_A, R02_B, admin_token, grown_over_http
from pagehelp import ARTIFACTS, axe_violations, shot, small_targets

import live_server

MP2 = "/titles/marco-polo-2/packs"


@pytest.fixture(scope="module")
def groups(tmp_path_factory):
    """Group A's store and group B's, each {base, token, pack} (``pack``: the ``{id, hash}`` it grew)."""
    d = tmp_path_factory.mktemp("passing")
    procs, stores = [], []
    try:
        for name, lines in (("a", GROUP_A), ("b", GROUP_B)):
            out = d / f"{name}.txt"
            base, proc = live_server.start(d / f"{name}.duckdb", output=out, timeout=90)
            procs.append(proc)
            with httpx.Client(base_url=base, timeout=20) as http:
                stores.append({"base": base, "token": admin_token(out), "pack": grown_over_http(http, lines)})
        yield tuple(stores)
    finally:
        for proc in procs:
            live_server.stop(proc)


def visible_text(page, scope: str = "main") -> str:
    return page.locator(scope).inner_text()


def no_codes(text: str, *codes: str) -> None:
    for code in codes:
        assert code not in text, (code, text)


def working(base: str) -> dict:
    return httpx.get(f"{base}{MP2}", timeout=10).json()["working"]


def pack_data(base: str, digest: str) -> dict:
    return httpx.get(f"{base}{MP2}/{digest}", timeout=10).json()["pack"]


def test_a_pack_passed_by_its_link_and_merged_with_the_clash_chosen(tall_phone, groups):
    phone = tall_phone
    a, b = groups
    ours, theirs = a["pack"], b["pack"]
    assert ours["id"] == theirs["id"] == "ours-v1" and ours["hash"] != theirs["hash"]
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=b["base"])

    # group B copies its pack's link and shows its QR code
    phone.goto(f"{b['base']}/?page=packs")
    card = phone.locator(f".pk-pack[data-hash='{theirs['hash']}']")
    card.locator("[data-action=copy-link]").click()
    phone.locator(f"[data-copied='{theirs['hash']}']").wait_for()
    link = phone.evaluate("() => navigator.clipboard.readText()")
    assert link == httpx.get(f"{b['base']}{MP2}/{theirs['hash']}/share", timeout=10).json()["link"]
    assert "send it to the other group" in phone.locator(".pk-status").inner_text()
    card.locator("[data-action=qr]").click()
    qr = phone.locator("#pk-qr img.pk-qr")
    qr.wait_for()
    phone.wait_for_function("() => { const i = document.querySelector('#pk-qr img.pk-qr'); return i && i.complete && i.naturalWidth > 0; }")
    assert qr.get_attribute("alt") == "QR code of the link to the pack “ours-v1”"
    assert qr.bounding_box()["width"] >= 200
    assert axe_violations(phone) == []
    assert small_targets(phone, "#pk-qr") == []
    phone.screenshot(path=str(ARTIFACTS / "pack-passing-00-qr.png"))  # the screen as seen: the dialog over the list
    phone.locator("#pk-qr").get_by_role("button", name="Close").click()
    assert small_targets(phone, "main") == []
    no_codes(visible_text(phone), theirs["hash"])

    # group A pastes the link into its page: the pack is offered, and added on one tap
    phone.goto(f"{a['base']}/?page=packs")
    phone.fill("#pk-link", "Samarkand, 2 coins to Kashgar")  # no link: said so, nothing fetched
    phone.get_by_role("button", name="Show the pack").click()
    phone.get_by_text("That is not a pack link: it leads to no pack file.").wait_for()
    assert phone.locator(".pk-offer").count() == 0
    phone.fill("#pk-link", link)
    phone.get_by_role("button", name="Show the pack").click()
    offer = phone.locator(".pk-offer")
    offer.get_by_role("button", name="Add this pack to our store").wait_for()
    assert offer.locator(".pk-offer-holds li").all_inner_texts() == ["Places: 1", "Contracts: 4", "City cards: 1", "City bonus markers: 1"]
    no_codes(offer.inner_text(), theirs["hash"], "R02", "Q2")
    assert axe_violations(phone) == []
    assert small_targets(phone, "main") == []
    shot(phone, "pack-passing-01-offered")
    offer.get_by_role("button", name="Add this pack to our store").click()
    phone.fill("#pk-admin-token", a["token"])  # the store's admin token, asked for once
    phone.get_by_role("button", name="Use it").click()
    phone.locator(f"[data-uploaded='{theirs['hash']}']").wait_for()
    assert "import=" not in phone.url  # the offer is gone: a reload does not offer it again
    there = httpx.get(f"{a['base']}{MP2}", timeout=10).json()["packs"]
    imported = next(p for p in there if p["hash"] == theirs["hash"])
    assert (imported["id"], imported["source"]) == ("ours-v1", "import")
    before = working(a["base"])
    assert before == theirs  # "Use it for new games" was ticked
    phone.goto(f"{a['base']}/?{urlsplit(link).query}")  # the link opened again: the pack is there already
    phone.locator(f"[data-offer-there='{theirs['hash']}']").wait_for()
    assert offer.get_by_role("button", name="Add this pack to our store").count() == 0
    phone.goto(f"{a['base']}/?page=packs")

    # the two merged: the clash side by side, the side to keep tapped, the merged pack stored
    phone.select_option("#pk-merge-a", ours["hash"])
    phone.select_option("#pk-merge-b", theirs["hash"])
    phone.get_by_role("button", name="Compare them").click()
    clash = phone.locator("fieldset[data-clash='contract:R02']")
    clash.wait_for()
    assert phone.locator("fieldset.pk-clash").count() == 1
    first, second = clash.locator("[data-clash-side=a]"), clash.locator("[data-clash-side=b]")
    assert "You receive: 6 VP" in first.inner_text(), first.inner_text()
    assert "You receive: 5 VP" in second.inner_text(), second.inner_text()
    assert "Differs in: You receive" in clash.inner_text()
    box_a, box_b = first.bounding_box(), second.bounding_box()
    assert abs(box_a["y"] - box_b["y"]) < 2 and box_a["x"] + box_a["width"] <= box_b["x"]  # side by side
    no_codes(visible_text(phone, ".pk-merge-section"), "R02", ours["hash"], theirs["hash"])
    phone.get_by_role("button", name="Merge", exact=True).click()
    phone.get_by_text("Choose a side of every component first (1 left).").wait_for()
    assert working(a["base"]) == before  # nothing written before every clash is chosen
    second.click()
    assert second.locator("input").is_checked()
    assert phone.get_by_text("Choose a side of every component first").count() == 0
    assert axe_violations(phone) == []
    assert small_targets(phone, "main") == []
    shot(phone, "pack-passing-02-clash-chosen")
    phone.get_by_role("button", name="Merge", exact=True).click()
    merged = phone.locator("[data-merged]")
    merged.wait_for()
    assert "Merged as" in merged.inner_text() and "new games use it" in merged.inner_text()
    now = working(a["base"])
    assert now["hash"] == merged.get_attribute("data-merged")
    data = pack_data(a["base"], now["hash"])
    assert next(c for c in data["contracts"] if c["id"] == "R02")["reward"] == R02_B["spec"]["reward"] != R02_A["spec"]["reward"]
    assert {"Q1", "Q2"} <= {c["id"] for c in data["city_cards"]}
    phone.locator(f".pk-pack[data-hash='{now['hash']}'] [data-working]").wait_for()
    shot(phone, "pack-passing-03-merged")


def test_in_spanish_a_share_link_opened_adds_on_one_tap_and_a_moved_place_is_a_clash(tall_phone, groups):
    phone = tall_phone
    a, b = groups
    # group B draws Kashgar on its map: the same city as A's, at a point of its own
    kashgar = {"kind": "node", "id": "KAS", "spec": {"kind": "city", "shield": "bow", "x": 300, "y": 200}}
    with httpx.Client(base_url=b["base"], timeout=10, headers={"Authorization": f"Bearer {b['token']}"}) as http:
        made = http.post(f"{MP2}/{b['pack']['hash']}/versions", json={"add": [kashgar], "working": False})
        assert made.status_code == 201, made.text
        drawn = made.json()
        link = http.get(f"{MP2}/{drawn['hash']}/share").json()["link"]
    # opened on group A's page (the link's query on A's address), A's admin token already kept
    before = working(a["base"])  # the merged pack of the test before
    phone.goto(f"{a['base']}/")
    phone.evaluate("token => { localStorage.setItem('tabletape.lang', 'es'); localStorage.setItem('tabletape.admin-token', token); }", a["token"])
    phone.goto(f"{a['base']}/?{urlsplit(link).query}")
    offer = phone.locator(".pk-offer")
    add = offer.get_by_role("button", name="Añadir este paquete a nuestro almacén")
    add.wait_for()
    assert offer.locator("h2").inner_text() == "Un paquete que os han pasado"
    assert "Contiene:" in offer.inner_text() and "Lugares: 2" in offer.locator(".pk-offer-holds").inner_text()
    assert axe_violations(phone) == []
    assert small_targets(phone, "main") == []
    shot(phone, "pack-passing-04-es-offered")
    add.click()  # one tap
    phone.locator(f"[data-uploaded='{drawn['hash']}']").wait_for()
    assert drawn["hash"] in [p["hash"] for p in httpx.get(f"{a['base']}{MP2}", timeout=10).json()["packs"]]
    # a page opened over plain http on the group's network has no clipboard (no secure origin): the link in a field
    phone.evaluate("() => Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    phone.locator(f".pk-pack[data-hash='{drawn['hash']}'] [data-action=copy-link]").click()
    field = phone.locator("#pk-link-copy")
    field.wait_for()
    assert field.input_value() == httpx.get(f"{a['base']}{MP2}/{drawn['hash']}/share", timeout=10).json()["link"]
    assert phone.locator("label[for=pk-link-copy]").inner_text() == "Copia este enlace y envíalo al otro grupo:"

    # merged with A's working pack: Kashgar drawn elsewhere is a clash, shown by where it is drawn
    assert working(a["base"]) == {"id": drawn["id"], "hash": drawn["hash"]}  # "use it for new games" was ticked
    phone.select_option("#pk-merge-a", before["hash"])
    phone.select_option("#pk-merge-b", drawn["hash"])
    phone.get_by_role("button", name="Compararlos").click()
    place = phone.locator("fieldset[data-clash='node:KAS']")
    place.wait_for()
    assert "dónde está dibujado en el mapa" in place.inner_text()
    assert "Colocado en el mapa por la disposición automática" in place.locator("[data-clash-side=a]").inner_text()
    assert "Dibujado en el mapa en 300, 200" in place.locator("[data-clash-side=b]").inner_text()
    no_codes(place.inner_text(), "KAS", "?")
    for fieldset in phone.locator("fieldset.pk-clash").all():
        fieldset.locator("[data-clash-side=b]").click()
    assert axe_violations(phone) == []
    assert small_targets(phone, "main") == []
    shot(phone, "pack-passing-05-es-place-clash")
    phone.get_by_role("button", name="Combinar", exact=True).click()
    phone.locator("[data-merged]").wait_for()
    assert phone.evaluate("document.documentElement.getAttribute('data-missing-i18n')") is None
    after = working(a["base"])
    assert after["hash"] not in (before["hash"], drawn["hash"])
    node = next(n for n in pack_data(a["base"], after["hash"])["map"]["nodes"] if n["id"] == "KAS")
    assert (node["x"], node["y"]) == (300, 200)
