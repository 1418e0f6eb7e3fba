"""The command line in the reader's language: ``--lang`` or the locale (LC_ALL, LC_MESSAGES,
LANG) for its own messages and for the refusals it shows."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from api.cli.main import app
from api.i18n import locale_lang

runner = CliRunner()
NO_LOCALE = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}


def run(*args: str, env: dict[str, str] | None = None, input: str | None = None):
    return runner.invoke(app, [str(a) for a in args], env={**NO_LOCALE, **(env or {})}, input=input)


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "t.duckdb")


def test_a_refusal_is_shown_in_the_language_of_lang(db):
    said = {lang: run("--lang", lang, "new", "lost-cities", "Ana", "--db", db) for lang in ("en", "es", "ja")}
    assert {r.exit_code for r in said.values()} == {1}
    assert "lost-cities.player-count: Lost Cities is played by 2 players, or 4 in partnerships (parejas); got 1" in said["en"].output
    assert "lost-cities.player-count: Lost Cities se juega entre 2 jugadores, o 4 por parejas; hay 1" in said["es"].output
    assert "lost-cities.player-count: ロストシティは2人、またはペア戦で4人で遊びます。1 人ではありません" in said["ja"].output


def test_the_locale_chooses_when_lang_is_not_given_and_lang_wins(db):
    spanish = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", db, env={"LANG": "es_ES.UTF-8"})
    assert spanish.exit_code == 0 and spanish.output.startswith("partida ") and "token de escritura: " in spanish.output
    japanese = run("new", "lost-cities", "Ana", "--db", db, env={"LC_ALL": "ja_JP.UTF-8", "LANG": "es_ES.UTF-8"})
    assert "ペア戦" in japanese.output
    english = run("--lang", "en", "new", "lost-cities", "Ana", "--db", db, env={"LC_ALL": "ja_JP.UTF-8"})
    assert "got 1" in english.output


def test_the_interactive_recorder_refuses_in_the_chosen_language(db):
    created = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", db)
    game_id = created.output.split()[1]
    result = run("--lang", "es", "record", game_id, "--db", db, input="Q9\nquit\n")
    assert "No se registró nada; inténtalo de nuevo" in result.output


def test_an_unknown_lang_is_refused_by_name(db):
    result = run("--lang", "de", "games", "--db", db)
    assert result.exit_code == 1 and "--lang is one of en, es, ja, not 'de'" in result.output


def test_the_locale_names_the_language():
    assert locale_lang({"LC_ALL": "", "LC_MESSAGES": "ja_JP.UTF-8", "LANG": "es_ES"}) == "ja"
    assert locale_lang({"LANG": "es_MX.UTF-8"}) == "es"
    assert locale_lang({"LANG": "C.UTF-8"}) == "en"
    assert locale_lang({"LANG": "de_DE"}) == "en"
    assert locale_lang({}) == "en"


def test_the_status_line_of_replay_is_in_the_chosen_language(db):
    created = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", db)
    game_id = created.output.split()[1]
    said = {lang: run("--lang", lang, "replay", game_id, "--db", db).output for lang in ("en", "es", "ja")}
    assert "waiting for the shuffle or the deal; Ana starts" in said["en"]
    assert "se espera que se revuelvan o se repartan las cartas; empieza Ana" in said["es"]
    assert "シャッフルか配札を待っています。Anaから始めます" in said["ja"]


def test_the_cli_s_own_complaints_are_in_the_language_of_lang(db):
    """Before: these were English f-strings whatever --lang said."""
    option = run("--lang", "ja", "new", "lost-cities", "Ana", "Bea", "--option", "foo", "--db", db)
    assert option.exit_code == 1 and "--option は key=value の形です（'foo' ではありません）" in option.output
    export = run("--lang", "ja", "export", "--format", "xml", "--db", db)
    assert export.exit_code == 1 and "--format は jsonl、parquet、bgstats のいずれかです（'xml' ではありません）" in export.output
    english = run("--lang", "en", "export", "--format", "xml", "--db", db)
    assert "--format is jsonl, parquet or bgstats, not 'xml'" in english.output


def test_a_replayed_view_is_labelled_in_the_language_of_lang(db):
    made = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", db)
    game_id = made.output.split()[1]
    outside = run("--lang", "ja", "replay", game_id, "--at", "99", "--db", db)
    assert outside.exit_code == 1 and "--at 99 は記録の範囲外です（0..1）" in outside.output, outside.output
    shown = run("--lang", "ja", "replay", game_id, "--db", db)
    assert shown.exit_code == 0 and f"{game_id} seq 1 の後（公開の表示）" in shown.output, shown.output
