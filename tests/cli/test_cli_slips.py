"""The command line's slips of issue 27 item 5, as a user at a terminal sees them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from api.cli.main import app

runner = CliRunner()
NO_LOCALE = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
#: a process other than ``tabletape serve`` that holds a DuckDB file until its stdin closes
HOLDER = "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('held', flush=True); sys.stdin.read()"


def run(*args: str, input: str | None = None):
    result = runner.invoke(app, [str(a) for a in args], env=NO_LOCALE, input=input)
    assert "Traceback" not in result.output, result.output
    return result


def played(db: str, seeds) -> None:
    """Finished one-round random games of Lost Cities between Ana and Bea, one per seed."""
    import rules  # noqa: F401  (registers every title's events)
    from events.duckdb_log import DuckDBEventLog
    from events.log import new_game_id
    from replay.simulate import random_game

    log = DuckDBEventLog(db)
    for seed in seeds:
        log.import_games([(new_game_id(), random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=seed))])
    log.close()


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "t.duckdb")


def test_a_file_held_by_any_process_names_record_sessions_too(db):
    run("games", "--db", db)  # the file exists
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, db], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        said = {lang: run("--lang", lang, "games", "--db", db) for lang in ("en", "es", "ja")}
    finally:
        holder.communicate("")
    assert {r.exit_code for r in said.values()} == {1}
    assert all(r.output.startswith("store-busy") and r.output.count("\n") == 1 for r in said.values())
    assert "`tabletape serve`, a `tabletape record` session, or any program" in said["en"].output
    assert "una sesión de `tabletape record` o cualquier programa" in said["es"].output
    assert "`tabletape record` のセッション" in said["ja"].output


def test_stats_rebuild_beside_the_service_names_itself(tmp_path):
    import live_server

    db = tmp_path / "served.duckdb"
    base, proc = live_server.start(db, output=tmp_path / "server.txt")
    try:
        result = run("stats", "rebuild", "--db", db)
    finally:
        live_server.stop(proc)
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert result.output.startswith("`tabletape stats rebuild` cannot go through the service at "), result.output


@pytest.mark.parametrize("lang, games, leaderboard", [
    ("en", "no games yet", "leaderboard: nothing yet (no game matches)"),
    ("es", "todavía no hay partidas", "leaderboard: nada todavía (ninguna partida coincide)"),
    ("ja", "まだゲームはありません", "leaderboard: まだありません（条件に合うゲームがありません）"),
])
def test_an_empty_answer_says_so_in_one_line(db, lang, games, leaderboard):
    listed = run("--lang", lang, "games", "--db", db)
    assert listed.exit_code == 0 and listed.output == games + "\n"
    asked = run("--lang", lang, "stats", "leaderboard", "--db", db)
    assert asked.exit_code == 0 and asked.output == leaderboard + "\n"
    none_of_a_title = run("--lang", lang, "stats", "wagers", "--db", db)
    assert none_of_a_title.exit_code == 0 and none_of_a_title.output.count("\n") == 1, none_of_a_title.output


def test_a_share_of_nothing_is_never_printed_as_minus_zero(db):
    played(db, range(6))  # no bonus in these games, and negative totals: the bonus's share is -0.0
    result = run("stats", "sources", "--title", "lost-cities", "--db", db)
    assert result.exit_code == 0 and "bonus" in result.output
    assert "-0.0%" not in result.output and "-0.00" not in result.output and "0.0%" in result.output, result.output


@pytest.mark.parametrize("lang, title, headings, ended", [
    ("es", "1 de 1 partidas", ("partida", "juego", "jugadores", "estado", "creada (UTC)", "bifurcada de"), "terminada"),
    ("ja", "1 ゲーム中 1", ("ゲーム", "タイトル", "プレイヤー", "状態", "作成日時 (UTC)", "分岐元"), "終了"),
])
def test_games_shows_its_headings_in_the_chosen_language(db, lang, title, headings, ended):
    played(db, [1])
    lines = run("--lang", lang, "games", "--db", db).output.splitlines()
    assert lines[0] == title
    assert [cell.strip() for cell in lines[2].strip("┃").split("┃")] == list(headings)
    assert ended in lines[4] and "ended" not in lines[4] and "games" not in "\n".join(lines)


def test_an_english_refusal_gives_the_rulebook_its_own_line(db):
    game_id = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", db).output.split()[1]
    lines = run("record", game_id, "--db", db, input="R7\nquit\n").output.splitlines()
    at = next(i for i, line in enumerate(lines) if "lost-cities." in line)
    assert lines[at].endswith("record the shuffle or the deal first"), lines[at]
    assert '"' not in lines[at] and "Revuelva" not in lines[at]
    assert lines[at + 1] == 'the rulebook (es): "Revuelva las cartas y reparta 8 a cada jugador. Coloque las cartas restantes, boca abajo"'
