"""The FastAPI application: ``create_app(settings)``."""

from __future__ import annotations

import asyncio
import sys
from contextlib import asynccontextmanager
from typing import AsyncIterator

from fastapi import FastAPI, Request

from api import errors, i18n
from api.http import openapi
from api.http.auth import Svc
from api.http.edge import BodyLimits, FrameGuard
from api.http.fast_lane import MovesLane
from api.http.models import HealthOut, WorkersOut
from api.http.routes import bgstats, games, packs, record, replay, share, tokens, web
from api.http.routes import i18n as i18n_routes
from api.http.routes import race as race_routes
from api.http.routes import think_time as think_routes
from api.http.routes import ratings as ratings_routes
from api.http.routes import seasons as seasons_routes
from api.http.routes import stats as stats_routes
from api.http.services import Services
from api.http.settings import Settings
from events.stores import shown
from rules import titles

DESCRIPTION = """Record board games played at a real table, move by move; replay, undo and scrub them.

Every error is JSON `{code, message, ...}`. Writes need the game's write token
(`Authorization: Bearer <token>`), writes to the content-pack library the store's admin token; a seat's view needs that seat's token; the full view and the
raw log open once the game has ended."""


def admin_token_notice(token: str) -> str:
    """What ``serve`` prints on a store's first start, in the CLI's language."""
    return i18n.cli("msgs/admin-token", token=token)


def workers_of(app: FastAPI) -> WorkersOut:
    """The workers ``serve --workers`` keeps (``api.http.server.Workers``), or this one process."""
    table = getattr(app.state, "workers", None)
    if table is None:
        return WorkersOut(configured=1, live=1)
    return WorkersOut(configured=table.configured, live=table.live())


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = Services(settings)
        if services.admin_token_issued:
            print(admin_token_notice(services.admin_token_issued), file=sys.stderr, flush=True)
        services.hub.start(asyncio.get_running_loop(), services.subscribe)
        app.state.services = services
        try:
            yield
        finally:
            services.close()

    telemetry = None if settings.telemetry else {"tracing": False, "metrics": False, "logs": False}
    app = FastAPI(title="tabletape", version="0.1.0", description=DESCRIPTION, lifespan=lifespan, telemetry=telemetry)
    errors.install(app)
    app.add_middleware(MovesLane)
    app.add_middleware(BodyLimits, limits=settings.body_limits)  # before anything reads a body
    app.add_middleware(FrameGuard)

    @app.get("/health", tags=["service"], response_model=HealthOut)
    def health(svc: Svc, request: Request) -> HealthOut:
        """Liveness: the service answers, its database is open, and how many of its workers serve;
        ``degraded`` while some stored games cannot be read (the others are served), which it lists."""
        svc.log.ping()
        unreadable = svc.unreadable()
        return HealthOut(
            status="degraded" if unreadable else "ok", titles=sorted(titles()), database=shown(settings.db_path),
            workers=workers_of(request.app), log=svc.log.stats(), unreadable=unreadable,
        )

    # the order is the order routes are matched in
    for routes in (
        games, record, tokens, replay, race_routes, think_routes, share,
        ratings_routes, seasons_routes, stats_routes, packs, bgstats, i18n_routes,
    ):
        app.include_router(routes.router)
    web.install(app)  # the web page: GET / and /static
    openapi.install(app, settings.body_limits)
    return app
