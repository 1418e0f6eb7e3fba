"""What ``api.http.server.GuardedProtocol`` takes from uvicorn's private ``HttpToolsProtocol``, held
on the installed uvicorn: its methods' signatures and the state a connection and a request
cycle carry. A uvicorn upgrade that moves any of it fails here by name, before a slow-loris
test times out somewhere else (tests/api/test_edge_limits.py checks the behaviour)."""

from __future__ import annotations

import asyncio
import inspect
import socket

import own_loop
import uvicorn
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from api.http.server import GuardedProtocol, _Lingering

#: every method GuardedProtocol overrides or calls, with the parameters it passes
METHODS = {
    "connection_made": ["transport"], "connection_lost": ["exc"], "data_received": ["data"],
    "on_message_begin": [], "on_headers_complete": [], "on_message_complete": [],
}
UPGRADE = (
    f"uvicorn {uvicorn.__version__} changed its private HttpToolsProtocol, which api/http/server.py's "
    "GuardedProtocol subclasses for the read time limits (docs/design.md says why): "
)


async def _app(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def test_the_overridden_methods_keep_their_signatures():
    for name, parameters in METHODS.items():
        method = getattr(HttpToolsProtocol, name, None)
        assert method is not None, UPGRADE + f"{name} is gone"
        assert list(inspect.signature(method).parameters)[1:] == parameters, UPGRADE + f"{name} takes other arguments"
        assert name in vars(GuardedProtocol), f"GuardedProtocol no longer overrides {name}: update METHODS"


def test_a_connection_and_its_request_cycle_carry_what_the_guard_reads():
    async def connect() -> None:
        config = Config(_app, http=GuardedProtocol)
        config.load()
        ours, theirs = socket.socketpair()
        loop = asyncio.get_running_loop()
        protocol = GuardedProtocol(config=config, server_state=ServerState(), app_state={})
        transport, _ = await loop.connect_accepted_socket(lambda: protocol, ours)
        for name in ("loop", "transport", "flow", "cycle"):
            assert hasattr(protocol, name), UPGRADE + f"a connection has no {name}"
        assert callable(protocol.flow.resume_reading), UPGRADE + "flow.resume_reading is gone"
        theirs.sendall(b"POST /x HTTP/1.1\r\nhost: t\r\naccept-language: es\r\ncontent-length: 5\r\n\r\nab")
        for _ in range(100):
            if protocol.cycle is not None:
                break
            await asyncio.sleep(0.01)
        cycle = protocol.cycle
        assert cycle is not None, UPGRADE + "no request cycle once a head is in"
        for name in ("transport", "scope", "response_started", "response_complete"):
            assert hasattr(cycle, name), UPGRADE + f"a request cycle has no {name}"
        # a body still coming: the guard's lingering close stands in for the cycle's transport
        assert isinstance(cycle.transport, _Lingering), UPGRADE + "the guard could not take the cycle's transport"
        assert cycle.transport._transport is protocol.transport, UPGRADE + "the cycle writes elsewhere than the connection"
        assert protocol._phase == 2, UPGRADE + "on_headers_complete no longer runs when the head is in"
        transport.close()
        theirs.close()

    own_loop.run(connect())  # a thread of its own: a browser test before this one leaves its loop running here
