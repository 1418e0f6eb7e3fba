"""The content-pack library through the HTTP API: listing, upload with errors naming the field,
immutability, the admin token, pinning new games, growth from games (and the secrecy of goal
cards until their game's end), and the same hash in another store."""

from __future__ import annotations

import copy
import json

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings
from mp2play import G9, LAYOUT, OPTIONS, SETUP, T1, d, game_lines
from rules.marco_polo_2.content import PUBLIC, SYNTHETIC

MP2 = "/titles/marco-polo-2/packs"


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL (the library in its store)


@pytest.fixture
def admin(svc) -> dict[str, str]:
    return {"Authorization": f"Bearer {svc.admin_token_issued}"}


def listing(client) -> dict:
    response = client.get(MP2)
    assert response.status_code == 200, response.text
    return response.json()


def own(pack_id: str, data: dict | None = None) -> dict:
    data = copy.deepcopy(data or SYNTHETIC.data)
    data["id"] = pack_id
    return data


def new_game(client, options: dict | None = None, players=("Ana", "Bea")) -> dict:
    response = client.post("/games", json={"title": "marco-polo-2", "players": list(players), "options": options or OPTIONS})
    assert response.status_code == 201, response.text
    return response.json()


def record(svc, game_id: str, *lines: str) -> None:
    for line in lines:
        svc.recorder.record_notation(game_id, line)


def pinned(client, game_id: str) -> dict:
    return client.get(f"/games/{game_id}").json()["options"]["content"]


def test_the_library_lists_the_built_in_packs(client):
    """Marco Polo II's public and synthetic packs, Marco Polo's complete pack (read-only); a title
    without packs answers 404 no-packs."""
    out = listing(client)
    assert out["working"] is None
    by_id = {p["id"]: p for p in out["packs"]}
    assert by_id[PUBLIC.id]["hash"] == PUBLIC.hash and by_id[PUBLIC.id]["source"] == "builtin"
    assert by_id[PUBLIC.id]["components"]["node"] == 1 and not by_id[PUBLIC.id]["complete"]
    assert by_id[SYNTHETIC.id]["complete"] and by_id[SYNTHETIC.id]["components"]["contract"] > 0
    mp = client.get("/titles/marco-polo/packs").json()["packs"]
    assert [(p["id"], p["complete"], p["source"]) for p in mp] == [("marco-polo/base-2015/1", True, "builtin")]
    assert client.get("/titles/lost-cities/packs").json()["code"] == "no-packs"
    assert client.get(f"{MP2}/nope").status_code == 404


def test_an_upload_with_a_bad_field_is_refused_naming_it_and_changes_nothing(client, admin):
    before = listing(client)
    bad = own("ours-bad")
    bad["map"]["routes"][0]["coins"] = -1
    response = client.post(MP2, json=bad, headers=admin)
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "marco-polo-2.bad-content-pack" and body["field"] == "pack.map.routes[0].coins"
    missing = own("ours-bad")
    del missing["contracts"][2]["cost"]
    assert client.post(MP2, json=missing, headers=admin).json()["field"] == "pack.contracts[2].cost"
    assert client.post(MP2, json=[1, 2], headers=admin).json()["code"] == "malformed-body"
    version = client.post(f"{MP2}/{PUBLIC.id}/versions", json={"add": [d("route", "BEI-XXX", ends=["BEI", "XXX"])]}, headers=admin)
    assert version.status_code == 422 and version.json()["field"] == "pack.map.routes[0].ends[1]"
    version = client.post(f"{MP2}/{PUBLIC.id}/versions", json={"add": [{"kind": "node", "id": "KAS", "spec": {"kind": "town"}}]}, headers=admin)
    assert version.status_code == 422 and version.json()["field"] == "add[0].spec.kind"
    assert listing(client) == before


def test_writes_need_the_admin_token(client, svc, admin):
    """Missing: 401; wrong: 403; re-issued: the old token stops working, the new one writes."""
    data = own("ours-token")
    missing = client.post(MP2, json=data)
    assert (missing.status_code, missing.json()["code"]) == (401, "admin-token-missing")
    wrong = client.post(MP2, json=data, headers={"Authorization": "Bearer not-the-token"})
    assert (wrong.status_code, wrong.json()["code"]) == (403, "admin-token-wrong")
    assert client.delete(f"{MP2}/{PUBLIC.id}").status_code == 401
    assert client.post(f"{MP2}/{PUBLIC.id}/versions", json={}).status_code == 401
    # the token check comes before the pack is read: a bad pack without a token is still a 401
    assert client.post(MP2, json={"id": 5}).status_code == 401
    new = svc.admin.issue()
    assert client.post(MP2, json=data, headers=admin).json()["code"] == "admin-token-wrong"
    assert client.post(MP2, json=data, headers={"Authorization": f"Bearer {new}"}).status_code == 201
    assert all(p["id"] != "ours-bad" for p in listing(client)["packs"])


