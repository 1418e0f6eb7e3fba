"""Service settings: where the database lives, how the server listens, and what a request may
cost it (body sizes by route, read time limits)."""

from __future__ import annotations

import os

from pydantic import BaseModel, Field

from api.http.edge import parse_limits


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


class Settings(BaseModel):
    """``TABLETAPE_DB`` overrides the database path; ``:memory:`` keeps everything in memory; a
    ``postgresql://`` URL puts the log in PostgreSQL (README: PostgreSQL)."""

    db_path: str = Field(default_factory=lambda: os.environ.get("TABLETAPE_DB", "data/tabletape.duckdb"))
    host: str = "127.0.0.1"
    port: int = 8000
    #: seconds between keep-alive comments on an idle live stream
    stream_ping_s: float = 15.0
    #: most frames one read of the log turns into stream messages at once
    stream_batch: int = 256
    #: most bytes of JSON rows one ``POST /sql`` answer carries (``TABLETAPE_SQL_BYTE_LIMIT``)
    sql_byte_limit: int = Field(
        default_factory=lambda: int(os.environ.get("TABLETAPE_SQL_BYTE_LIMIT", 8 * 2**20)), ge=1
    )
    #: FastAPI's OpenTelemetry spans and metrics (``TABLETAPE_OTEL=1``); off by default because
    #: checking for a configured provider on every request costs ~5% of an append
    telemetry: bool = Field(default_factory=lambda: os.environ.get("TABLETAPE_OTEL") == "1")
    #: body limits by route over ``api.http.edge.BODY_LIMITS`` (``TABLETAPE_BODY_LIMITS=moves=64KiB,games=1MiB``)
    body_limits: dict[str, int] = Field(
        default_factory=lambda: parse_limits(os.environ.get("TABLETAPE_BODY_LIMITS", ""))
    )
    #: seconds a request's line and headers may take to arrive (``TABLETAPE_HEAD_TIMEOUT``)
    head_timeout_s: float = Field(default_factory=lambda: _env_float("TABLETAPE_HEAD_TIMEOUT", 10.0), gt=0)
    #: seconds a request's body may take to arrive once its head has (``TABLETAPE_BODY_TIMEOUT``)
    body_timeout_s: float = Field(default_factory=lambda: _env_float("TABLETAPE_BODY_TIMEOUT", 30.0), gt=0)
    #: seconds a pack library change (a Marco Polo II creation) waits for the pack lock before a
    #: 503 (``TABLETAPE_PACK_LOCK_WAIT``)
    pack_lock_wait_s: float = Field(default_factory=lambda: _env_float("TABLETAPE_PACK_LOCK_WAIT", 10.0), gt=0)
    #: bytes a request's line and headers may hold
    head_limit: int = Field(32 * 1024, gt=0)
