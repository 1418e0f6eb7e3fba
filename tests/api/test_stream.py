"""The live stream (Server-Sent Events): new events as they are appended, resumable, and closed
when the server stops."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import threading

import httpx
import pytest

import live_server
import own_loop
from apiplay import finish, last_seq, new_game, play, read_stream
from sse import sse_messages

from api.http.streaming import Messages
from events import codec
from replay.frames import PUBLIC, raw_frames
from replay.simulate import random_game


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


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
    assert first["player"] == "Ana" and first["body"] is None  # the body: secret until the end
    assert first["move"] and "=" not in first["move"] and first["text"].startswith("Ana ")  # as the table saw it
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


# -- eyes that close while a stream is open -------------------------------------------------------


def secret_cards(svc, game_id: str, seq: int) -> set[str]:
    """Every card in a hand or in the draw pile after raw seq ``seq``: what only the full view shows."""
    game = svc.projector.state_at(game_id, seq)
    full = game.title.full_view(game.state)
    return {card for hand in full["hands"] for card in hand["cards"]} | set(full["draw_pile_order"] or ())


def assert_public(client, svc, game_id: str, messages: list[dict]) -> None:
    """Each frame is the public one: its view is the public view at its seq, it has no body (its move
    is what the table saw), and no card in a hand or in the draw pile appears in it more often than
    in the public view."""
    for message in messages:
        frame, seq = message["data"], message["id"]
        public = client.get(f"/games/{game_id}/state", params={"at": seq}).json()["view"]
        assert frame["view"] == public and frame["body"] is None, seq
        said = json.dumps([frame.get("move"), frame.get("text")])
        rest = json.dumps({key: value for key, value in frame.items() if key not in ("move", "text")})
        public_text = json.dumps(public)
        for card in secret_cards(svc, game_id, seq):
            seen = len(re.findall(rf"\b{card}\b", rest))
            assert seen <= len(re.findall(rf"\b{card}\b", public_text)), f"{card} shown at seq {seq}"
            # the move names a card only once the table has seen it (a card played is in the view)
            assert not re.search(rf"\b{card}\b", said) or card in public_text, f"{card} named at seq {seq}"


def read_until(messages, seq: int) -> list[dict]:
    out = []
    for message in messages:
        out.append(message)
        if message.get("id") == seq:
            return out
    raise AssertionError("the stream ended early")


def test_a_full_stream_goes_public_when_an_undo_takes_the_game_back_into_play(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    end = last_seq(client, game.id)
    with client.stream("GET", f"/games/{game.id}/stream", params={"full": True}) as response:
        assert response.status_code == 200
        # back to the creation: the recorder shuffles a new deck, whose order was never public
        undo = client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": 1, "expected_seq": end})
        assert undo.status_code == 201, undo.text
        play(client, game, 6)
        now = last_seq(client, game.id)
        messages = read_until(sse_messages(response.iter_lines()), now)
    frames = [m for m in messages if "id" in m]
    assert [m["id"] for m in frames] == list(range(end + 1, now + 1))
    assert frames[1]["data"]["type"] == "lost-cities.deck-shuffled"
    assert_public(client, svc, game.id, frames)
    assert messages[0]["event"] == "perspective" and messages[0]["data"] == {
        "perspective": "public",
        "seat": None,
        "from_seq": end + 1,
        "code": "full-view-before-end",
        "message": "the stream goes on in the public view: "
        "the full view is open to everyone once the game has ended, and to no one before",
    }


def test_a_seat_stream_without_its_token_goes_public_when_the_game_is_back_in_play(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    end = last_seq(client, game.id)
    with client.stream("GET", f"/games/{game.id}/stream", params={"seat": 0}) as response:
        assert response.status_code == 200
        client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": 3, "expected_seq": end})
        play(client, game, 4)
        now = last_seq(client, game.id)
        messages = read_until(sse_messages(response.iter_lines()), now)
    assert_public(client, svc, game.id, [m for m in messages if "id" in m])
    assert messages[0]["data"]["perspective"] == "public" and messages[0]["data"]["code"] == "token-missing"


def test_a_seat_stream_goes_public_when_the_seat_tokens_are_issued_again(client, svc):
    game = new_game(client)
    play(client, game, 2)
    with client.stream("GET", f"/games/{game.id}/stream", params={"seat": 0}, headers=game.seat_auth(0)) as response:
        assert response.status_code == 200
        lines = sse_messages(response.iter_lines())
        play(client, game, 1)
        first = read_until(lines, last_seq(client, game.id))
        assert first[0]["data"]["view"]["hand"]["cards"]  # the seat's own hand, while its token holds
        issued = svc.tokens.issue(game.id, 2)  # what `tabletape tokens` does: the old tokens stop working
        play(client, dataclasses.replace(game, write=issued.write, seats=issued.seats), 3)
        messages = read_until(lines, last_seq(client, game.id))
    assert_public(client, svc, game.id, [m for m in messages if "id" in m])
    assert messages[0]["data"]["perspective"] == "public" and messages[0]["data"]["code"] == "token-wrong"


def test_a_stream_that_went_public_shows_what_it_asked_for_again_once_the_game_ends_again(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    end = last_seq(client, game.id)
    with client.stream("GET", f"/games/{game.id}/stream", params={"full": True}) as response:
        lines = sse_messages(response.iter_lines())
        client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": end - 2, "expected_seq": end})
        gone = read_until(lines, end + 1)
        client.post(f"/games/{game.id}/redo", headers=game.auth, json={"expected_seq": end + 1})
        back = read_until(lines, end + 2)
    assert gone[-1]["data"]["body"] is None and "hands" not in gone[-1]["data"]["view"]
    assert gone[0]["data"]["perspective"] == "public"
    assert back[0]["event"] == "perspective" and back[0]["data"] == {
        "perspective": "full",
        "seat": None,
        "from_seq": end + 2,
        "code": None,
        "message": "the stream shows the full view again",
    }
    assert back[1]["data"]["body"]["type"] == "game.redone" and "hands" in back[1]["data"]["view"]


# -- reconnect storms -------------------------------------------------------------------------


def recorded(http: httpx.Client, seed: int, events: int = 300) -> tuple[str, int]:
    """A digital 3-round match recorded over HTTP up to ``events`` events: its id and last seq.
    The server draws chance from (seed, seq) as the simulator does, so its moves are legal."""
    simulated = random_game("lost-cities", ["Ana", "Bea"], {"rounds": 3}, seed=seed)
    body = {"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"rounds": 3}, "seed": seed}
    created = http.post("/games", json=body).json()
    game_id, seq = created["game_id"], created["last_seq"]
    auth = {"Authorization": f"Bearer {created['tokens']['write_token']}"}
    for move in simulated[1:]:
        if seq >= events:
            break
        if getattr(move, "seat", None) is None:
            continue  # the shuffles and the end: the server records them itself
        answer = http.post(
            f"/games/{game_id}/moves", headers=auth, json={"move": codec.to_builtins(move), "expected_seq": seq}
        )
        assert answer.status_code == 201, answer.text
        seq = answer.json()["last_seq"]
    return game_id, seq


async def reconnect(base: str, game_id: str, last: int, clients: int) -> None:
    """``clients`` streams opened at once with since=0, each read until the message of ``last``."""

    async def one(http: httpx.AsyncClient) -> None:
        marker, tail = f"id: {last}\n".encode(), b""
        async with http.stream("GET", f"/games/{game_id}/stream", params={"since": 0}) as response:
            async for chunk in response.aiter_bytes():
                tail = tail[-len(marker) :] + chunk
                if marker in tail:
                    return

    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        await asyncio.gather(*(one(http) for _ in range(clients)))


def test_a_hundred_reconnects_with_since_0_fold_the_backlog_once(live):
    base, proc = live
    with httpx.Client(base_url=base, timeout=30) as http:
        alone = [recorded(http, seed) for seed in (21, 22, 23)]
        stormed = recorded(http, 24)
    before = live_server.cpu_seconds(proc)
    for game_id, last in alone:
        own_loop.run(reconnect(base, game_id, last, 1))
    one = (live_server.cpu_seconds(proc) - before) / len(alone)
    before = live_server.cpu_seconds(proc)
    own_loop.run(reconnect(base, *stormed, 100))
    storm = live_server.cpu_seconds(proc) - before
    # folding each client's backlog again cost the server ~100 times one backlog
    assert storm < 30 * one, f"100 reconnects cost {storm:.2f} s of server CPU, one {one:.3f} s"


def test_the_message_cache_stays_within_its_bytes_and_rebuilds_what_it_dropped(client, svc):
    game = new_game(client)
    play(client, game, 10)
    last = last_seq(client, game.id)
    built: list[tuple[int, int]] = []

    def build(first: int, upto: int):
        built.append((first, upto))
        return raw_frames(svc.projector, game.id, first, upto, PUBLIC)

    whole = Messages(1 << 20).read(game.id, PUBLIC, 1, last, build)
    small = Messages(len(whole) // 3)
    assert small.read(game.id, PUBLIC, 1, last, build) == whole
    assert small.cached(game.id, PUBLIC, 1, last) is None  # the oldest messages were dropped
    assert small.cached(game.id, PUBLIC, last, last) == whole[whole.rindex(b"id: ") :]
    built.clear()
    assert small.read(game.id, PUBLIC, 1, last, build) == whole and built[0][0] == 1
