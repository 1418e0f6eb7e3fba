"""Notes on steps over HTTP: the write token writes one, the replay shows it beside its step, an
amendment corrects it, and every refusal is a 4xx with a stable code that writes nothing."""

from __future__ import annotations

import pytest
from apiplay import Game, finish, last_seq, log_rows, new_game, play

from api.formats.jsonl import export_lines, import_games, read_games
from events.duckdb_log import DuckDBEventLog
from events.errors import TabletapeError
from projections.projector import Projector
from replay.frames import frames


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


def note(client, game: Game, step: int, text: str, **extra):
    body = {"step": step, "text": text, "expected_seq": last_seq(client, game.id), **extra}
    return client.post(f"/games/{game.id}/notes", headers=game.auth, json=body)


def notes_shown(client, game: Game, **params) -> dict[int, list[str]]:
    frames = client.get(f"/games/{game.id}/frames", params=params).json()["frames"]
    return {f["index"]: [n["text"] for n in f["notes"]] for f in frames if f.get("notes")}


def test_a_note_is_written_and_shown_beside_its_step_without_changing_the_game(client, svc):
    game = new_game(client)
    play(client, game, 4)
    before = client.get(f"/games/{game.id}/state").json()
    written = note(client, game, 3, "Bea kept the red eight back on purpose")
    assert written.status_code == 201, written.text
    assert [e["type"] for e in written.json()["events"]] == ["game.annotated"]
    after = client.get(f"/games/{game.id}/state").json()
    assert (after["view"], after["steps"], after["status_line"]) == (before["view"], before["steps"], before["status_line"])
    assert notes_shown(client, game) == {3: ["Bea kept the red eight back on purpose"]}
    assert notes_shown(client, game, at=written.json()["first_seq"] - 1) == {}  # the replay before it was written


def test_a_retried_note_is_written_once(client, svc):
    game = new_game(client)
    first = note(client, game, 1, "first", idempotency_key="n-1")
    again = client.post(f"/games/{game.id}/notes", headers=game.auth,
                        json={"step": 1, "text": "first", "expected_seq": 0, "idempotency_key": "n-1"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["first_seq"] == first.json()["first_seq"]
    assert notes_shown(client, game) == {1: ["first"]}


def test_an_amended_note_replaces_its_text_and_undo_removes_it(client, svc):
    game = new_game(client)
    play(client, game, 2)
    seq = note(client, game, 2, "typo hre").json()["first_seq"]
    amended = client.post(f"/games/{game.id}/amend", headers=game.auth, json={
        "seq": seq, "move": {"type": "game.annotated", "seq": svc.projector.history(game.id).entries()[2].seq, "text": "typo here"},
        "expected_seq": last_seq(client, game.id),
    })
    assert amended.status_code == 201, amended.text
    assert notes_shown(client, game) == {2: ["typo here"]}
    undone = client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": seq - 1, "expected_seq": last_seq(client, game.id)})
    assert undone.status_code == 201
    assert notes_shown(client, game) == {}


def test_a_note_is_not_a_move_taken_back(client, svc):
    game = new_game(client)
    play(client, game, 3)
    steps = len(svc.projector.history(game.id).entries())
    note(client, game, steps - 1, "on the last move")
    taken = client.post(f"/games/{game.id}/undo", headers=game.auth, json={"moves": 1, "expected_seq": last_seq(client, game.id)})
    assert taken.status_code == 201
    assert len(svc.projector.history(game.id).entries()) < steps  # the move went, not only the note


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"step": 1, "text": ""}, 422, "note-empty"),
        ({"step": 1, "text": "x" * 501}, 422, "note-too-long"),
        ({"step": 1, "text": "a\x1bb"}, 422, "note-control-characters"),
        ({"step": 99, "text": "far"}, 409, "note-step-out-of-range"),
    ],
)
def test_a_bad_note_is_refused_with_its_code_and_writes_nothing(client, svc, body, status, code):
    game = new_game(client)
    rows = log_rows(svc)
    response = client.post(f"/games/{game.id}/notes", headers=game.auth, json={**body, "expected_seq": last_seq(client, game.id)})
    assert (response.status_code, response.json()["code"]) == (status, code), response.text
    assert response.json()["message"]
    assert log_rows(svc) == rows


def test_a_note_needs_the_write_token_and_a_fresh_seq(client, svc):
    game = new_game(client)
    rows = log_rows(svc)
    stranger = client.post(f"/games/{game.id}/notes", json={"step": 0, "text": "hi", "expected_seq": 2})
    seat = client.post(f"/games/{game.id}/notes", headers=game.seat_auth(0), json={"step": 0, "text": "hi", "expected_seq": 2})
    stale = client.post(f"/games/{game.id}/notes", headers=game.auth, json={"step": 0, "text": "hi", "expected_seq": 0})
    assert stranger.status_code == 401 and seat.status_code == 403
    assert (stale.status_code, stale.json()["code"]) == (409, "stale-expected-seq")
    assert log_rows(svc) == rows


def test_an_amendment_of_a_note_must_be_a_note(client, svc):
    game = new_game(client)
    seq = note(client, game, 0, "setup").json()["first_seq"]
    rows = log_rows(svc)
    wrong = client.post(f"/games/{game.id}/amend", headers=game.auth,
                        json={"seq": seq, "notation": "draw", "expected_seq": last_seq(client, game.id)})
    assert (wrong.status_code, wrong.json()["code"]) == (422, "amend-note-shape")
    assert log_rows(svc) == rows


def test_notes_survive_the_end_and_a_json_lines_round_trip(client, svc):
    game = new_game(client)
    play(client, game, 2)
    note(client, game, 1, "¿Seguro? 本当に\nyes")
    finish(svc, game.id)
    ended = len(svc.projector.history(game.id).entries()) - 1
    assert note(client, game, ended, "Ana by a nose").status_code == 201  # after the end too
    shown = notes_shown(client, game)
    assert shown == {1: ["¿Seguro? 本当に\nyes"], ended: ["Ana by a nose"]}
    lines = list(export_lines(svc.log, svc.projector, [game.id]))
    fresh = DuckDBEventLog(":memory:")
    try:
        projector = Projector(fresh)
        import_games(fresh, projector, read_games(lines))
        again = {f.index: [n["text"] for n in f.notes] for f in frames(projector, game.id) if f.notes}
        assert again == shown
        assert projector.state(game.id).state == svc.projector.state(game.id).state
    finally:
        fresh.close()


def test_an_import_with_a_note_the_page_could_not_write_is_refused(client, svc):
    game = new_game(client)
    note(client, game, 0, "fine")
    finish(svc, game.id)
    lines = [line.replace('"text":"fine"', '"text":"\\u0007"') for line in export_lines(svc.log, svc.projector, [game.id])]
    fresh = DuckDBEventLog(":memory:")
    try:
        with pytest.raises(TabletapeError) as caught:
            import_games(fresh, Projector(fresh), read_games(lines))
        assert "control characters" in caught.value.message
    finally:
        fresh.close()
