"""The bridge to BG Stats over HTTP: the finished games in its JSON export format.

Importing a BG Stats file is the command line's (``tabletape import --format bgstats FILE``), as
every import is: the API adds games one at a time, by their moves.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from api import bgstats
from api.auth import Svc

router = APIRouter(tags=["statistics"])

_EXPORT = {
    200: {
        "content": {"application/json": {"schema": {"type": "object"}}},
        "description": "a BG Stats export document: games (with BoardGameGeek ids), players, locations, plays",
    }
}


@router.get("/export/bgstats", response_class=Response, responses=_EXPORT)
def export_bgstats(svc: Svc) -> Response:
    """Every finished game that is not a fork as BG Stats' JSON export (``BGStatsExport.json``):
    each play with its date, duration, scores, winners, start player and seat order. A game in
    progress is never in it; score-only games keep the uuid of the play they came from."""
    document: dict[str, Any] = bgstats.export(svc.projector.read_models)
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    headers = {"Content-Disposition": 'attachment; filename="BGStatsExport.json"'}
    return Response(content=body, media_type="application/json", headers=headers)
