"""The FastAPI application."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from api.settings import Settings
from events.duckdb_log import DuckDBEventLog
from events.errors import TabletapeError
from projections.projector import Projector
from replay.recorder import Recorder
from rules import titles


class Services:
    """The layers one app instance works with, over one DuckDB database."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.log = DuckDBEventLog(settings.db_path)
        self.projector = Projector(self.log)
        self.recorder = Recorder(self.log, self.projector)

    def close(self) -> None:
        self.log.close()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.services = Services(settings)
        try:
            yield
        finally:
            app.state.services.close()

    app = FastAPI(title="tabletape", version="0.1.0", lifespan=lifespan)

    @app.exception_handler(TabletapeError)
    async def tabletape_error(request: Request, exc: TabletapeError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content=exc.to_dict())

    @app.get("/health", tags=["service"])
    def health() -> dict[str, object]:
        """Liveness: the service answers and its database is open."""
        services: Services = app.state.services
        services.log.con.cursor().execute("SELECT 1").fetchall()
        return {"status": "ok", "titles": sorted(titles()), "database": settings.db_path}

    return app
