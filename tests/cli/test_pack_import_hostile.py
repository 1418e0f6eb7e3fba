"""An import file that carries a pack under the id of a pack shipped with the title: refused,
and the store's games that name the shipped pack by id alone (as the golden games do) still fold."""

from __future__ import annotations

import copy
import json

from typer.testing import CliRunner

from api.cli.main import app, layers
from projections.packs import pack_hash
from rules.marco_polo_2.content import SYNTHETIC

runner = CliRunner()


def test_a_pack_under_a_shipped_id_is_refused_and_games_by_that_id_still_fold(tmp_path):
    db = str(tmp_path / "a.duckdb")
    with layers(db) as lay:
        game_id, _ = lay.recorder.create("marco-polo-2", ["Ana", "Bea"], {"content": {"id": SYNTHETIC.id}}, seed=1)
    other = copy.deepcopy(SYNTHETIC.data)
    other["rounds"] = 3
    line = {"type": "tabletape.pack", "title": "marco-polo-2", "id": other["id"], "hash": pack_hash(other), "pack": other}
    (tmp_path / "evil.jsonl").write_text(json.dumps(line) + "\n")
    refused = runner.invoke(app, ["import", str(tmp_path / "evil.jsonl"), "--db", db])
    assert refused.exit_code == 1 and "pack-id-taken" in refused.output, refused.output
    with layers(db) as lay:
        assert [e.source for e in lay.packs.entries("marco-polo-2") if e.id == SYNTHETIC.id] == ["builtin"]
        assert lay.packs.games_pinned("marco-polo-2") == {SYNTHETIC.hash: 1}
        assert lay.projector.state(game_id).state.pack == SYNTHETIC.hash


def test_a_game_by_a_shipped_id_keeps_the_shipped_pack_when_the_process_knows_another(tmp_path):
    """Another store's pack with the same id, loaded in the same process, changes nothing."""
    from rules.marco_polo_2.content import load, register

    other = copy.deepcopy(SYNTHETIC.data)
    other["rounds"] = 2
    register(load(other))
    with layers(str(tmp_path / "b.duckdb")) as lay:
        game_id, _ = lay.recorder.create("marco-polo-2", ["Ana", "Bea"], {"content": {"id": SYNTHETIC.id}}, seed=1)
        assert lay.projector.state(game_id).state.pack == SYNTHETIC.hash


def test_a_broken_pack_table_in_a_parquet_export_is_refused_in_words(tmp_path):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_pack_cli import _game_on_a_grown_pack

    db = str(tmp_path / "a.duckdb")
    _game_on_a_grown_pack(db)
    folder = tmp_path / "parquet"
    assert runner.invoke(app, ["export", "--format", "parquet", "--out", str(folder), "--db", db]).exit_code == 0
    for broken in (b"", b"PAR1 not a parquet file"):
        (folder / "packs" / "packs.parquet").write_bytes(broken)
        refused = runner.invoke(app, ["import", str(folder), "--db", str(tmp_path / "b.duckdb")])
        assert refused.exit_code == 1 and isinstance(refused.exception, SystemExit), refused.exception
        assert "import-refused" in refused.output and "not a pack table" in refused.output, refused.output
    with layers(str(tmp_path / "b.duckdb")) as lay:
        assert lay.log.game_ids() == []


def test_admin_token_refuses_a_mistyped_store_and_a_store_in_use(tmp_path):
    import live_server

    missing = tmp_path / "typo" / "store.duckdb"
    refused = runner.invoke(app, ["admin-token", "--db", str(missing)])
    assert refused.exit_code == 1 and "no store at" in refused.output and "admin token:" not in refused.output
    assert not missing.exists()
    db = tmp_path / "served.duckdb"
    base, proc = live_server.start(db, output=tmp_path / "out.txt")
    try:
        busy = runner.invoke(app, ["admin-token", "--db", str(db)])
        assert busy.exit_code == 1 and "stop the service" in busy.output and base in busy.output, busy.output
        assert "admin token:" not in busy.output and "Traceback" not in busy.output
        listed = runner.invoke(app, ["pack", "list", "--db", str(db)])  # a read goes through the service
        assert listed.exit_code == 0 and "packs of marco-polo-2" in listed.output, listed.output
    finally:
        live_server.stop(proc)


def test_pack_files_that_cannot_be_read_are_refused_in_words(tmp_path):
    db = str(tmp_path / "a.duckdb")
    (tmp_path / "latin1.json").write_bytes(b"{\"id\": \"\xe9\"}")
    (tmp_path / "changes.json").write_text('{"add": 5}')
    cases = [
        (["pack", "upload", str(tmp_path / "missing.json")], "cannot be read"),
        (["pack", "upload", str(tmp_path)], "cannot be read"),
        (["pack", "upload", str(tmp_path / "latin1.json")], "cannot be read"),
        (["pack", "derive", SYNTHETIC.id, "--changes", str(tmp_path / "missing.json")], "cannot be read"),
        (["pack", "derive", SYNTHETIC.id, "--changes", str(tmp_path / "latin1.json")], "cannot be read"),
        (["pack", "derive", SYNTHETIC.id, "--changes", str(tmp_path / "changes.json")], "each a list"),
        (["pack", "download", SYNTHETIC.id, "--out", str(tmp_path / "no" / "dir" / "x.json")], "cannot be written"),
    ]
    for args, words in cases:
        result = runner.invoke(app, [*args, "--db", db])
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), (args, result.exception)
        assert words in result.output, (args, result.output)


def test_a_pack_file_nested_too_deep_is_refused_in_words(tmp_path):
    db = str(tmp_path / "a.duckdb")
    text = json.dumps({**copy.deepcopy(SYNTHETIC.data), "id": "deep", "layout": "LAYOUT"})
    for depth, words in ((50, "pack.layout nests deeper than 32 levels"), (100_000, "not JSON")):
        path = tmp_path / f"deep-{depth}.json"
        path.write_text(text.replace('"LAYOUT"', "[" * depth + "]" * depth))
        result = runner.invoke(app, ["pack", "upload", str(path), "--db", db])
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), (depth, result.exception)
        assert words in result.output, (depth, result.output)
    listed = runner.invoke(app, ["pack", "list", "--db", db])
    assert "deep" not in listed.output, listed.output
