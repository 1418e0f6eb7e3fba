"""Running the app on uvicorn, with live streams that end when the server stops.

uvicorn waits for open connections before it shuts the app down, and a live stream never ends
by itself; so the exit signal first closes every stream, then uvicorn stops as usual.
"""

from __future__ import annotations

import sys
from types import FrameType

import uvicorn
from fastapi import FastAPI


class Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self._app = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        services = getattr(self._app.state, "services", None)
        if services is not None:
            services.hub.close()
        super().handle_exit(sig, frame)


#: Requests run on worker threads that hand the GIL back and forth with the event loop; with
#: the default 5 ms switch interval a woken thread can wait that long for it. Measured with
#: `python -m benchmarks.http` (16 clients): a 0.5 ms interval raised sustained appends a lot.
SWITCH_INTERVAL_S = 0.0005


def run(app: FastAPI, host: str, port: int, log_level: str = "info", access_log: bool = False) -> None:
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    # the grace period bounds a shutdown that a stuck client would otherwise hold up
    config = uvicorn.Config(
        app, host=host, port=port, log_level=log_level, access_log=access_log, timeout_graceful_shutdown=5
    )
    Server(config, app).run()
