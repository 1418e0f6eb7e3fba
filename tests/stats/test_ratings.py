"""Ratings from the log: every finished game counted once in end order, forks and unfinished games
not at all, partners rated as one team, and every change to the past (an amended result, an import
of older plays, an undone end) re-rating later games exactly as a fresh rebuild does."""

from __future__ import annotations

import pytest

from api.formats import bgstats
from events.errors import HistoryEditRefused, StatsQueryRefused
from events.lifecycle import GameEnded
from events.log import new_game_id
from projections.projector import Projector
from projections.stats.ratings import Ratings, conservative
from replay.simulate import random_game


def steps(ratings: Ratings) -> list[tuple]:
    return ratings.read_models.con.execute("SELECT * FROM rating_steps ORDER BY title, ended_at, game_id, seat").fetchall()


def fresh(ratings: Ratings) -> list[tuple]:
    """What a rebuild from nothing holds (the incremental steps are kept aside first)."""
    ratings.rebuild()
    return steps(ratings)


def counted(con) -> int:
    return con.execute(
        "SELECT count(*) FROM games WHERE status = 'ended' AND parent_id IS NULL"
    ).fetchall()[0][0]


def test_every_finished_game_is_rated_once_in_the_order_games_ended(layers):
    log, projector, recorder = layers
    ratings = Ratings(projector.read_models)
    assert ratings.refresh() == counted(log.con) == 28
    assert ratings.refresh() == 0  # nothing new: nothing re-rated
    rows = steps(ratings)
    assert len({r[1] for r in rows}) == 28
    history = ratings.history("lost-cities", "ana")
    assert [h["ended_at"] for h in history] == sorted(h["ended_at"] for h in history)
    # each game starts from where the previous one left the player
    assert all(a["mu"] == b["mu_before"] and a["sigma"] == b["sigma_before"] for a, b in zip(history, history[1:]))
    assert history[0]["mu_before"] == 25.0
    table = ratings.table("lost-cities")
    assert [r["conservative"] for r in table] == sorted((r["conservative"] for r in table), reverse=True)
    assert table[0]["conservative"] == pytest.approx(conservative(table[0]["mu"], table[0]["sigma"]))
    assert sum(r["games"] for r in table) == 2 * 24


def test_forks_and_games_in_progress_are_not_rated(layers):
    log, projector, recorder = layers
    ratings = Ratings(projector.read_models)
    ratings.refresh()
    before = steps(ratings)
    ended = log.con.execute("SELECT game_id FROM games WHERE title = 'lost-cities' ORDER BY ended_at LIMIT 1").fetchall()[0][0]
    recorder.fork(ended, 6)
    recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=3)
    ratings.refresh()
    assert steps(ratings) == before


def test_an_undone_end_an_older_import_and_an_amended_result_rerate_as_a_rebuild_does(layers):
    log, projector, recorder = layers
    ratings = Ratings(projector.read_models)
    ratings.refresh()
    games = [r[0] for r in log.con.execute(
        "SELECT game_id FROM games WHERE title = 'lost-cities' ORDER BY ended_at").fetchall()]

    # an amended result: the first move of an early game whose amendment changes the end
    target = games[2]
    was = projector.state(target).ended
    amended = _amend_the_result(projector, recorder, target)
    assert projector.state(target).ended.ranks != was.ranks and amended
    assert ratings.refresh() == 22  # from the amended game on, of its title only
    assert steps(ratings) == fresh(ratings)

    # an undone end: the game is in play again and drops out of every later rating
    entries = projector.live(games[5]).history.entries()
    end = next(e.seq for e in entries if isinstance(e.body, GameEnded))
    recorder.undo(games[5], to_seq=end - 1)
    ratings.refresh()
    rows = steps(ratings)
    assert games[5] not in {r[1] for r in rows}
    assert rows == fresh(ratings)

    # older plays imported: dated before every recorded game, they come first
    bgstats.import_document(log, Projector(log, read_models=False), _plays())
    projector.read_models.catch_up()
    ratings.refresh()
    rows = steps(ratings)
    assert rows == fresh(ratings)
    first = ratings.history("lost-cities", "Ana")[0]
    assert first["ended_at"].startswith("2025-")


def test_partners_are_rated_as_one_team_and_ties_share_a_rank(tmp_path):
    from events.duckdb_log import DuckDBEventLog

    log = DuckDBEventLog(str(tmp_path / "teams.duckdb"))
    try:
        log.import_games([(new_game_id(), random_game("lost-cities", ("Cy", "Dee", "Eve", "Fox"), {"rounds": 1}, seed=4))])
        bgstats.import_document(log, Projector(log, read_models=False), _plays(tie=True))
        projector = Projector(log)
        ratings = Ratings(projector.read_models)
        ratings.refresh()
        rows = steps(ratings)
        seats = sorted((r for r in rows if r[4] == "Dee"), key=lambda r: r[3])  # the partnership game alone
        seats = sorted((r for r in rows if r[1] == seats[0][1]), key=lambda r: r[3])
        assert [s[5] for s in seats] == [0, 1, 0, 1]
        # partners started equal and moved by the same amount, the other side the other way
        assert seats[0][9] - seats[0][7] == pytest.approx(seats[2][9] - seats[2][7])
        assert (seats[0][9] - 25) * (seats[1][9] - 25) < 0
        tied = [r for r in rows if r[0] == "marco-polo"]
        assert [r[6] for r in tied] == [1, 1] and tied[0][9] == pytest.approx(tied[1][9])
    finally:
        log.close()


