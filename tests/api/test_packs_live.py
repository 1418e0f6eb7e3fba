"""The pack library on a real ``tabletape serve``: the admin token printed once, on the store's
first start, writes packs over real HTTP; a restart prints nothing and the token still works."""

from __future__ import annotations

import copy
import re

import httpx
import live_server

from rules.marco_polo_2.content import SYNTHETIC

TOKEN = re.compile(r"admin token of this store \(shown once; it writes the content-pack library\): (\S+)")


def test_the_admin_token_is_printed_once_and_writes_packs(tmp_path):
    db = tmp_path / "live.duckdb"
    first_out, second_out = tmp_path / "first.log", tmp_path / "second.log"
    data = copy.deepcopy(SYNTHETIC.data)
    data["id"] = "ours-live"
    base, proc = live_server.start(db, output=first_out)
    try:
        token = TOKEN.search(first_out.read_text()).group(1)
        packs = f"{base}/titles/marco-polo-2/packs"
        assert httpx.post(packs, json=data).json()["code"] == "admin-token-missing"
        up = httpx.post(f"{packs}?working=true", json=data, headers={"Authorization": f"Bearer {token}"})
        assert up.status_code == 201 and up.json()["working"]
        game = httpx.post(f"{base}/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"]}).json()
        assert httpx.get(f"{base}/games/{game['game_id']}").json()["options"]["content"]["id"] == "ours-live"
    finally:
        live_server.stop(proc)
    base, proc = live_server.start(db, output=second_out)
    try:
        assert "admin token" not in second_out.read_text()
        listed = httpx.get(f"{base}/titles/marco-polo-2/packs").json()
        assert listed["working"]["id"] == "ours-live"
        assert next(p for p in listed["packs"] if p["id"] == "ours-live")["games"] == 1
        spare = {**data, "id": "ours-spare"}
        again = httpx.post(f"{base}/titles/marco-polo-2/packs", json=spare, headers={"Authorization": f"Bearer {token}"})
        assert again.status_code == 201
    finally:
        live_server.stop(proc)
