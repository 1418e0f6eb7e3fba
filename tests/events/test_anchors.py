"""The keyed anchors' secret file, and a store from before the anchors existed."""

from __future__ import annotations

import os
import stat

import pytest

import tampering
from events.duckdb_log import DuckDBEventLog
from events.errors import ChainSecretMissing
from events.lifecycle import GameCreated, Redone, Undone
from events.log import new_game_id

CREATED = GameCreated(title="lost-cities", players=("Ana", "Bea"))


def test_the_secret_is_made_on_first_start_beside_the_database_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "t.duckdb"
    log = DuckDBEventLog(str(path))
    log.close()
    key = tmp_path / "t.duckdb.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    before = key.read_bytes()
    DuckDBEventLog(str(path)).close()
    assert key.read_bytes() == before


def test_the_secret_file_can_live_elsewhere(tmp_path, monkeypatch):
    elsewhere = tmp_path / "secrets" / "tabletape.key"
    monkeypatch.setenv("TABLETAPE_SECRET_FILE", str(elsewhere))
    log = DuckDBEventLog(str(tmp_path / "t.duckdb"))
    gid = new_game_id()
    log.append(gid, [CREATED], expected_seq=0)
    log.close()
    assert elsewhere.exists() and not (tmp_path / "t.duckdb.key").exists()
    assert DuckDBEventLog(str(tmp_path / "t.duckdb")).verify(gid).ok


def test_an_anchored_store_without_its_secret_refuses_to_open(tmp_path):
    path = str(tmp_path / "t.duckdb")
    log = DuckDBEventLog(path)
    log.append(new_game_id(), [CREATED], expected_seq=0)
    log.close()
    os.remove(path + ".key")
    with pytest.raises(ChainSecretMissing) as caught:
        DuckDBEventLog(path)
    assert caught.value.code == "chain-secret-missing" and "t.duckdb.key" in caught.value.message


def test_a_rewrite_with_recomputed_hashes_needs_the_secret_to_pass(tmp_path):
    path = str(tmp_path / "t.duckdb")
    log = DuckDBEventLog(path)
    gid = new_game_id()
    log.append(gid, [CREATED, Undone(to_seq=1), Redone(), Undone(to_seq=1), Redone()], expected_seq=0)
    tampering.rewrite_recomputing_hashes(log.con, gid)
    assert log.verify(gid).first_bad_seq == tampering.TARGET
    log.close()


def old_store(path: str) -> str:
    """A store as tabletape wrote it before the anchors: no MAC column, no heads, no secret."""
    log = DuckDBEventLog(path)
    gid = new_game_id()
    log.append(gid, [CREATED, Undone(to_seq=1)], expected_seq=0)
    log.append(gid, [Redone()], expected_seq=2, idempotency_key="k")
    log.con.execute("DROP TABLE chain_heads")
    log.con.execute("ALTER TABLE events DROP COLUMN mac")
    log.close()
    os.remove(path + ".key")
    return gid


def test_a_store_from_before_the_anchors_is_anchored_as_it_stands_on_first_start(tmp_path):
    path = str(tmp_path / "old.duckdb")
    gid = old_store(path)
    log = DuckDBEventLog(path)
    assert log.anchored_on_open == 1
    assert log.verify(gid).ok
    log.append(gid, [Undone(to_seq=1)], expected_seq=3, idempotency_key="k4")
    log.close()
    log = DuckDBEventLog(path)
    assert log.anchored_on_open == 0 and log.verify(gid).ok
    # an event written since is located exactly; the old ones are vouched for by the head
    log.con.execute("UPDATE events SET idempotency_key = 'forged' WHERE game_id = ? AND seq = 4", [gid])
    assert log.verify(gid).first_bad_seq == 4
    log.con.execute("UPDATE events SET idempotency_key = 'k4' WHERE game_id = ? AND seq = 4", [gid])
    tampering.rewrite_recomputing_hashes(log.con, gid)
    report = log.verify(gid)
    assert not report.ok and report.first_bad_seq == 4  # the first event with a MAC of its own
    log.close()


def test_a_dropped_heads_table_is_not_taken_for_an_old_store(tmp_path):
    path = str(tmp_path / "t.duckdb")
    log = DuckDBEventLog(path)
    gid = new_game_id()
    log.append(gid, [CREATED, Undone(to_seq=1)], expected_seq=0)
    log.con.execute("DROP TABLE chain_heads")
    log.close()
    log = DuckDBEventLog(path)
    assert log.anchored_on_open == 0
    report = log.verify(gid)
    assert not report.ok and "no anchored head" in report.reason
    log.close()

