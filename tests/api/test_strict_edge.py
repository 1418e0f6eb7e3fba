"""One strict edge: what a request may hold is the same on every route, and whatever the edge
refuses is refused with a sentence naming it, before anything is written."""

from __future__ import annotations

import json

import pytest
from apiplay import log_rows, log_size, new_game
from typer.testing import CliRunner

import rules  # noqa: F401
from api.cli.main import app as cli
from api.cli.main import layers
from events import codec
from events.lifecycle import GameCreated
from projections.fold import start
from replay.recorder import draw_chance
from rules.marco_polo_2.content import SYNTHETIC


def _legal(client, game) -> dict:
    return client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()


def test_a_token_after_two_spaces_opens_every_route(client):
    """Before: ``Bearer  <token>`` worked on undo, fork, legal moves and chance, and was a 403 on moves."""
    game = new_game(client)
    loose = {"Authorization": f"Bearer  {game.write}"}
    legal = client.get(f"/games/{game.id}/legal-moves", headers=loose)
    assert legal.status_code == 200
    move = {"move": legal.json()["moves"][0]["move"], "expected_seq": legal.json()["at"]}
    assert client.post(f"/games/{game.id}/moves", json=move, headers=loose).status_code == 201
    assert client.get(f"/games/{game.id}/chance", headers=loose).status_code == 200
    last = client.get(f"/games/{game.id}").json()["last_seq"]
    assert client.post(f"/games/{game.id}/undo", json={"expected_seq": last}, headers=loose).status_code == 201
    assert client.post(f"/games/{game.id}/fork", json={}, headers=loose).status_code == 201


def test_an_unknown_field_of_a_structured_move_is_refused_by_name(client, svc):
    """Before: the field was dropped and the move recorded."""
    game = new_game(client)
    legal = _legal(client, game)
    move = {**legal["moves"][0]["move"], "stake": 3}
    before = log_rows(svc)
    response = client.post(f"/games/{game.id}/moves", json={"move": move, "expected_seq": legal["at"]}, headers=game.auth)
    assert response.status_code == 422
    assert response.json()["code"] == "unknown-field" and response.json()["field"] == "move.stake"
    assert response.json()["message"].startswith("move.stake: no such field in lost-cities.card-played")
    assert log_rows(svc) == before


def test_an_unknown_field_inside_a_move_is_named_where_it_is():
    component = {"kind": "contract", "id": "c1", "spec": {}, "colour": "red"}
    with pytest.raises(codec.MalformedEvent) as refused:
        codec.from_wire({"type": "marco-polo-2.setup-dealt", "describe": [component]})
    assert refused.value.code == "unknown-field" and refused.value.details["field"] == "move.describe.0.colour"


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("POST", "/games/{id}/undo", {"to_seq": "1", "expected_seq": 2}),
        ("POST", "/games/{id}/undo", {"expected_seq": "2"}),
        ("POST", "/games/{id}/fork", {"at_seq": True}),
        ("POST", "/games/{id}/moves", {"notation": "d", "expected_seq": 2.0}),
        ("POST", "/games", {"title": "lost-cities", "players": ["Ana", "Bea"], "seed": "7"}),
        ("POST", "/games/{id}/chance", {"outcome": ["R7"], "at": "1"}),
        ("POST", "/sql", {"query": "SELECT 1", "row_limit": "10"}),
        ("GET", "/stats/leaderboard?date_to=0.5", None),
        ("GET", "/games/{id}/legal-moves?at=1.0", None),
        ("GET", "/games?created_from=1700000000", None),
    ],
)
def test_a_value_of_another_type_is_refused(client, svc, method, path, body):
    """Before: ``"1"`` was read as 1, ``true`` as 1, ``0.5`` as half a second past 1970."""
    game = new_game(client)
    before = log_size(svc)
    response = client.request(method, path.replace("{id}", game.id), json=body, headers=game.auth)
    assert response.status_code == 422, response.text
    assert response.json()["code"] in ("malformed-body", "malformed-request")
    assert log_size(svc) == before


def test_dates_in_iso_8601_are_still_read(client):
    assert client.get("/stats/leaderboard?date_from=2026-01-01&date_to=2026-12-31T23:00:00Z").status_code == 200
    assert client.get("/games?created_to=2999-01-01").status_code == 200


@pytest.mark.parametrize("name", ["A\x00na", "\x1b[31mAna\x1b[0m", "Ana\nBea", "Ana\u202e", "Ana\x85"])
def test_a_player_name_with_a_control_character_is_refused(client, svc, name):
    """Before: accepted and stored, and ``tabletape games`` printed the escapes raw."""
    response = client.post("/games", json={"title": "lost-cities", "players": ["Bea", name]})
    assert response.status_code == 422
    assert response.json()["code"] == "player-name-control-character"
    assert response.json()["message"].startswith("Player 2's name holds the control character U+")
    assert log_size(svc) == (0, 0)


