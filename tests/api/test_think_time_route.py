"""GET /games/{id}/think-time, GET /games/{id}/bgstats-play and GET /stats/think-time over the real
app on DuckDB and on PostgreSQL: the think time public for everyone, its words in the reader's
language; the BG Stats link's content checked against BG Stats' create-play format; refusals as
4xx."""

from __future__ import annotations

import json
import re
import uuid
from urllib.parse import parse_qs, urlsplit

import pytest
from apiplay import finish, new_game, play

from api.formats import bgstats


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


@pytest.fixture
def ended_game(client, svc):
    game = new_game(client, players=("Ana", "Bea"))
    play(client, game, 12)
    finish(svc, game.id)
    return game


def test_an_ended_game_times_every_decision_of_each_player(client, ended_game):
    got = client.get(f"/games/{ended_game.id}/think-time").json()
    assert got["timed"] is True and got["untimed"] is None and got["public_only"] is False
    assert [s["player"] for s in got["seats"]] == ["Ana", "Bea"]
    assert sum(s["decisions"] for s in got["seats"]) == len(got["decisions"]) > 12
    for seat in got["seats"]:
        slow = seat["slowest"]
        assert slow["player"] == seat["player"] and slow["seconds"] == max(
            d["seconds"] for d in got["decisions"] if d["seat"] == seat["seat"]
        )
        assert re.fullmatch(r"\d+ s", seat["said"]["median_turn"])


def test_the_words_in_spanish_and_japanese(client, ended_game):
    es = client.get(f"/games/{ended_game.id}/think-time", params={"lang": "es"})
    ja = client.get(f"/games/{ended_game.id}/think-time", headers={"Accept-Language": "ja"})
    assert es.headers["content-language"] == "es" and ja.headers["content-language"] == "ja"
    assert ja.json()["seats"][0]["said"]["total"].endswith("秒")
    assert es.json()["decisions"][0]["words"] != ja.json()["decisions"][0]["words"]


def test_a_game_in_progress_is_the_same_for_everyone(client):
    game = new_game(client)
    play(client, game, 5, first=True)
    plain = client.get(f"/games/{game.id}/think-time").json()
    written = client.get(f"/games/{game.id}/think-time", headers=game.auth).json()
    assert plain["public_only"] is True and [d["step"] for d in plain["decisions"]] == [d["step"] for d in written["decisions"]]


def test_the_bgstats_link_carries_the_play_in_bgstats_create_play_format(client, ended_game):
    answer = client.get(f"/games/{ended_game.id}/bgstats-play")
    assert answer.status_code == 200
    got = answer.json()
    final = client.get(f"/games/{ended_game.id}").json()
    assert got["offered"] is True and got["not_offered"] is None
    for link, scheme in ((got["url"], "https"), (got["app_url"], "bgstats")):
        parts = urlsplit(link)
        assert (parts.scheme, parts.netloc, parts.path) == (scheme, "app.bgstatsapp.com", "/createPlay.html")
        query = parse_qs(parts.query, strict_parsing=True)
        assert list(query) == ["data"] and len(query["data"]) == 1
        play = json.loads(query["data"][0])
        assert play == got["play"]
    assert set(play) == {"sourceName", "sourcePlayId", "playDate", "game", "players", "durationMin"}
    assert play["sourceName"] == "tabletape"
    assert play["sourcePlayId"] == bgstats.game_uuid(ended_game.id) and uuid.UUID(play["sourcePlayId"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert isinstance(play["durationMin"], int) and play["durationMin"] >= 1
    assert play["game"] == {"name": "Lost Cities", "bggId": 50, "sourceGameId": "lost-cities", "highestWins": True, "noPoints": False}
    scores, winners = final["outcome"]["scores"], final["outcome"]["winners"]
    assert [p["name"] for p in play["players"]] == ["Ana", "Bea"]
    for seat, player in enumerate(play["players"]):
        assert set(player) == {"name", "sourcePlayerId", "score", "winner", "startPlayer", "rank"}
        assert player["score"] == scores[seat] and isinstance(player["score"], int)
        assert player["winner"] is (seat in winners)
        assert isinstance(player["startPlayer"], bool) and isinstance(player["rank"], int)
        assert uuid.UUID(player["sourcePlayerId"])
    assert [p["startPlayer"] for p in play["players"]] == [True, False]


PLAY = {
    "players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}],
    "games": [{"id": 1, "name": "Lost Cities", "bggId": 50}],
    "plays": [{"uuid": "C0FFEE00-0000-4000-8000-000000000001", "gameRefId": 1, "playDate": "2024-05-04 20:00:00",
               "durationMin": 30, "playerScores": [
                   {"playerRefId": 1, "score": "38", "winner": True, "startPlayer": True, "seatOrder": 1},
                   {"playerRefId": 2, "score": "21", "seatOrder": 2}]}],
}


def test_a_play_from_bgstats_is_not_offered_back_and_has_no_timings(client, svc):
    (game_id,) = bgstats.import_document(svc.log, svc.projector, PLAY).imported
    got = client.get(f"/games/{game_id}/bgstats-play").json()
    assert (got["offered"], got["not_offered"], got["url"]) == (False, "from-bgstats", None)
    assert got["play"]["playDate"] == "2024-05-04 20:00:00" and got["play"]["durationMin"] == 30
    think = client.get(f"/games/{game_id}/think-time").json()
    assert think["untimed"] == "score-only" and "no timings" in think["untimed_words"]


def test_refusals_are_4xx_with_a_code(client):
    game = new_game(client)
    refused = client.get(f"/games/{game.id}/bgstats-play")
    assert refused.status_code == 403 and refused.json()["code"] == "bgstats-play-before-end"
    assert client.get("/games/no-such-game/think-time").status_code == 404
    unknown = client.get("/games/no-such-game/bgstats-play")
    assert unknown.status_code == 404 and unknown.json()["code"]


def test_the_title_statistic_per_player_leaves_imported_and_unfinished_games_out(client, svc, ended_game):
    bgstats.import_document(svc.log, svc.projector, PLAY)
    going = new_game(client, players=("Ana", "Cy"))
    play(client, going, 4)
    got = client.get("/stats/think-time", params={"title": "lost-cities", "lang": "es"})
    assert got.status_code == 200 and got.headers["content-language"] == "es"
    body = got.json()
    assert (body["games"], body["timed_games"]) == (2, 1)
    assert [p["player"] for p in body["players"]] == ["Ana", "Bea"]
    per_game = client.get(f"/games/{ended_game.id}/think-time", params={"lang": "es"}).json()
    for player, seat in zip(body["players"], per_game["seats"]):
        assert player["games"] == 1 and player["decisions"] == seat["decisions"]
        assert player["median_turn_s"] == seat["median_turn_s"]
        assert player["slowest"]["game_id"] == ended_game.id and player["slowest"]["words"] == seat["slowest"]["words"]
    assert client.get("/stats/think-time", params={"title": "chess"}).status_code == 422
    assert client.get("/stats/think-time").status_code == 422
