"""The PostgreSQL log's DuckDB mirror (what the read models fold): every event of every process
arrives in it exactly once, whatever the order of the writing transactions' ids."""

from __future__ import annotations

import threading

import psycopg

from events.lifecycle import GameCreated, Redone, Undone
from events.log import new_game_id
from events.stores import open_log

CREATED = GameCreated(title="lost-cities", players=("Ana", "Bea"))


def next_xid(conn: psycopg.Connection) -> int:
    return int(conn.execute("SELECT pg_current_xact_id()::text").fetchone()[0])


def test_two_workers_mirrors_each_hold_every_event_once_across_a_power_of_ten_of_transaction_ids(postgres_db):
    with psycopg.connect(postgres_db, autocommit=True) as conn:
        xid = next_xid(conn)
        boundary = 10 ** len(str(xid))
        while xid < boundary - 20:  # each autocommit call uses one id: the appends below cross 10^n
            xid = next_xid(conn)
    first, second = open_log(postgres_db), open_log(postgres_db)
    try:
        games = [new_game_id() for _ in range(4)]

        def write(log, mine) -> None:
            for gid in mine:
                log.append(gid, [CREATED], expected_seq=0)
            for seq in range(1, 11):
                for gid in mine:
                    log.append(gid, [Undone(to_seq=1) if seq % 2 else Redone()], expected_seq=seq)
                log.sync()

        threads = [threading.Thread(target=write, args=(log, games[i::2])) for i, log in enumerate((first, second))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with psycopg.connect(postgres_db) as conn:
            assert next_xid(conn) > boundary
            stored = conn.execute("SELECT game_id, seq, hash FROM events ORDER BY 1, 2").fetchall()
        for log in (first, second):
            log.sync()
            mirrored = log.con.execute("SELECT game_id, seq, hash FROM events ORDER BY 1, 2").fetchall()
            assert mirrored == stored and len(stored) == 4 * 11
    finally:
        first.close()
        second.close()


def test_a_game_read_while_another_worker_appends_to_it_is_never_taken_for_a_broken_one(postgres_db):
    """A worker's first load reads a game's rows and its head as of one moment: an append that
    another worker commits in between must not make a sound game look cut short (before, it was
    then refused as ``chain-broken`` on that worker for good)."""
    writer, reader = open_log(postgres_db), open_log(postgres_db)
    try:
        game = new_game_id()
        writer.append(game, [CREATED], expected_seq=0)
        done = threading.Event()

        def append_on() -> None:
            seq = 1
            while not done.is_set() and seq < 400:
                writer.append(game, [Undone(to_seq=1) if seq % 2 else Redone()], expected_seq=seq)
                seq += 1

        thread = threading.Thread(target=append_on)
        thread.start()
        try:
            verdicts = [reader.verify(game) for _ in range(150)]
        finally:
            done.set()
            thread.join()
        assert [v for v in verdicts if not v.ok] == []
        assert len(reader.read_checked(game)) == writer.last_seq(game)
    finally:
        writer.close()
        reader.close()
