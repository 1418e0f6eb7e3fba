"""The statistics read models: caught up lazily, effective history only, forks marked, identical
after a full rebuild, and one module per title found by the registry."""

from __future__ import annotations

import random

from statsdata import LC_GAMES, MP_GAMES, tables

from events.history import build
from projections.projector import Projector
from projections.stats import model, models
from projections.stats.base import TitleStats
from projections.stats.questions import Filters, Questions
from projections.stats.sql import SHARED_VIEWS
from replay.recorder import Recorder
from rules import titles

STATS_TABLES = (
    "games", "results", "game_facts", "score_sources", "effective_edits",
    "lost_cities_expeditions", "lost_cities_rounds", "marco_polo_seats",
)


def play(recorder, game_id: str, seed: int, moves: int | None = None) -> None:
    rng = random.Random(seed)
    done = 0
    while moves is None or done < moves:
        game = recorder.projector.state(game_id)
        if game.ended is not None:
            return
        legal = game.title.legal_moves(game.state)
        recorder.record(game_id, legal[rng.randrange(len(legal))])
        done += 1


def test_refresh_folds_every_game_and_the_sources_add_up(layers):
    log, projector, _ = layers
    read_models = projector.read_models
    assert read_models.refresh() == LC_GAMES + MP_GAMES
    assert read_models.refresh() == 0  # nothing new: nothing folded
    con = log.con
    assert con.execute("SELECT count(*) FROM game_facts").fetchall()[0][0] == LC_GAMES + MP_GAMES
    # a seat's points by source add up to its score
    assert con.execute(
        "SELECT count(*) FROM results r JOIN (SELECT game_id, seat, sum(points) AS p FROM score_sources "
        "GROUP BY ALL) s USING (game_id, seat) WHERE s.p <> r.score"
    ).fetchall()[0][0] == 0
    # Lost Cities: expeditions add up to the round, rounds to the match
    assert con.execute(
        "SELECT count(*) FROM lost_cities_rounds r LEFT JOIN (SELECT game_id, round, side, sum(score) AS s "
        "FROM lost_cities_expeditions GROUP BY ALL) x USING (game_id, round, side) WHERE coalesce(x.s, 0) <> r.score"
    ).fetchall()[0][0] == 0
    assert con.execute(
        "SELECT count(*) FROM results r JOIN (SELECT game_id, seat, sum(score) AS s FROM lost_cities_rounds "
        "GROUP BY ALL) x USING (game_id, seat) WHERE x.s <> r.score"
    ).fetchall()[0][0] == 0
    # Marco Polo: one row per seat, agreeing with the results
    assert con.execute(
        "SELECT count(*) FROM marco_polo_seats m JOIN results r USING (game_id, seat) "
        "WHERE m.score = r.score AND m.rank = r.rank AND m.won = r.won AND m.player = r.player"
    ).fetchall()[0][0] == con.execute(
        "SELECT count(*) FROM results JOIN games USING (game_id) WHERE title = 'marco-polo'"
    ).fetchall()[0][0]


def test_the_append_path_leaves_statistics_to_the_next_question(layers):
    log, projector, recorder = layers
    projector.read_models.refresh()
    game_id, _ = recorder.create("lost-cities", ("Ana", "Eve"), {"rounds": 1}, seed=99)
    play(recorder, game_id, 1)
    facts = log.con.execute("SELECT count(*) FROM game_facts WHERE game_id = ?", [game_id]).fetchall()[0][0]
    assert facts == 0  # recording did no statistics work...
    rows = Questions(projector.read_models).leaderboard(Filters(player="eve"))
    assert {r["player"] for r in rows} == {"Ana", "Eve"}  # ...and the next question is not stale
    assert next(r for r in rows if r["player"] == "Eve")["games"] == 1


def test_only_the_effective_history_counts(layers):
    log, projector, recorder = layers
    game_id, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=5)
    play(recorder, game_id, 2, moves=8)
    recorder.undo(game_id, to_seq=4)
    play(recorder, game_id, 3, moves=3)
    drawn = next(e for e in projector.history(game_id).entries() if e.body.__class__.__name__ == "CardDrawn")
    recorder.amend(game_id, drawn.seq, drawn.body)  # an amendment counts as amended
    projector.read_models.refresh()
    history = build(log.read_bodies(game_id))
    effective = [(e.seq, e.length) for e in history.entries() if not e.body.__class__.__name__.startswith("Game")]
    rows = log.con.execute(
        f"SELECT seq, step FROM ({SHARED_VIEWS['moves'][0]}) WHERE game_id = ? ORDER BY step", [game_id]
    ).fetchall()
    assert rows == effective
    raw_moves = log.con.execute(
        "SELECT count(*) FROM events WHERE game_id = ? AND type NOT LIKE 'game.%'", [game_id]
    ).fetchall()[0][0]
    assert len(rows) < raw_moves  # the undone moves are in the log, not in the moves
    amended = log.con.execute(
        "SELECT amended_by FROM effective_edits WHERE game_id = ? AND seq = ?", [game_id, drawn.seq]
    ).fetchall()
    assert amended == [(history.last_seq,)]
    facts = log.con.execute("SELECT edited, steps, last_seq FROM game_facts WHERE game_id = ?", [game_id]).fetchall()
    assert facts == [(True, len(history.entries()), history.last_seq)]


