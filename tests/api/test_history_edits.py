"""Undo, redo, amend and fork over HTTP: each an appended event, each refused without writing."""

from __future__ import annotations

import pytest
from apiplay import Game, finish, last_seq, log_rows, new_game, play

from events.lifecycle import Forked


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


def post(client, game: Game, path: str, body: dict, token: str | None = None):
    headers = {"Authorization": f"Bearer {token or game.write}"}
    return client.post(f"/games/{game.id}/{path}", headers=headers, json=body)


def record(client, game: Game, *notations: str) -> None:
    for notation in notations:
        response = post(client, game, "moves", {"notation": notation, "expected_seq": last_seq(client, game.id)})
        assert response.status_code == 201, response.text


def effective(svc, game_id: str) -> list:
    return [e.body for e in svc.projector.history(game_id).entries()]


def test_undo_then_redo_returns_the_identical_state(client, svc):
    game = new_game(client)
    play(client, game, 9)
    before = svc.projector.state(game.id).state
    views = [
        client.get(f"/games/{game.id}/state", params={"seat": s}, headers=game.seat_auth(s)).json()["view"]
        for s in (0, 1)
    ]
    seq = last_seq(client, game.id)
    undone = post(client, game, "undo", {"to_seq": 4, "expected_seq": seq})
    assert undone.status_code == 201 and undone.json()["events"] == [{"seq": seq + 1, "type": "game.undone"}]
    assert svc.projector.state(game.id).state != before
    assert client.get(f"/games/{game.id}").json()["can_redo"] is True
    redone = post(client, game, "redo", {"expected_seq": seq + 1})
    assert redone.status_code == 201
    assert svc.projector.state(game.id).state == before
    again = [
        client.get(f"/games/{game.id}/state", params={"seat": s}, headers=game.seat_auth(s)).json()["view"]
        for s in (0, 1)
    ]
    assert again == views


def test_undo_to_zero_at_a_physical_table_leaves_only_the_creation(client, svc):
    game = new_game(client, seed=None)
    record(client, game, "deal", "R7", "d")
    response = post(client, game, "undo", {"to_seq": 0, "expected_seq": 4})
    assert response.status_code == 201
    state = client.get(f"/games/{game.id}/state").json()
    assert state["steps"] == 1 and state["view"]["phase"] == "deal"
    record(client, game, "deal")  # and the game goes on from there
    assert client.get(f"/games/{game.id}").json()["steps"] == 2


def test_undo_to_zero_in_a_digital_game_deals_again(client, svc):
    game = new_game(client)
    play(client, game, 3)
    seq = last_seq(client, game.id)
    response = post(client, game, "undo", {"to_seq": 0, "expected_seq": seq})
    assert response.status_code == 201
    # the server draws the new shuffle in the same append: chance only enters through events
    assert [e["type"] for e in response.json()["events"]] == ["game.undone", "lost-cities.deck-shuffled"]
    assert client.get(f"/games/{game.id}").json()["steps"] == 2


def test_undo_without_a_seq_takes_back_the_last_move(client, svc):
    game = new_game(client, seed=None)
    record(client, game, "deal", "R7", "d")
    response = post(client, game, "undo", {"expected_seq": 4})
    assert response.status_code == 201
    assert [type(b).__name__ for b in effective(svc, game.id)] == ["GameCreated", "CardsDealt", "CardPlayed"]
    post(client, game, "undo", {"expected_seq": 5})
    post(client, game, "undo", {"expected_seq": 6})
    assert [type(b).__name__ for b in effective(svc, game.id)] == ["GameCreated"]
    before = log_rows(svc)
    nothing = post(client, game, "undo", {"expected_seq": 7})
    assert nothing.status_code == 409 and nothing.json()["code"] == "nothing-to-undo"
    assert log_rows(svc) == before


