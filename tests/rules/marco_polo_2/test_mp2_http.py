"""Marco Polo II over HTTP: a digital game with the invented synthetic pack played from the legal
moves the API lists, and a table game with the public pack whose moves describe components."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings
from mp2_helpers import PUB, SYN, policy, T
from test_mp2_recording import SETUP


@pytest.fixture
def client():
    with TestClient(create_app(Settings(db_path=":memory:", stream_ping_s=0.2))) as c:
        yield c


def create(client, options, seed=None):
    body = {"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": options}
    if seed is not None:
        body["seed"] = seed
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.text
    out = response.json()
    return out["game_id"], {"Authorization": f"Bearer {out['tokens']['write_token']}"}


def test_a_digital_game_is_played_from_the_listed_moves(client):
    gid, auth = create(client, {**SYN, "caravans": True}, seed=3)
    rng = random.Random(3)
    for _ in range(1000):
        legal = client.get(f"/games/{gid}/legal-moves", headers=auth).json()
        if not legal["moves"]:
            break
        moves = [T.parse_move(None, m["notation"]) for m in legal["moves"]]
        pick = legal["moves"][moves.index(policy(moves, rng))]
        response = client.post(f"/games/{gid}/moves", headers=auth, json={"notation": pick["notation"], "expected_seq": legal["at"]})
        assert response.status_code == 201, response.text
    game = client.get(f"/games/{gid}").json()
    assert "game over" in legal["status_line"] and game["status"] == "ended", game


def test_a_table_game_describes_components_in_structured_moves(client):
    gid, auth = create(client, {**PUB, "characters": "chosen"})
    response = client.post(f"/games/{gid}/moves", headers=auth, json={"notation": SETUP, "expected_seq": 1})
    assert response.status_code == 201, response.text
    bad = {"type": "marco-polo-2.goal-kept", "goal": None, "describe": [{"kind": "goal", "id": "G1", "spec": {"shields": 3}}]}
    response = client.post(f"/games/{gid}/moves", headers=auth, json={"move": bad, "expected_seq": 2})
    assert response.status_code == 422 and response.json()["code"] == "marco-polo-2.bad-description"
    frames = client.get(f"/games/{gid}/frames").json()["frames"]
    assert "contract:T1" in frames[-1]["described"]


def test_an_undescribed_component_is_refused_naming_its_kind_and_id(client):
    """The page asks the table for exactly the component the move lacks: the refusal names it in
    the body, and the same move carrying its description goes in; the game's content then lists it."""
    gid, auth = create(client, {**PUB, "characters": "chosen"})
    setup = {"type": "marco-polo-2.setup-dealt", "characters": ["dewu", "abha"], "starting_contracts": ["K01", None]}
    response = client.post(f"/games/{gid}/moves", headers=auth, json={"move": setup, "expected_seq": 1})
    assert response.status_code == 422
    body = response.json()
    assert (body["code"], body["kind"], body["id"]) == ("marco-polo-2.undescribed-component", "contract", "K01")
    assert client.get(f"/games/{gid}").json()["last_seq"] == 1  # nothing changed
    spec = {"cost": {"pepper": 1}, "reward": {"vp": 3}, "starting": True}
    again = {**setup, "describe": [{"kind": body["kind"], "id": body["id"], "spec": spec}]}
    response = client.post(f"/games/{gid}/moves", headers=auth, json={"move": again, "expected_seq": 1})
    assert response.status_code == 201, response.text
    content = client.get(f"/games/{gid}/content").json()
    assert {"id": "K01", **spec} in content["contracts"]


# --- issue 14: the three clauses the engine got wrong, through the API ------------------------------

LAID = ("bonuses=C1:CB1,C5:CB2,BAG:CB3,BAL:CB4,HOR:CB5 outposts=C2:OT1,C3:OT2,C4:OT3,C6:OT4 "
        "cards=C1:CC01,C3:CC02,C4:CC03 contracts=C2:K01,C2:K02,C5:K03,C5:K04,C6:K05,C6:K06")


def at_table(client, chars: str, roll: str, caravans: bool = False) -> tuple[str, dict]:
    """A synthetic-pack game with ``chars`` chosen, laid out, goals kept and round 1 rolled."""
    gid, auth = create(client, {**SYN, "characters": "chosen", "caravans": caravans})
    lines = [f"setup chars={chars} start=S1,S2 goals=G01,G02,G03;G04,G05,G06 {LAID}" + (" tiles=RT1,RT2,RT3,RT4,RT5,RT6" if caravans else ""),
             "@0 keep G01", "@1 keep G04", "round 1 offers=B1a,B2a,B3a upcoming=B1b,B2b,B3b area=CC04,CC05", roll]
    for text in lines:
        assert send(client, gid, auth, text).status_code == 201
    return gid, auth


