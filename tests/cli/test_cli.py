"""The command line, driven as a user would (typer's runner, stdin for the interactive recorder),
on a real DuckDB file."""

from __future__ import annotations

import json
import os
import re

import duckdb
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.http.app import create_app
from api.cli.main import app, layers
from api.formats.jsonl import event_line
from api.http.settings import Settings
from events.lifecycle import GameEnded
from events.log import new_game_id
import tampering

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "t.duckdb")


def new(db: str, *players: str, options: tuple[str, ...] = ("rounds=1",), seed: int | None = None) -> tuple[str, str]:
    args = ["new", "lost-cities", *(players or ("Ana", "Bea")), "--db", db]
    for option in options:
        args += ["--option", option]
    if seed is not None:
        args += ["--seed", str(seed)]
    result = run(*args)
    assert result.exit_code == 0, result.output
    game_id = re.search(r"game (\w+)", result.output).group(1)
    write = re.search(r"write token: (\S+)", result.output).group(1)
    return game_id, write


def bodies(db: str, game_id: str) -> list:
    with layers(db) as lay:
        return [e.body for e in lay.projector.history(game_id).entries()]


def test_new_prints_the_id_and_tokens_that_open_the_game_over_http(db):
    game_id, write = new(db)
    result = run("games", "--db", db)
    assert game_id in result.output and "Ana, Bea" in result.output
    with TestClient(create_app(Settings(db_path=db))) as client:
        response = client.post(
            f"/games/{game_id}/moves",
            headers={"Authorization": f"Bearer {write}"},
            json={"notation": "deal", "expected_seq": 1},
        )
        assert response.status_code == 201


def test_new_refuses_what_the_title_refuses(db):
    result = run("new", "lost-cities", "Ana", "--db", db)
    assert result.exit_code == 1 and "lost-cities.player-count" in result.output
    assert run("new", "lost-cities", "Ana", "Bea", "--option", "rounds", "--db", db).exit_code == 1


def test_record_at_the_table_with_a_typo_an_undo_and_a_redo(db):
    game_id, _ = new(db)
    script = "deal\nR7\nzz\nundo\nredo\nd\nundo 2\nB5\nquit\n"  # undo 2: the draw and R7
    result = run("record", game_id, "--db", db, input=script)
    assert result.exit_code == 0, result.output
    assert "lost-cities.bad-notation" in result.output and "Nothing was recorded" in result.output
    assert "to play or discard" in result.output and "moves:" in result.output
    kinds = [type(b).__name__ for b in bodies(db, game_id)]
    assert kinds == ["GameCreated", "CardsDealt", "CardPlayed"]  # R7 and its draw undone: B5 instead
    assert bodies(db, game_id)[2].card == "B5"


def test_undo_n_takes_back_n_moves_and_undo_to_returns_to_a_seq(db):
    game_id, _ = new(db)

    def effective() -> list[str]:
        with layers(db) as lay:
            return [type(e.body).__name__ for e in lay.projector.history(game_id).entries()]

    result = run("record", game_id, "--db", db, input="deal\nR7\nd\nB5\nd\nY3\nd\nundo 2\nquit\n")
    assert result.exit_code == 0, result.output
    # Y3 and its draw are taken back, nothing more (not "back to seq 2")
    assert effective() == ["GameCreated", "CardsDealt", "CardPlayed", "CardDrawn", "CardPlayed", "CardDrawn"]
    result = run("record", game_id, "--db", db, input="undo 9\nundo --to 3\nquit\n")
    assert "undo-out-of-range" in result.output and "only 5 move(s)" in result.output
    assert effective() == ["GameCreated", "CardsDealt", "CardPlayed"]


def test_record_survives_bad_commands_and_the_end_of_input(db):
    game_id, _ = new(db)
    result = run("record", game_id, "--db", db, input="undo\nundo x\nundo --to 99\nredo\nhelp\n")
    assert result.exit_code == 0, result.output
    assert "nothing-to-undo" in result.output
    assert "undo takes how many moves" in result.output
    assert "undo-out-of-range" in result.output
    assert "nothing-to-redo" in result.output
    assert "undo N" in result.output
    assert bodies(db, game_id)[1:] == []


