"""Seasons in the log and their standings, on the seeded games in a real DuckDB file: the events,
the rules of a season, standings checked against the statistics tables, and a season's stream
kept out of every game's path."""

from __future__ import annotations

import msgspec
import pytest

from events import codec
from events.errors import SeasonRefused, UnknownGame, UnknownSeason
from events.names import same_name_key
from events.seasons import SeasonAmended, SeasonDefined, is_season
from projections.seasons import Seasons
from replay import seasons as write

MEMBERS = ["Ana", "Bea", "Carl", "Dana"]


@pytest.fixture
def seasons(layers):
    log, projector, _ = layers
    return Seasons(log, projector.read_models)


def winter(seasons, **given):
    fields = dict(name="Winter 2026", titles=["lost-cities", "marco-polo"], starts="2026-01-01", ends="2026-02-28", members=MEMBERS)
    return write.define(seasons, **{**fields, **given})


def test_a_season_is_events_of_its_own_stream(seasons):
    season = winter(seasons)
    assert is_season(season.season_id)
    bodies = seasons.log.read_bodies(season.season_id)
    assert [type(b) for b in bodies] == [SeasonDefined]
    assert codec.decode(codec.encode(bodies[0])) == bodies[0]
    write.amend(seasons, season.season_id, name="Winter league", members=[*MEMBERS, "Eve"])
    bodies = seasons.log.read_bodies(season.season_id)
    assert bodies[1] == SeasonAmended(name="Winter league", members=(*MEMBERS, "Eve"))
    again = seasons.get(season.season_id)
    assert (again.name, again.members[-1], again.amendments, again.titles) == ("Winter league", "Eve", 1, season.titles)
    assert seasons.log.verify(season.season_id).ok


def expected(con, title, members, first, last):
    """A title's standings the slow way: every seat of every counted game, summed in Python."""
    rows = con.execute(
        """SELECT r.game_id, list(r.player), list(r.won), list(r.score) FROM seat_results r JOIN games g USING (game_id)
        WHERE r.title = ? AND g.status = 'ended' AND g.parent_id IS NULL
              AND coalesce(g.ended_at, g.created_at)::DATE BETWEEN ?::DATE AND ?::DATE GROUP BY 1""",
        [title, first, last],
    ).fetchall()
    keys = {same_name_key(m) for m in members}
    out = {m: [0, 0, 0] for m in members}
    for _, players, won, scores in rows:
        if all(same_name_key(p) in keys for p in players):
            for p, w, s in zip(players, won, scores):
                out[p][0] += 1
                out[p][1] += int(w)
                out[p][2] += s
    return out


def test_standings_count_the_members_finished_games_of_the_days_and_titles(seasons):
    season = winter(seasons, members=["Ana", "bea", "Carl"])  # Dana's games do not count, nor do Bea's in another case
    tables = {t["title"]: t["rows"] for t in seasons.standings(season)}
    assert list(tables) == ["lost-cities", "marco-polo"]
    con = seasons.log.cursor()
    for title, rows in tables.items():
        want = expected(con, title, ["Ana", "Bea", "Carl"], "2026-01-01", "2026-02-28")
        got = {r["player"]: [r["games"], r["wins"], r["points"]] for r in rows}
        assert got == {("bea" if k == "Bea" else k): v for k, v in want.items()}
        assert [r["position"] for r in rows] == [1, 2, 3]
        assert rows == sorted(rows, key=lambda r: (-r["wins"], -r["points"], -(r["tiebreak"] or 0), r["player"].lower()))
        assert any(r["games"] for r in rows)
        for r in rows:
            assert (r["rating"] is None) == (r["games"] == 0)
    assert all(r["tiebreak"] is None for r in tables["lost-cities"])
    assert all(isinstance(r["tiebreak"], int) for r in tables["marco-polo"])


def test_the_rating_is_fresh_over_the_seasons_games_alone(seasons):
    january = winter(seasons, name="January", titles=["lost-cities"], ends="2026-01-31")
    whole = winter(seasons, name="Always", titles=["lost-cities"], starts="2000-01-01", ends="2999-12-31")
    a = {r["player"]: r for r in seasons.standings(january)[0]["rows"]}
    b = {r["player"]: r for r in seasons.standings(whole)[0]["rows"]}
    assert {k: v["games"] for k, v in a.items()} == {k: v["games"] for k, v in b.items()}  # every LC game is in January
    assert {k: v["mu"] for k, v in a.items()} == {k: v["mu"] for k, v in b.items()}
    february = winter(seasons, name="February", titles=["lost-cities"], starts="2026-02-01", ends="2026-02-28")
    assert all(r["games"] == 0 and r["rating"] is None for r in seasons.standings(february)[0]["rows"])


