"""A stored game this code cannot fold or project, written straight into the store with its chain
and anchors as the log would have made them: the service starts, serves every other game, refuses
that one with ``game-unreadable`` naming its seq, and lists it on /health, in ``tabletape
verify``, ``tabletape games`` and beside every statistic; on DuckDB and on PostgreSQL."""

from __future__ import annotations

import pytest
from apiplay import finish, new_game, play
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import live_server
import tampering
from api.http.app import create_app
from api.cli.main import app as cli_app
from api.http.settings import Settings
from events.lifecycle import GameEnded
from rules.lost_cities.events import CardPlayed

#: what each case appends after the game's last event: its stored body and JSON copy
CASES = {
    "an unknown event type": tampering.future_event,
    "a move the rules cannot fold": lambda: tampering.event_body(CardPlayed(card="zz", seat=0)),
    "a score past 32 bits": lambda: tampering.event_body(GameEnded(scores=(2**31, 0), ranks=(1, 2), winners=(0,))),
}
READS = ["", "/state", "/frames", "/legal-moves", "/events", "/stream"]


@pytest.fixture(params=["duckdb", "postgresql"])
def db(request, tmp_path) -> str:
    if request.param == "duckdb":
        return str(tmp_path / "t.duckdb")
    return request.getfixturevalue("postgres_db")


def poisoned(db: str, case: str) -> tuple[str, str, int]:
    """An ended game and one of five events or more with ``case`` appended straight into the store:
    (the good game's id, the poisoned one's, the poisoned seq)."""
    with TestClient(create_app(Settings(db_path=db))) as client:
        good, bad = new_game(client), new_game(client)
        finish(client.app.state.services, good.id)
        play(client, bad, 4)
    return good.id, bad.id, tampering.append_to_store(db, bad.id, *CASES[case]())


def assert_unreadable(response, seq: int) -> None:
    assert response.status_code == 409, response.text
    body = response.json()
    assert body["code"] == "game-unreadable" and body["seq"] == seq, body
    assert f"seq {seq}" in body["message"] and body["reason"] in body["message"]


@pytest.mark.parametrize("case", list(CASES))
def test_the_service_starts_serves_the_others_and_refuses_that_game_naming_its_seq(db, case):
    good, bad, seq = poisoned(db, case)
    with TestClient(create_app(Settings(db_path=db))) as client:
        assert client.get(f"/games/{good}").status_code == 200
        assert client.get(f"/games/{good}/events").status_code == 200
        for path in READS:
            assert_unreadable(client.get(f"/games/{bad}{path}"), seq)
        cur = client.app.state.services.log.cursor()
        before = cur.execute("SELECT count(*) FROM events").fetchall()
        move = client.post(f"/games/{bad}/moves", json={"notation": "x", "expected_seq": seq})
        assert move.status_code in (401, 409), move.text  # no token: refused before or at the game
        health = client.get("/health")
        assert health.status_code == 200 and health.json()["status"] == "degraded"
        assert [(g["game_id"], g["seq"]) for g in health.json()["unreadable"]] == [(bad, seq)]
        listed = client.get("/games").json()
        assert [g["game_id"] for g in listed["games"]] == [good] and listed["unreadable"][0]["game_id"] == bad
        dashboard = client.get("/stats/dashboard", headers={"Accept-Language": "es"})
        assert dashboard.status_code == 200 and dashboard.headers["Tabletape-Left-Out"] == "1"
        assert dashboard.json()["games"] == 1
        assert [g["game_id"] for g in dashboard.json()["left_out"]] == [bad]
        assert "no se puede leer desde seq" in dashboard.json()["left_out"][0]["message"]
        board = client.get("/stats/leaderboard")
        assert board.status_code == 200 and board.headers["Tabletape-Left-Out"] == "1"
        assert cur.execute("SELECT count(*) FROM events").fetchall() == before
        cur.close()


