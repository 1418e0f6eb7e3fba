"""``tabletape pack ...``, ``tabletape admin-token`` and pinning by ``tabletape new``, on a real
DuckDB file, as a user types them."""

from __future__ import annotations

import copy
import json

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.http.app import create_app
from api.cli.main import app, layers
from api.http.settings import Settings
from mp2play import SETUP
from rules.marco_polo_2.content import PUBLIC, SYNTHETIC

runner = CliRunner()
KAS = 'node:KAS={"kind": "city", "shield": "bow"}'


def run(*args: str, input: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def test_list_show_derive_diff_download_and_upload(tmp_path):
    db = str(tmp_path / "t.duckdb")
    listed = run("pack", "list", "--db", db)
    assert listed.exit_code == 0 and PUBLIC.id in listed.output and SYNTHETIC.id in listed.output
    derived = run("pack", "derive", PUBLIC.id, "--add", KAS, "--add", 'route:BEI-KAS={"ends": ["BEI", "KAS"], "coins": 2}',
                  "--name", "our copy", "--db", db)
    assert derived.exit_code == 0, derived.output
    assert derived.output.startswith("ours-v1 ") and "(working)" in derived.output
    shown = json.loads(run("pack", "show", "ours-v1", "--db", db).output)
    assert shown["components"]["node"] == 2 and shown["working"] and shown["parent"] == PUBLIC.ref
    assert json.loads(run("pack", "diff", PUBLIC.id, "ours-v1", "--db", db).output)["added"][0] == {
        "kind": "node", "id": "KAS", "spec": {"kind": "city", "shield": "bow"}}
    bad = run("pack", "derive", "ours-v1", "--add", 'route:BEI-XIA={"ends": ["BEI", "XIA"]}', "--db", db)
    assert bad.exit_code == 1 and "marco-polo-2.bad-content-pack" in bad.output and "pack.map.routes[1].ends[1]" in bad.output
    assert run("pack", "derive", "ours-v1", "--add", "node:KAS", "--db", db).exit_code == 1  # no spec: told the form

    file = tmp_path / "ours.json"
    assert run("pack", "download", "ours-v1", "--out", file, "--db", db).exit_code == 0
    other = str(tmp_path / "other.duckdb")
    up = run("pack", "upload", file, "--working", "--db", other)
    assert up.exit_code == 0 and shown["hash"] in up.output and up.output.startswith("added")
    assert "already there" in run("pack", "upload", file, "--db", other).output
    changed = json.loads(file.read_text())
    changed["rounds"] = 4
    file.write_text(json.dumps(changed))
    taken = run("pack", "upload", file, "--db", other)
    assert taken.exit_code == 1 and "pack-id-taken" in taken.output
    game = run("new", "marco-polo-2", "Ana", "Bea", "--db", other)
    assert game.exit_code == 0 and f"content pack: ours-v1 ({shown['hash']})" in game.output


def test_new_pins_the_working_pack_and_grows_it(tmp_path):
    db = str(tmp_path / "t.duckdb")
    first = run("new", "marco-polo-2", "Ana", "Bea", "-o", "characters=chosen", "--db", db)
    assert first.exit_code == 0 and f"content pack: {PUBLIC.id}" in first.output
    game_id = first.output.split()[1]
    with layers(db) as lay:
        lay.recorder.record_notation(game_id, SETUP)
    second = run("new", "marco-polo-2", "Ana", "Bea", "--db", db)
    assert "content pack: ours-v1" in second.output
    assert "ours-v1" in run("pack", "list", "--db", db).output


def test_the_admin_token_is_printed_once_and_reissued(tmp_path):
    db = str(tmp_path / "t.duckdb")
    with TestClient(create_app(Settings(db_path=db))) as client:
        first = client.app.state.services.admin_token_issued
        assert first
    with TestClient(create_app(Settings(db_path=db))) as client:
        assert client.app.state.services.admin_token_issued is None  # made once, on the first start
    issued = run("admin-token", "--db", db)
    assert issued.exit_code == 0
    token = issued.output.split("admin token: ")[1].split()[0]
    data = copy.deepcopy(SYNTHETIC.data)
    data["id"] = "ours-upload"
    with TestClient(create_app(Settings(db_path=db))) as client:
        packs = "/titles/marco-polo-2/packs"
        assert client.post(packs, json=data, headers={"Authorization": f"Bearer {first}"}).status_code == 403
        assert client.post(packs, json=data, headers={"Authorization": f"Bearer {token}"}).status_code == 201
    with layers(db) as lay:
        stored = lay.log.con.execute("SELECT token_hash FROM admin_token").fetchall()
    assert len(stored) == 1 and token.encode() not in bytes(stored[0][0])


def _game_on_a_grown_pack(db: str) -> tuple[str, dict]:
    """A store where game 1 described its layout, and game 2, pinned to the grown pack, was played
    to its end without describing it again; game 2's id and its final view."""
    from mp2play import LAYOUT, game_lines

    first = run("new", "marco-polo-2", "Ana", "Bea", "-o", "characters=chosen", "--db", db).output.split()[1]
    with layers(db) as lay:
        lay.recorder.record_notation(first, SETUP)
    second = run("new", "marco-polo-2", "Ana", "Bea", "-o", "characters=chosen", "--db", db)
    assert "content pack: ours-v1" in second.output
    game_id = second.output.split()[1]
    with layers(db) as lay:
        for line in [LAYOUT, *game_lines()[1:]]:
            lay.recorder.record_notation(game_id, line)
        game = lay.projector.state(game_id)
        assert game.ended is not None
        return game_id, game.title.full_view(game.state)


def test_a_game_exported_as_json_lines_carries_its_pack_into_an_empty_store(tmp_path):
    db, other = str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")
    game_id, view = _game_on_a_grown_pack(db)
    out = tmp_path / "games.jsonl"
    assert run("export", game_id, "--out", out, "--db", db).exit_code == 0
    first = json.loads(out.read_text().splitlines()[0])
    assert first["type"] == "tabletape.pack" and first["id"] == "ours-v1"
    imported = run("import", out, "--db", other)
    assert imported.exit_code == 0 and "1 content packs" in imported.output, imported.output
    with layers(other) as lay:
        game = lay.projector.state(game_id)
        assert game.title.full_view(game.state) == view and game.ended is not None
        assert lay.packs.get("marco-polo-2", "ours-v1").source == "import"
    assert run("verify", game_id, "--rules", "--db", other).exit_code == 0
    # a pack changed after its export is refused, and nothing is written
    tampered = out.read_text().replace('"vp":3', '"vp":4', 1)
    (tmp_path / "bad.jsonl").write_text(tampered)
    empty = str(tmp_path / "c.duckdb")
    refused = run("import", tmp_path / "bad.jsonl", "--db", empty)
    assert refused.exit_code == 1 and "import-refused" in refused.output and "content-mismatch" in refused.output
    with layers(empty) as lay:
        assert lay.log.game_ids() == [] and all(e.source == "builtin" for e in lay.packs.entries("marco-polo-2"))


def test_a_game_exported_as_parquet_carries_its_pack_into_an_empty_store(tmp_path):
    db, other = str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")
    game_id, view = _game_on_a_grown_pack(db)
    folder = tmp_path / "parquet"
    exported = run("export", "--format", "parquet", "--out", folder, "--db", db)
    assert exported.exit_code == 0 and "with 1 content packs" in exported.output
    imported = run("import", folder, "--db", other)
    assert imported.exit_code == 0, imported.output
    with layers(other) as lay:
        game = lay.projector.state(game_id)
        assert game.title.full_view(game.state) == view
        pinned = game.created.options["content"]
        assert lay.packs.get("marco-polo-2", pinned["id"]).hash == pinned["hash"]
