"""``tabletape stats`` and ``tabletape pack`` in the reader's language (``--lang``): help, table
headings, character names as printed, messages, refusals."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli.main import app

runner = CliRunner()
NO_LOCALE = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}


def run(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, [str(a) for a in args], env={**NO_LOCALE, **(env or {})})


def test_stats_speaks_japanese_and_spanish_with_the_characters_full_names(db_path):
    ja = run("--lang", "ja", "stats", "characters", "--db", db_path)
    assert ja.exit_code == 0, ja.output
    assert "キャラクター" in ja.output and "勝率" in ja.output and "win rate" not in ja.output
    # the Voyages of Marco Polo has no Japanese edition among our seeds: the names as printed
    names = {"Raschid ad-Din Sinan", "Matteo Polo", "Berke Khan", "Mercator ex Tabriz", "Kubilai Khan",
             "Niccolo & Marco Polo", "Wilhelm von Rubruk", "Johannes Carpini"}
    assert any(name in ja.output for name in names) and "mercator " not in ja.output
    es = run("--lang", "es", "stats", "leaderboard", "--title", "lost-cities", "--db", db_path)
    assert es.exit_code == 0 and "% victorias" in es.output and "jugador" in es.output
    rebuilt = run("stats", "rebuild", "--db", db_path, env={"LANG": "es_ES.UTF-8"})
    assert rebuilt.exit_code == 0 and "rehechos los modelos de lectura de" in rebuilt.output
    refused = run("--lang", "ja", "stats", "leaderboard", "-o", "rounds", "--db", db_path)
    assert refused.exit_code == 1 and "--option は key=value の形です（'rounds' ではなく）" in refused.output
    # JSON stays data: the ids, as the API answers
    rows = json.loads(run("--lang", "ja", "stats", "characters", "--json", "--db", db_path).output)
    assert {r["character"] for r in rows} <= {"raschid", "matteo", "berke", "mercator", "kubilai", "niccolo", "wilhelm", "carpini", None}


def test_the_help_of_stats_and_pack_is_in_the_chosen_language(db_path):
    ja = run("--lang", "ja", "stats", "--help")
    assert ja.exit_code == 0 and "対戦の記録に質問します" in ja.output and "表の代わりに JSON を出力する" in ja.output
    es = run("pack", "derive", "--help", env={"LANG": "es_ES.UTF-8"})
    assert es.exit_code == 0 and "Una nueva versión de un paquete" in es.output and "el nombre de la nueva versión" in es.output
    en = run("stats", "--help")
    assert "Ask the play history a question" in en.output


def test_pack_commands_print_and_refuse_in_the_chosen_language(db_path, tmp_path):
    listed = run("--lang", "ja", "pack", "list", "--db", db_path)
    assert listed.exit_code == 0, listed.output
    assert "marco-polo-2 のパック" in listed.output and "ハッシュ" in listed.output and "部品" in listed.output and "組み込み" in listed.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    es = run("--lang", "es", "pack", "upload", bad, "--db", db_path)
    assert es.exit_code == 1 and f"{bad}: no es JSON" in es.output
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"id": "ours"}), encoding="utf-8")
    ja = run("--lang", "ja", "pack", "upload", wrong, "--db", db_path)
    assert ja.exit_code == 1 and "marco-polo-2.bad-content-pack: コンテンツパックが正しくありません: pack.rounds: 項目がありません" in ja.output.replace("\n", "")