def test_forks_are_marked_and_left_out_unless_asked_for(layers):
    log, projector, recorder = layers
    game_id, _ = recorder.create("lost-cities", ("Zoe", "Yan"), {"rounds": 1}, seed=11)
    play(recorder, game_id, 4)
    child, _ = recorder.fork(game_id, projector.history(game_id).last_seq)
    ask = Questions(projector.read_models)
    assert ask.leaderboard(Filters(player="zoe"))[0]["games"] == 1
    assert ask.leaderboard(Filters(player="zoe", include_forks=True))[0]["games"] == 2
    parent = log.con.execute("SELECT parent_id FROM games WHERE game_id = ?", [child]).fetchall()
    assert parent == [(game_id,)]


def test_a_full_rebuild_yields_identical_tables(layers):
    log, projector, recorder = layers
    read_models = projector.read_models
    read_models.refresh()
    game_id, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=21)
    play(recorder, game_id, 5, moves=6)
    recorder.undo(game_id, to_seq=3)
    read_models.refresh()  # the incremental path saw the game mid-way...
    play(recorder, game_id, 6)
    recorder.fork(game_id, 6)
    read_models.refresh()  # ...and again after it ended and was forked
    incremental = tables(log.con, STATS_TABLES)
    assert read_models.rebuild() == LC_GAMES + MP_GAMES + 2
    assert tables(log.con, STATS_TABLES) == incremental
    # read a few rows at a time, so that most games run on from one batch into the next
    assert read_models.rebuild(rows_per_batch=7) == LC_GAMES + MP_GAMES + 2
    assert tables(log.con, STATS_TABLES) == incremental


def test_the_registry_finds_one_model_per_title():
    found = models()
    assert set(found) == set(titles())
    assert model("lost-cities").tables.keys() == {"lost_cities_expeditions", "lost_cities_rounds"}
    assert "marco_polo_seats" in model("marco-polo").tables
    for title_id, title_model in found.items():
        assert isinstance(title_model, TitleStats) and title_model.title == title_id
    plain = model("no-such-title-yet")  # a title without a module still gets the shared tables
    assert plain.tables == {} and plain.title == "no-such-title-yet"


def test_marco_polo_2_games_fill_their_own_table(log):
    from benchmarks.marco_polo_2 import table_like
    from events.log import new_game_id
    from projections.projector import Projector
    from replay.simulate import random_game
    from rules.marco_polo_2.content import SYNTHETIC

    games = [
        random_game("marco-polo-2", ("Ana", "Bea", "Carl"),
                    {"content": SYNTHETIC.ref, "caravans": seed % 2 == 1, "characters": "all"}, seed=seed,
                    policy=table_like)
        for seed in range(2)
    ]
    log.import_games([(new_game_id(), g) for g in games])
    read_models = Projector(log).read_models
    read_models.refresh()
    seats = log.con.execute("SELECT count(*), count(beijing_slot) FROM marco_polo_2_seats").fetchall()
    assert seats == [(6, 0)]
    assert log.con.execute(
        "SELECT count(*) FROM results r JOIN (SELECT game_id, seat, sum(points) AS p FROM score_sources "
        "GROUP BY ALL) s USING (game_id, seat) WHERE s.p <> r.score"
    ).fetchall()[0][0] == 0
    rows = Questions(read_models).title_question(Filters(title="marco-polo-2"), "characters")
    assert sum(r["seats"] for r in rows) == 6


def test_opening_the_read_models_catches_the_catalogue_up_with_what_a_crash_left_out(file_log):
    """A writer whose catalogue writes never ran (a process killed between an append's commit and
    its ``track``): the next process to open the read models lists its games as they stand."""
    tracked = Recorder(file_log, Projector(file_log))
    ended_id, _ = tracked.create("lost-cities", ["Ana", "Bea"], {"rounds": 1}, seed=4)
    untracked = Recorder(file_log, Projector(file_log, read_models=False))
    play(untracked, ended_id, seed=1)
    new_id, _ = untracked.create("lost-cities", ["Cy", "Di"], seed=5)
    con = file_log.con
    assert con.execute("SELECT status FROM games WHERE game_id = ?", [ended_id]).fetchall() == [("in-progress",)]
    assert con.execute("SELECT count(*) FROM games WHERE game_id = ?", [new_id]).fetchall() == [(0,)]

    Projector(file_log)  # a restart: the read models are opened again
    assert dict(con.execute("SELECT game_id, status FROM games").fetchall()) == {
        ended_id: "ended", new_id: "in-progress"
    }
    assert con.execute("SELECT count(*) FROM results WHERE game_id = ?", [ended_id]).fetchall() == [(2,)]
    assert Projector(file_log).read_models.catch_up() == 0  # past the mark: nothing to look at again


def test_an_import_s_staged_rows_land_though_a_refresh_wrote_them_first(log):
    """A statistics request between an import's append and its staged rows (while its chains are
    verified) refreshes the read models: the staged rows then replace what it wrote, not clash."""
    from events.lifecycle import GameCreated, GameEnded, ScoreOnly
    from events.log import new_game_id

    read_models = Projector(log).read_models
    game_id = new_game_id()
    events = [
        GameCreated(title="lost-cities", players=("Ana", "Bea")),
        ScoreOnly(source="bgstats", ref="R1", played_at="2026-05-01T20:00:00"),
        GameEnded(scores=(10, 1), ranks=(1, 2), winners=(0,)),
    ]
    at = log.now()
    staged = read_models.stage([(game_id, events)], at)
    log.import_games([(game_id, events)], at=at)
    read_models.refresh()
    read_models.add_staged(staged)
    con = log.cursor()
    assert con.execute("SELECT count(*) FROM games WHERE game_id = ?", [game_id]).fetchall() == [(1,)]
    assert con.execute("SELECT list(score ORDER BY seat) FROM results WHERE game_id = ?", [game_id]).fetchall() == [([10, 1],)]
