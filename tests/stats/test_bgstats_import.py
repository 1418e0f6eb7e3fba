"""BG Stats imports as the app writes them (``bgstats_real_export.json``: string scores, the score
calculator's sums, winner-only plays, the anonymous player, seatOrder 0, roles, groups, tags,
plays of other games), hostile files refused in one line with nothing written, and a big file."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.http.app import create_app
from api.formats.bgstats import calculate
from api.cli.main import app as cli
from api.cli.main import layers
from api.http.settings import Settings
from test_bgstats import ask, sql

runner = CliRunner()
REAL = Path(__file__).with_name("bgstats_real_export.json")
GUEST_PLAYS = ("5A110000-0000-4000-8000-000000000BBD", "5A110000-0000-4000-8000-000000000BBE",
               "5A110000-0000-4000-8000-000000000BBF")


def run(*args) -> tuple[int, str]:
    result = runner.invoke(cli, [str(a) for a in args])
    return result.exit_code, result.output


def ok(*args) -> str:
    code, out = run(*args)
    assert code == 0, out
    return out


def get(db: str, path: str) -> dict:
    return ask(db, path)[0]


def test_a_real_export_imports_whole(tmp_path):
    db = str(tmp_path / "real.duckdb")
    out = ok("import", "--format", "bgstats", REAL, "--db", db)
    assert out.splitlines() == [
        "imported 7 plays as score-only games (no moves); 0 already imported; 0 skipped",
        "left out 4 plays of 2 other games (not tabletape's titles)",
    ]
    # the calculator's sums: 2+7+8+9-20+2 and (12+8)*2-5
    first, second = sql(db, "SELECT list(score ORDER BY seat) FROM results r JOIN games g USING (game_id) "
                            "WHERE g.title = 'lost-cities' AND score IS NOT NULL GROUP BY game_id, created_at "
                            "ORDER BY created_at LIMIT 2")
    assert (first[0], second[0]) == ([8, 31], [35, -14])


def test_a_winner_only_play_is_a_result_with_its_winners_and_no_scores(tmp_path):
    db = str(tmp_path / "real.duckdb")
    ok("import", "--format", "bgstats", REAL, "--db", db)
    rows = sql(db, "SELECT g.title, r.player, r.score, r.won, r.rank FROM results r JOIN games g USING (game_id) "
                   "WHERE g.created_at IN ('2025-01-11 19:00:00', '2025-01-12 15:00:00') ORDER BY g.created_at, r.seat")
    assert rows == [
        ["lost-cities", "Ana", None, True, 1], ["lost-cities", "Bea", None, False, 2],
        ["marco-polo", "Ana", None, False, 2], ["marco-polo", "Bea", None, True, 1], ["marco-polo", "Carl", None, False, 2],
    ]
    scores = get(db, "/stats/scores?title=lost-cities")
    assert scores["games_without_scores"] == 1 and scores["summary"]["count"] == 8
    assert "games without scores: 1" in ok("stats", "scores", "--title", "lost-cities", "--db", db)
    board = {r["player"]: r for r in get(db, "/stats/leaderboard")["rows"]}
    assert (board["Bea"]["games"], board["Bea"]["wins"]) == (5, 2)  # the winner-only plays count as results
    (game,) = [g for g in get(db, "/games?title=marco-polo")["games"] if g["created_at"].startswith("2025-01-12")]
    frames = get(db, f"/games/{game['game_id']}/frames")["frames"]
    assert frames[-1]["text"] == "The game ended: Bea won (no scores recorded)"
    again = json.loads(ok("export", "--format", "bgstats", "--db", db))
    (play,) = [p for p in again["plays"] if p["playDate"] == "2025-01-12 15:00:00"]
    assert [(s["score"], s["winner"]) for s in play["playerScores"]] == [("", False), ("", True), ("", False)]


def test_anonymous_players_stay_distinct_guests(tmp_path):
    db = str(tmp_path / "real.duckdb")
    ok("import", "--format", "bgstats", REAL, "--db", db)
    board = {r["player"]: (r["games"], r["wins"]) for r in get(db, "/stats/leaderboard")["rows"]}
    guests = {name: figures for name, figures in board.items() if name.startswith("Guest")}
    assert guests == {f"Guest 1 (play {ref})": figures for ref, figures in zip(GUEST_PLAYS, ((1, 0), (1, 1), (1, 0)))}
    assert "Anonymous player" not in board


def play_with(**changes) -> dict:
    play = {"uuid": "11111111-2222-3333-4444-555555555555", "gameRefId": 1, "playDate": "2026-05-01 20:00:00",
            "playerScores": [{"playerRefId": 1, "score": "5"}, {"playerRefId": 2, "score": 1}]}
    return {**play, **changes}


def document(*plays, players=({"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}), **extra) -> str:
    games = [{"id": 1, "name": "Lost Cities", "bggId": 50}]
    return json.dumps({"games": games, "players": list(players), "plays": list(plays), **extra})


FIRST = "play 11111111-2222-3333-4444-555555555555"
#: hostile files: (the file, the refusal's code, what its one line says)
HOSTILE = {
    "score past 32 bits": (document(play_with(playerScores=[{"playerRefId": 1, "score": 2147483648}, {"playerRefId": 2, "score": 1}])),
                           "value-out-of-range", f"{FIRST}: playerScores.0.score: 2147483648 is outside"),
    "score past 64 bits": (document(play_with(playerScores=[{"playerRefId": 1, "score": "9" * 40}, {"playerRefId": 2, "score": "1"}])),
                           "value-out-of-range", f"{FIRST}: playerScores.0.score:"),
    "a sum past 32 bits": (document(play_with(playerScores=[{"playerRefId": 1, "score": "99999*99999"}, {"playerRefId": 2, "score": "1"}])),
                           "value-out-of-range", f"{FIRST}: playerScores.0.score: 9999800001 is outside"),
    "year 9999 plus its duration": (document(play_with(playDate="9999-12-31 23:59:59", durationMin=30)),
                                    "date-out-of-range", f"{FIRST}: playDate: dates must lie within the years 1900-2999"),
    "year 1": (document(play_with(playDate="0001-01-01 00:00:00")), "date-out-of-range", f"{FIRST}: playDate"),
    "a uuid of 2 MB": (document(play_with(uuid="A" * 2_000_000)), "string-too-long",
                       "play 1: game.score-only.ref: text is longer than 10000 characters"),
    "a place of 2 MB": (document(play_with(locationRefId=1), locations=[{"id": 1, "name": "L" * 2_000_000}]),
                        "string-too-long", f"{FIRST}: game.score-only.location"),
    "a lone surrogate": (document(play_with(), players=({"id": 1, "name": "Ana\ud800"}, {"id": 2, "name": "Bea"})),
                         "not-unicode", f"{FIRST}: game.created.players.0"),
    "nested 100,000 deep": ('{"plays":[' + "[" * 100_000 + "]" * 100_000 + "]}", "too-deeply-nested", "deeper than 32 levels"),
    "nested 40 deep in a player": (document(play_with(), players=({"id": 1, "name": "Ana", "x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]},
                                                                  {"id": 2, "name": "Bea"})),
                                   "too-deeply-nested", "deeper than 32 levels"),
}
NOT_TEXT = b'{"plays": [], "about": "\xff\xfe"}'


def test_a_file_that_is_not_text_is_refused_in_one_line(tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(NOT_TEXT)
    rc, out = run("import", "--format", "bgstats", path, "--db", str(tmp_path / "s.duckdb"))
    assert rc == 1 and out.startswith("bgstats-malformed: not a BG Stats export: the file is not JSON"), out
    assert len(out.strip().splitlines()) == 1


#: files that once ended in a traceback and are read now (a ref that is a list or an object names nothing)
ODD = {
    "gameRefId a list": (document(play_with(gameRefId=[1])), "its gameRefId names no game of the file"),
    "a lone surrogate in an ignored play's uuid": (document(play_with(uuid="X\ud800", ignored=True)),
                                                   "BG Stats marks it ignored"),
    "a lone surrogate in a name whose score is no number": (
        document(play_with(playerScores=[{"playerRefId": 1, "score": "abc"}, {"playerRefId": 2, "score": 1}]),
                 players=({"id": 1, "name": "Ana\ud800"}, {"id": 2, "name": "Bea"})),
        "Ana\\ud800's score 'abc' is not a whole number"),
    "playerRefId an object": (document(play_with(playerScores=[{"playerRefId": {"a": 1}, "score": "1"}, {"playerRefId": 2, "score": 1}])),
                              "seat 1's playerRefId {'a': 1} names no player of the file"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_refused_in_one_line_and_writes_nothing(tmp_path, name):
    text, code, says = HOSTILE[name]
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    db = str(tmp_path / "s.duckdb")
    rc, out = run("import", "--format", "bgstats", path, "--db", db)
    assert rc == 1 and len(out.strip().splitlines()) == 1 and "Traceback" not in out, out
    assert out.startswith(f"{code}: ") and says in out, out
    assert ok("verify", "--db", db) == ""  # a verdict on every game: there is none
    with layers(db) as lay:
        assert lay.log.game_ids() == []


@pytest.mark.parametrize("name", ODD)
def test_an_odd_reference_skips_its_play_without_a_traceback(tmp_path, name):
    text, says = ODD[name]
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    out = ok("import", "--format", "bgstats", path, "--db", str(tmp_path / "s.duckdb"))
    assert says in out


def test_over_http_an_odd_reference_is_reported_not_a_500(store_db):
    with TestClient(create_app(Settings(db_path=store_db))) as client:
        admin = {"Authorization": f"Bearer {client.app.state.services.admin_token_issued}"}
        for name, (text, says) in ODD.items():
            response = client.post("/import/bgstats", content=text.encode("utf-8", "surrogatepass"), headers=admin)
            assert response.status_code == 200, (name, response.text)
            assert says in response.json()["skipped"][0]["reason"], name


def test_over_http_a_hostile_file_is_a_422_and_the_store_is_unchanged(store_db):
    with TestClient(create_app(Settings(db_path=store_db))) as client:
        admin = {"Authorization": f"Bearer {client.app.state.services.admin_token_issued}"}
        for name, (text, code, says) in HOSTILE.items():
            response = client.post("/import/bgstats", content=text.encode("utf-8", "surrogatepass"), headers=admin)
            assert response.status_code == 422 and response.json()["code"] == code, (name, response.text)
            assert says in response.json()["message"], name
        assert client.post("/import/bgstats", content=NOT_TEXT, headers=admin).json()["code"] == "bgstats-malformed"
        assert client.get("/games").json()["games"] == []
        real = client.post("/import/bgstats", content=REAL.read_bytes(), headers=admin)
        assert real.status_code == 200 and (real.json()["imported"], real.json()["other_games"]) == (7, 4), real.text
        assert len(client.get("/games").json()["games"]) == 7
        assert client.post("/import/bgstats", content=REAL.read_bytes()).status_code == 401


def test_the_read_side_still_opens_after_a_refused_import(tmp_path):
    db = str(tmp_path / "s.duckdb")
    ok("import", "--format", "bgstats", REAL, "--db", db)
    path = tmp_path / "big.json"
    path.write_text(HOSTILE["score past 32 bits"][0])
    assert run("import", "--format", "bgstats", path, "--db", db)[0] == 1
    assert ok("games", "--db", db).startswith("7 of 7 games")
    assert ok("verify", "--db", db).count(": ok (3 events)") == 7
    assert len(get(db, "/games")["games"]) == 7


@pytest.mark.parametrize(("text", "value"), [
    ("2+7+8+9-20+2", 8), ("(12+8)*2-5", 35), ("-14", -14), (" 31 ", 31), ("3*(2+(4-1))", 15), ("12.0", 12), ("--3", 3),
])
def test_the_calculator_reads_the_apps_sums(text, value):
    assert calculate(text) == value


@pytest.mark.parametrize("text", ["2**3", "__import__('os')", "1e5", "2/3", "(1+2", "1+", "", "()", "1 2"])
def test_the_calculator_refuses_anything_else(text):
    with pytest.raises(ValueError):
        calculate(text)


def test_twenty_thousand_plays_import_in_under_a_minute(tmp_path):
    players = [{"id": n, "name": f"Player {n}", "isAnonymous": False} for n in range(1, 21)]
    plays = [
        {"uuid": str(uuid.UUID(int=n + 1)).upper(), "gameRefId": 1, "durationMin": 30,
         "playDate": f"20{10 + n % 15}-0{1 + n % 9}-1{n % 9} 20:{n % 60:02d}:00",
         "playerScores": [{"playerRefId": 1 + n % 20, "score": str(n % 150), "seatOrder": 0},
                          {"playerRefId": 1 + (n + 7) % 20, "score": f"{n % 90}+3", "seatOrder": 0}]}
        for n in range(20_000)
    ]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"games": [{"id": 1, "name": "Lost Cities", "bggId": 50}], "players": players, "plays": plays}))
    db = str(tmp_path / "big.duckdb")
    began = time.perf_counter()
    out = ok("import", "--format", "bgstats", path, "--db", db)
    took = time.perf_counter() - began
    assert out == "imported 20000 plays as score-only games (no moves); 0 already imported; 0 skipped\n"  # no bar in a pipe
    assert took < 60, took
    with layers(db) as lay:
        assert len(lay.log.game_ids()) == 20_000