def test_a_version_is_immutable(client, admin):
    """The same content again is the same pack (200); the same id with other content is refused
    (409 pack-id-taken); a pack a game pins, a built-in one and the working one are not deleted."""
    data = own("ours-fixed")
    first = client.post(MP2, json=data, headers=admin)
    assert first.status_code == 201 and first.json()["source"] == "upload"
    again = client.post(MP2, json=data, headers=admin)
    assert again.status_code == 200 and again.json()["hash"] == first.json()["hash"]
    other = own("ours-fixed")
    other["rounds"] = 4
    taken = client.post(MP2, json=other, headers=admin)
    assert (taken.status_code, taken.json()["code"]) == (409, "pack-id-taken")
    assert client.get(f"{MP2}/ours-fixed").json()["pack"] == data

    game = new_game(client, {**OPTIONS, "content": {"id": "ours-fixed"}})
    assert pinned(client, game["game_id"]) == {"id": "ours-fixed", "hash": first.json()["hash"]}
    in_use = client.delete(f"{MP2}/ours-fixed", headers=admin)
    assert (in_use.status_code, in_use.json()["code"]) == (409, "pack-in-use")
    assert client.delete(f"{MP2}/{PUBLIC.id}", headers=admin).json()["code"] == "pack-in-use"
    assert client.get(f"{MP2}/ours-fixed").json()["games"] == 1

    spare = client.post(MP2, json=own("ours-spare"), headers=admin)
    assert spare.status_code == 201
    assert client.delete(f"{MP2}/ours-spare", headers=admin).status_code == 204
    assert client.get(f"{MP2}/ours-spare").status_code == 404
    working = client.post(f"{MP2}/ours-fixed/versions", json={"remove": [{"kind": "goal", "id": SYNTHETIC.data["goals"][0]["id"]}]}, headers=admin)
    assert working.status_code == 201 and working.json()["working"]
    assert client.delete(f"{MP2}/{working.json()['id']}", headers=admin).json()["code"] == "pack-in-use"


def test_a_new_version_and_a_diff(client, admin):
    kas = d("node", "KAS", kind="city", shield="bow")
    route = d("route", "BEI-KAS", ends=["BEI", "KAS"], coins=3)
    v1 = client.post(f"{MP2}/{PUBLIC.id}/versions", json={"add": [kas, route], "name": "our copy"}, headers=admin)
    assert v1.status_code == 201, v1.text
    assert {k: v1.json()[k] for k in ("id", "lineage", "version", "source", "working", "name")} == {
        "id": "ours-v1", "lineage": "ours", "version": 1, "source": "derived", "working": True, "name": "our copy"}
    assert v1.json()["parent"] == PUBLIC.ref
    cheaper = d("route", "BEI-KAS", ends=["BEI", "KAS"], coins=1)
    v2 = client.post(f"{MP2}/ours-v1/versions", json={"replace": [cheaper], "working": False}, headers=admin).json()
    assert (v2["id"], v2["version"], v2["working"], v2["parent"]["id"]) == ("ours-v2", 2, False, "ours-v1")
    assert listing(client)["working"]["id"] == "ours-v1"
    diff = client.get(f"{MP2}/{PUBLIC.id}/diff/ours-v2").json()
    assert diff == {"added": [kas, cheaper], "removed": [], "changed": []}
    diff = client.get(f"{MP2}/ours-v1/diff/ours-v2").json()
    assert diff["changed"] == [{"kind": "route", "id": "BEI-KAS", "before": route["spec"], "after": cheaper["spec"]}]
    assert client.get(f"{MP2}/ours-v2/diff/{v1.json()['hash']}").json()["changed"][0]["after"] == route["spec"]


def test_a_new_game_is_pinned_and_stays_on_its_version(client, svc, admin):
    """No content named: the working pack (public while the store has none); the game keeps its
    version when the working pack moves on, and replays the same."""
    first = new_game(client)
    assert pinned(client, first["game_id"]) == PUBLIC.ref
    record(svc, first["game_id"], SETUP)
    before = svc.projector.state(first["game_id"]).state
    kas = d("node", "KAS", kind="city", shield="bow")
    v = client.post(f"{MP2}/{PUBLIC.id}/versions", json={"add": [kas]}, headers=admin).json()
    second = new_game(client)
    assert pinned(client, second["game_id"])["hash"] != v["hash"]  # grown from the first game's contracts
    grown = listing(client)["working"]
    assert pinned(client, second["game_id"]) == grown
    assert client.get(f"{MP2}/{grown['id']}").json()["parent"] == {"id": v["id"], "hash": v["hash"]}
    assert pinned(client, first["game_id"]) == PUBLIC.ref
    from projections.projector import Projector

    assert Projector(svc.log).state(first["game_id"]).state == before
    explicit = new_game(client, {**OPTIONS, "content": SYNTHETIC.ref})
    assert pinned(client, explicit["game_id"]) == SYNTHETIC.ref
    foreign = client.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {"content": {"id": "x", "hash": "0" * 64}}})
    assert (foreign.status_code, foreign.json()["code"]) == (422, "marco-polo-2.content-mismatch")


