"""The per-game locks: one game at a time each, and only the games being worked on are held."""

from __future__ import annotations

import asyncio
import random
import threading
import time

import own_loop

from projections.locks import KeyedLocks

PLAYERS = ("Ana", "Bea")


def test_a_key_is_held_by_one_thread_at_a_time_across_its_lock_coming_and_going():
    locks = KeyedLocks(reentrant=False)
    inside, most = [0], [0]

    def work() -> None:
        for _ in range(200):
            with locks("game"):
                inside[0] += 1
                most[0] = max(most[0], inside[0])
                time.sleep(0)
                inside[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1 and len(locks) == 0


def test_recording_many_games_leaves_no_lock_behind(recorder):
    for seed in range(60):
        gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=seed)
        game = recorder.projector.state(gid)
        legal = game.title.legal_moves(game.state)
        recorder.record(gid, legal[random.Random(seed).randrange(len(legal))])
    assert len(recorder._game_lock) == 0 and len(recorder.projector._game_lock) == 0


def test_recording_from_an_event_loop_leaves_no_lock_behind(recorder):
    async def play(seed: int) -> None:
        gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=seed)
        for _ in range(3):
            game = recorder.projector.state(gid)
            legal = game.title.legal_moves(game.state)
            await recorder.record_async(gid, legal[random.Random(seed).randrange(len(legal))])

    async def main() -> None:
        await asyncio.gather(*(play(seed) for seed in range(20)))

    own_loop.run(main())
    assert len(recorder._game_lock) == 0
