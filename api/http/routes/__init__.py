"""The HTTP routes, one module per concern."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Header

from api.http.models import ErrorOut

#: ``Accept-Language`` of a route that names titles
NamesLanguage = Annotated[str | None, Header(description="the language of the titles' names (en, es, ja)")]

_WHY = {
    401: "no token where one is needed",
    403: "a token that does not open this, or something only the end of the game makes public",
    404: "unknown game",
    409: "stale expected_seq, a reused idempotency key, a refused history edit, or an altered log (chain-broken, naming the seq)",
    410: "a share link its owner withdrew (`share-withdrawn`)",
    422: "malformed request or body, or an illegal move (the code names the rule)",
    503: "the pack library stayed busy with another change for the whole wait (`packs-busy`): nothing was written; retry after `Retry-After` seconds",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error statuses a route can answer, all with the error model."""
    return {status: {"model": ErrorOut, "description": _WHY[status]} for status in statuses}
