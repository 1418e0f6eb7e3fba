"""Ports of 127.0.0.1 for the servers the tests start, which no other process (another pytest-xdist
worker, another test run) can be handed between the choice and the server's own bind."""

from __future__ import annotations

import socket
import sys
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def reserved() -> Iterator[int]:
    """A free port, kept from every other ``bind((host, 0))`` until the block ends: start the
    server on it inside the block, and leave the block once it listens.

    On Linux the server (uvicorn and PostgreSQL set SO_REUSEADDR) binds the port alongside this
    socket, which sets it too and never listens. Elsewhere that bind would be refused, so the port
    is let go at once, with the small chance that another process takes it first.
    """
    hold = sys.platform == "linux"
    sock = socket.socket()
    try:
        if hold:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        if not hold:
            sock.close()
        yield port
    finally:
        sock.close()