def test_record_a_digital_game_lists_the_legal_moves(db):
    game_id, _ = new(db, seed=3)
    with layers(db) as lay:
        game = lay.projector.state(game_id)
        first = game.title.format_move(game.title.legal_moves(game.state)[0])
    result = run("record", game_id, "--db", db, input=f"{first}\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"moves: {first}" in result.output
    assert len(bodies(db, game_id)) == 2  # created and shuffled; the move was taken back


def test_record_an_unknown_game_is_a_clear_error(db):
    result = run("record", "nope", "--db", db, input="quit\n")
    assert result.exit_code == 1 and "unknown-game" in result.output


def test_replay_prints_the_table_at_any_seq(db):
    game_id, _ = new(db)
    run("record", game_id, "--db", db, input="deal\nR7\nd\nquit\n")
    def red_row(output: str) -> list[str]:
        return next(line.split() for line in output.splitlines() if line.startswith("red"))

    now = run("replay", game_id, "--db", db)
    assert now.exit_code == 0 and red_row(now.output)[1] == "R7" and "after seq 4" in now.output
    before = run("replay", game_id, "--at", "2", "--db", db)
    assert "R7" not in red_row(before.output) and "to play or discard" in before.output
    seat = run("replay", game_id, "--seat", "0", "--db", db)
    assert "Hand of Ana" in seat.output
    assert run("replay", game_id, "--at", "9", "--db", db).exit_code == 1


def test_log_lists_every_event_and_marks_what_no_longer_counts(db):
    game_id, _ = new(db)
    run("record", game_id, "--db", db, input="deal\nR7\nundo\nB7\nquit\n")
    result = run("log", game_id, "--db", db)
    assert result.exit_code == 0, result.output
    rows = {int(line.split("│")[1]): line for line in result.output.splitlines() if re.match(r"│\s*\d+\s*│", line)}
    assert "undone" in rows[3] and "R7" in rows[3]
    assert "undo to 2" in rows[4] and "B7" in rows[5]


def finish(lay, game_id: str) -> None:
    """Play on to the end: always the first legal move (in Lost Cities a draw ends a round soonest)."""
    while (state := lay.projector.state(game_id)).ended is None:
        lay.recorder.record(game_id, state.title.legal_moves(state.state)[0])


def test_export_then_import_into_another_database(db, tmp_path):
    game_id, _ = new(db, seed=5)
    in_progress, _ = new(db, seed=6)
    run("record", game_id, "--db", db, input="undo\nquit\n")
    with layers(db) as lay:
        for _ in range(6):
            state = lay.projector.state(game_id)
            lay.recorder.record(game_id, state.title.legal_moves(state.state)[0])
        lay.recorder.undo(game_id, 4)
        finish(lay, game_id)
        original = [e.body for e in lay.log.read(game_id)]
        game = lay.projector.state(game_id)
    out = tmp_path / "games.jsonl"
    exported = run("export", "--out", str(out), "--db", db)
    assert exported.exit_code == 0, exported.output
    assert "left out 1 games in progress" in exported.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["seq"] for line in lines] == list(range(1, len(original) + 1))
    assert {"recorded_at", "actor", "hash", "prev_hash", "body", "type"} <= set(lines[0])
    other = str(tmp_path / "other.duckdb")
    imported = run("import", str(out), "--db", other)
    assert imported.exit_code == 0, imported.output
    assert "hash chains verified" in imported.output
    with layers(other) as lay:
        assert [e.body for e in lay.log.read(game_id)] == original
        assert lay.projector.state(game_id).state == game.state
    assert game_id in run("games", "--db", other).output
    assert run("verify", game_id, "--db", other).exit_code == 0
    again = run("import", str(out), "--db", other)
    assert again.exit_code == 1 and "game-exists" in again.output


def test_export_to_standard_output(db):
    game_id, _ = new(db, seed=3)
    with layers(db) as lay:
        finish(lay, game_id)
    result = run("export", game_id, "--db", db)
    assert result.exit_code == 0
    assert json.loads(result.output.splitlines()[0])["body"]["type"] == "game.created"


def test_import_refuses_a_game_the_rules_refuse_and_writes_nothing(db, tmp_path):
    game_id, _ = new(db)
    run("record", game_id, "--db", db, input="deal\nR7\nd\nR5\nquit\n")
    with layers(db) as lay:  # in progress, so not exported: its lines as an export writes them
        lines = [json.dumps(event_line(e)) for e in lay.log.read(game_id)]
    other = str(tmp_path / "other.duckdb")
    broken = [json.loads(line) for line in lines]
    broken[4]["body"]["card"] = "R4"  # Bea's R5 becomes R4: still legal for her side
    broken[2]["body"]["card"] = "R9"  # Ana's R7 becomes R9
    broken[3]["body"] = {"type": "lost-cities.card-drawn", "source": "red"}  # a draw from an empty pile
    (tmp_path / "bad.jsonl").write_text("\n".join(json.dumps(b) for b in broken) + "\n")
    result = run("import", str(tmp_path / "bad.jsonl"), "--db", other)
    assert result.exit_code == 1 and "seq 4" in result.output, result.output
    gap = "\n".join(lines[:2] + lines[3:]) + "\n"
    (tmp_path / "gap.jsonl").write_text(gap)
    result = run("import", str(tmp_path / "gap.jsonl"), "--db", other)
    assert result.exit_code == 1 and "jumps to seq 4" in result.output
    (tmp_path / "junk.jsonl").write_text("not json\n")
    assert run("import", str(tmp_path / "junk.jsonl"), "--db", other).exit_code == 1
    with layers(other) as lay:
        assert lay.log.game_ids() == []


