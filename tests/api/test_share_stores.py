"""Share links and slips on each store (DuckDB, then PostgreSQL): a link made, opened and
withdrawn; a slip sealed with the store's key matches there."""

from __future__ import annotations

import pytest
from apiplay import finish, new_game


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings


def test_a_link_and_a_slip_on_this_store(client, svc):
    game = new_game(client)
    made = client.post(f"/games/{game.id}/shares", headers=game.auth, json={"at": 1}).json()
    assert client.get(f"/shared/{made['share']}").json()["code"] == "shared-game-in-progress"
    finish(svc, game.id)
    opened = client.get(f"/shared/{made['share']}")
    assert opened.status_code == 200 and opened.json()["at"] == 1
    slip = client.get(f"/games/{game.id}/slip").json()["text"]
    assert client.post("/slips/check", json={"slip": slip}).json()["matches"] is True
    assert client.delete(f"/games/{game.id}/shares", headers=game.auth).json()["withdrawn"] == 1
    assert client.get(f"/shared/{made['share']}").status_code == 410