def test_what_a_game_described_is_offered_to_the_next_game(client, svc):
    """Game 1 describes its starting contracts; when game 2 is created the working pack holds them,
    and game 2 lays them out with no description."""
    game1 = new_game(client)["game_id"]
    record(svc, game1, SETUP)
    game2 = new_game(client)["game_id"]
    working = listing(client)["working"]
    assert working["id"] == "ours-v1" and pinned(client, game2) == working
    info = client.get(f"{MP2}/ours-v1").json()
    assert info["source"] == "grown" and info["grown_from"] == [game1] and info["parent"] == PUBLIC.ref
    assert T1["spec"] == {k: v for k, v in next(c for c in info["pack"]["contracts"] if c["id"] == "T1").items() if k != "id"}
    record(svc, game2, LAYOUT)  # nothing described: every component is in the pack now
    assert svc.projector.state(game2).state.described == ()
    # and a third game grows nothing new: no new version
    new_game(client)
    assert listing(client)["working"]["id"] == "ours-v1"


def test_a_game_that_opts_out_grows_nothing(client, svc):
    game = new_game(client, {**OPTIONS, "grow_pack": False})["game_id"]
    record(svc, game, SETUP)
    new_game(client)
    assert listing(client)["working"] is None


def test_a_game_on_another_groups_pack_grows_nothing_of_ours(client, svc, admin):
    """Only games on the public pack or on a version of the growing lineage feed it: what a game on
    a pack uploaded from another group describes stays out of ours."""
    theirs = client.post(MP2, json=own("their-copy", PUBLIC.data), headers=admin)
    assert theirs.status_code == 201, theirs.text
    game = new_game(client, {**OPTIONS, "content": {"id": "their-copy", "hash": theirs.json()["hash"]}})
    record(svc, game["game_id"], SETUP)
    new_game(client)
    assert listing(client)["working"] is None
    assert "ours-v1" not in {p["id"] for p in listing(client)["packs"]}


def test_a_description_that_contradicts_the_working_pack_is_left_out_and_listed(client, svc, admin):
    cheap = {**T1, "spec": {**T1["spec"], "reward": {"vp": 9}}}
    client.post(f"{MP2}/{PUBLIC.id}/versions", json={"add": [cheap]}, headers=admin)
    game = new_game(client, {**OPTIONS, "content": PUBLIC.ref})["game_id"]
    record(svc, game, SETUP)
    new_game(client)
    info = client.get(f"{MP2}/{listing(client)['working']['id']}").json()
    assert info["version"] == 2 and [(c["kind"], c["id"]) for c in info["conflicts"]] == [("contract", "T1")]
    assert next(c for c in info["pack"]["contracts"] if c["id"] == "T1")["reward"] == {"vp": 9}
    # why, in the reader's language
    said = {
        lang: client.get(f"{MP2}/{listing(client)['working']['id']}", headers={"Accept-Language": lang}).json()["conflicts"][0]["why"]
        for lang in ("en", "es", "ja")
    }
    assert said == {"en": "the pack says otherwise", "es": "el paquete dice otra cosa", "ja": "パックの内容と食い違います"}
    listed = client.get(MP2, headers={"Accept-Language": "es"}).json()["packs"]
    assert [c["why"] for p in listed for c in p.get("conflicts") or []] == ["el paquete dice otra cosa"]


def everything_public(client) -> str:
    """Every answer about packs a client can get, as one text."""
    out = [json.dumps(listing(client))]
    ids = [p["id"] for p in listing(client)["packs"]]
    for pid in ids:
        out.append(client.get(f"{MP2}/{pid}").text)
        out.append(client.get(f"{MP2}/{pid}", params={"download": 1}).text)
        out += [client.get(f"{MP2}/{pid}/diff/{other}").text for other in ids]
    return "\n".join(out)


