"""Running the app on uvicorn, with live streams that end when the server stops.

uvicorn waits for open connections before it shuts the app down, and a live stream never ends
by itself; so the exit signal first closes every stream, then uvicorn stops as usual.
"""

from __future__ import annotations

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


def run(app: FastAPI, host: str, port: int, log_level: str = "info", access_log: bool = False) -> None:
    # no access log by default: it was ~4% of the server's time under the HTTP benchmark
    # the grace period bounds a shutdown that a stuck client would otherwise hold up
    config = uvicorn.Config(
        app, host=host, port=port, log_level=log_level, access_log=access_log, timeout_graceful_shutdown=5
    )
    Server(config, app).run()
