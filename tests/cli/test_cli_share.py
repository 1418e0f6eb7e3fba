"""``tabletape share`` and ``tabletape check-slip`` on a DuckDB file, as a user at a terminal sees
them: a link made and withdrawn, a slip that matches, one that does not (exit 1), and text that is
no slip refused in one line."""

from __future__ import annotations

import duckdb
import pytest
from typer.testing import CliRunner

import tampering
from api.cli.main import app

runner = CliRunner()
NO_LOCALE = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}


def run(*args):
    result = runner.invoke(app, [str(a) for a in args], env=NO_LOCALE)
    assert "Traceback" not in result.output, result.output
    return result


@pytest.fixture
def ended(tmp_path):
    """A DuckDB file with one finished Lost Cities game, and that game's slip."""
    import rules  # noqa: F401
    from events.duckdb_log import DuckDBEventLog
    from projections.projector import Projector
    from replay.simulate import random_game
    from replay.slip import make

    db = str(tmp_path / "t.duckdb")
    log = DuckDBEventLog(db)
    log.import_games([("g1", random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=2))])
    slip = make(log, Projector(log), "g1").text
    log.close()
    return db, slip


def test_a_slip_that_matches_says_so_part_by_part(ended, tmp_path):
    db, slip = ended
    said = run("check-slip", slip, "--db", db)
    assert said.exit_code == 0, said.output
    lines = said.output.splitlines()
    assert lines[0] == "This slip matches the stored, verified log."
    assert len(lines) == 6 and all(line.startswith("  ✓ ") for line in lines[1:])
    file = tmp_path / "slip.txt"
    file.write_text(slip + "\n")
    assert run("check-slip", file, "--db", db).exit_code == 0
    ja = run("--lang", "ja", "check-slip", slip, "--db", db)
    assert ja.output.splitlines()[0] == "この結果票は、保存され検証された記録と一致します。"


def test_a_changed_slip_does_not_match_and_exits_1(ended):
    db, slip = ended
    head, _, seal = slip.rpartition(":")
    said = run("check-slip", f"{head}:{'B' * 22}", "--db", db)
    assert said.exit_code == 1
    assert said.output.splitlines()[0] == "This slip does not match: the seal."
    assert "  ✗ the seal is not this store's" in said.output


def test_a_tampered_log_is_not_verified(ended):
    db, slip = ended
    con = duckdb.connect(db)
    tampering.KINDS["hash"][0](con, "g1")
    con.close()
    said = run("check-slip", slip, "--db", db, "--json")
    assert said.exit_code == 1
    assert '"verified": false' in said.output


@pytest.mark.parametrize("text", ["hello", "TT1:g1:1", "x" * 10_000])
def test_text_that_is_no_slip_is_refused_in_one_line(ended, text):
    db, _ = ended
    said = run("check-slip", text, "--db", db)
    assert said.exit_code == 1
    assert said.output.strip().count("\n") == 0 and "bad-slip" in said.output


def test_a_huge_file_is_refused_in_one_line(ended, tmp_path):
    db, _ = ended
    big = tmp_path / "big.txt"
    big.write_bytes(b"T" * 100_000)
    said = run("check-slip", big, "--db", db)
    assert said.exit_code == 1 and said.output.strip().count("\n") == 0 and "64 KiB" not in said.output


def test_a_link_is_made_and_withdrawn(ended):
    db, _ = ended
    made = run("share", "g1", "--at", 3, "--db", db)
    assert made.exit_code == 0, made.output
    lines = made.output.splitlines()
    assert lines[0].startswith("Share link (read-only, no token needed): /?share=")
    token = lines[-1].rsplit(": ", 1)[1]
    assert f"/embed/{token}" in lines[1] and f"/shared/{token}/picture?format=png" in lines[2]
    gone = run("share", "g1", "--withdraw", token, "--db", db)
    assert gone.exit_code == 0 and gone.output.strip() == "Share links withdrawn: 1"
    again = run("share", "g1", "--withdraw", "nonsense", "--db", db)
    assert again.exit_code == 1 and "unknown-share" in again.output and again.output.strip().count("\n") == 0
    unknown = run("share", "nope", "--db", db)
    assert unknown.exit_code == 1 and "unknown-game" in unknown.output