@pytest.mark.parametrize("given, code, field", [
    (dict(starts="2026-03-01", ends="2026-02-01"), "season-dates-reversed", "ends"),
    (dict(starts="2026-02-30"), "season-date-invalid", "starts"),
    (dict(ends="tomorrow"), "season-date-invalid", "ends"),
    (dict(titles=["chess"]), "season-title-unknown", "titles.0"),
    (dict(titles=[]), "season-titles-empty", "titles"),
    (dict(titles=["marco-polo", "marco-polo"]), "season-title-repeated", "titles"),
    (dict(members=[]), "season-members-too-few", "members"),
    (dict(members=["Ana", " ana "]), "season-member-repeated", "members.1"),
    (dict(members=["Ana", "B\x1b[31m"]), "season-text-control-character", "members.1"),
    (dict(members=["Ana", "x" * 65]), "season-text-too-long", "members.1"),
    (dict(name="  "), "season-text-blank", "name"),
    (dict(name="n" * 81), "season-text-too-long", "name"),
    (dict(name="WINTER 2026"), "season-name-taken", "name"),
])
def test_refusals_name_the_rule_and_write_nothing(seasons, given, code, field):
    winter(seasons)
    before = seasons.log.reader().execute("SELECT count(*) FROM events").fetchall()
    with pytest.raises(SeasonRefused) as refused:
        winter(seasons, **{"name": "Another", **given})
    assert (refused.value.code, refused.value.details["field"]) == (code, field)
    assert seasons.log.reader().execute("SELECT count(*) FROM events").fetchall() == before


def test_an_amendment_is_checked_as_a_definition_is(seasons):
    one = winter(seasons)
    winter(seasons, name="Spring")
    with pytest.raises(SeasonRefused, match="Spring"):
        write.amend(seasons, one.season_id, name="spring")
    with pytest.raises(SeasonRefused):
        write.amend(seasons, one.season_id, ends="2025-01-01")
    assert len(seasons.log.read_bodies(one.season_id)) == 1
    with pytest.raises(UnknownSeason):
        write.amend(seasons, "season-nothing", name="x")


def test_a_season_stream_is_no_game_anywhere(layers, seasons):
    log, projector, _ = layers
    season = winter(seasons)
    with pytest.raises(UnknownGame):
        projector.state(season.season_id)
    with pytest.raises(UnknownSeason):
        seasons.get(log.game_ids()[0])  # a game is no season either
    rm = projector.read_models
    rm.refresh()
    assert rm.rebuild() == 28 and not projector.quarantine.ids()
    con = log.cursor()
    for table in ("games", "results", "seat_results", "game_facts"):
        assert not con.execute(f"SELECT 1 FROM {table} WHERE game_id = ?", [season.season_id]).fetchall()


def test_an_altered_season_is_named_and_refused(layers, seasons):
    from events.errors import ChainBroken
    from events.duckdb_log import DuckDBEventLog
    from projections.projector import Projector

    log, _, _ = layers
    season = winter(seasons)
    body = msgspec.msgpack.encode({**msgspec.to_builtins(log.read_bodies(season.season_id)[0]), "members": ["Ana", "Bea"]})
    path = log.con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchall()[0][0]
    log.con.execute("UPDATE events SET body = ? WHERE game_id = ?", [body, season.season_id])
    log.close()
    reopened = DuckDBEventLog(path)
    try:
        report = reopened.verify(season.season_id)
        assert not report.ok and report.first_bad_seq == 1
        again = Seasons(reopened, Projector(reopened).read_models)
        with pytest.raises(ChainBroken):
            again.get(season.season_id)
        assert again.all() == []  # left out of the list, as an altered game is
    finally:
        reopened.close()


def test_a_season_on_postgresql_stands_as_on_duckdb_and_another_worker_reads_it(layers, db_path, postgres_db, tmp_path):
    import os
    import shutil

    from api.formats.jsonl import check_games
    from events.stores import open_log
    from projections.projector import Projector
    from projections.stats import parquet

    log, projector, _ = layers
    duck = Seasons(log, projector.read_models)
    on_duck = winter(duck)
    export = tmp_path / "export"
    parquet.export(projector.read_models, export)
    shutil.copy(f"{db_path}.key", os.environ["TABLETAPE_SECRET_FILE"])
    pg, other = open_log(postgres_db), None
    try:
        models = Projector(pg).read_models
        parquet.restore(models, export, check=check_games)
        seasons = Seasons(pg, models)
        on_pg = winter(seasons)
        assert seasons.standings(on_pg) == duck.standings(on_duck)
        assert pg.verify(on_pg.season_id).ok
        with pytest.raises(SeasonRefused):
            winter(seasons)
        other = open_log(postgres_db)  # another worker on the same store
        theirs = Seasons(other, Projector(other).read_models)
        assert [s.name for s in theirs.all()] == ["Winter 2026"]
        write.amend(theirs, on_pg.season_id, name="Winter league")
        assert seasons.get(on_pg.season_id).name == "Winter league"
        assert not Projector(pg).quarantine.ids()
    finally:
        pg.close()
        if other is not None:
            other.close()
