"""A hostile or careless pack file through the HTTP API: every wrong shape is a 422 naming the
field (never a 500) and adds nothing; an id of any letters downloads under a safe file name."""

from __future__ import annotations

import copy
import hashlib
import json
from urllib.parse import unquote

import duckdb
import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings
from rules.marco_polo_2.content import PUBLIC, SYNTHETIC

MP2 = "/titles/marco-polo-2/packs"


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


@pytest.fixture
def admin(svc) -> dict[str, str]:
    return {"Authorization": f"Bearer {svc.admin_token_issued}"}


def own(pack_id: str, change=None) -> dict:
    data = copy.deepcopy(SYNTHETIC.data)
    data["id"] = pack_id
    if change is not None:
        change(data)
    return data


def put(path: str, value):
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[int(key)] if isinstance(data, list) else data[key]
        data[last] = value

    return change


WRONG_SHAPES = [
    (put("black_dice", {"x": 1}), "pack.black_dice.x"),
    (put("black_dice", {"2": 1, "3": 2}), "pack.black_dice.4"),
    (put("neutral", [1]), "pack.neutral"),
    (put("neutral", {"x": {}}), "pack.neutral.x"),
    (put("travel.x", {"dice": 1}), "pack.travel.x"),
    (put("caravan.steps", 5), "pack.caravan.steps"),
    (put("caravan.steps", [1]), "pack.caravan.steps"),
    (put("map.nodes", 5), "pack.map.nodes"),
    (put("map.routes", 5), "pack.map.routes"),
    (put("map.nodes.0.slots", 5), "pack.map.nodes[0].slots"),
    (put("most_contracts_vp", ["a", "b"]), "pack.most_contracts_vp[0]"),
    (put("title", 5), "pack.title"),
    (put("layout", "x"), "pack.layout"),
    (put("rounds", 10**30), "pack.rounds"),
    (put("dice_per_player", 10**6), "pack.dice_per_player"),
    (put("contract_pile", 10**20), "pack.contract_pile"),
    (put("id", "x" * 129), "pack.id"),
    (put("id", 'a"b\r\nX-Evil: 1'), "pack.id"),
]


@pytest.mark.parametrize(("change", "field"), WRONG_SHAPES, ids=[f for _, f in WRONG_SHAPES])
def test_a_wrong_shape_is_refused_naming_its_field(client, admin, change, field):
    before = client.get(MP2).json()
    response = client.post(MP2, json=own("hostile", change), headers=admin)
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["code"] == "marco-polo-2.bad-content-pack" and body["field"] == field
    assert client.get(MP2).json() == before


def test_an_id_ending_in_a_huge_version_is_kept_as_its_own_lineage(client, admin):
    response = client.post(MP2, json=own("x-v99999999999999999999"), headers=admin)
    assert response.status_code == 201, response.text
    assert (response.json()["lineage"], response.json()["version"]) == ("x-v99999999999999999999", 1)


@pytest.mark.parametrize("pack_id", ["ours ✓ é", "a/b c", "groupe \"d'été\""])
def test_an_id_of_any_letters_downloads_under_a_safe_file_name(client, admin, pack_id):
    made = client.post(MP2, json=own(pack_id), headers=admin)
    assert made.status_code == 201, made.text
    download = client.get(f"{MP2}/{made.json()['hash']}", params={"download": 1})
    assert download.status_code == 200 and json.loads(download.content)["id"] == pack_id
    disposition = download.headers["content-disposition"]
    assert disposition.isascii() and '"' not in disposition.split('filename="')[1].split('"', 1)[0]
    assert unquote(disposition.split("filename*=UTF-8''")[1]) == f"{pack_id}.json"


def contract(cid: str, **reward) -> dict:
    return {"kind": "contract", "id": cid, "spec": {"cost": {"silk": 1}, "reward": reward or {"vp": 1}}}


S1 = SYNTHETIC.data["contracts"][0]
S1_SPEC = {k: v for k, v in S1.items() if k != "id"}
CONTRADICTIONS = [
    ({"add": [contract("ZZ"), contract("ZZ", vp=9)]}, "add[1].id"),
    ({"remove": [{"kind": "contract", "id": S1["id"]}], "replace": [{"kind": "contract", "id": S1["id"], "spec": S1_SPEC}]},
     "replace[0].id"),
    ({"replace": [{"kind": "contract", "id": S1["id"], "spec": S1_SPEC},
                  {"kind": "contract", "id": S1["id"], "spec": {**S1_SPEC, "reward": {"vp": 99}}}]}, "replace[1].id"),
    ({"remove": [{"kind": "contract", "id": S1["id"]}] * 2}, "remove[1].id"),
]


@pytest.mark.parametrize(("body", "field"), CONTRADICTIONS, ids=[f for _, f in CONTRADICTIONS])
def test_a_version_that_changes_one_component_twice_is_refused(client, admin, body, field):
    before = client.get(MP2).json()
    response = client.post(f"{MP2}/{SYNTHETIC.id}/versions", json=body, headers=admin)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field and "change it once" in response.json()["message"]
    assert client.get(MP2).json() == before


@pytest.mark.parametrize("body", [{}, {"replace": [{"kind": "contract", "id": S1["id"], "spec": S1_SPEC}]}])
def test_a_version_that_changes_nothing_is_refused(client, admin, body):
    before = client.get(MP2).json()
    response = client.post(f"{MP2}/{SYNTHETIC.id}/versions", json=body, headers=admin)
    assert response.status_code == 422 and response.json()["code"] == "pack-unchanged", response.text
    assert client.get(MP2).json() == before
    renamed = client.post(f"{MP2}/{SYNTHETIC.id}/versions", json={**body, "name": "Our copy"}, headers=admin)
    assert renamed.status_code == 201 and renamed.json()["name"] == "Our copy"


