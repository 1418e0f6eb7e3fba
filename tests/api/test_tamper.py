"""A database file edited while the server was stopped: the next server names the altered seq
when the game is read and refuses to write on top of it."""

from __future__ import annotations

import duckdb
import pytest
from apiplay import last_seq, new_game
from fastapi.testclient import TestClient

import tampering
from api.http.app import create_app
from api.http.settings import Settings


def legal_notations(client, game) -> list[str]:
    legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
    return [move["notation"] for move in legal["moves"]]


def recorded_game(settings: Settings):
    """A digital game of five events or more; seq 3 was recorded with an idempotency key."""
    with TestClient(create_app(settings)) as client:
        game = new_game(client)
        for n in range(3):
            notation = legal_notations(client, game)[0]
            body = {"notation": notation, "expected_seq": last_seq(client, game.id)}
            if n == 0:
                body["idempotency_key"] = "tap-3"
            assert client.post(f"/games/{game.id}/moves", headers=game.auth, json=body).status_code == 201
        return game, last_seq(client, game.id), legal_notations(client, game)[0]


@pytest.mark.parametrize("kind", list(tampering.KINDS))
def test_an_altered_game_is_refused_naming_the_seq_and_nothing_is_appended(tmp_path, kind):
    edit, where = tampering.KINDS[kind]
    settings = Settings(db_path=str(tmp_path / "t.duckdb"))
    game, last, notation = recorded_game(settings)
    con = duckdb.connect(settings.db_path)
    edit(con, game.id)
    rows = con.execute("SELECT count(*) FROM events").fetchall()
    con.close()
    with TestClient(create_app(settings)) as client:
        got = client.get(f"/games/{game.id}")
        assert got.status_code == 409, got.text
        assert got.json()["code"] == "chain-broken" and got.json()["seq"] == where(last)
        assert f"seq {where(last)}" in got.json()["message"]
        move = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": notation, "expected_seq": last})
        assert move.status_code == 409 and move.json()["code"] == "chain-broken" and move.json()["seq"] == where(last)
        undo = client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": 2, "expected_seq": last})
        assert undo.status_code == 409 and undo.json()["code"] == "chain-broken"
        fork = client.post(f"/games/{game.id}/fork", headers=game.auth, json={})
        assert fork.status_code == 409 and fork.json()["code"] == "chain-broken"
        cur = client.app.state.services.log.cursor()
        assert cur.execute("SELECT count(*) FROM events").fetchall() == rows
        cur.close()


def test_an_untouched_game_is_served_and_written_after_a_restart(tmp_path):
    settings = Settings(db_path=str(tmp_path / "t.duckdb"))
    game, last, notation = recorded_game(settings)
    with TestClient(create_app(settings)) as client:
        assert client.get(f"/games/{game.id}").status_code == 200
        move = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": notation, "expected_seq": last})
        assert move.status_code == 201, move.text
