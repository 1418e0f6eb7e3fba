"""``tabletape pack import`` and ``pack merge`` on real DuckDB files: two groups' stores grow
partial packs from real games (recorded through the service), group B's pack file is imported into
group A's store, the merge shows the clash side by side and writes nothing until a side is kept."""

from __future__ import annotations

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.cli.main import app
from api.http.app import create_app
from api.http.settings import Settings
from packgroups import GROUP_A, GROUP_B, NEW_GAME, grow

runner = CliRunner()
MP2 = "/titles/marco-polo-2/packs"


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def grown(db: str, lines: list[str]) -> dict:
    with TestClient(create_app(Settings(db_path=db))) as client:
        svc = client.app.state.services
        grow(lambda: client.post("/games", json=NEW_GAME).json()["game_id"], svc.recorder.record_notation, lines)
        return client.get(MP2).json()["working"]


def test_import_a_pack_file_and_merge_it_choosing_the_clash(tmp_path):
    a, b = str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")
    ours, theirs = grown(a, GROUP_A), grown(b, GROUP_B)
    file = tmp_path / "theirs.json"
    assert run("pack", "download", theirs["hash"], "-o", file, "--db", b).exit_code == 0
    imported = run("pack", "import", file, "--db", a)
    assert imported.exit_code == 0 and imported.output.startswith(f"added ours-v1 {theirs['hash']}"), imported.output

    plan = run("pack", "merge", ours["hash"], theirs["hash"], "--plan", "--db", a)
    assert plan.exit_code == 0 and "contract:R02" in plan.output and '"vp": 6' in plan.output and '"vp": 5' in plan.output
    refused = run("pack", "merge", ours["hash"], theirs["hash"], "--db", a)
    assert refused.exit_code == 1 and "pack-merge-clash" in refused.output and "contract:R02" in refused.output
    assert "ours-v2" not in run("pack", "list", "--db", a).output
    assert run("pack", "merge", ours["hash"], theirs["hash"], "--keep", "R02", "--db", a).exit_code == 1

    made = run("pack", "merge", ours["hash"], theirs["hash"], "--keep", "contract:R02=b", "--db", a)
    assert made.exit_code == 0 and made.output.startswith("ours-v2 ") and "(working)" in made.output, made.output


def test_a_link_that_leads_to_no_http_file_is_refused(tmp_path):
    bad = run("pack", "import", "http://127.0.0.1:9/?page=packs&import=file%3A%2F%2F%2Fetc%2Fpasswd", "--db", str(tmp_path / "a.duckdb"))
    assert bad.exit_code == 1 and "http://" in bad.output
