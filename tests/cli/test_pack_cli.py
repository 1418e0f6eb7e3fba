"""``tabletape pack ...``, ``tabletape admin-token`` and pinning by ``tabletape new``, on a real
DuckDB file, as a user types them."""

from __future__ import annotations

import copy
import json

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from api.cli import app, layers
from api.settings import Settings
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
