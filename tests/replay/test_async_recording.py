"""Recording from an event loop (what the HTTP write routes do): same rules, same log, shared commits."""

from __future__ import annotations

import asyncio
import random
import threading

import own_loop
import pytest

from events.errors import ConcurrencyConflict, IllegalMove
from events.lifecycle import GameCreated, Redone, Undone
from replay.recorder import Recorder
from replay.simulate import random_game
from rules.lost_cities import CardPlayed, DeckShuffled
from events.lifecycle import GameEnded

PLAYERS = ("Ana", "Bea")


def moves_of(seed: int) -> list:
    events = random_game("lost-cities", PLAYERS, {"rounds": 1}, seed=seed)
    return [e for e in events[1:] if not isinstance(e, (DeckShuffled, GameEnded, GameCreated))]


def test_async_and_threaded_appends_to_many_games_share_commits_and_lose_nothing(file_log):
    """Tasks on the loop and threads append concurrently; every acknowledged event is stored once,
    and appends arriving during a commit share the next one (fewer commits than appends)."""
    created = GameCreated(title="lost-cities", players=PLAYERS)

    async def task(n: int) -> list[int]:
        gid = f"task-{n:02d}"
        seqs = [(await file_log.append_async(gid, [created], 0)).last_seq]
        for i in range(40):
            result = await file_log.append_async(gid, [Undone(to_seq=1), Redone()], seqs[-1], idempotency_key=f"k{i}")
            seqs.append(result.last_seq)
        return seqs

    threaded: dict[str, list[int]] = {}

    def writer(n: int) -> None:
        gid = f"thread-{n:02d}"
        seqs = [file_log.append(gid, [created], 0).last_seq]
        for i in range(40):
            seqs.append(file_log.append(gid, [Undone(to_seq=1), Redone()], seqs[-1], idempotency_key=f"k{i}").last_seq)
        threaded[gid] = seqs

    async def main() -> list[list[int]]:
        return await asyncio.gather(*(task(n) for n in range(12)))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    by_task = own_loop.run(main())
    for t in threads:
        t.join()
    expected = [1, *range(3, 82, 2)]
    assert all(seqs == expected for seqs in by_task)
    assert all(seqs == expected for seqs in threaded.values())
    for gid in [*(f"task-{n:02d}" for n in range(12)), *threaded]:
        assert [e.seq for e in file_log.read(gid)] == list(range(1, 82))
        assert file_log.verify(gid).ok
    stats = file_log.stats()
    assert stats["appends"] == 16 * 41
    assert stats["commits"] < stats["appends"]


def test_async_moves_on_one_game_without_expected_seq_are_taken_one_after_another(recorder, log):
    """Without ``expected_seq``, concurrent writers to one game are serialised (each decides on the
    state the previous one left), whether they come from the loop or from a thread."""
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=3)

    async def undo_redo(n: int) -> None:
        await recorder.undo_async(gid, 2)
        await recorder.redo_async(gid)

    def threaded() -> None:
        for _ in range(10):
            recorder.undo(gid, 2)
            recorder.redo(gid)

    async def main() -> None:
        thread = threading.Thread(target=threaded)
        thread.start()
        await asyncio.gather(*(undo_redo(n) for n in range(10)))
        await asyncio.to_thread(thread.join)

    own_loop.run(main())
    assert log.last_seq(gid) == 2 + 40
    assert recorder.projector.history(gid).last_seq == 42
    assert log.verify(gid).ok


def test_an_async_move_is_decided_by_the_rules_and_a_refused_one_writes_nothing(recorder, log):
    gid, created = recorder.create("lost-cities", PLAYERS, seed=5)
    game = recorder.projector.state(gid)
    legal = game.title.legal_moves(game.state)
    hand_card = next(m.card for m in legal if isinstance(m, CardPlayed))

    async def main() -> None:
        result = await recorder.record_async(gid, CardPlayed(card=hand_card), created.last_seq)
        assert result.first_seq == created.last_seq + 1
        before = log.read(gid)
        with pytest.raises(IllegalMove):
            await recorder.record_async(gid, CardPlayed(card=hand_card), result.last_seq)
        with pytest.raises(ConcurrencyConflict):
            await recorder.record_async(gid, legal[0], created.last_seq)
        assert log.read(gid) == before

    own_loop.run(main())


def test_async_recording_equals_threaded_recording(log, projector):
    """The same moves recorded from the loop and from plain calls give the same log bodies and state."""
    moves = moves_of(11)[:40]
    recorder = Recorder(log, projector)
    a, _ = recorder.create("lost-cities", PLAYERS, seed=11)
    b, _ = recorder.create("lost-cities", PLAYERS, seed=11)

    async def main() -> None:
        for move in moves:
            await recorder.record_async(a, move)

    own_loop.run(main())
    for move in moves:
        recorder.record(b, move)
    assert log.read_bodies(a) == log.read_bodies(b)
    assert projector.state(a).state == projector.state(b).state


def test_a_cancelled_writer_still_lands_its_move_in_order(recorder, log):
    """A client that hangs up mid-write: what was decided is appended, folded and announced."""
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=8)
    announced: list[int] = []
    recorder.subscribe(lambda game_id, result: announced.append(result.last_seq))
    rng = random.Random(1)

    async def main() -> None:
        for n in range(20):
            game = recorder.projector.state(gid)
            legal = game.title.legal_moves(game.state)
            task = asyncio.create_task(recorder.record_async(gid, legal[rng.randrange(len(legal))]))
            await asyncio.sleep(0)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            while len(announced) < n + 1:
                await asyncio.sleep(0.002)

    own_loop.run(main())
    assert len(announced) == 20
    assert recorder.projector.history(gid).last_seq == log.last_seq(gid)
    assert log.verify(gid).ok


def test_appends_queued_as_the_log_closes_are_committed_and_later_ones_refused(tmp_path):
    """Closing the log commits every append already queued (none is left waiting for an answer);
    one that comes after answers ``log-closed`` at once and writes nothing."""
    from events.duckdb_log import DuckDBEventLog
    from events.errors import LogClosed

    path = str(tmp_path / "closing.duckdb")
    log = DuckDBEventLog(path)
    created = GameCreated(title="lost-cities", players=PLAYERS)

    async def main() -> tuple[list, Exception | None]:
        pending = [asyncio.ensure_future(log.append_async(f"g-{n}", [created], 0)) for n in range(16)]
        await asyncio.sleep(0)  # every append is queued before the log closes
        await asyncio.get_running_loop().run_in_executor(None, log.close)
        done = await asyncio.wait_for(asyncio.gather(*pending, return_exceptions=True), timeout=30)
        try:
            await asyncio.wait_for(log.append_async("late", [created], 0), timeout=10)
        except LogClosed as exc:
            return done, exc
        return done, None

    done, late = own_loop.run(main())
    assert late is not None and late.code == "log-closed" and late.status == 503
    assert all(result.last_seq == 1 for result in done), done
    reopened = DuckDBEventLog(path)
    assert sorted(reopened.game_ids()) == sorted(f"g-{n}" for n in range(16))
    reopened.close()