def send(client, gid: str, auth: dict, text: str):
    seq = client.get(f"/games/{gid}").json()["last_seq"]
    return client.post(f"/games/{gid}/moves", headers=auth, json={"notation": text, "expected_seq": seq})


def seat0(client, gid: str, auth: dict) -> dict:
    return client.get(f"/games/{gid}/state", headers=auth).json()["view"]["seats"][0]


def test_over_http_isabella_donati_is_not_paid_for_a_black_die_rerolled(client):
    """marco-polo-2.ja.txt: "ラウンド開始時と黒ダイス獲得時のロールで各ダイスの目につき以下のものを受け取る。" (issue 14: the reroll
    paid 2 coins)"""
    gid, auth = at_table(client, "isabella,dewu", "roll 1 1,2,3,4,6;3,3,3,3,3")
    for text in ("@0 black", "@0 =5", "@0 reroll b5"):
        assert send(client, gid, auth, text).status_code == 201
    before = seat0(client, gid, auth)
    assert send(client, gid, auth, "@0 =6").status_code == 201
    after = seat0(client, gid, auth)
    assert (after["coins"], after["vp"], after["black"]) == (before["coins"], before["vp"], [6]) and after["coins"] == 12


def test_over_http_a_path_back_and_forth_over_oases_pays_each_oasis_once(client):
    """marco-polo-2.ja.txt: "この効果で飛ばしたオアシス１つにつき、３ポイントと２コインか１ラクダ獲得する。" (ruling MP2-5; issue 14:
    O3,O4,O3,... was paid for every pass, +24 VP and +9 coins)"""
    gid, auth = at_table(client, "mongke,dewu", "roll 1 1,3,3,4,4;3,3,3,3,3")
    assert send(client, gid, auth, "@0 travel 2 dice=3,3 path=C1,C2").status_code == 201  # route costs 3 coins, 1 camel
    for text in ("@0 end", "@1 khan 3", "@1 end"):
        assert send(client, gid, auth, text).status_code == 201
    before = client.get(f"/games/{gid}").json()["last_seq"]
    back_and_forth = "@0 travel 1 dice=1 path=O3,O4,O3,O4,O3,O4,O3,C6 choices="
    response = send(client, gid, auth, back_and_forth + ",".join(["coins"] * 7))
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["code"] == "marco-polo-2.extra-choice" and "coins" in body["message"]
    assert client.get(f"/games/{gid}").json()["last_seq"] == before
    legal = client.get(f"/games/{gid}/legal-moves", headers=auth).json()["moves"]
    travels = [m["notation"] for m in legal if m["notation"].startswith("@0 travel 1 dice=1 ")]
    assert "@0 travel 1 dice=1 path=O3,O4,O3,C6 choices=coins,coins" in travels  # O3 twice, paid once
    assert not any(t.startswith(back_and_forth) for t in travels)  # the same travel, longer
    vp = seat0(client, gid, auth)["vp"]
    assert send(client, gid, auth, back_and_forth + "coins,coins").status_code == 201
    assert seat0(client, gid, auth)["vp"] == vp + 2 * 3 + 3  # two oases, the outpost tile at C6


def test_over_http_donata_piece_goes_on_a_special_city_beside_the_neutral_die(client):
    """marco-polo-2.ja.txt: "フリーアクションスペース(他のダイスが置かれていないマス)にのみ配置可能。" (ruling MP2-12: with 2 players a
    neutral die holds one of the special city's two spaces, the other is free)"""
    gid, auth = at_table(client, "donata,dewu", "roll 1 4,4,4,3,3;3,3,3,3,3", caravans=True)
    for text in ("@0 travel 3 dice=4,4,4 path=O1,C3,O4 extra=C3", "@0 end", "@1 khan 3", "@1 end",
                 "@0 travel 1 dice=3 path=HOR", "@0 end", "@1 contracts 3", "@1 end"):  # her post in Hormuz
        assert send(client, gid, auth, text).status_code == 201, text
    legal = [m["notation"] for m in client.get(f"/games/{gid}/legal-moves", headers=auth).json()["moves"]]
    assert any(n.startswith("@0 special hormuz pR") for n in legal)
    response = send(client, gid, auth, "@0 special hormuz pR")
    assert response.status_code == 201, response.text
    assert seat0(client, gid, auth)["pieces"] == ["yellow", "green"]