def test_a_write_to_that_game_is_refused_and_nothing_is_appended(tmp_path):
    db = str(tmp_path / "t.duckdb")
    with TestClient(create_app(Settings(db_path=db))) as client:
        game = new_game(client)
        play(client, game, 4)
    seq = tampering.append_to_store(db, game.id, *CASES["a move the rules cannot fold"]())
    with TestClient(create_app(Settings(db_path=db))) as client:
        move = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": "x", "expected_seq": seq})
        assert_unreadable(move, seq)
        undo = client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": 2, "expected_seq": seq})
        assert_unreadable(undo, seq)
        assert client.app.state.services.log.last_seq(game.id) == seq


runner = CliRunner()


@pytest.mark.parametrize("case", list(CASES))
def test_verify_games_and_stats_name_that_game_and_go_on_with_the_rest(db, case):
    good, bad, seq = poisoned(db, case)
    verified = runner.invoke(cli_app, ["verify", "--db", db])
    assert verified.exit_code == 1, verified.output
    assert f"{bad}: UNREADABLE from seq {seq}: " in verified.output and f"{good}: ok" in verified.output
    assert "Traceback" not in verified.output
    listed = runner.invoke(cli_app, ["games", "--db", db])
    assert listed.exit_code == 0, listed.output
    assert good in listed.output and f"left out {bad}: it cannot be read from seq {seq}" in listed.output
    stats = runner.invoke(cli_app, ["stats", "leaderboard", "--db", db])
    assert stats.exit_code == 0, stats.output
    assert f"left out of the statistics: {bad} cannot be read (seq {seq}: " in stats.output


def test_two_workers_on_postgresql_start_and_refuse_only_that_game(postgres_db, tmp_path):
    good, bad, seq = poisoned(postgres_db, "a move the rules cannot fold")
    base, proc = live_server.start(postgres_db, args=("--workers", "2"), output=tmp_path / "serve.log")
    try:
        import httpx

        with httpx.Client(base_url=base) as client:
            for _ in range(4):  # each worker in turn, as the connections land
                assert client.get(f"/games/{good}").status_code == 200
                assert_unreadable(client.get(f"/games/{bad}"), seq)
            assert client.get("/health").json()["unreadable"][0]["game_id"] == bad
    finally:
        live_server.stop(proc)


def test_games_and_stats_through_a_running_service_name_that_game(tmp_path):
    db = str(tmp_path / "t.duckdb")
    good, bad, seq = poisoned(db, "an unknown event type")
    base, proc = live_server.start(db, output=tmp_path / "serve.log")
    try:
        listed = runner.invoke(cli_app, ["games", "--db", db])
        assert listed.exit_code == 0 and good in listed.output, listed.output
        assert f"left out {bad}: it cannot be read from seq {seq}" in listed.output
        stats = runner.invoke(cli_app, ["stats", "leaderboard", "--db", db])
        assert stats.exit_code == 0 and f"left out of the statistics: {bad} cannot be read (seq {seq}: " in stats.output
    finally:
        live_server.stop(proc)


def test_a_score_only_game_played_at_the_end_of_9999_is_left_out_and_the_rest_served(db):
    from events.lifecycle import GameCreated, ScoreOnly
    from events.log import new_game_id
    from events.stores import open_log

    with TestClient(create_app(Settings(db_path=db))) as client:
        good = new_game(client)
        finish(client.app.state.services, good.id)
    bad = new_game_id()
    log = open_log(db)
    log.import_games([(bad, [GameCreated(title="lost-cities", players=("Ana", "Bea"), options={"rounds": 1})])])
    log.close()
    # as a version without limits on what BG Stats says imported it (this log refuses the date: events.limits)
    late = ScoreOnly(source="bgstats", ref="late", played_at="9999-12-31T23:00:00+00:00", duration_min=120)
    for event in (late, GameEnded(scores=(10, 5), ranks=(1, 2), winners=(0,))):
        tampering.append_to_store(db, bad, *tampering.event_body(event))
    with TestClient(create_app(Settings(db_path=db))) as client:
        assert client.get(f"/games/{good.id}").status_code == 200
        assert_unreadable(client.get(f"/games/{bad}"), 3)
        assert "OverflowError" in client.get("/health").json()["unreadable"][0]["reason"]
        assert client.get("/stats/dashboard").json()["games"] == 1
