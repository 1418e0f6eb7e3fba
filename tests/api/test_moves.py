"""Recording moves over HTTP: notation or structured form, tokens, expected_seq, idempotency."""

from __future__ import annotations

import pytest
from apiplay import finish, last_seq, log_rows, new_game


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


def legal(client, game, **params):
    response = client.get(f"/games/{game.id}/legal-moves", headers=game.auth, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_move_in_notation_is_decided_and_appended(client):
    game = new_game(client)
    first = legal(client, game)["moves"][0]
    response = client.post(
        f"/games/{game.id}/moves", headers=game.auth, json={"notation": first["notation"], "expected_seq": 2}
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["first_seq"], body["last_seq"], body["replayed"]) == (3, 3, False)
    assert body["events"] == [{"seq": 3, "type": first["move"]["type"]}]
    assert "to draw" in body["status_line"] and body["to_move"] == 0 and body["ended"] is False


def test_a_move_in_structured_form_is_the_same_move(client):
    game = new_game(client)
    first = legal(client, game)["moves"][0]["move"]
    move = {k: v for k, v in first.items() if k != "seat"}  # the rules complete the seat
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"move": move, "expected_seq": 2})
    assert response.status_code == 201, response.text
    assert response.json()["events"][0]["type"] == move["type"]


def test_moves_need_the_write_token(client, svc):
    game = new_game(client)
    move = {"notation": legal(client, game)["moves"][0]["notation"], "expected_seq": 2}
    before = log_rows(svc)
    missing = client.post(f"/games/{game.id}/moves", json=move)
    assert missing.status_code == 401 and missing.json()["code"] == "token-missing"
    basic = client.post(f"/games/{game.id}/moves", json=move, headers={"Authorization": "Basic abc"})
    assert basic.status_code == 401
    for token in ("not-a-token", game.seats[0], new_game(client).write):
        before = log_rows(svc)
        wrong = client.post(f"/games/{game.id}/moves", json=move, headers={"Authorization": f"Bearer {token}"})
        assert wrong.status_code == 403 and wrong.json()["code"] == "token-wrong"
        assert log_rows(svc) == before


def test_a_move_to_an_unknown_game_is_a_404(client, svc):
    game = new_game(client)
    response = client.post("/games/nope/moves", headers=game.auth, json={"notation": "d", "expected_seq": 2})
    assert response.status_code == 404 and response.json()["code"] == "unknown-game"


def test_a_stale_expected_seq_is_a_409_and_writes_nothing(client, svc):
    game = new_game(client)
    move = legal(client, game)["moves"][0]["notation"]
    before = log_rows(svc)
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": move, "expected_seq": 1})
    assert response.status_code == 409
    assert response.json() | {"message": ""} == {
        "code": "stale-expected-seq",
        "message": "",
        "game_id": game.id,
        "expected_seq": 1,
        "current_seq": 2,
        "params": {"expected_seq": 1, "game_id": game.id, "last_seq": 2},
    }
    assert log_rows(svc) == before


@pytest.mark.parametrize(
    "notation, code",
    [
        ("zz", "lost-cities.bad-notation"),
        ("d", "lost-cities.play-then-draw"),
        ("R11", "lost-cities.bad-notation"),
    ],
)
def test_an_illegal_move_is_a_422_naming_the_rule_and_writes_nothing(client, svc, notation, code):
    game = new_game(client)
    before = log_rows(svc)
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": notation, "expected_seq": 2})
    assert response.status_code == 422
    assert response.json()["code"] == code and response.json()["message"]
    assert log_rows(svc) == before


def test_a_card_not_in_hand_is_refused_with_its_rule(client, svc):
    game = new_game(client)
    hand = client.get(f"/games/{game.id}/state", params={"seat": 0}, headers=game.seat_auth(0)).json()["view"]["hand"]
    other = next(c for c in ("Y2", "Y3", "B2", "B3", "W2") if c not in hand["cards"])
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": other, "expected_seq": 2})
    assert response.status_code == 422
    assert response.json()["code"] == "lost-cities.card-not-in-hand"


@pytest.mark.parametrize(
    "body",
    [
        {"notation": "d"},
        {"expected_seq": 2},
        {"notation": "d", "move": {"type": "lost-cities.card-drawn", "source": "deck"}, "expected_seq": 2},
        {"notation": "", "expected_seq": 2},
        {"notation": "d", "expected_seq": -1},
        {"notation": "d", "expected_seq": 2**31},
        {"notation": "d", "expected_seq": "two"},
        {"notation": "d", "expected_seq": 2, "idempotency_key": ""},
        {"notation": "d", "expected_seq": 2, "extra": True},
        {"move": "R7", "expected_seq": 2},
    ],
)
def test_a_malformed_move_body_is_a_422_and_writes_nothing(client, svc, body):
    game = new_game(client)
    before = log_rows(svc)
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "malformed-body"
    assert log_rows(svc) == before


