"""The group committer on each store: what a request of a group gets is what it would have got
alone, whatever else the group holds; and on PostgreSQL, logs of several processes share a store."""

from __future__ import annotations

import threading

import own_loop
import pytest

import tampering
from events.duckdb_log import DuckDBEventLog
from events.errors import ChainBroken, ConcurrencyConflict, IdempotencyKeyReused
from events.group_commit import AppendRequest
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
    return log.store.cursor() if log.shared else log.con


def reopen(log):
    return open_log(log.dsn) if log.shared else DuckDBEventLog(log.con)


def outcome(request: AppendRequest) -> object:
    assert request.done
    return type(request.error) if request.error is not None else request.result


def test_each_request_of_one_group_gets_what_it_would_have_got_alone(log):
    playing, stale, broken = new_game_id(), new_game_id(), new_game_id()
    log.append(playing, [CREATED], expected_seq=0, idempotency_key="first")
    log.append(stale, [CREATED], expected_seq=0)
    log.append(broken, [CREATED, Undone(to_seq=1), Redone()], expected_seq=0)
    tampering.delete_last(raw(log), broken)
    fresh = reopen(log)
    new = new_game_id()
    batch = [
        AppendRequest(playing, [Undone(to_seq=1)], 1, "second"),
        AppendRequest(stale, [Undone(to_seq=1)], 0),
        AppendRequest(broken, [Redone()], 2),
        AppendRequest(playing, [Redone()], 2),
        AppendRequest(new, [CREATED], 0, "made"),
        AppendRequest(playing, [CREATED], 0, "first"),  # a retry of the first append
        AppendRequest(playing, [Redone()], 0, "second"),  # the key of this group's first, other events
        AppendRequest(new, [Undone(to_seq=1)], 1),
    ]
    fresh._commit(batch)
    results = [outcome(request) for request in batch]
    assert results[1] is ConcurrencyConflict and results[2] is ChainBroken and results[6] is IdempotencyKeyReused
    assert [(r.first_seq, r.last_seq, r.replayed) for r in (results[0], results[3], results[5])] == [
        (2, 2, False), (3, 3, False), (1, 1, True),
    ]
    assert [(r.first_seq, r.last_seq) for r in (results[4], results[7])] == [(1, 1), (1 + 1, 2)]
    assert [type(e.body) for e in fresh.read(playing)] == [GameCreated, Undone, Redone]
    assert [type(e.body) for e in fresh.read(new)] == [GameCreated, Undone]
    assert fresh.verify(playing).ok and fresh.verify(new).ok and fresh.last_seq(stale) == 1
    assert fresh.stats()["commits"] == 1 and fresh.stats()["appends"] == 4
    if fresh is not log:
        fresh.close()


def test_appends_from_a_loop_and_threads_share_commits_on_every_store(log):
    async def task(n: int) -> list[int]:
        gid = f"task-{n:02d}"
        seqs = [(await log.append_async(gid, [CREATED], 0)).last_seq]
        for i in range(15):
            seqs.append((await log.append_async(gid, [Undone(to_seq=1)], seqs[-1], idempotency_key=f"k{i}")).last_seq)
        return seqs

    async def main() -> list[list[int]]:
        import asyncio

        return await asyncio.gather(*(task(n) for n in range(8)))

    def writer(n: int) -> None:
        gid = f"thread-{n:02d}"
        seq = log.append(gid, [CREATED], 0).last_seq
        for i in range(15):
            seq = log.append(gid, [Undone(to_seq=1)], seq, idempotency_key=f"k{i}").last_seq

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    by_task = own_loop.run(main())
    for thread in threads:
        thread.join()
    assert all(seqs == list(range(1, 17)) for seqs in by_task)
    for gid in [*(f"task-{n:02d}" for n in range(8)), *(f"thread-{n:02d}" for n in range(4))]:
        assert [e.seq for e in log.read(gid)] == list(range(1, 17)) and log.verify(gid).ok
    stats = log.stats()
    assert stats["appends"] == 12 * 16 and stats["commits"] < stats["appends"]


@pytest.fixture
def two_processes(postgres_db):
    """Two logs on one PostgreSQL store, as two workers have them."""
    first, second = open_log(postgres_db), open_log(postgres_db)
    yield first, second
    first.close()
    second.close()


