"""What the suite relies on to run on several cores (pytest-xdist, ``make test``): coroutines on a
loop of their own in a process where the browser tests ran first (``tests/own_loop.py``), and
servers' ports that no other worker is handed (``tests/ports.py``)."""

from __future__ import annotations

import ast
import asyncio
import socket
import sys
from contextlib import contextmanager
from pathlib import Path

import own_loop
import ports
import pytest

TESTS = Path(__file__).resolve().parent


async def answer() -> str:
    await asyncio.sleep(0)
    return "played"


@contextmanager
def playwright_in_this_thread():
    """Playwright's sync API running in this thread, as a browser test leaves it: started here (the
    driver only, no browser), unless a browser test of this process did already (a second refuses)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        with sync_api.sync_playwright():
            yield
    else:
        yield


def test_a_coroutine_runs_after_playwrights_sync_api_marked_its_loop_running_here():
    with playwright_in_this_thread():
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


@pytest.mark.skipif(sys.platform != "linux", reason="elsewhere the port is let go at once")
def test_a_reserved_port_is_refused_to_other_sockets_and_taken_by_the_server_started_on_it():
    with ports.reserved() as port:
        with socket.socket() as other, pytest.raises(OSError, match="in use"):
            other.bind(("127.0.0.1", port))
        with socket.create_server(("127.0.0.1", port)) as server:  # SO_REUSEADDR, as uvicorn and PostgreSQL
            with socket.create_connection(("127.0.0.1", port), timeout=5):
                server.accept()[0].close()
