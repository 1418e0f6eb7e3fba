"""New tokens from the page (``POST /games/{id}/tokens``), as ``tabletape tokens`` issues them:
the write token's holder gets new ones and every old one stops working."""

from __future__ import annotations

import pytest

from apiplay import last_seq, new_game, play


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


def test_new_tokens_replace_every_old_one(client):
    game = new_game(client, seed=None)
    response = client.post(f"/games/{game.id}/tokens", headers=game.auth)
    assert response.status_code == 200, response.text
    out = response.json()
    assert [(t["seat"], t["player"]) for t in out["seat_tokens"]] == [(0, "Ana"), (1, "Bea")]
    new = {out["write_token"], *(t["token"] for t in out["seat_tokens"])}
    assert len(new) == 3 and not new & {game.write, *game.seats}

    old_write = client.get(f"/games/{game.id}/legal-moves", headers=game.auth)
    assert (old_write.status_code, old_write.json()["code"]) == (403, "token-wrong")
    old_seat = client.get(f"/games/{game.id}/state", params={"seat": 1}, headers=game.seat_auth(1))
    assert (old_seat.status_code, old_seat.json()["code"]) == (403, "token-wrong")

    bearer = {"Authorization": f"Bearer {out['write_token']}"}
    assert client.get(f"/games/{game.id}/legal-moves", headers=bearer).status_code == 200
    seat = {"Authorization": f"Bearer {out['seat_tokens'][1]['token']}"}
    assert client.get(f"/games/{game.id}/state", params={"seat": 1}, headers=seat).status_code == 200


def test_only_the_write_tokens_holder_gets_new_tokens(client):
    game = new_game(client, seed=None)
    for headers, status, code in (
        ({}, 401, "token-missing"),
        (game.seat_auth(0), 403, "token-wrong"),
    ):
        response = client.post(f"/games/{game.id}/tokens", headers=headers)
        assert (response.status_code, response.json()["code"]) == (status, code)
    # nothing changed: the old write token still records
    assert client.get(f"/games/{game.id}/legal-moves", headers=game.auth).status_code == 200
    unknown = client.post("/games/no-such-game/tokens", headers=game.auth)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown-game")


def test_new_tokens_reach_the_forks_of_a_game_in_progress(client):
    """A lost phone's tokens stop opening the forks made with them: the reissue replaces them there too."""
    game = new_game(client)
    play(client, game, 2)
    forked = client.post(f"/games/{game.id}/fork", headers=game.auth, json={})
    assert forked.status_code == 201, forked.text
    fork = forked.json()["game_id"]
    assert forked.json()["tokens_inherited"] is True
    assert client.get(f"/games/{fork}/state", params={"seat": 1}, headers=game.seat_auth(1)).status_code == 200

    out = client.post(f"/games/{game.id}/tokens", headers=game.auth).json()

    legal = client.get(f"/games/{fork}/legal-moves", headers={"Authorization": f"Bearer {out['write_token']}"})
    assert legal.status_code == 200, legal.text
    move = {"notation": legal.json()["moves"][0]["notation"], "expected_seq": legal.json()["at"]}
    old_write = client.post(f"/games/{fork}/moves", headers=game.auth, json=move)
    assert (old_write.status_code, old_write.json()["code"]) == (403, "token-wrong")
    old_seat = client.get(f"/games/{fork}/state", params={"seat": 1}, headers=game.seat_auth(1))
    assert (old_seat.status_code, old_seat.json()["code"]) == (403, "token-wrong")
    assert last_seq(client, fork) == legal.json()["at"]  # the refused move left no trace

    new_write = {"Authorization": f"Bearer {out['write_token']}"}
    assert client.post(f"/games/{fork}/moves", headers=new_write, json=move).status_code == 201
    new_seat = {"Authorization": f"Bearer {out['seat_tokens'][1]['token']}"}
    assert client.get(f"/games/{fork}/state", params={"seat": 1}, headers=new_seat).status_code == 200


def test_new_tokens_on_a_fork_reach_its_parent_and_no_other_game(client):
    """Reissued on the fork, the lost tokens stop opening the parent too; an unrelated game keeps its own."""
    game, other = new_game(client, seed=None), new_game(client, seed=None)
    fork = client.post(f"/games/{game.id}/fork", headers=game.auth, json={}).json()["game_id"]
    out = client.post(f"/games/{fork}/tokens", headers=game.auth).json()
    refused = client.get(f"/games/{game.id}/state", params={"seat": 0}, headers=game.seat_auth(0))
    assert (refused.status_code, refused.json()["code"]) == (403, "token-wrong")
    assert client.get(f"/games/{game.id}/legal-moves", headers=game.auth).status_code == 403
    new_write = {"Authorization": f"Bearer {out['write_token']}"}
    assert client.get(f"/games/{game.id}/legal-moves", headers=new_write).status_code == 200
    assert client.get(f"/games/{other.id}/legal-moves", headers=other.auth).status_code == 200
