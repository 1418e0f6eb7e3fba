"""The canned questions, checked against what the games themselves say (folded in Python)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

import pytest
from statsdata import MP_GAMES

from events.errors import StatsQueryRefused
from projections.fold import fold_all
from projections.stats.questions import Filters, Questions, nice_width
from rules.lost_cities.scoring import expedition_breakdown


@pytest.fixture
def games(layers):
    """Every game folded in Python: (game_id, GameState)."""
    log, _, _ = layers
    return [(gid, fold_all(log.read_bodies(gid))) for gid in log.game_ids()]


@pytest.fixture
def ask(layers) -> Questions:
    return Questions(layers[1].read_models)


def test_the_leaderboard_counts_what_the_games_say(ask, games):
    expected = defaultdict(lambda: {"games": 0, "wins": 0, "scores": []})
    for _, game in games:
        for seat, player in enumerate(game.players):
            row = expected[player]
            row["games"] += 1
            row["wins"] += seat in game.ended.winners
            row["scores"].append(game.ended.scores[seat])
    rows = {r["player"]: r for r in ask.leaderboard(Filters())}
    assert set(rows) == set(expected)
    for player, want in expected.items():
        got = rows[player]
        assert (got["games"], got["wins"]) == (want["games"], want["wins"])
        assert got["win_rate"] == pytest.approx(want["wins"] / want["games"])
        assert got["avg_score"] == pytest.approx(sum(want["scores"]) / len(want["scores"]))
        assert (got["best_score"], got["worst_score"]) == (max(want["scores"]), min(want["scores"]))


def test_filters_narrow_by_title_player_dates_and_options(ask, games):
    def count(**kw) -> int:
        return sum(r["games"] for r in ask.leaderboard(Filters(**kw)))  # seats of the games kept

    seats = lambda title: sum(len(g.players) for _, g in games if g.title.id == title)  # noqa: E731
    assert count(title="lost-cities") == seats("lost-cities")
    assert count(title="marco-polo") == seats("marco-polo")
    january = dict(date_from=datetime(2026, 1, 1), date_to=datetime(2026, 2, 1))
    assert count(**january) == seats("lost-cities")  # the fixture records Lost Cities in January
    six = sum(2 for _, g in games if g.title.id == "lost-cities" and g.state.expedition_count == 6)
    assert count(title="lost-cities", options=(("expeditions", 6),)) == six > 0
    # a default counts as chosen: no Marco Polo game spelled random_city_bonuses out, all of them match
    assert count(title="marco-polo", options=(("random_city_bonuses", False),)) == seats("marco-polo")
    ana_games = [g for _, g in games if "Ana" in g.players]
    rows = ask.leaderboard(Filters(player="ANA"))
    assert next(r for r in rows if r["player"] == "Ana")["games"] == len(ana_games)
    assert sum(r["games"] for r in rows) == sum(len(g.players) for g in ana_games)


def test_head_to_head_is_each_players_record_against_a_rival(ask, games):
    want = defaultdict(lambda: [0, 0, 0])
    for _, game in games:
        if "Ana" not in game.players:
            continue
        me = game.players.index("Ana")
        for seat, rival in enumerate(game.players):
            if seat != me:
                mine, theirs = game.ended.ranks[me], game.ended.ranks[seat]
                want[rival][0 if mine < theirs else 1 if mine > theirs else 2] += 1
    rows = ask.head_to_head(Filters(player="ana"))
    assert {r["opponent"]: [r["wins"], r["losses"], r["ties"]] for r in rows} == dict(want)
    one = ask.head_to_head(Filters(player="ana"), opponent="bea")
    assert [r["opponent"] for r in one] == (["Bea"] if "Bea" in want else [])


def test_win_rate_by_seat_and_first_player(ask, games):
    answer = ask.seats(Filters(title="lost-cities"))
    lc = [g for _, g in games if g.title.id == "lost-cities"]
    for row in answer["by_seat"]:
        wins = sum(row["seat"] in g.ended.winners for g in lc)
        assert (row["games"], row["wins"]) == (len(lc), wins)
    first = answer["first_player"][0]
    assert first["games"] == len(lc)
    assert first["wins"] == sum(g.state.first_seat in g.ended.winners for g in lc)


def test_score_distribution(ask, games):
    answer = ask.scores(Filters(title="marco-polo"))
    scores = [s for _, g in games if g.title.id == "marco-polo" for s in g.ended.scores]
    assert answer["summary"]["count"] == len(scores)
    assert sum(b["count"] for b in answer["histogram"]) == len(scores)
    assert answer["summary"]["max"] == max(scores)
    for b in answer["histogram"]:
        assert b["count"] == sum(b["low"] <= s < b["high"] for s in scores)
    assert nice_width(-171, -21) == 10 and nice_width(0, 0) == 1


def test_lost_cities_wagers_bonus_and_rounds(ask, games):
    by_wagers = defaultdict(list)
    opened = defaultdict(list)
    for _, game in games:
        if game.title.id != "lost-cities":
            continue
        for result in game.state.history:
            for side in range(2):
                exps = [expedition_breakdown(c, cards) for c, cards in enumerate(result.expeditions[side]) if cards]
                opened[result.round].append(len(exps))
                for e in exps:
                    by_wagers[e["wagers"]].append(e["score"])
    rows = ask.title_question(Filters(title="lost-cities"), "wagers")
    assert {r["wagers"]: r["expeditions"] for r in rows} == {w: len(s) for w, s in by_wagers.items()}
    for r in rows:
        assert r["avg_score"] == pytest.approx(sum(by_wagers[r["wagers"]]) / len(by_wagers[r["wagers"]]))
    bonus = ask.title_question(Filters(title="lost-cities"), "bonus")
    assert bonus["expeditions"] == sum(len(s) for s in by_wagers.values())
    rounds = {r["round"]: r for r in ask.title_question(Filters(title="lost-cities"), "rounds")}
    for number, counts in opened.items():
        assert rounds[number]["avg_opened"] == pytest.approx(sum(counts) / len(counts))
    assert rounds[None]["sides"] == sum(len(c) for c in opened.values())


def test_marco_polo_characters_beijing_and_contracts(ask, games):
    mp = [g for _, g in games if g.title.id == "marco-polo"]
    assert len(mp) == MP_GAMES
    seats = defaultdict(lambda: [0, 0])
    for game in mp:
        for seat, p in enumerate(game.state.seats):
            seats[p.character][0] += 1
            seats[p.character][1] += seat in game.ended.winners
    rows = ask.title_question(Filters(title="marco-polo"), "characters")
    assert {r["character"]: [r["seats"], r["wins"]] for r in rows} == {k: v for k, v in seats.items()}
    beijing = ask.title_question(Filters(title="marco-polo"), "beijing")
    assert sum(r["seats"] for r in beijing["by_slot"]) == sum(len(g.players) for g in mp)
    contracts = ask.title_question(Filters(title="marco-polo"), "contracts")
    assert sum(r["seats"] for r in contracts["by_count"]) == sum(len(g.players) for g in mp)
    sources = {r["source"] for r in ask.sources(Filters(title="marco-polo"))}
    assert {"contracts", "beijing", "coins", "most_contracts"} <= sources


def test_a_question_needs_a_title_it_covers(ask):
    with pytest.raises(StatsQueryRefused) as need:
        ask.seats(Filters())
    assert need.value.code == "stats-title-needed" and need.value.status == 422
    with pytest.raises(StatsQueryRefused) as covered:
        ask.title_question(Filters(title="lost-cities"), "characters")
    assert covered.value.code == "stats-title-not-covered"
