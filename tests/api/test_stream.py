"""The live stream (Server-Sent Events): new events as they are appended, resumable, and closed
when the server stops."""

from __future__ import annotations

import json
import threading

import httpx
import pytest

from apiplay import finish, last_seq, new_game, play, read_stream
from sse import sse_messages


def test_new_events_arrive_as_they_are_appended(client, svc):
    game = new_game(client)
    messages: list[dict] = []
    with client.stream("GET", f"/games/{game.id}/stream") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        play(client, game, 2)
        for message in sse_messages(response.iter_lines()):
            messages.append(message)
            if message["id"] == 4:
                break
    assert [m["id"] for m in messages] == [3, 4]
    first = messages[0]["data"]
    assert first["seq"] == 3 and first["type"].startswith("lost-cities.") and first["seat"] == 0
    assert first["player"] == "Ana" and first["move"] is None and first["body"] is None  # secret until the end
    assert first["view"] == client.get(f"/games/{game.id}/state", params={"at": 3}).json()["view"]


def test_last_event_id_resumes_after_that_seq(client):
    game = new_game(client)
    play(client, game, 4)
    messages = read_stream(client, game.id, 6, headers={"Last-Event-ID": "3"})
    assert [m["id"] for m in messages] == [4, 5, 6]
    assert [m["id"] for m in read_stream(client, game.id, 6, since=4)] == [5, 6]


def test_history_edits_are_streamed_with_what_they_did(client, svc):
    game = new_game(client)
    play(client, game, 3)
    seq = last_seq(client, game.id)
    client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": 3, "expected_seq": seq})
    client.post(f"/games/{game.id}/redo", headers=game.auth, json={"expected_seq": seq + 1})
    messages = read_stream(client, game.id, seq + 2, since=seq)
    undo, redo = (m["data"] for m in messages)
    assert undo["type"] == "game.undone" and undo["edit"] == {"to_seq": 3} and undo["index"] == 2
    assert undo["view"] == client.get(f"/games/{game.id}/state", params={"at": 3}).json()["view"]
    assert redo["type"] == "game.redone" and redo["edit"] == {}
    assert redo["view"] == client.get(f"/games/{game.id}/state").json()["view"]


def test_after_the_end_the_stream_shows_every_move_and_body(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    messages = read_stream(client, game.id, 4, since=0)
    assert messages[1]["data"]["move"].startswith("shuffle ")
    assert messages[1]["data"]["body"]["type"] == "lost-cities.deck-shuffled"


def test_a_seat_stream_needs_that_seat_token_and_shows_its_hand(client):
    game = new_game(client)
    with client.stream("GET", f"/games/{game.id}/stream", params={"seat": 0}) as response:
        assert response.status_code == 401
    messages = read_stream(client, game.id, 2, headers=game.seat_auth(0), since=0, seat=0)
    assert len(messages[-1]["data"]["view"]["hand"]["cards"]) == 8


def test_stream_refusals(client):
    game = new_game(client)
    with client.stream("GET", "/games/nope/stream") as response:
        assert response.status_code == 404
    with client.stream("GET", f"/games/{game.id}/stream", headers={"Last-Event-ID": "x1"}) as response:
        assert response.status_code == 422 and json.loads(response.read())["code"] == "bad-last-event-id"
    with client.stream("GET", f"/games/{game.id}/stream", params={"full": True}) as response:
        assert response.status_code == 403


@pytest.mark.parametrize("value", ["²", "¹", "3²", "9" * 21])
def test_a_last_event_id_of_other_digits_is_refused_by_a_real_server(live_base, value):
    # "²" is a digit to str.isdigit() but not to int(); a real client sends it as the byte b"\xb2"
    with httpx.Client(base_url=live_base) as http:
        game = new_game(http)
        headers = {"Last-Event-ID": value.encode("latin-1")}
        with http.stream("GET", f"/games/{game.id}/stream", headers=headers) as response:
            assert response.status_code == 422
            assert json.loads(response.read())["code"] == "bad-last-event-id"


def test_an_idle_stream_sends_keep_alive_comments(client):
    game = new_game(client)
    with client.stream("GET", f"/games/{game.id}/stream") as response:
        for line in response.iter_lines():
            if line.startswith(": ping"):
                break


def test_closing_the_hub_ends_every_stream(client, svc):
    game = new_game(client)
    ended = threading.Event()

    def spectator() -> None:
        with client.stream("GET", f"/games/{game.id}/stream") as response:
            for _ in response.iter_lines():
                pass
        ended.set()

    thread = threading.Thread(target=spectator, daemon=True)
    thread.start()
    play(client, game, 1)
    svc.hub.close()
    assert ended.wait(5), "the stream did not end when the hub closed"
