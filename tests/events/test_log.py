"""The event log's contract, on DuckDB and on PostgreSQL: contiguous seqs, optimistic concurrency,
idempotency, the hash chain and its anchors. (The tests that name ``DuckDBEventLog`` are DuckDB's own.)"""

from __future__ import annotations

import pathlib
import re
import threading

import duckdb
import pytest

import tampering
from events.duckdb_log import DuckDBEventLog
from events.errors import ChainBroken, ConcurrencyConflict, GameExists, IdempotencyKeyReused, UnknownGame
from events.lifecycle import GameCreated, Redone, Undone
from events.log import new_game_id
from events.stores import open_log

CREATED = GameCreated(title="lost-cities", players=("Ana", "Bea"))


@pytest.fixture
def log(store_db):
    log = open_log(store_db)
    yield log
    log.close()


def raw(log):
    """SQL straight on the store's tables, from outside the log's code (as a tamperer would)."""
    return log.store.cursor() if log.shared else log.con


def reopen(log):
    """A fresh start on the same database and key."""
    return open_log(log.dsn) if log.shared else DuckDBEventLog(log.con)


def rows(log, game_id):
    return raw(log).execute(
        "SELECT seq, body, hash FROM events WHERE game_id = ? ORDER BY seq", [game_id]
    ).fetchall()


def test_seqs_are_contiguous_from_one(log):
    gid = new_game_id()
    assert log.append(gid, [CREATED], expected_seq=0).first_seq == 1
    result = log.append(gid, [Undone(to_seq=1), Redone(), Undone(to_seq=1)], expected_seq=1)
    assert (result.first_seq, result.last_seq) == (2, 4)
    assert [e.seq for e in log.read(gid)] == [1, 2, 3, 4]
    assert log.last_seq(gid) == 4


def test_a_stale_expected_seq_raises_a_typed_conflict_and_writes_nothing(log):
    gid = new_game_id()
    log.append(gid, [CREATED], expected_seq=0)
    log.append(gid, [Undone(to_seq=1)], expected_seq=1)
    before = rows(log, gid)
    with pytest.raises(ConcurrencyConflict) as caught:
        log.append(gid, [Redone()], expected_seq=1)
    assert caught.value.code == "stale-expected-seq"
    assert caught.value.details["current_seq"] == 2
    assert rows(log, gid) == before