def test_a_goal_card_reaches_no_pack_before_its_game_ends(client, svc):
    """A goal card described in a game in progress (the first of two reveals) is in no pack, pack
    list, diff or info while the game goes on, even when new games grow the pack meanwhile; its
    game's end adds it."""
    game = new_game(client)["game_id"]
    lines = game_lines()
    record(svc, game, *lines[:-1])  # G9 revealed and described, the game waits for seat 1's goal
    assert svc.projector.state(game).ended is None
    new_game(client)
    text = everything_public(client)
    assert "ours-v1" in text and "KAS-XIA" in text  # the public part of the game did grow the pack
    assert "G9" not in text
    for pack in listing(client)["packs"]:
        goals = client.get(f"{MP2}/{pack['id']}").json()["pack"].get("goals", [])
        assert all({k: v for k, v in g.items() if k != "id"} != G9["spec"] for g in goals)
    record(svc, game, lines[-1])
    assert svc.projector.state(game).ended is not None
    working = listing(client)["working"]
    goals = {g["id"] for g in client.get(f"{MP2}/{working['id']}").json()["pack"]["goals"]}
    assert goals == {"G9", "G8"} and working["id"] == "ours-v2"


def test_the_end_of_a_game_grows_the_pack(client, svc):
    game = new_game(client)["game_id"]
    record(svc, game, *game_lines())
    working = listing(client)["working"]
    pack = client.get(f"{MP2}/{working['id']}").json()
    assert pack["grown_from"] == [game] and pack["components"]["goal"] == 2 and pack["components"]["route"] == 2
    assert pack["components"]["contract"] == 5 and pack["components"]["book"] == 1
    again = new_game(client)  # the ended game grows nothing twice
    assert listing(client)["working"] == working == pinned(client, again["game_id"])


def test_the_same_content_has_the_same_hash_in_another_store(client, admin, tmp_path):
    game = new_game(client)["game_id"]
    client.app.state.services.recorder.record_notation(game, SETUP)
    new_game(client)
    working = listing(client)["working"]
    download = client.get(f"{MP2}/{working['id']}", params={"download": 1})
    assert download.headers["content-disposition"] == f'attachment; filename="{working["id"]}.json"'
    with TestClient(create_app(Settings(db_path=str(tmp_path / "other.duckdb")))) as other:
        token = other.app.state.services.admin_token_issued
        up = other.post(f"{MP2}?working=true", content=download.content, headers={
            "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        assert up.status_code == 201 and up.json()["hash"] == working["hash"] and up.json()["working"]
        again = other.get(f"{MP2}/{working['id']}", params={"download": 1})
        assert json.loads(again.content) == json.loads(download.content)
        created = other.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": OPTIONS}).json()
        assert other.get(f"/games/{created['game_id']}").json()["options"]["content"] == working


def test_an_id_two_packs_share_is_named_by_hash(client, svc, admin):
    """An import may bring a pack whose id this store uses for other content: both are kept, told
    apart by hash; the id alone is then refused where it is ambiguous."""
    mine = client.post(f"{MP2}/{PUBLIC.id}/versions", json={"add": [d("node", "KAS", kind="city", shield="bow")]}, headers=admin).json()
    theirs = copy.deepcopy(PUBLIC.data)
    theirs["id"] = "ours-v1"
    theirs["map"]["nodes"].append({"id": "XIA", "kind": "city", "shield": "fish"})
    svc.packs.keep([svc.packs.stage("marco-polo-2", theirs)])
    ambiguous = client.get(f"{MP2}/ours-v1")
    assert (ambiguous.status_code, ambiguous.json()["code"]) == (409, "pack-id-ambiguous")
    assert mine["hash"] in ambiguous.json()["hashes"]
    one = client.get(f"{MP2}/ours-v1", params={"hash": mine["hash"]}).json()
    assert one["source"] == "derived" and [n["id"] for n in one["pack"]["map"]["nodes"]] == ["BEI", "KAS"]
    refused = client.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {"content": {"id": "ours-v1"}}})
    assert (refused.status_code, refused.json()["code"]) == (422, "marco-polo-2.content-mismatch")
    game = new_game(client, {"content": {"hash": mine["hash"]}})
    assert pinned(client, game["game_id"]) == {"id": "ours-v1", "hash": mine["hash"]}


def test_a_built_in_pack_can_be_made_working(client, admin):
    up = client.post(f"{MP2}?working=true", json=SYNTHETIC.data, headers=admin)
    assert up.status_code == 200 and up.json()["source"] == "builtin" and up.json()["working"]
    game = new_game(client, {"characters": "offer"})
    assert pinned(client, game["game_id"]) == SYNTHETIC.ref


def test_a_refused_creation_grows_nothing(client, svc):
    game = new_game(client)["game_id"]
    record(svc, game, SETUP)
    refused = client.post("/games", json={"title": "marco-polo-2", "players": ["A", "B", "C", "D", "E"], "options": OPTIONS})
    assert refused.status_code == 422 and refused.json()["code"] == "marco-polo-2.player-count"
    assert listing(client)["working"] is None
    assert new_game(client) and listing(client)["working"]["id"] == "ours-v1"