def test_verify_names_the_first_altered_event(db):
    game_id, _ = new(db)
    run("record", game_id, "--db", db, input="deal\nR7\nquit\n")
    assert run("verify", "--db", db).exit_code == 0
    with layers(db) as lay:
        lay.log.con.execute("UPDATE events SET actor = 'mallory' WHERE game_id = ? AND seq = 2", [game_id])
    result = run("verify", "--db", db)
    assert result.exit_code == 1 and "ALTERED at seq 2" in result.output


def test_tokens_issues_new_tokens_and_retires_the_old_ones(db):
    game_id, old = new(db)
    result = run("tokens", game_id, "--db", db)
    assert result.exit_code == 0
    fresh = re.search(r"write token: (\S+)", result.output).group(1)
    with layers(db) as lay:
        assert lay.tokens.check_write(game_id, fresh) and not lay.tokens.check_write(game_id, old)


def five_events(db: str) -> tuple[str, int]:
    game_id, _ = new(db, seed=4)
    with layers(db) as lay:
        for n in range(3):
            state = lay.projector.state(game_id)
            lay.recorder.record(game_id, state.title.legal_moves(state.state)[0], idempotency_key=f"tap-{n}")
        return game_id, lay.log.last_seq(game_id)


@pytest.mark.parametrize("kind", list(tampering.KINDS))
def test_verify_names_the_seq_of_every_kind_of_edit(db, kind):
    edit, where = tampering.KINDS[kind]
    game_id, last = five_events(db)
    untouched, _ = five_events(db)
    con = duckdb.connect(db)
    edit(con, game_id)
    con.close()
    result = run("verify", "--db", db)
    assert result.exit_code == 1
    assert f"{game_id}: ALTERED at seq {where(last)}: " in result.output
    assert f"{untouched}: ok" in result.output


def play_to_the_end(lay, game_id: str) -> None:
    while (state := lay.projector.state(game_id)).ended is None:
        lay.recorder.record(game_id, state.title.legal_moves(state.state)[0])


def ended_as_other_rules_had_it(db: str) -> tuple[str, str]:
    """An ended game, and a copy of it whose end was recorded with other scores (as rules of
    another day would have computed them)."""
    game_id, _ = new(db, seed=9)
    with layers(db) as lay:
        play_to_the_end(lay, game_id)
        bodies = [e.body for e in lay.log.read(game_id)]
        end = next(i for i, body in enumerate(bodies) if isinstance(body, GameEnded))
        recorded = bodies[end]
        other_day = GameEnded(scores=tuple(s + 5 for s in recorded.scores), ranks=recorded.ranks, winners=recorded.winners)
        copy = new_game_id()
        lay.log.append(copy, [*bodies[:end], other_day, *bodies[end + 1 :]], expected_seq=0)
    return game_id, copy


def test_verify_rules_names_each_ended_game_whose_result_today_differs_and_rewrites_nothing(db):
    agrees, differs = ended_as_other_rules_had_it(db)
    in_progress, _ = new(db)
    before = duckdb.connect(db)
    rows = before.execute("SELECT game_id, seq, hash FROM events ORDER BY ALL").fetchall()
    before.close()
    assert run("verify", "--db", db).exit_code == 0  # the chains are intact
    result = run("verify", "--rules", "--db", db)
    assert result.exit_code == 1, result.output
    assert f"{differs}: RESULT DIFFERS under today's rules: today's rules compute scores" in result.output
    assert f"{agrees}: ok" in result.output and f"{in_progress}: ok" in result.output
    assert run("verify", agrees, "--rules", "--db", db).exit_code == 0
    after = duckdb.connect(db)
    assert after.execute("SELECT game_id, seq, hash FROM events ORDER BY ALL").fetchall() == rows
    after.close()
    with TestClient(create_app(Settings(db_path=db))) as client:
        flagged = client.get(f"/games/{differs}").json()["result_differs"]
        assert "today's rules compute scores" in flagged["message"]
        assert flagged["today"]["scores"] == client.get(f"/games/{agrees}").json()["outcome"]["scores"]
        assert client.get(f"/games/{agrees}").json()["result_differs"] is None
        assert client.get(f"/games/{in_progress}").json()["result_differs"] is None


def test_verify_without_the_secret_file_says_which_file_is_missing(db):
    new(db)
    os.remove(db + ".key")
    result = run("verify", "--db", db)
    assert result.exit_code == 1 and "chain-secret-missing" in result.output and "t.duckdb.key" in result.output