def test_a_game_cannot_pin_a_pack_deleted_from_the_store(client, admin):
    """The rules registry of the process still holds a deleted pack; the store does not."""
    made = client.post(MP2, json=own("gone"), headers=admin)
    assert made.status_code == 201
    assert client.delete(f"{MP2}/gone", headers=admin).status_code == 204
    games = client.get("/games").json()
    for content in ({"id": "gone"}, made.json() | {}):
        ref = {"id": content["id"], **({"hash": content["hash"]} if "hash" in content else {})}
        response = client.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {"content": ref}})
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "marco-polo-2.content-mismatch" and response.json()["field"] == "options.content"
    assert client.get("/games").json() == games


def test_versions_of_the_synthetic_pack_are_not_numbered_among_the_groups_own(client, admin):
    synthetic = client.post(f"{MP2}/{SYNTHETIC.id}/versions", json={"add": [contract("ZZ")], "working": False}, headers=admin)
    assert synthetic.status_code == 201, synthetic.text
    assert (synthetic.json()["id"], synthetic.json()["lineage"]) == (f"{SYNTHETIC.id}-v2", SYNTHETIC.id)
    ours = client.post(f"{MP2}/{PUBLIC.id}/versions", json={"add": [contract("ZZ")]}, headers=admin)
    assert (ours.json()["id"], ours.json()["version"]) == ("ours-v1", 1)


def test_a_place_at_500_0_is_the_place_at_500(client, admin):
    """A browser writes 500.0 as 500: the pack has one hash whichever client sent it."""
    as_float = own("drawn", put("map.nodes.0.x", 500.0))
    as_int = own("drawn", put("map.nodes.0.x", 500))
    first = client.post(MP2, json=as_float, headers=admin)
    assert first.status_code == 201, first.text
    again = client.post(MP2, json=as_int, headers=admin)
    assert again.status_code == 200 and again.json()["hash"] == first.json()["hash"]
    assert client.get(f"{MP2}/drawn").json()["pack"]["map"]["nodes"][0]["x"] == 500


def nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [40, 400, 900])
def test_a_pack_nested_too_deep_is_refused_naming_its_field(client, admin, depth):
    before = client.get(MP2).json()
    response = client.post(MP2, json=own("deep", put("layout", {"a": nested(depth)})), headers=admin)
    assert response.status_code == 422, response.text
    assert (response.json()["code"], response.json()["field"]) == ("pack-too-deep", "pack.layout")
    assert client.get(MP2).json() == before
    assert client.get(f"{MP2}/deep").status_code == 404


def test_a_pack_nested_past_pythons_own_limit_is_refused(client, admin):
    body = json.dumps(own("deep", put("layout", "LAYOUT"))).replace('"LAYOUT"', "[" * 100_000 + "]" * 100_000)
    response = client.post(MP2, content=body, headers={**admin, "Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    version = client.post(f"{MP2}/{SYNTHETIC.id}/versions", json={"add": [{"kind": "contract", "id": "ZZ", "spec": nested(900)}]}, headers=admin)
    assert version.status_code == 422, version.text


def test_a_pack_too_large_is_refused_naming_it(client, admin):
    response = client.post(MP2, json=own("big", put("layout", {"notes": "x" * 600_000})), headers=admin)
    assert response.status_code == 422, response.text
    assert (response.json()["code"], response.json()["field"]) == ("pack-too-large", "pack")
    assert client.get(f"{MP2}/big").status_code == 404


def test_a_deep_pack_stored_before_the_limits_is_refused_by_name_on_every_read(tmp_path):
    """A store that took a deep pack before uploads were limited opens, lists, and answers every
    read of that pack with a 409 naming it (no 500, no dropped connection)."""
    db = str(tmp_path / "old.duckdb")
    with TestClient(create_app(Settings(db_path=db))):
        pass  # the store's tables
    data = json.dumps(own("deep", put("layout", {"a": nested(900)})), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(data.encode()).hexdigest()
    with duckdb.connect(db) as con:
        con.execute(
            "INSERT INTO packs VALUES ('marco-polo-2', ?, 'deep', ?, 'deep', 'deep', 1, NULL, NULL, 'upload', now(), '{}')",
            [digest, data],
        )
    with TestClient(create_app(Settings(db_path=db))) as client:
        assert client.get(MP2).status_code == 200
        for params in ({}, {"download": 1}):
            for ref in ("deep", digest):
                response = client.get(f"{MP2}/{ref}", params=params)
                assert response.status_code == 409, response.text
                assert response.json()["code"] == "pack-not-served" and "'deep'" in response.json()["message"]
        game = client.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {"content": {"id": "deep"}}})
        assert (game.status_code, game.json()["field"]) == (422, "options.content")
        # a game pinned to it before the limits (recorded as the store's creations then were) still reads
        old, _ = client.app.state.services.recorder.create("marco-polo-2", ["Ana", "Bea"], {"content": {"id": "deep", "hash": digest}})
        for path in (f"/games/{old}", f"/games/{old}/state"):
            assert client.get(path).status_code == 200, client.get(path).text


@pytest.mark.parametrize(("text", "field"), [('"\\ud800": 1', "pack.\\ud800"), ('"layout": {"\\ud800": 1}', "pack.layout"), ('"title": "a\\ud800"', "pack.title")])
def test_a_lone_surrogate_in_a_pack_is_refused_naming_its_field(client, admin, text, field):
    before = client.get(MP2).json()
    body = json.dumps(own("odd"))[:-1] + ", " + text + "}"
    response = client.post(MP2, content=body, headers={**admin, "Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert (response.json()["code"], response.json()["field"]) == ("pack-not-unicode", field)
    assert client.get(MP2).json() == before