def test_other_text_people_read_may_not_hold_control_characters(client):
    game = new_game(client)
    legal = _legal(client, game)
    move = {"move": legal["moves"][0]["move"], "expected_seq": legal["at"], "actor": "\x1b]0;pwned\x07"}
    assert client.post(f"/games/{game.id}/moves", json=move, headers=game.auth).status_code == 422
    bad_title = client.post("/games", json={"title": "lost-\x1bcities", "players": ["Ana", "Bea"]})
    assert bad_title.status_code == 422


@pytest.mark.parametrize(
    "players, code, message",
    [
        (["Ana", " ANA "], "duplicate-player-name", "Players 1 and 2 have the same name ('ANA')"),
        (["Ana Maria", "Bea", "anamaria", "Eva"], "duplicate-player-name", "Players 1 and 3 have the same name"),
        (["Ana", ""], "blank-player-name", "Player 2 needs a name"),
        (["  ", "Bea"], "blank-player-name", "Player 1 needs a name"),
        (["Ana", "B" * 65], "player-name-too-long", "Player 2's name is longer than 64 characters"),
    ],
)
def test_player_names_are_refused_with_a_sentence(client, svc, players, code, message):
    """Before: duplicates were accepted and a blank name got pydantic's ``too_short`` dump."""
    response = client.post("/games", json={"title": "lost-cities", "players": players})
    assert response.status_code == 422
    assert response.json()["code"] == code
    assert response.json()["message"].startswith(message)
    assert "errors" not in response.json()
    assert log_size(svc) == (0, 0)


def test_the_command_line_refuses_the_same_names(tmp_path):
    result = CliRunner().invoke(cli, ["new", "lost-cities", "Ana", "ana", "--db", str(tmp_path / "t.duckdb")])
    assert result.exit_code == 1 and "duplicate-player-name: Players 1 and 2" in result.output


def _marco_polo_2(client) -> tuple[dict, str]:
    """A Marco Polo II game recorded at the table, and its setup in notation."""
    options = {"content": SYNTHETIC.ref}
    game = start(GameCreated(title="marco-polo-2", players=("Ana", "Bea"), options=options, seed=3))
    setup = draw_chance(game, 2)  # the table a digital game would have dealt
    out = client.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": options}).json()
    return out, game.title.format_move(setup)


@pytest.mark.parametrize("number", [2**64, 2**63 + 5, 10**6 + 1, -(10**6) - 1])
def test_a_number_no_game_uses_is_refused_in_notation_and_in_structured_moves(client, svc, number):
    """Before: 2**64 in a ``describe=`` was a 500 (OverflowError in the codec) and 2**63 + 5
    was recorded."""
    game, setup = _marco_polo_2(client)
    auth = {"Authorization": f"Bearer {game['tokens']['write_token']}"}
    described = [{"kind": "contract", "id": "zz", "spec": {"cost": {"pepper": number}, "reward": {"vp": 1}}}]
    before = log_size(svc)
    text = f"{setup} describe={json.dumps(described)}"
    response = client.post(f"/games/{game['game_id']}/moves", json={"notation": text, "expected_seq": 1}, headers=auth)
    assert response.status_code == 422
    assert response.json()["code"] == "number-out-of-range"
    assert response.json()["field"] == "move.describe.0.spec.cost.pepper"
    structured = {"type": "lost-cities.card-played", "card": "R7", "seat": number}
    lost = new_game(client)
    response = client.post(f"/games/{lost.id}/moves", json={"move": structured, "expected_seq": 2}, headers=lost.auth)
    assert response.status_code == 422 and "numbers must be within ±1000000" in response.json()["message"]
    options = client.post("/games", json={"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"rounds": number}})
    assert options.status_code == 422
    assert log_size(svc)[0] == before[0] + 2  # the Lost Cities game's creation and deal only


def test_a_json_value_too_deep_or_too_long_is_refused(client, svc):
    deep: object = 1
    for _ in range(20):
        deep = [deep]
    for options, why in (({"x": deep}, "nest at most 16 deep"), ({"x": list(range(1001))}, "at most 1000 items")):
        response = client.post("/games", json={"title": "lost-cities", "players": ["Ana", "Bea"], "options": options})
        assert response.status_code == 422 and why in response.json()["message"]
    assert log_size(svc) == (0, 0)


def test_tabletape_games_prints_a_stored_control_character_instead_of_obeying_it(tmp_path):
    """A game recorded before names were checked keeps its name; the listing shows the escape."""
    db = str(tmp_path / "t.duckdb")
    with layers(db) as lay:
        created = GameCreated(title="lost-cities", players=("\x1b[2J[bold]Ana", "Bea"), options={"rounds": 1})
        result = lay.log.append("g1", [created], expected_seq=0)
        lay.projector.appended("g1", [created], result.first_seq)
    listed = CliRunner().invoke(cli, ["games", "--db", db])
    assert listed.exit_code == 0
    assert "\x1b" not in listed.output and "\\x1b[2J[bold]Ana, Bea" in listed.output
