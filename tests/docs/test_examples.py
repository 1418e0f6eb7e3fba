"""Every command example of the README and the manual runs, as printed, against a fresh store
beside a real ``tabletape serve`` on 127.0.0.1 (``tests/examples.py`` says how), so none can go stale."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

import examples
import live_server
from packgroups import admin_token

RUN = [b for b in examples.blocks() if b.title.startswith("run")]


def test_every_command_example_is_run_or_says_why_not():
    unmarked = [b.id for b in examples.blocks() if not b.title.startswith(("run", "not run: ", "first hour"))]
    assert not unmarked, f"```sh blocks neither marked title=\"run\" nor title=\"not run: why\": {unmarked}"
    assert {b.path for b in RUN} >= {"README.md", "docs/getting-started.md", "docs/http-api.md", "docs/cli.md"}


@pytest.mark.parametrize("block", RUN, ids=[b.id for b in RUN])
def test_example_runs(block, tmp_path):
    (tmp_path / "data").mkdir()
    if block.title == examples.WITHOUT_SERVICE:
        examples.run(block, "http://" + examples.SERVICE, tmp_path)
        return
    # the store `make serve` opens, relative to where the reader types the commands
    printed = tmp_path / "serve.txt"
    base, proc = live_server.start(tmp_path / "data" / "tabletape.duckdb", output=printed, timeout=90)
    try:
        examples.run(block, base, tmp_path, known={"ADMIN": admin_token(printed)})
    finally:
        live_server.stop(proc)


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="mkdocs is missing: make .venv/.test installs the docs extra")
def test_the_manual_builds_without_a_broken_link(tmp_path):
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=examples.ROOT, capture_output=True, text=True, timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site" / "index.html").is_file()
