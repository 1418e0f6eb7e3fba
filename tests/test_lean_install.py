"""`make serve` installs only what serving needs: no pip inside the environment, no test, benchmark,
chart or PostgreSQL parts; an optional part asked for without its extra is refused in one line."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: what only the tests, the benchmarks, the manual or an optional part need
NOT_FOR_SERVING = ("psycopg", "matplotlib", "pytest", "playwright", "pyspark", "hypothesis", "mkdocs", "eventsourcing")


def test_serving_depends_on_none_of_the_extras_parts():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = " ".join(project["dependencies"]).lower()
    assert not [name for name in NOT_FOR_SERVING if name in runtime]
    extras = project["optional-dependencies"]
    assert any("psycopg" in d for d in extras["postgres"]) and any("psycopg" in d for d in extras["test"])
    assert any("matplotlib" in d for d in extras["charts"]) and any("matplotlib" in d for d in extras["test"])


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_serve_builds_an_environment_without_a_pip_of_its_own():
    plan = subprocess.run(
        ["make", "-n", "-B", "VENV=/nonexistent-venv", "install", "EXTRAS=postgres"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    outer = subprocess.run([sys.executable, "-m", "pip", "--python", sys.executable, "--version"], capture_output=True)
    if outer.returncode == 0:  # this pip installs into another environment: none inside
        assert "-m venv --without-pip" in plan
        assert "--python /nonexistent-venv/bin/python install" in plan
    assert "-c requirements.lock -e ." in plan
    assert "-e '.[postgres]'" in plan
    assert "[test" not in plan and "[bench" not in plan


def test_a_postgresql_store_without_the_extra_is_refused_in_one_line(tmp_path):
    # what an install without the ``postgres`` extra has: psycopg cannot be imported
    script = (
        "import sys; sys.modules['psycopg'] = None; sys.modules['psycopg_pool'] = None\n"
        "from api.program import main; sys.argv[0] = 'tabletape'; main()\n"
    )
    for args in (["games"], ["verify"], ["serve", "--port", "1"]):
        run = subprocess.run(
            [sys.executable, "-c", script, *args, "--db", "postgresql://user@127.0.0.1:1/club"],
            cwd=tmp_path, capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
        assert run.returncode == 1, run.stderr
        lines = (run.stdout + run.stderr).strip().splitlines()
        assert lines == [
            "postgres-not-installed: a PostgreSQL store needs psycopg: install it with make serve EXTRAS=postgres"
            " (pip's extra '.[postgres]')"
        ], lines
