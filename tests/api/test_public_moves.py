"""Followers read each move as the table saw it: Marco Polo's and Marco Polo II's moves are public
except the objective and goal cards, which no public frame names before the end."""

from __future__ import annotations

import re

import golden_games
import pytest


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


SECRET = re.compile(r"\bG\d\d\b")  # objective cards (Marco Polo) and goal cards (Marco Polo II)


def record_all_but_the_end(client, title_id: str) -> tuple[str, list[str]]:
    players, options, moves, _, _ = golden_games.load(golden_games.files(title_id)[0])
    made = client.post("/games", json={"title": title_id, "players": list(players), "options": options}).json()
    game_id, auth = made["game_id"], {"Authorization": f"Bearer {made['tokens']['write_token']}"}
    seq = 1
    for text in moves[: len(moves) // 2]:
        answer = client.post(f"/games/{game_id}/moves", json={"notation": text, "expected_seq": seq}, headers=auth)
        assert answer.status_code == 201, (text, answer.text)
        seq = answer.json()["last_seq"]
    return game_id, moves


@pytest.mark.parametrize("title_id", ["marco-polo", "marco-polo-2"])
def test_public_frames_name_public_moves_and_no_secret_card(client, title_id):
    game_id, moves = record_all_but_the_end(client, title_id)
    assert any(SECRET.search(m) for m in moves[:3])  # the layout (or the keeps) name the cards
    frames = client.get(f"/games/{game_id}/frames").json()["frames"]
    moved = [f for f in frames if f["seat"] is not None]
    assert len(moved) > 10  # travels, bazaars, bags, keeps: every seat's move is named, in a sentence
    assert all(f["move"] and f["text"].startswith(f["player"] + " ") for f in moved), moved
    lines = 0
    for f in frames:
        assert not SECRET.search(f["move"] or ""), f
        assert not SECRET.search(f["text"] or ""), f
    with client.stream("GET", f"/games/{game_id}/stream", params={"since": 0}) as stream:
        for line in stream.iter_lines():
            lines += 1
            assert not SECRET.search(line)
            if line.startswith("id: ") and int(line[4:]) >= frames[-1]["seq"]:
                break
    assert lines > len(frames)
