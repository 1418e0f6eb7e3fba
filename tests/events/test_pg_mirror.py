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
