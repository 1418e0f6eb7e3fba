"""Service settings: where the database lives and how the server listens."""

from __future__ import annotations

import os

from pydantic import BaseModel, Field


class Settings(BaseModel):
    """``TABLETAPE_DB`` overrides the database path; ``:memory:`` keeps everything in memory."""

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