def test_a_retried_idempotency_key_returns_the_first_result_and_appends_nothing(log):
    gid = new_game_id()
    log.append(gid, [CREATED], expected_seq=0)
    first = log.append(gid, [Undone(to_seq=1)], expected_seq=1, idempotency_key="tap-17")
    before = rows(log, gid)
    again = log.append(gid, [Undone(to_seq=1)], expected_seq=1, idempotency_key="tap-17")
    assert (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert again.replayed and not first.replayed
    assert rows(log, gid) == before


def test_idempotency_survives_reopening_the_database(tmp_path):
    path = str(tmp_path / "t.duckdb")
    gid = new_game_id()
    log = DuckDBEventLog(path)
    log.append(gid, [CREATED], expected_seq=0, idempotency_key="k1")
    log.close()
    log = DuckDBEventLog(path)
    assert log.append(gid, [CREATED], expected_seq=0, idempotency_key="k1").replayed
    assert log.last_seq(gid) == 1


def test_a_key_reused_for_different_events_is_refused(log):
    gid = new_game_id()
    log.append(gid, [CREATED], expected_seq=0, idempotency_key="k")
    with pytest.raises(IdempotencyKeyReused) as caught:
        log.append(gid, [Undone(to_seq=1)], expected_seq=1, idempotency_key="k")
    assert caught.value.code == "idempotency-key-reused"
    assert log.last_seq(gid) == 1


def test_verify_accepts_an_untouched_chain(log):
    gid = new_game_id()
    log.append(gid, [CREATED], expected_seq=0)
    log.append(gid, [Undone(to_seq=1), Redone()], expected_seq=1)
    report = log.verify(gid)
    assert report.ok and report.events == 3 and report.first_bad_seq is None


@pytest.mark.parametrize(
    "column, value",
    [("body", b"\x82\xa4type\xabgame.undone\xa6to_seq\x09"), ("actor", "mallory"), ("hash", b"\x00" * 32)],
)
def test_verify_names_the_first_seq_whose_stored_bytes_were_altered(log, column, value):
    gid = new_game_id()
    log.append(gid, [CREATED], expected_seq=0)
    log.append(gid, [Undone(to_seq=1), Redone(), Undone(to_seq=2)], expected_seq=1)
    # tampering from outside the log's own code paths
    raw(log).execute(f"UPDATE events SET {column} = ? WHERE game_id = ? AND seq = 3", [value, gid])
    report = log.verify(gid)
    assert not report.ok
    assert report.first_bad_seq == 3
    assert report.reason


def test_verify_notices_a_tampered_json_copy_and_a_missing_event(log):
    gid = new_game_id()
    log.append(gid, [CREATED, Undone(to_seq=1), Redone()], expected_seq=0)
    raw(log).execute(
        "UPDATE events SET body_json = '{\"type\":\"game.undone\",\"to_seq\":0}' WHERE game_id = ? AND seq = 2", [gid]
    )
    assert log.verify(gid).first_bad_seq == 2
    other = new_game_id()
    log.append(other, [CREATED, Undone(to_seq=1), Redone()], expected_seq=0)
    raw(log).execute("DELETE FROM events WHERE game_id = ? AND seq = 2", [other])
    report = log.verify(other)
    assert report.first_bad_seq == 2 and "missing" in report.reason


def five_events(log) -> str:
    gid = new_game_id()
    log.append(gid, [CREATED, Undone(to_seq=1)], expected_seq=0)
    log.append(gid, [Redone()], expected_seq=2, idempotency_key="tap-3")
    log.append(gid, [Undone(to_seq=1), Redone()], expected_seq=3)
    return gid


@pytest.mark.parametrize("kind", list(tampering.KINDS))
def test_every_kind_of_edit_to_the_stored_file_is_found_at_its_seq_and_stops_writes(log, kind):
    edit, where = tampering.KINDS[kind]
    gid = five_events(log)
    assert log.verify(gid).ok
    edit(raw(log), gid)
    report = log.verify(gid)
    assert not report.ok and report.first_bad_seq == where(5), report
    reopened = reopen(log)
    with pytest.raises(ChainBroken) as caught:
        reopened.read_checked(gid)
    assert caught.value.code == "chain-broken" and caught.value.details["seq"] == where(5)
    with pytest.raises(ChainBroken):
        reopened.append(gid, [Redone()], expected_seq=reopened.last_seq(gid))


def test_a_removed_or_altered_head_record_is_found(log):
    removed, altered = five_events(log), five_events(log)
    raw(log).execute("DELETE FROM chain_heads WHERE game_id = ?", [removed])
    raw(log).execute("UPDATE chain_heads SET legacy_seq = 5 WHERE game_id = ?", [altered])
    for gid in (removed, altered):
        report = reopen(log).verify(gid)
        assert not report.ok and report.first_bad_seq == 5 and "head" in report.reason


def test_a_truncated_game_with_a_lost_head_is_refused_on_append(log):
    gid = five_events(log)
    tampering.delete_last(raw(log), gid)
    reopened = reopen(log)
    with pytest.raises(ChainBroken) as caught:  # no read first: the append's own head check
        reopened.append(gid, [Redone()], expected_seq=4)
    assert caught.value.details["seq"] == 5 and "missing" in caught.value.details["reason"]
    assert reopened.last_seq(gid) == 4


def test_a_head_record_removed_while_the_log_runs_stops_the_next_append_and_every_later_one(log):
    gid = five_events(log)
    raw(log).execute("DELETE FROM chain_heads WHERE game_id = ?", [gid])
    with pytest.raises(ChainBroken):
        log.append(gid, [Redone()], expected_seq=5)
    with pytest.raises(ChainBroken):
        log.append(gid, [Redone()], expected_seq=log.last_seq(gid))
    assert not log.verify(gid).ok


def test_no_code_path_updates_or_deletes_an_event_row():
    """The log is append-only: no statement in our code touches existing event rows."""
    root = pathlib.Path(__file__).resolve().parents[2]
    pattern = re.compile(r"(UPDATE\s+events\b|DELETE\s+FROM\s+events\b|TRUNCATE\s+events\b|DROP\s+TABLE[^\"']*\bevents\b)", re.I)
    offenders = []
    for package in ("events", "projections", "replay", "api", "rules"):
        for path in (root / package).rglob("*.py"):
            if pattern.search(path.read_text()):
                offenders.append(str(path))
    assert offenders == []


def test_reading_an_unknown_game_is_a_typed_error(log):
    with pytest.raises(UnknownGame) as caught:
        log.read("no-such-game")
    assert caught.value.status == 404
    with pytest.raises(UnknownGame):
        log.verify("no-such-game")


def test_two_writers_with_the_same_expected_seq_exactly_one_wins(log):
    file_log = log
    gid = new_game_id()
    file_log.append(gid, [CREATED], expected_seq=0)
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def writer(n: int) -> None:
        barrier.wait()
        try:
            file_log.append(gid, [Undone(to_seq=1)], expected_seq=1, actor=f"w{n}")
            outcomes.append("won")
        except ConcurrencyConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict"] * 7 + ["won"]
    assert file_log.last_seq(gid) == 2


def test_two_log_instances_on_one_database_cannot_both_append_the_same_seq(tmp_path):
    """A second connection (another log object) racing on the same game: the key forbids a fork."""
    con = duckdb.connect(str(tmp_path / "shared.duckdb"))
    first, second = DuckDBEventLog(con.cursor()), DuckDBEventLog(con.cursor())
    gid = new_game_id()
    first.append(gid, [CREATED], expected_seq=0)
    assert second.last_seq(gid) == 1
    first.append(gid, [Undone(to_seq=1)], expected_seq=1)
    with pytest.raises(ConcurrencyConflict):
        second.append(gid, [Redone()], expected_seq=1)  # its cached head says 1, but seq 2 exists
    assert [e.actor for e in first.read(gid)] == ["", ""]
    assert second.append(gid, [Redone()], expected_seq=2).first_seq == 3
    assert second.verify(gid).ok


def test_a_group_the_key_refuses_writes_nothing_and_is_not_carried_into_the_next_commit(tmp_path):
    """Several rows go in through DuckDB's appender. When the key refuses them (another log
    object wrote the game), none of them lands, and the next commit holds only its own rows."""
    con = duckdb.connect(str(tmp_path / "shared.duckdb"))
    first, second = DuckDBEventLog(con.cursor()), DuckDBEventLog(con.cursor())
    gid = new_game_id()
    first.append(gid, [CREATED], expected_seq=0)
    assert second.last_seq(gid) == 1
    first.append(gid, [Undone(to_seq=1), Redone()], expected_seq=1)
    with pytest.raises(ConcurrencyConflict):
        second.append(gid, [Undone(to_seq=1), Redone()], expected_seq=1, actor="stale")
    other = new_game_id()
    second.append(other, [CREATED, Undone(to_seq=1), Redone()], expected_seq=0)
    assert [(e.seq, e.actor) for e in first.read(gid)] == [(1, ""), (2, ""), (3, "")]
    assert [e.seq for e in first.read(other)] == [1, 2, 3]
    assert first.verify(gid).ok and first.verify(other).ok


def test_bulk_import_writes_whole_games_with_valid_chains(log):
    games = [(new_game_id(), [CREATED, Undone(to_seq=1), Redone()]) for _ in range(50)]
    assert log.import_games(games) == 150
    for gid, _ in games:
        assert log.verify(gid).ok
        assert [type(e.body) for e in log.read(gid)] == [GameCreated, Undone, Redone]


def test_bulk_import_refuses_an_existing_game_and_writes_nothing(log):
    gid = new_game_id()
    log.append(gid, [CREATED], expected_seq=0)
    fresh = new_game_id()
    with pytest.raises(GameExists):
        log.import_games([(fresh, [CREATED]), (gid, [CREATED])])
    assert raw(log).execute("SELECT count(*) FROM events").fetchall()[0][0] == 1


def test_game_ids_sort_by_creation_time():
    ids = [new_game_id(now_ms=t) for t in (1, 2, 1000, 2**40)]
    assert ids == sorted(ids)
    assert all(len(i) == 26 for i in ids)


def test_heads_past_the_key_budget_are_evicted_and_their_keys_still_replay(tmp_path):
    """The heads cache is bounded by idempotency keys too; an evicted game's keys come back from the log."""
    log = DuckDBEventLog(str(tmp_path / "k.duckdb"), head_cache_keys=4)
    first, second = new_game_id(), new_game_id()
    for gid in (first, second):
        log.append(gid, [CREATED], expected_seq=0, idempotency_key=f"{gid}:1")
        log.append(gid, [Undone(to_seq=1)], expected_seq=1, idempotency_key=f"{gid}:2")
        log.append(gid, [Redone()], expected_seq=2, idempotency_key=f"{gid}:3")
    assert log.cached_seq(first) is None and log.cached_seq(second) == 3
    again = log.append(first, [Undone(to_seq=1)], expected_seq=1, idempotency_key=f"{first}:2")
    assert again.replayed and (again.first_seq, again.last_seq) == (2, 2)
    assert log.last_seq(first) == 3
    log.close()


def test_every_store_has_every_member_of_the_log_interface(log):
    """The layers above type the log as ``EventLog``; each store must be one."""
    from events.log import EventLog

    members = {name for name in vars(EventLog) if not name.startswith("_")} | set(EventLog.__annotations__)
    assert sorted(name for name in members if not hasattr(log, name)) == []
