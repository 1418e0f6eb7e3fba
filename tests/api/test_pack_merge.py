"""Packs passing between groups over HTTP: two stores grow partial packs from real games, one
imports the other's by its file (the hash its link names checked), the two are merged (a clash
shown side by side, resolved by choosing a side; nothing written on a refusal), and a game on the
merged pack records with no description of what it holds."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings
from packgroups import A_AGAIN, B_AGAIN, GROUP_A, GROUP_B, NEW_GAME, Q1, Q2, R02_A, R02_B, grow

MP2 = "/titles/marco-polo-2/packs"


def group(client) -> dict:
    """The group's store grows its pack from its game: the working pack's ``{id, hash}``."""
    svc = client.app.state.services
    created = lambda: client.post("/games", json=NEW_GAME).json()["game_id"]  # noqa: E731
    grow(created, svc.recorder.record_notation, GROUP_A if client.group == "a" else GROUP_B)
    return client.get(MP2).json()["working"]


@pytest.fixture
def two(tmp_path):
    """Group A's store and group B's, each a real app over its own DuckDB file."""
    with TestClient(create_app(Settings(db_path=str(tmp_path / "a.duckdb")))) as a, \
            TestClient(create_app(Settings(db_path=str(tmp_path / "b.duckdb")))) as b:
        a.group, b.group = "a", "b"
        a.admin = {"Authorization": f"Bearer {a.app.state.services.admin_token_issued}"}
        b.admin = {"Authorization": f"Bearer {b.app.state.services.admin_token_issued}"}
        yield a, b


def passed(a, b, theirs: dict) -> dict:
    """B's pack into A's store the way its share link leads: the file, imported with the link's hash."""
    share = b.get(f"{MP2}/{theirs['hash']}/share").json()
    query = parse_qs(urlsplit(share["link"]).query)
    assert query["hash"] == [theirs["hash"]] and query["import"] == [share["file"]]
    file = b.get(urlsplit(share["file"]).path, params={"download": 1})
    assert file.headers["access-control-allow-origin"] == "*"  # another store's page may read it
    got = a.post(f"{MP2}/import", content=file.content, params={"hash": query["hash"][0]},
                 headers={**a.admin, "Content-Type": "application/json"})
    assert got.status_code == 201, got.text
    return got.json()


def test_two_groups_partial_packs_merge_with_the_clash_chosen(two):
    a, b = two
    ours, theirs = group(a), group(b)
    assert ours["id"] == theirs["id"] == "ours-v1" and ours["hash"] != theirs["hash"]
    imported = passed(a, b, theirs)
    # the same id, other content: kept beside ours, told apart by hash
    assert imported["hash"] == theirs["hash"] and imported["source"] == "import" and imported["id"] == "ours-v1"
    before = a.get(MP2).json()

    plan = a.get(f"{MP2}/{ours['hash']}/merge/{theirs['hash']}")
    assert plan.status_code == 200, plan.text
    plan = plan.json()
    assert plan["clashes"] == [{"kind": "contract", "id": "R02", "a": R02_A["spec"], "b": R02_B["spec"], "kept": None}]
    assert {(c["kind"], c["id"]) for c in plan["from_b"]} == {("city_card", "Q2")}
    assert ("city_card", "Q1") in {(c["kind"], c["id"]) for c in plan["from_a"]}
    assert ("node", "KAS") in {(c["kind"], c["id"]) for c in plan["from_a"]}
    assert plan["same"] >= 4  # T1, T2, R01, M1 (and Beijing) taken once

    body = {"a": ours["hash"], "b": theirs["hash"], "name": "both tables"}
    refused = a.post(f"{MP2}/merge", json=body, headers=a.admin)
    assert refused.status_code == 409 and refused.json()["code"] == "pack-merge-clash"
    assert refused.json()["clashes"][0]["a"] == R02_A["spec"] and refused.json()["clashes"][0]["b"] == R02_B["spec"]
    bad = a.post(f"{MP2}/merge", json={**body, "keep": [{"kind": "contract", "id": "T1", "side": "b"}]}, headers=a.admin)
    assert bad.status_code == 422 and bad.json()["field"] == "keep[0].id"
    assert a.post(f"{MP2}/merge", json=body).status_code == 401
    assert a.get(MP2).json() == before  # nothing changed on a refusal

    made = a.post(f"{MP2}/merge", json={**body, "keep": [{"kind": "contract", "id": "R02", "side": "b"}]}, headers=a.admin)
    assert made.status_code == 201, made.text
    made = made.json()
    assert made["source"] == "merged" and made["id"] == "ours-v2" and made["working"] and made["name"] == "both tables"
    assert made["merged_from"] == [ours, theirs] and made["parent"] == ours
    pack = a.get(f"{MP2}/{made['hash']}").json()["pack"]
    cards = {c["id"]: {k: v for k, v in c.items() if k != "id"} for c in pack["city_cards"]}
    assert cards["Q1"] == Q1["spec"] and cards["Q2"] == Q2["spec"] and {"A11", "A12"} <= set(cards)
    assert next(c for c in pack["contracts"] if c["id"] == "R02")["reward"] == R02_B["spec"]["reward"]
    # the same merge again is the pack already there
    again = a.post(f"{MP2}/merge", json={**body, "keep": [{"kind": "contract", "id": "R02", "side": "b"}]}, headers=a.admin)
    assert again.status_code == 200 and again.json()["hash"] == made["hash"]

    # a game on the merged pack records either table's setup with no description
    svc = a.app.state.services
    for line in (A_AGAIN, B_AGAIN):
        game = a.post("/games", json=NEW_GAME).json()["game_id"]
        assert a.get(f"/games/{game}").json()["options"]["content"]["hash"] == made["hash"]
        svc.recorder.record_notation(game, line)
        assert svc.projector.state(game).state.described == ()


def test_a_merge_that_adds_nothing_is_the_pack_already_there(two):
    a, _ = two
    ours = group(a)
    same = a.post(f"{MP2}/merge", json={"a": ours["hash"], "b": ours["hash"]}, headers=a.admin)
    assert same.status_code == 200 and same.json()["hash"] == ours["hash"]


def test_an_import_whose_content_is_not_what_the_link_names_is_refused(two):
    a, b = two
    theirs = group(b)
    file = b.get(f"{MP2}/{theirs['hash']}", params={"download": 1}).json()
    file["city_cards"][0]["gain"] = {"gold": 9}
    before = a.get(MP2).json()
    got = a.post(f"{MP2}/import", json=file, params={"hash": theirs["hash"]}, headers=a.admin)
    assert got.status_code == 422 and got.json()["code"] == "marco-polo-2.content-mismatch"
    assert a.get(MP2).json() == before


def test_the_share_link_and_its_qr_code(two):
    _, b = two
    theirs = group(b)
    share = b.get(f"{MP2}/{theirs['hash']}/share").json()
    assert share["link"].startswith("http://testserver/?page=packs&title=marco-polo-2&import=")
    qr = b.get(urlsplit(share["qr"]).path)
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml" and b"<svg" in qr.content
    assert b.get(f"{MP2}/nope/share").status_code == 404
