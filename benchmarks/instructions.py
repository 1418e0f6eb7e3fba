"""Instructions, not seconds: `python -m benchmarks.instructions [--against TREE]`.

A shared 2-core machine moves wall-clock figures by a fifth from one run to the next; valgrind's
callgrind counts the instructions a workload executes, the same on a busy machine as on a quiet
one. Each workload runs in a child process under callgrind twice, with and without its measured
part, so the difference is that part alone (Python's start, imports and the setup cancel out):

- a first load of a 3-round Lost Cities match (its chain and anchors checked), per match;
- one validated append in process (rules check, encode, hash, MAC, commit, projection), per move;
- the fold of a match's events through the rules core, per event.

``--against TREE`` runs the same workloads on another checkout (say, the commit before a change)
in the same run and prints both with their ratio. Needs valgrind (Debian's ``valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS = {"first-load": 20, "append": 200, "fold": 20}
FOLD_REPEAT = 25
UNIT = {"first-load": "a match", "append": "a move", "fold": "an event"}


def _games(n: int) -> list[list]:
    from replay.simulate import random_game

    return [random_game("lost-cities", ("Ana", "Bea"), {"rounds": 3}, seed=seed) for seed in range(n)]


def child(workload: str, measure: bool, folder: str) -> None:
    """One workload, its measured part run only when ``measure``; prints the units measured."""
    import duckdb

    import rules  # noqa: F401  (registers the titles' events)
    from events.duckdb_log import DuckDBEventLog
    from events.log import new_game_id

    n = WORKLOADS[workload]
    games = _games(n)
    if workload == "fold":
        from projections.fold import fold, start

        # folded again and again, so the fold outweighs the noise of generating the games
        if measure:
            for _ in range(FOLD_REPEAT):
                for events in games:
                    fold(start(events[0]), events[1:])
        print(FOLD_REPEAT * sum(len(events) - 1 for events in games))
        return
    con = duckdb.connect(os.path.join(folder, "store.duckdb"))
    con.execute("SET threads TO 1")  # DuckDB's worker threads would add their scheduling
    log = DuckDBEventLog(con)
    if workload == "first-load":
        from projections.projector import Projector

        ids = [new_game_id() for _ in games]
        log.import_games(zip(ids, games))
        fresh = DuckDBEventLog(con)  # no head cached, no chain checked: every load is a first
        projector = Projector(fresh, read_models=False)
        if measure:
            for gid in ids:
                projector.state(gid)
        print(len(ids))
        return
    from replay.recorder import Recorder

    moves = _moves()  # found on a store in memory, the same in both runs
    recorder = Recorder(log)
    gid, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 3}, seed=0)
    if measure:
        seq = recorder.projector.history(gid).last_seq
        for move in moves:
            seq = recorder.record(gid, move, expected_seq=seq).last_seq
    print(len(moves))


def _moves() -> list:
    """A seeded sequence of legal moves of the game ``child`` creates, recorded in memory."""
    import random

    from events.duckdb_log import DuckDBEventLog
    from replay.recorder import Recorder

    recorder = Recorder(DuckDBEventLog(":memory:"))
    gid, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 3}, seed=0)
    rng, moves = random.Random(3), []
    while len(moves) < WORKLOADS["append"]:
        game = recorder.projector.state(gid)
        if game.ended is not None:
            break
        legal = game.title.legal_moves(game.state)
        move = legal[rng.randrange(len(legal))]
        recorder.record(gid, move, expected_seq=recorder.projector.history(gid).last_seq)
        moves.append(move)
    return moves


def count(tree: str, workload: str, measure: bool) -> tuple[int, int]:
    """(instructions, units) of one child run under callgrind in ``tree``."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        env = {**os.environ, "PYTHONPATH": tree, "PYTHONHASHSEED": "0"}
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, os.path.abspath(__file__),
             "--child", workload, "--folder", folder] + (["--measure"] if measure else []),
            cwd=folder, env=env, capture_output=True, text=True, check=True,
        )
        total = re.search(r"Collected : (\d+)", run.stderr)
        assert total is not None, run.stderr[-2000:]
        return int(total.group(1)), int(run.stdout.split()[-1])


def per_unit(tree: str, workload: str) -> float:
    base, _ = count(tree, workload, False)
    full, units = count(tree, workload, True)
    return (full - base) / units


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="another checkout's root, measured the same way in the same run")
    parser.add_argument("--only", choices=list(WORKLOADS), action="append")
    parser.add_argument("--child", choices=list(WORKLOADS), help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.measure, args.folder)
        return
    if shutil.which("valgrind") is None:
        print("benchmarks.instructions: skipped, valgrind is not installed (apt-get install valgrind)")
        return
    for workload in args.only or WORKLOADS:
        ours = per_unit(ROOT, workload)
        line = f"{workload:<11} {ours / 1e3:10,.1f} k instructions {UNIT[workload]}"
        if args.against:
            theirs = per_unit(os.path.abspath(args.against), workload)
            line += f"   against {theirs / 1e3:10,.1f} k: {ours / theirs:.3f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
