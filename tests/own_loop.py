"""``asyncio.run`` for the tests, in a thread of its own: what every test that runs a coroutine uses.

Playwright's sync API (the browser tests' session-wide ``browser``) marks its event loop as running
in the main thread between its calls, by design. Under pytest-xdist a worker runs browser test
files and other files in one process, so ``asyncio.run`` called there refuses to start ("cannot be
called from a running event loop"). A new thread has no running loop of its own, whatever ran before.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Coroutine, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` in a new thread: its result, or its exception raised here."""
    with ThreadPoolExecutor(1, thread_name_prefix="own-loop") as pool:
        return pool.submit(asyncio.run, main).result()