def test_who_is_favourite_shares_the_chances_among_the_chosen_players(layers):
    log, projector, recorder = layers
    ratings = Ratings(projector.read_models)
    table = ratings.table("lost-cities")
    best, worst = table[0]["player"], table[-1]["player"]
    answer = ratings.favourite("lost-cities", [worst, best, "Newcomer"])
    assert sum(a["win_probability"] for a in answer) == pytest.approx(1.0)
    chance = {a["player"]: a["win_probability"] for a in answer}
    assert chance[best] > chance[worst]
    assert answer[2]["games"] == 0 and answer[2]["mu"] == 25.0
    with pytest.raises(StatsQueryRefused) as refused:
        ratings.favourite("lost-cities", ["Ana"])
    assert refused.value.code == "ratings-players-needed"
    with pytest.raises(StatsQueryRefused) as refused:
        ratings.table(None)
    assert refused.value.code == "stats-title-needed"


def _amend_the_result(projector, recorder, game_id: str) -> bool:
    """Amend moves of the game (the latest first) until its winner changes."""
    entries = projector.live(game_id).history.entries()
    was = projector.state(game_id).ended
    for entry in reversed(entries[1:-1]):
        game = projector.state_at(game_id, entry.seq - 1)
        for move in game.title.legal_moves(game.state):
            if move == entry.body:
                continue
            try:
                recorder.amend(game_id, entry.seq, move)
            except HistoryEditRefused:
                continue
            if projector.state(game_id).ended.ranks != was.ranks:
                return True
    return False


def _plays(tie: bool = False) -> dict:
    """A BG Stats export: two Lost Cities plays of 2025 and, with ``tie``, a tied Marco Polo play."""
    plays = [
        {"uuid": f"RATE-{n:04d}", "gameRefId": 1, "durationMin": 30, "playDate": f"2025-0{n + 1}-01 20:00:00",
         "playerScores": [{"playerRefId": 1, "score": str(40 + n), "seatOrder": 1, "winner": True},
                          {"playerRefId": 2, "score": "10", "seatOrder": 2, "winner": False}]}
        for n in range(2)
    ]
    if tie:
        plays.append({"uuid": "RATE-TIE", "gameRefId": 2, "durationMin": 90, "playDate": "2025-05-01 20:00:00",
                      "playerScores": [{"playerRefId": 1, "score": "50", "seatOrder": 1, "winner": True},
                                       {"playerRefId": 2, "score": "50", "seatOrder": 2, "winner": True}]})
    return {
        "games": [{"id": 1, "name": "Lost Cities", "bggId": 50}, {"id": 2, "name": "The Voyages of Marco Polo", "bggId": 171623}],
        "players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}],
        "plays": plays,
    }


def test_a_postgresql_store_rates_exactly_as_duckdb(layers, db_path, postgres_db, tmp_path):
    import os
    import shutil

    from api.formats.jsonl import check_games
    from events.stores import open_log
    from projections.stats import parquet

    _, projector, _ = layers
    duck = Ratings(projector.read_models)
    duck.refresh()
    folder = tmp_path / "export"
    parquet.export(projector.read_models, folder)
    shutil.copy(f"{db_path}.key", os.environ["TABLETAPE_SECRET_FILE"])
    pg = open_log(postgres_db)
    try:
        models = Projector(pg).read_models
        parquet.restore(models, folder, check=check_games)
        ratings = Ratings(models)
        assert ratings.refresh() == 28
        assert steps(ratings) == steps(duck)
        assert ratings.favourite("marco-polo", ["Ana", "Bea"]) == duck.favourite("marco-polo", ["Ana", "Bea"])
    finally:
        pg.close()


def test_a_name_written_in_another_case_is_the_same_player(tmp_path):
    """"Ana" and "ana" are one player, as every statistic counts them: one rating, one unbroken
    history, and the chance tonight from that rating (found in the review of the ratings)."""
    from events.duckdb_log import DuckDBEventLog

    log = DuckDBEventLog(str(tmp_path / "case.duckdb"))
    for i, players in enumerate([("Ana", "Bea"), ("ana", "Bea"), ("Ana", "Bea"), ("ana", "Bea")]):
        log.import_games([(new_game_id(), random_game("lost-cities", players, {"rounds": 1}, seed=i))])
    ratings = Ratings(Projector(log).read_models)
    table = ratings.table("lost-cities")
    assert sorted(r["player"].lower() for r in table) == ["ana", "bea"]
    assert {r["player"].lower(): r["games"] for r in table} == {"ana": 4, "bea": 4}
    history = ratings.history("lost-cities", "ANA")
    assert len(history) == 4
    assert all(a["mu"] == b["mu_before"] for a, b in zip(history, history[1:]))
    ana = next(r for r in table if r["player"].lower() == "ana")
    chances = {r["player"].lower(): r for r in ratings.favourite("lost-cities", ["ANA", "Bea"])}
    assert chances["ana"]["games"] == ana["games"] == 4
    log.close()
