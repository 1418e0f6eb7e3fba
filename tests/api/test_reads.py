"""Reading games back over HTTP: the raw log, state at any seq, replay frames."""

from __future__ import annotations

import msgspec
import pytest
from apiplay import finish, last_seq, new_game, play

from replay.frames import apply_diff


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


@pytest.fixture
def ended_game(client, svc):
    game = new_game(client)
    play(client, game, 6)
    finish(svc, game.id)
    return game


def test_the_log_as_json_with_envelope_and_chain(client, svc, ended_game):
    response = client.get(f"/games/{ended_game.id}/events")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/json")
    body = response.json()
    events = body["events"]
    assert body["last_seq"] == len(events) == last_seq(client, ended_game.id)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[0]["type"] == "game.created" and events[0]["body"]["players"] == ["Ana", "Bea"]
    assert events[-1]["type"] == "game.ended"
    assert all(e["body"]["type"] == e["type"] for e in events)
    assert all(later["prev_hash"] == earlier["hash"] for earlier, later in zip(events, events[1:]))
    assert events[0]["recorded_at"].endswith("Z")


def test_the_log_as_msgpack_when_asked(client, ended_game):
    response = client.get(f"/games/{ended_game.id}/events", headers={"Accept": "application/msgpack"})
    assert response.status_code == 200 and response.headers["content-type"] == "application/msgpack"
    as_json = client.get(f"/games/{ended_game.id}/events").json()
    assert msgspec.msgpack.decode(response.content) == as_json


def test_a_window_of_the_log(client, ended_game):
    events = client.get(f"/games/{ended_game.id}/events", params={"from_seq": 3, "to_seq": 5}).json()["events"]
    assert [e["seq"] for e in events] == [3, 4, 5]


def test_the_log_of_a_game_in_progress_is_refused_to_everyone(client):
    game = new_game(client)
    for headers in ({}, game.auth, game.seat_auth(0)):
        response = client.get(f"/games/{game.id}/events", headers=headers)
        assert response.status_code == 403 and response.json()["code"] == "log-before-end"


def test_the_log_of_an_unknown_game_is_a_404(client):
    assert client.get("/games/nope/events").status_code == 404


def test_state_now_and_at_any_seq(client, svc):
    game = new_game(client)
    play(client, game, 5)
    now = client.get(f"/games/{game.id}/state").json()
    assert now["at"] == now["last_seq"] == 7 and now["perspective"] == "public" and now["seat"] is None
    assert now["view"]["expeditions"] and "hand" not in now["view"]
    for at in range(0, 8):
        then = client.get(f"/games/{game.id}/state", params={"at": at}).json()
        expected = svc.projector.state_at(game.id, at)
        assert then["view"] == expected.title.view(expected.state, None)
        assert then["at"] == at
    assert client.get(f"/games/{game.id}/state", params={"at": 0}).json()["steps"] == 1


def test_state_refusals(client):
    game = new_game(client)
    cases = [
        ({"at": 3}, 422, "seq-out-of-range"),
        ({"at": -1}, 422, "malformed-request"),
        ({"seat": 2}, 422, "unknown-seat"),
        ({"seat": 0, "full": True}, 422, "seat-and-full"),
        ({"full": True}, 403, "full-view-before-end"),
        ({"seat": 0}, 401, "token-missing"),
    ]
    for params, status, code in cases:
        response = client.get(f"/games/{game.id}/state", params=params)
        assert (response.status_code, response.json()["code"]) == (status, code), params
    assert client.get("/games/nope/state").status_code == 404


def test_frames_cover_the_effective_history_with_who_and_the_move(client, svc, ended_game):
    body = client.get(f"/games/{ended_game.id}/frames").json()
    frames = body["frames"]
    entries = svc.projector.history(ended_game.id).entries()
    assert body["perspective"] == "public" and body["mode"] == "view"
    assert [f["seq"] for f in frames] == [e.seq for e in entries]
    assert [f["index"] for f in frames] == list(range(len(entries)))
    moves = [f for f in frames if f["type"] == "lost-cities.card-played"]
    assert moves and all(f["move"] and f["player"] == ["Ana", "Bea"][f["seat"]] for f in moves)
    assert frames[-1]["ended"] is True and frames[-1]["type"] == "game.ended"


def test_a_window_of_frames_and_frames_at_an_earlier_seq(client, ended_game):
    window = client.get(f"/games/{ended_game.id}/frames", params={"from_seq": 4, "to_seq": 6}).json()["frames"]
    assert [f["seq"] for f in window] == [4, 5, 6]
    whole = client.get(f"/games/{ended_game.id}/frames").json()["frames"]
    assert window == whole[3:6]
    early = client.get(f"/games/{ended_game.id}/frames", params={"at": 5}).json()["frames"]
    assert early == whole[:5]
    assert client.get(f"/games/{ended_game.id}/frames", params={"from_seq": 9, "to_seq": 3}).json()["frames"] == []


def test_diff_frames_rebuild_the_same_views(client, ended_game):
    views = client.get(f"/games/{ended_game.id}/frames", params={"from_seq": 3}).json()["frames"]
    diffs = client.get(f"/games/{ended_game.id}/frames", params={"from_seq": 3, "mode": "diff"}).json()["frames"]
    assert diffs[0]["view"] == views[0]["view"] and diffs[0]["diff"] is None
    view = diffs[0]["view"]
    for plain, patched in zip(views[1:], diffs[1:]):
        assert patched["view"] is None
        view = apply_diff(view, patched["diff"])
        assert view == plain["view"]


def test_full_frames_after_the_end_show_every_hand(client, ended_game):
    frames = client.get(f"/games/{ended_game.id}/frames", params={"full": True, "to_seq": 3}).json()["frames"]
    assert all("hands" in f["view"] for f in frames)
    assert frames[1]["move"].startswith("shuffle ")


def test_frames_refusals(client):
    game = new_game(client)
    assert client.get(f"/games/{game.id}/frames", params={"full": True}).status_code == 403
    assert client.get(f"/games/{game.id}/frames", params={"seat": 1}).status_code == 401
    assert client.get(f"/games/{game.id}/frames", params={"seat": 1}, headers=game.seat_auth(0)).status_code == 403
    assert client.get(f"/games/{game.id}/frames", params={"at": 9}).json()["code"] == "seq-out-of-range"
    assert client.get(f"/games/{game.id}/frames", params={"mode": "movie"}).status_code == 422
    assert client.get("/games/nope/frames").status_code == 404