def test_undo_moves_takes_back_that_many_moves_in_one_event_or_refuses_more(client, svc):
    game = new_game(client, seed=None)
    record(client, game, "deal", "R7", "d", "B5", "d")
    before = log_rows(svc)
    too_many = post(client, game, "undo", {"moves": 6, "expected_seq": 6})  # five were made
    assert too_many.status_code == 409 and too_many.json()["code"] == "undo-out-of-range"
    assert log_rows(svc) == before
    response = post(client, game, "undo", {"moves": 3, "expected_seq": 6})  # d, B5 and d
    assert response.status_code == 201 and response.json()["events"] == [{"seq": 7, "type": "game.undone"}]
    assert [type(b).__name__ for b in effective(svc, game.id)] == ["GameCreated", "CardsDealt", "CardPlayed"]
    moves = client.get(f"/games/{game.id}/legal-moves", headers={"Authorization": f"Bearer {game.write}"}).json()
    assert moves["last"] == "R7" and moves["ended"] is False and moves["at"] == 7


def test_taking_back_the_last_move_of_a_digital_round_also_takes_back_the_new_shuffle(client, svc):
    game = new_game(client, rounds=2)
    while svc.projector.state(game.id).state.round == 1:  # to the end of round 1, quickly, in process
        state = svc.projector.state(game.id)
        svc.recorder.record(game.id, state.title.legal_moves(state.state)[0])
    shuffles = lambda: sum(type(b).__name__ == "DeckShuffled" for b in effective(svc, game.id))  # noqa: E731
    assert shuffles() == 2
    post(client, game, "undo", {"expected_seq": last_seq(client, game.id)})
    assert shuffles() == 1 and client.get(f"/games/{game.id}/state").json()["view"]["phase"] == "draw"


def test_refused_undo_and_redo_write_nothing(client, svc):
    game = new_game(client)
    play(client, game, 2)
    seq = last_seq(client, game.id)
    before = log_rows(svc)
    redo = post(client, game, "redo", {"expected_seq": seq})
    assert redo.status_code == 409 and redo.json()["code"] == "nothing-to-redo"
    too_far = post(client, game, "undo", {"to_seq": seq + 1, "expected_seq": seq})
    assert too_far.status_code == 409 and too_far.json()["code"] == "undo-out-of-range"
    stale = post(client, game, "undo", {"to_seq": 1, "expected_seq": seq - 1})
    assert stale.status_code == 409 and stale.json()["code"] == "stale-expected-seq"
    assert post(client, game, "undo", {"to_seq": 1, "expected_seq": seq}, token=game.seats[0]).status_code == 403
    assert client.post(f"/games/{game.id}/redo", json={"expected_seq": seq}).status_code == 401
    assert log_rows(svc) == before


def test_redo_is_refused_once_something_new_was_recorded(client, svc):
    game = new_game(client)
    play(client, game, 2)
    post(client, game, "undo", {"to_seq": 3, "expected_seq": 4})
    play(client, game, 1)
    response = post(client, game, "redo", {"expected_seq": last_seq(client, game.id)})
    assert response.status_code == 409 and response.json()["code"] == "nothing-to-redo"


def test_an_amendment_replaces_an_event_and_the_frames_show_it(client, svc):
    game = new_game(client, seed=None)
    record(client, game, "deal", "R7", "d")
    response = post(client, game, "amend", {"seq": 3, "notation": "B7", "expected_seq": 4})
    assert response.status_code == 201, response.text
    assert response.json()["events"] == [{"seq": 5, "type": "game.amended"}]
    frames = client.get(f"/games/{game.id}/frames", params={"full": False}).json()["frames"]
    step = next(f for f in frames if f["seq"] == 3)
    assert step["amended_by"] == 5 and step["type"] == "lost-cities.card-played"
    assert client.get(f"/games/{game.id}/state").json()["view"]["expeditions"][0]["blue"] == ["B7"]


def test_an_amendment_in_structured_form(client, svc):
    game = new_game(client, seed=None)
    record(client, game, "deal", "R7", "d")
    move = {"type": "lost-cities.card-discarded", "card": "R7"}
    response = post(client, game, "amend", {"seq": 3, "move": move, "expected_seq": 4})
    assert response.status_code == 201, response.text
    assert client.get(f"/games/{game.id}/state").json()["view"]["discard_piles"]["red"] == ["R7"]


