"""Tournament nights over HTTP: opened, drawn round by round (each table's game made with tokens
the night's token shows again), late players, drops, byes, standings as the games end, refusals
as 4xx {code, message} with nothing written, and the draw made again from the log."""

from __future__ import annotations

from apiplay import log_rows
from nightplay import finish_table

from projections.nights import Nights, replays

PLAYERS = ["Ana", "Bea", "Cai", "Dan", "Eva"]


def _open(client, **more):
    body = {"name": "Friday", "title": "lost-cities", "rounds": 3, "players": PLAYERS, "seed": "s1", "options": {"rounds": 1}, **more}
    made = client.post("/nights", json=body)
    assert made.status_code == 201, made.text
    out = made.json()
    return out["night_id"], {"Authorization": f"Bearer {out['token']}"}


def test_a_night_draws_rounds_and_its_standings_follow_the_games(client, svc):
    night_id, auth = _open(client)
    first = client.post(f"/nights/{night_id}/rounds", headers=auth)
    assert first.status_code == 201, first.text
    drawn = first.json()["draws"][0]
    seated = sorted([p for t in drawn["tables"] for p in t["players"]] + drawn["byes"])
    assert seated == sorted(PLAYERS) and len(drawn["byes"]) == 1
    for table in drawn["tables"]:  # each table's write token records its game
        legal = client.get(f"/games/{table['game_id']}/legal-moves", headers={"Authorization": f"Bearer {table['write_token']}"})
        assert legal.status_code == 200, legal.text
    busy = client.post(f"/nights/{night_id}/rounds", headers=auth)
    assert busy.status_code == 409 and busy.json()["code"] == "night-round-playing"
    for table in drawn["tables"]:
        finish_table(svc, table["game_id"])
    shown = client.get(f"/nights/{night_id}").json()
    assert all(t["ended"] and t["write_token"] is None for t in shown["draws"][0]["tables"])
    top = shown["standings"]
    assert sum(r["night_points"] for r in top) == 3.0 and top[0]["night_points"] == 1.0
    assert client.post(f"/nights/{night_id}/players", headers=auth, json={"player": "Fay"}).status_code == 200
    assert client.post(f"/nights/{night_id}/drops", headers=auth, json={"player": "ana"}).status_code == 200
    second = client.post(f"/nights/{night_id}/rounds", headers=auth).json()["draws"][1]
    seated = sorted([p for t in second["tables"] for p in t["players"]] + second["byes"])
    assert seated == ["Bea", "Cai", "Dan", "Eva", "Fay"]
    assert second["byes"] != drawn["byes"]  # the bye goes to someone without one
    night = Nights(svc.log, svc.projector.read_models).get(night_id)
    assert replays(night)  # each round is the draw its recorded inputs make again
    again = client.get(f"/nights/{night_id}", headers=auth).json()["draws"][1]["tables"]
    assert [t["write_token"] for t in again] == [t["write_token"] for t in second["tables"]]


def test_refusals_are_4xx_json_and_write_nothing(client, svc):
    night_id, auth = _open(client)
    before = log_rows(svc)
    cases = [
        (client.post("/nights", json={"name": "x", "title": "lost-cities", "rounds": 1, "players": ["Ana"]}), 422, "night-players-too-few"),
        (client.post("/nights", json={"name": "x", "title": "chess", "rounds": 1, "players": ["A", "B"]}), 422, "night-title-unknown"),
        (client.post("/nights", json={"name": "x", "title": "lost-cities", "rounds": 1, "players": ["A", "a"]}), 422, "night-player-repeated"),
        (client.post("/nights", json={"name": "x", "title": "lost-cities", "rounds": True, "players": ["A", "B"]}), 422, "malformed-body"),
        (client.post("/nights", json={"name": "x", "title": "lost-cities", "rounds": 10**30, "players": ["A", "B"]}), 422, "night-rounds-out-of-range"),
        (client.post("/nights", json={"name": "x", "title": "lost-cities", "rounds": 1, "players": ["A", "B"], "round": 2}), 422, "malformed-body"),
        (client.post(f"/nights/{night_id}/rounds"), 401, "token-missing"),
        (client.post(f"/nights/{night_id}/rounds", headers={"Authorization": "Bearer nope"}), 403, "token-wrong"),
        (client.post("/nights/night-nothing/rounds", headers=auth), 404, "unknown-night"),
        (client.get(f"/nights/{night_id}", headers={"Authorization": "Bearer nope"}), 403, "token-wrong"),
        (client.post(f"/nights/{night_id}/players", headers=auth, json={"player": "bea"}), 422, "night-player-present"),
        (client.post(f"/nights/{night_id}/drops", headers=auth, json={"player": "Zed"}), 422, "night-player-absent"),
    ]
    for answer, status, code in cases:
        assert answer.status_code == status, answer.text
        assert answer.json()["code"] == code and answer.json()["message"]
    assert log_rows(svc) == before


def test_a_marco_polo_night_seats_tables_of_three_and_four(client):
    players = [f"P{n}" for n in range(10)]
    night_id, auth = _open(client, title="marco-polo", players=players, options={})
    drawn = client.post(f"/nights/{night_id}/rounds", headers=auth)
    assert drawn.status_code == 201, drawn.text
    tables = drawn.json()["draws"][0]["tables"]
    assert sorted(len(t["players"]) for t in tables) == [3, 3, 4]


def test_a_night_of_a_seasons_members(client, svc):
    admin = {"Authorization": f"Bearer {svc.admin_token_issued}"}
    season = client.post("/seasons", headers=admin, json={"name": "S", "titles": ["lost-cities"], "starts": "2026-01-01",
                                                          "ends": "2026-12-31", "members": ["Ana", "Bea", "Cai"]})
    assert season.status_code == 201, season.text
    made = client.post("/nights", json={"name": "N", "title": "lost-cities", "rounds": 1, "season_id": season.json()["season_id"]})
    assert made.status_code == 201 and made.json()["players"] == ["Ana", "Bea", "Cai"]
