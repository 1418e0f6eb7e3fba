"""A Marco Polo II creation waits a bounded time for the store's pack lock: while another change
holds it longer, the creation is a 503 with Retry-After and writes nothing."""

from __future__ import annotations

import time

import pytest

from api.http.services import Services
from api.http.settings import Settings
from apiplay import log_rows

MP2_GAME = {"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {}}


@pytest.fixture
def app_settings(store_db):
    # these tests run on DuckDB and on PostgreSQL
    return Settings(db_path=store_db, stream_ping_s=0.2, pack_lock_wait_s=0.5)


def written(svc: Services) -> tuple:
    cur = svc.log.store.cursor()
    tables = [cur.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("game_tokens", "packs", "pack_working")]
    return (log_rows(svc), tables)


def refused_while_held(client, svc, holder: Services) -> None:
    before = written(svc)
    with holder.packs.creating("marco-polo-2"):
        started = time.monotonic()
        response = client.post("/games", json=MP2_GAME, headers={"Accept-Language": "es"})
        waited = time.monotonic() - started
    assert response.status_code == 503, response.text
    assert response.json()["code"] == "packs-busy" and response.headers["retry-after"] == "1"
    assert "no se escribió nada" in response.json()["message"]
    assert 0.4 < waited < 5
    assert written(svc) == before
    assert client.post("/games", json=MP2_GAME).status_code == 201  # the lock free again: it records


def test_a_creation_waits_a_bounded_time_for_a_change_in_this_process(client, svc):
    refused_while_held(client, svc, svc)


def test_a_creation_waits_a_bounded_time_for_another_process_holding_the_lock(client, svc, store_db):
    if not svc.log.shared:
        pytest.skip("a DuckDB file has one process: the lock of another is the PostgreSQL advisory lock")
    other = Services(Settings(db_path=store_db))  # its own connections: another process's lock
    try:
        refused_while_held(client, svc, other)
    finally:
        other.close()


def test_other_titles_never_wait_for_the_pack_lock(client, svc):
    with svc.packs.creating("marco-polo-2"):
        made = client.post("/games", json={"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"rounds": 1}})
    assert made.status_code == 201, made.text
