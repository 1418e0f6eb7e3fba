"""Coroutines in the tests run on a loop of their own, also in a process where the browser tests ran
first (what a pytest-xdist worker does): ``tests/own_loop.py``."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import own_loop
import pytest

TESTS = Path(__file__).resolve().parent


async def answer() -> str:
    await asyncio.sleep(0)
    return "played"


def test_a_coroutine_runs_after_playwrights_sync_api_marked_its_loop_running_here():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright():  # the driver only: no browser is launched
        refused = answer()
        with pytest.raises(RuntimeError, match="running event loop"):
            asyncio.run(refused)
        refused.close()
        assert own_loop.run(answer()) == "played"


def test_a_coroutine_raises_its_error_in_the_test():
    async def refused() -> None:
        raise LookupError("no such game")

    with pytest.raises(LookupError, match="no such game"):
        own_loop.run(refused())


def test_no_test_calls_asyncio_run_itself():
    """``asyncio.run`` fails in a worker that ran a browser test before: every test uses ``own_loop.run``."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if path.name in {"own_loop.py", Path(__file__).name} or "vendor" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Attribute) and node.attr == "run" and getattr(node.value, "id", None) == "asyncio":
                found.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    assert not found, found