def test_two_processes_creating_one_game_at_once_make_it_once(two_processes):
    for _ in range(10):
        gid = new_game_id()
        barrier = threading.Barrier(2)
        outcomes: list[str] = []

        def create(log, actor: str) -> None:
            barrier.wait()
            try:
                log.append(gid, [CREATED], expected_seq=0, actor=actor)
                outcomes.append("made")
            except ConcurrencyConflict:
                outcomes.append("stale")

        threads = [threading.Thread(target=create, args=(log, f"w{n}")) for n, log in enumerate(two_processes)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["made", "stale"]
        assert two_processes[0].last_seq(gid) == 1 and two_processes[1].verify(gid).ok


def test_two_processes_appending_to_the_same_games_in_opposite_orders_wait_for_each_other_only(two_processes):
    """Each group locks its games' heads in game order, so two groups never wait in a cycle (a
    deadlock would fail a group, then committed request by request: more commits than groups)."""
    games = [new_game_id() for _ in range(6)]
    for gid in games:
        two_processes[1].append(gid, [CREATED], expected_seq=0)
    won: list[int] = []
    groups = [0, 0]

    def writer(n: int, order: list[str]) -> None:
        log = two_processes[n]
        for _ in range(10):
            batch = [AppendRequest(gid, [Undone(to_seq=1)], log.last_seq(gid)) for gid in order]
            log._commit(batch)
            won.extend(1 for request in batch if request.error is None)
            groups[n] += any(request.error is None for request in batch)
            assert all(isinstance(r.error, (type(None), ConcurrencyConflict)) for r in batch)

    threads = [
        threading.Thread(target=writer, args=(0, games)),
        threading.Thread(target=writer, args=(1, games[::-1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert sum(two_processes[0].last_seq(gid) - 1 for gid in games) == len(won)
    assert all(two_processes[1].verify(gid).ok for gid in games)
    assert [log.stats()["commits"] for log in two_processes] == [groups[0], groups[1] + len(games)]


def test_a_request_the_database_refuses_fails_alone(postgres_db):
    log = open_log(postgres_db)
    try:
        games = [new_game_id() for _ in range(3)]
        # PostgreSQL's text takes no NUL: the middle request's row cannot be stored
        batch = [AppendRequest(gid, [CREATED], 0, actor=actor) for gid, actor in zip(games, ("a", "b\x00", "c"))]
        log._commit(batch)
        assert [request.error is None for request in batch] == [True, False, True]
        assert [log.last_seq(gid) for gid in games] == [1, 0, 1]
        assert log.append(games[1], [CREATED], expected_seq=0).last_seq == 1
    finally:
        log.close()


def test_a_retry_answered_from_its_group_is_not_acknowledged_when_the_group_fails_to_commit(tmp_path, monkeypatch):
    """An append and the client's retry of it (same idempotency key) in one group: the retry's
    "replayed" rests on the first one's rows, so when the database refuses the group's write
    (here DuckDB raising an I/O error, as a full disk does) both get the error, and neither is told
    its events are stored (found in review: the retry was answered "replayed")."""
    import duckdb

    from events.errors import TabletapeError  # noqa: F401  (the hierarchy the store's errors join)

    store = DuckDBEventLog(str(tmp_path / "gc.duckdb"))
    game = new_game_id()
    store.append(game, [GameCreated(title="lost-cities", players=("Ana", "Bea"))], expected_seq=0)
    first = AppendRequest(game, [Undone(to_seq=1)], 1, "K")
    retry = AppendRequest(game, [Undone(to_seq=1)], 1, "K")
    stale_after = AppendRequest(game, [Undone(to_seq=1)], 1, "other")

    def disk_full(rows, accepted):
        raise duckdb.IOException("disk full")

    monkeypatch.setattr(store, "_write", disk_full)
    with pytest.raises(duckdb.IOException):
        store._committer._run([first, retry, stale_after])
    monkeypatch.undo()
    for request in (first, retry, stale_after):
        assert request.done and isinstance(request.error, duckdb.IOException), request.result
    assert store.last_seq(game) == 1
    # the same three after the disk has room: one stored, the retry replayed, the third stale
    again = [AppendRequest(game, [Undone(to_seq=1)], 1, "K"), AppendRequest(game, [Undone(to_seq=1)], 1, "K"),
             AppendRequest(game, [Undone(to_seq=1)], 1, "other")]
    store._committer._run(again)
    assert again[0].result.first_seq == 2 and again[1].result.replayed and isinstance(again[2].error, ConcurrencyConflict)
    store.close()