@pytest.mark.parametrize(
    "move, code",
    [
        ({"card": "R7"}, "unknown-event-type"),
        ({"type": "chess.castled"}, "unknown-event-type"),
        ({"type": "lost-cities.card-played"}, "malformed-event"),
        ({"type": "lost-cities.card-played", "card": 7}, "malformed-event"),
        ({"type": "lost-cities.card-played", "card": "R7", "seat": 2**70}, "malformed-body"),
        ({"type": "lost-cities.card-played", "card": "R7", "seat": 9}, "lost-cities.unknown-seat"),
        ({"type": "game.undone", "to_seq": 1}, "not-a-move"),
    ],
)
def test_a_structured_move_that_is_no_move_is_a_422(client, svc, move, code):
    game = new_game(client)
    before = log_rows(svc)
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"move": move, "expected_seq": 2})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code
    assert log_rows(svc) == before


def test_a_retried_idempotency_key_appends_once_and_answers_the_first_result(client, svc):
    game = new_game(client)
    move = legal(client, game)["moves"][0]["notation"]
    body = {"notation": move, "expected_seq": 2, "idempotency_key": "k-1"}
    first = client.post(f"/games/{game.id}/moves", headers=game.auth, json=body)
    rows = log_rows(svc)
    again = client.post(f"/games/{game.id}/moves", headers=game.auth, json=body)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["replayed"] is True
    assert (again.json()["first_seq"], again.json()["last_seq"]) == (
        first.json()["first_seq"],
        first.json()["last_seq"],
    )
    assert log_rows(svc) == rows


def test_the_idempotency_key_may_come_as_a_header(client, svc):
    game = new_game(client)
    move = legal(client, game)["moves"][0]["notation"]
    headers = game.auth | {"Idempotency-Key": "h-1"}
    first = client.post(f"/games/{game.id}/moves", headers=headers, json={"notation": move, "expected_seq": 2})
    again = client.post(f"/games/{game.id}/moves", headers=headers, json={"notation": move, "expected_seq": 2})
    assert first.status_code == 201 and again.status_code == 200 and again.json()["replayed"]
    assert last_seq(client, game.id) == 3


def test_a_header_and_a_body_key_that_differ_are_refused(client, svc):
    game = new_game(client)
    before = log_rows(svc)
    response = client.post(
        f"/games/{game.id}/moves",
        headers=game.auth | {"Idempotency-Key": "a"},
        json={"notation": "d", "expected_seq": 2, "idempotency_key": "b"},
    )
    assert response.status_code == 422 and response.json()["code"] == "idempotency-key-mismatch"
    assert log_rows(svc) == before


def test_a_key_reused_for_another_move_is_refused_and_writes_nothing(client, svc):
    game = new_game(client, seed=None)  # a physical table: any card may be named
    ok = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": "deal", "expected_seq": 1})
    assert ok.status_code == 201
    first = {"notation": "R7", "expected_seq": 2, "idempotency_key": "x"}
    assert client.post(f"/games/{game.id}/moves", headers=game.auth, json=first).status_code == 201
    again = client.post(f"/games/{game.id}/moves", headers=game.auth, json=first)
    assert again.status_code == 200 and again.json()["replayed"] and again.json()["first_seq"] == 3
    other = {"notation": "R8", "expected_seq": 3, "idempotency_key": "x"}
    refused = client.post(f"/games/{game.id}/moves", headers=game.auth, json=other)
    assert refused.status_code == 409 and refused.json()["code"] == "idempotency-key-reused"
    assert last_seq(client, game.id) == 3


def a_keyed_move_then(client, game, edit: str, body: dict):
    """A physical table's R7 recorded with key ``k`` (seq 3), then ``edit`` posted with ``body``."""
    client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": "deal", "expected_seq": 1})
    keyed = {"notation": "R7", "expected_seq": 2, "idempotency_key": "k"}
    assert client.post(f"/games/{game.id}/moves", headers=game.auth, json=keyed).status_code == 201
    edited = client.post(f"/games/{game.id}/{edit}", headers=game.auth, json=body)
    assert edited.status_code == 201, edited.text
    return keyed


@pytest.mark.parametrize(
    "edit, body",
    [("undo", {"expected_seq": 3}), ("amend", {"seq": 3, "notation": "B7", "expected_seq": 3})],
    ids=["undone", "amended"],
)
def test_a_move_resent_after_it_was_taken_back_is_refused_as_taken_back_and_writes_nothing(client, svc, edit, body):
    game = new_game(client, seed=None)
    keyed = a_keyed_move_then(client, game, edit, body)
    rows = log_rows(svc)
    again = client.post(f"/games/{game.id}/moves", headers=game.auth | {"Accept-Language": "es"}, json=keyed)
    assert again.status_code == 409, again.text
    out = again.json()
    assert out["code"] == "move-taken-back" and (out["first_seq"], out["current_seq"]) == (3, 4)
    assert "ya no está en la partida" in out["message"]
    assert log_rows(svc) == rows