def test_an_amendment_that_breaks_a_later_move_is_refused_with_the_breaking_seq_and_writes_nothing(client, svc):
    game = new_game(client, seed=None)
    record(client, game, "deal", "R7", "d", "B5", "d", "R8", "d")  # Ana's R8 at seq 7 follows her R7
    before = log_rows(svc)
    response = post(client, game, "amend", {"seq": 3, "notation": "R9", "expected_seq": 8})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "amendment-breaks-history"
    assert body["breaking_seq"] == 7 and body["rule"] == "lost-cities.expedition-must-ascend"
    assert log_rows(svc) == before


def test_refused_amendments(client, svc):
    game = new_game(client, seed=None)
    record(client, game, "deal", "R7", "d")
    before = log_rows(svc)
    cases = [
        ({"seq": 1, "notation": "R7", "expected_seq": 4}, 409, "amend-creation"),
        ({"seq": 9, "notation": "R7", "expected_seq": 4}, 409, "amend-not-effective"),
        ({"seq": 3, "notation": "zz", "expected_seq": 4}, 422, "lost-cities.bad-notation"),
        ({"seq": 3, "notation": "B7", "expected_seq": 3}, 409, "stale-expected-seq"),
        ({"seq": 3, "notation": "d", "expected_seq": 4}, 409, "amendment-illegal"),
        ({"seq": 3, "move": {"type": "game.redone"}, "expected_seq": 4}, 409, "amend-not-a-move"),
        ({"seq": 0, "notation": "B7", "expected_seq": 4}, 422, "malformed-body"),
    ]
    for body, status, code in cases:
        response = post(client, game, "amend", body)
        assert (response.status_code, response.json()["code"]) == (status, code), body
    assert log_rows(svc) == before


def test_a_fork_of_a_game_in_progress_keeps_the_parent_prefix_and_its_tokens(client, svc):
    game = new_game(client)
    play(client, game, 8)
    unauthorised = client.post(f"/games/{game.id}/fork", json={"at_seq": 6})
    assert unauthorised.status_code == 401
    response = post(client, game, "fork", {"at_seq": 6})
    assert response.status_code == 201, response.text
    fork = response.json()
    assert fork["parent_id"] == game.id and fork["at_seq"] == 6 and fork["tokens_inherited"] and fork["tokens"] is None
    child = Game(fork["game_id"], game.write, game.seats, game.players)
    # the history equals the parent's prefix, with the fork marker after the creation
    parent_prefix = [e.body for e in svc.projector.history(game.id).entries(6)]
    child_history = effective(svc, child.id)
    assert [b for b in child_history if not isinstance(b, Forked)] == parent_prefix
    assert child_history[1] == Forked(parent_id=game.id, at_seq=6)
    # same table after it, seen through the same seat tokens
    for seat in (0, 1):
        parent_view = client.get(
            f"/games/{game.id}/state", params={"at": 6, "seat": seat}, headers=game.seat_auth(seat)
        )
        child_view = client.get(f"/games/{child.id}/state", params={"seat": seat}, headers=child.seat_auth(seat))
        assert child_view.status_code == 200 and child_view.json()["view"] == parent_view.json()["view"]
    play(client, child, 2)  # the parent's write token records the fork
    listed = client.get(f"/games/{child.id}").json()
    assert listed["parent_id"] == game.id and listed["forked_at"] == 6


def test_a_fork_of_an_ended_game_is_open_and_gets_new_tokens(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    response = client.post(f"/games/{game.id}/fork", json={"at_seq": 10})
    assert response.status_code == 201
    fork = response.json()
    assert fork["tokens_inherited"] is False and fork["tokens"]["write_token"] != game.write
    child = Game(fork["game_id"], fork["tokens"]["write_token"], (), game.players)
    assert client.get(f"/games/{child.id}").json()["status"] == "in-progress"
    play(client, child, 1)


def test_refused_forks_write_nothing(client, svc):
    game = new_game(client)
    before = log_rows(svc)
    too_far = post(client, game, "fork", {"at_seq": 99})
    assert too_far.status_code == 409 and too_far.json()["code"] == "seq-out-of-range"
    empty = post(client, game, "fork", {"at_seq": 0})
    assert empty.status_code == 409 and empty.json()["code"] == "fork-empty"
    assert post(client, game, "fork", {"at_seq": 1}, token=game.seats[1]).status_code == 403
    assert client.post("/games/nope/fork", json={}).status_code == 404
    assert log_rows(svc) == before
