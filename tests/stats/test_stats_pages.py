"""The statistics page's answers through the real app on the seeded games: its index, the
dashboard, a player's page and each title's page agree with the canned questions and with the
games themselves."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from statsdata import LC_GAMES, MP_GAMES

from api.http.app import create_app
from api.http.settings import Settings
from projections.stats.pages import h_index, wilson


@pytest.fixture
def client(db_path):
    with TestClient(create_app(Settings(db_path=db_path))) as client:
        yield client


def test_the_index_names_the_endpoints_the_titles_with_games_and_the_players(client):
    index = client.get("/stats").json()
    assert index["endpoints"] == {
        "dashboard": "/stats/dashboard",
        "player": "/stats/player?name={name}",
        "title": "/stats/titles/{title}",
        "bgstats": "/export/bgstats",
    }
    assert [(t["title"], t["games"]) for t in index["titles"]] == [("lost-cities", LC_GAMES), ("marco-polo", MP_GAMES)]
    assert index["titles"][0]["name"] == "Lost Cities"
    assert index["titles"][0]["options"]["rounds"] == [2, 3]  # options that vary, to filter on
    assert "marco-polo-2" not in {t["title"] for t in index["titles"]}  # no games: not listed
    assert {p["name"] for p in index["players"]} == {"Ana", "Bea", "Carl", "Dana"}
    assert index["games"] == LC_GAMES + MP_GAMES


def test_the_dashboard_agrees_with_the_leaderboard_and_lists_the_latest_games_first(client):
    board = client.get("/stats/dashboard").json()
    assert board["games"] == LC_GAMES + MP_GAMES
    canned = {r["player"]: r for r in client.get("/stats/leaderboard").json()["rows"]}
    for row in board["leaderboard"]:
        assert (row["games"], row["wins"], row["best_score"]) == tuple(
            canned[row["player"]][k] for k in ("games", "wins", "best_score")
        )
    latest = board["latest"]
    assert len(latest) == 10 and latest[0]["title"] == "marco-polo"
    assert [g["created_at"] for g in latest] == sorted((g["created_at"] for g in latest), reverse=True)
    assert all(any(s["won"] for s in g["seats"]) and not g["score_only"] for g in latest)
    assert board["months"] == [{"month": "2026-01", "games": LC_GAMES}, {"month": "2026-02", "games": MP_GAMES}]
    assert [t["title"] for t in board["titles"]] == ["lost-cities", "marco-polo"]
    lc = board["titles"][0]
    assert lc["games"] == LC_GAMES and lc["best_score"] == max(r["best_score"] for r in lc["leaderboard"])


def test_the_dashboard_follows_the_filters(client):
    january = client.get("/stats/dashboard", params={"date_to": "2026-02-01"}).json()
    assert january["games"] == LC_GAMES and [t["title"] for t in january["titles"]] == ["lost-cities"]
    mp = client.get("/stats/dashboard", params={"title": "marco-polo"}).json()
    assert mp["games"] == MP_GAMES and {g["title"] for g in mp["latest"]} == {"marco-polo"}
    ana = client.get("/stats/dashboard", params={"player": "ANA"}).json()
    assert len(ana["leaderboard"]) > 1  # the games Ana took part in: her rivals show too
    page = client.get("/stats/player", params={"name": "ana"}).json()
    assert next(r for r in ana["leaderboard"] if r["player"] == "Ana")["games"] == page["games"] == ana["games"]
    assert all(any(s["player"] == "Ana" for s in g["seats"]) for g in ana["latest"])
    six = client.get("/stats/dashboard", params={"option": "expeditions=6"}).json()
    assert 0 < six["games"] < LC_GAMES


def test_a_players_page_adds_up(client):
    page = client.get("/stats/player", params={"name": "ana"}).json()
    assert page["player"] == "Ana"
    canned = next(r for r in client.get("/stats/leaderboard").json()["rows"] if r["player"] == "Ana")
    assert (page["games"], page["wins"]) == (canned["games"], canned["wins"])
    assert sum(t["games"] for t in page["by_title"]) == sum(m["games"] for m in page["by_month"]) == page["games"]
    assert page["titles_played"] == len(page["by_title"]) == 2
    assert page["h_index"] == h_index([t["games"] for t in page["by_title"]])
    assert 1 <= page["streaks"]["longest_wins"] <= page["wins"]
    rivals = {r["opponent"]: r for r in client.get("/stats/head-to-head", params={"player": "ana"}).json()["rows"]}
    assert {r["opponent"]: r["wins"] for r in page["rivals"]} == {k: r["wins"] for k, r in rivals.items()}
    assert {c["title"] for c in page["characters"]} == {"marco-polo"}
    assert sum(c["seats"] for c in page["characters"]) == next(t["games"] for t in page["by_title"] if t["title"] == "marco-polo")
    assert {e["colour"] for e in page["expeditions"]} >= {"yellow", "blue", "white", "green", "red"}
    assert all(s["avg_points"] is not None for s in page["sources"])


def test_a_player_without_games_has_an_empty_page(client):
    page = client.get("/stats/player", params={"name": "Nobody"}).json()
    assert (page["games"], page["win_rate"], page["streaks"]["current"], page["by_title"]) == (0, None, None, [])
    assert client.get("/stats/player").status_code == 422


def test_the_lost_cities_page_holds_its_questions(client):
    page = client.get("/stats/titles/lost-cities").json()
    assert page["games"] == LC_GAMES and page["name"] == "Lost Cities"
    assert page["wagers"] == client.get("/stats/lost-cities/wagers").json()["rows"]
    assert page["bonus"] == client.get("/stats/lost-cities/bonus").json()
    assert page["rounds"] == client.get("/stats/lost-cities/rounds").json()["rows"]
    assert sum(c["expeditions"] for c in page["colours"]) == sum(w["expeditions"] for w in page["wagers"])
    assert "characters" not in page or page["characters"] is None
    for seat in page["seats"]:
        assert seat["low"] <= seat["win_rate"] <= seat["high"] and seat["few"] == (seat["games"] < 10)


def test_the_marco_polo_page_gives_every_rate_its_sample_and_interval(client):
    page = client.get("/stats/titles/marco-polo").json()
    assert page["games"] == MP_GAMES and page["beijing"] is not None and page["wagers"] is None
    canned = client.get("/stats/marco-polo/characters").json()["rows"]
    assert [(c["character"], c["seats"], c["wins"]) for c in page["characters"]] == [
        (c["character"], c["seats"], c["wins"]) for c in canned
    ]
    for row in page["characters"] + page["beijing"]["by_slot"]:
        assert (row["low"], row["high"]) == pytest.approx(wilson(row["wins"], row["seats"]))
        assert row["few"]  # four games: every rate rests on few
    total = {(s["character"]): 0.0 for s in page["character_sources"]}
    for s in page["character_sources"]:
        total[s["character"]] += s["avg_points"]
    assert total == pytest.approx({c["character"]: c["avg_score"] for c in page["characters"]})
    assert page["contracts"]["by_count"]


def test_a_title_page_follows_the_player_filter_and_refuses_an_unknown_title(client):
    bea = client.get("/stats/titles/lost-cities", params={"player": "bea"}).json()
    assert bea["players"] == 1 and bea["scores"]["summary"]["count"] == bea["games"]
    unknown = client.get("/stats/titles/chess")
    assert unknown.status_code == 422 and unknown.json()["code"] == "stats-title-not-covered"
    empty = client.get("/stats/titles/marco-polo-2").json()
    assert empty["games"] == 0 and empty["characters"] == [] and empty["beijing"] is None


def test_wilson_interval():
    assert wilson(0, 0) == (None, None)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0
    assert h_index([5, 3, 1]) == 2 and h_index([]) == 0 and h_index([1]) == 1


def test_score_only_records_count_in_leaderboards_and_player_pages_but_not_in_move_statistics(client):
    """A catalogue with score-only records (``games.score_only``, as an import of BG Stats plays
    writes them): the dashboard and player pages count them; characters and sources do not."""
    before = client.get("/stats/dashboard").json()
    ana = client.get("/stats/player", params={"name": "Ana"}).json()
    mp = client.get("/stats/titles/marco-polo").json()
    from api.formats.bgstats import import_document

    svc = client.app.state.services
    import_document(svc.log, svc.projector, {
        "games": [{"id": 1, "name": "The Voyages of Marco Polo", "bggId": 171623}],
        "players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Erin"}],
        "plays": [{"uuid": "bgstats-1", "gameRefId": 1, "playDate": "2026-03-01 20:00:00", "durationMin": 70,
                   "playerScores": [{"playerRefId": 1, "score": "80", "winner": True},
                                    {"playerRefId": 2, "score": "61"}]}]})

    after = client.get("/stats/dashboard").json()
    assert after["games"] == before["games"] + 1
    assert after["latest"][0]["score_only"] is True
    assert all(not g["score_only"] for g in after["latest"][1:])
    assert "Erin" in {r["player"] for r in after["leaderboard"]}
    ana_after = client.get("/stats/player", params={"name": "Ana"}).json()
    assert (ana_after["games"], ana_after["wins"]) == (ana["games"] + 1, ana["wins"] + 1)
    assert ana_after["streaks"]["current"]["won"] is True
    assert {r["opponent"]: r["wins"] for r in ana_after["rivals"]}["Erin"] == 1
    assert ana_after["characters"] == ana["characters"] and ana_after["sources"] == ana["sources"]
    mp_after = client.get("/stats/titles/marco-polo").json()
    assert (mp_after["games"], mp_after["best_score"]) == (mp["games"] + 1, 80)
    assert mp_after["characters"] == mp["characters"] and mp_after["sources"] == mp["sources"]
    index = client.get("/stats").json()
    assert {p["name"] for p in index["players"]} >= {"Erin"}


def test_the_pages_name_each_title_in_the_readers_language(client):
    names = {"en-GB": "The Voyages of Marco Polo", "es-ES": "Los viajes de Marco Polo", "ja": "マルコ・ポーロの旅路"}
    for header, name in names.items():
        said = {"Accept-Language": header}
        index = client.get("/stats", headers=said).json()
        assert {t["title"]: t["name"] for t in index["titles"]}["marco-polo"] == name
        assert client.get("/stats/titles/marco-polo", headers=said).json()["name"] == name
        latest = client.get("/stats/dashboard", headers=said).json()
        assert name in {g["name"] for g in latest["latest"]} | {t["name"] for t in latest["titles"]}