def test_a_move_undone_and_redone_is_recorded_again_when_resent(client, svc):
    game = new_game(client, seed=None)
    keyed = a_keyed_move_then(client, game, "undo", {"expected_seq": 3})
    assert client.post(f"/games/{game.id}/redo", headers=game.auth, json={"expected_seq": 4}).status_code == 201
    again = client.post(f"/games/{game.id}/moves", headers=game.auth, json=keyed)
    assert again.status_code == 200 and again.json()["replayed"] and again.json()["first_seq"] == 3


def test_legal_moves_now_and_at_any_seq(client):
    game = new_game(client)
    now = legal(client, game)
    assert now["at"] == 2 and now["to_move"] == 0 and now["moves"]
    assert all(m["notation"] and m["move"]["type"].startswith("lost-cities.") for m in now["moves"])
    client.post(
        f"/games/{game.id}/moves", headers=game.auth, json={"notation": now["moves"][0]["notation"], "expected_seq": 2}
    )
    assert legal(client, game, at=2)["moves"] == now["moves"]
    assert legal(client, game, at=1)["moves"] == []  # before the shuffle: chance, not a move
    later = legal(client, game)
    assert later["at"] == 3 and later["moves"] != now["moves"]


def test_legal_moves_need_the_write_token_until_the_end(client, svc):
    game = new_game(client)
    assert client.get(f"/games/{game.id}/legal-moves").status_code == 401
    assert client.get(f"/games/{game.id}/legal-moves", headers=game.seat_auth(0)).status_code == 403
    finish(svc, game.id)
    response = client.get(f"/games/{game.id}/legal-moves", params={"at": 2})
    assert response.status_code == 200 and response.json()["moves"]
    assert client.get(f"/games/{game.id}/legal-moves").json()["moves"] == []


def test_legal_moves_at_a_seq_past_the_log_is_a_422(client):
    game = new_game(client)
    response = client.get(f"/games/{game.id}/legal-moves", headers=game.auth, params={"at": 99})
    assert response.status_code == 422 and response.json()["code"] == "seq-out-of-range"
    assert client.get(f"/games/{game.id}/legal-moves", headers=game.auth, params={"at": -1}).status_code == 422


def test_a_move_after_the_end_is_refused(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    seq = last_seq(client, game.id)
    before = log_rows(svc)
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": "d", "expected_seq": seq})
    assert response.status_code == 422 and response.json()["code"] == "game-over"
    assert log_rows(svc) == before


def test_a_hand_shown_after_the_end_is_recorded_and_checked(client, svc):
    """lost-cities.es.txt: "Los jugadores pueden ver sus cartas" -- ruling LC-10: a hand may be shown
    after the game; it is checked against the log like any fact, and the result stands."""
    game = new_game(client)
    finish(svc, game.id)
    hand = svc.projector.state(game.id).state.hands[0]
    seq = last_seq(client, game.id)
    before = log_rows(svc)
    wrong = {"notation": "reveal 0:" + ",".join(("R2",) * len(hand)), "expected_seq": seq}
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json=wrong)
    assert response.status_code == 422 and response.json()["code"].startswith("lost-cities.reveal-")
    assert log_rows(svc) == before
    shown = {"notation": "reveal 0:" + ",".join(hand), "expected_seq": seq}
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json=shown)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["ended"] is True and body["events"] == [{"seq": seq + 1, "type": "lost-cities.hand-revealed"}]
    move = {"notation": "d", "expected_seq": seq + 1}
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json=move)
    assert response.status_code == 422 and response.json()["code"] == "game-over"


@pytest.mark.parametrize(
    "bodies, headers",
    [
        ((b"not json", b"not json"), {}),
        ((b"", b""), {}),
        ((b"[]", b"[]"), {}),
        ((b'{"notation": "d", "expected_seq": 2}', b'{"expected_seq": 2}'), {"Idempotency-Key": ""}),
        ((b'{"notation": "d", "expected_seq": 2}', b'{"expected_seq": 2}'), {"Idempotency-Key": "k" * 201}),
        ((b'{"notation": "d", "expected_seq": 2}', b'{"expected_seq": 2}'), {"Authorization": "Basic abc"}),
        ((b'{"notation": "d", "expected_seq": 2}', b'{"expected_seq": 2}'), {"Authorization": "Bearer"}),
        ((b'{"notation": "d", "expected_seq": 2}', b'{"expected_seq": 2}'), {"Authorization": "bearer nope"}),
    ],
)
def test_the_moves_route_refuses_bad_requests_like_every_other_write(client, svc, bodies, headers):
    """The moves route reads its body, key and token by hand (for speed); a client must not tell.
    Undo is solved by FastAPI: the same bad request gets the same status and code from both."""
    game = new_game(client)
    before = log_rows(svc)
    answers = []
    for path, content in zip(("moves", "undo"), bodies):
        sent = {"Content-Type": "application/json", **game.auth, **headers}
        response = client.post(f"/games/{game.id}/{path}", content=content, headers=sent)
        answers.append((response.status_code, response.json()["code"]))
    assert answers[0] == answers[1]
    assert answers[0][0] in (401, 403, 422)
    assert log_rows(svc) == before
