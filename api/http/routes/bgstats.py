"""The bridge to BG Stats over HTTP: the finished games in its JSON export format, and a BG Stats
export's plays imported as score-only games (admin; ``tabletape import --format bgstats FILE``
does the same on the store's file).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from api.formats import bgstats
from api.http.auth import Svc
from api.http.routes.packs import Admin
from api.http.routes import errors

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


@router.post("/import/bgstats", responses=errors(401, 403, 422))
async def import_bgstats(request: Request, svc: Svc, _admin: Admin) -> dict[str, Any]:
    """Import a BG Stats export (the file as the body; admin): its plays of tabletape's titles as
    score-only games, each play once. All or nothing: a file no store could hold is refused with
    422 ``{code, message}`` naming the play and the field, and nothing is written. The answer
    counts what was imported, already there, skipped (with why) and left out as other games."""
    document = bgstats.read_document(await request.body())
    report = await run_in_threadpool(bgstats.import_document, svc.log, svc.projector, document)
    return report.as_dict()
