"""GET /games/{id}/race: the score race as JSON or a chart, public until the end for everyone,
its words in the reader's language, refusals as 4xx."""

from __future__ import annotations

import pytest
from apiplay import finish, new_game, play


@pytest.fixture
def ended_game(client, svc):
    game = new_game(client, players=("Ana", "Bea"))
    play(client, game, 12)
    finish(svc, game.id)
    return game


def test_an_ended_game_races_with_its_steps_numbered_as_the_replay(client, ended_game):
    got = client.get(f"/games/{ended_game.id}/race").json()
    frames = client.get(f"/games/{ended_game.id}/frames").json()["frames"]
    final = client.get(f"/games/{ended_game.id}").json()
    assert got["public_only"] is False and got["players"] == ["Ana", "Bea"]
    assert [s["step"] for s in got["steps"]] == [f["index"] for f in frames]
    assert got["steps"][-1]["scores"] == final["outcome"]["scores"]
    assert got["winners"] == final["outcome"]["winners"]
    swing = got["biggest_swing"]
    assert swing is not None and swing["player"] in ("Ana", "Bea")
    assert f"step {swing['step']})" in swing["words"] and "(round " in swing["words"]
    if got["turning_point"] is not None:
        assert "led for good from step" in got["turning_words"]


def test_the_words_in_spanish_and_japanese(client, ended_game):
    es = client.get(f"/games/{ended_game.id}/race", params={"lang": "es"})
    ja = client.get(f"/games/{ended_game.id}/race", headers={"Accept-Language": "ja"})
    assert es.headers["content-language"] == "es" and ", paso " in es.json()["biggest_swing"]["words"]
    assert ja.headers["content-language"] == "ja" and "、手順" in ja.json()["biggest_swing"]["words"]
    assert ja.json()["labels"] == {"step": "手順", "score": "得点"}


def test_a_game_in_progress_is_public_only_even_with_the_write_token(client):
    game = new_game(client)
    play(client, game, 5, first=True)
    plain = client.get(f"/games/{game.id}/race").json()
    written = client.get(f"/games/{game.id}/race", headers=game.auth).json()
    assert plain == written and plain["public_only"] is True
    assert plain["turning_point"] is None and plain["winners"] == []


def test_the_race_as_svg_and_png(client, ended_game):
    svg = client.get(f"/games/{ended_game.id}/race", params={"format": "svg", "lang": "ja"})
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in svg.content
    png = client.get(f"/games/{ended_game.id}/race", params={"format": "png"})
    assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_refusals_are_4xx_with_a_code(client, ended_game):
    unknown = client.get("/games/no-such-game/race")
    assert unknown.status_code == 404 and unknown.json()["code"]
    bad = client.get(f"/games/{ended_game.id}/race", params={"format": "gif"})
    assert bad.status_code == 422 and bad.json()["code"]
