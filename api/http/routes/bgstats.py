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
from pydantic import BaseModel

from api.formats import bgstats
from api.http.auth import Svc, require_ended
from api.http.routes.packs import Admin
from api.http.routes import errors
from events.messages import phrase

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


class PushOut(BaseModel):
    game_id: str
    #: false for a fork (a what-if, not a play) and for a play that came from BG Stats
    offered: bool
    #: why the play is not offered: fork, from-bgstats
    not_offered: str | None
    #: the https link (opens BG Stats where it is installed) and the app's own ``bgstats:`` link
    url: str | None
    app_url: str | None
    #: the play the links carry, as BG Stats reads it
    play: dict[str, Any]


@router.get("/games/{game_id}/bgstats-play", response_model=PushOut, responses=errors(403, 404, 422), tags=["replay"])
def read_bgstats_play(game_id: str, svc: Svc) -> PushOut:
    """A finished game as one BG Stats play and the link that adds it there in one tap (BG Stats'
    create-play link, filled from the log: the game with its BoardGameGeek id, the players with
    their scores, ranks, winners and the start player, the date and the duration in UTC). Open to
    everyone once the game has ended, and to no one before."""
    from replay.play_record import play_record

    game = svc.projector.state(game_id)
    require_ended(game_id, game, phrase("what/bgstats-play", "the play for BG Stats"), "bgstats-play-before-end")
    record = play_record(svc.projector, svc.log, game_id)
    assert record is not None  # ended, as require_ended said
    play = bgstats.push_play(record)
    not_offered = "fork" if record.forked else "from-bgstats" if record.source == bgstats.SOURCE else None
    url, app_url = bgstats.push_links(play) if not_offered is None else (None, None)
    return PushOut(game_id=game_id, offered=not_offered is None, not_offered=not_offered, url=url, app_url=app_url, play=play)
