"""The score race of a game: each seat's score after every step, its turning point and its
biggest swing (JSON, or an SVG/PNG chart)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Response
from pydantic import BaseModel

from api.i18n import negotiate
from api.race import race_out
from api.http.auth import Svc
from api.http.routes import errors

router = APIRouter(tags=["replay"])

RaceFormat = Annotated[Literal["json", "svg", "png"], Query(description="the answer as JSON, or as a chart")]
RaceLang = Annotated[str | None, Query(max_length=35, description="the language of the words (en, es, ja)")]


class RaceStepOut(BaseModel):
    step: int
    scores: list[int]


class SwingOut(BaseModel):
    step: int
    seat: int
    player: str
    delta: int
    words: str


class RaceOut(BaseModel):
    game_id: str
    #: true while the game goes on: only what lies open on the table counts
    public_only: bool
    players: list[str]
    steps: list[RaceStepOut]
    winners: list[int]
    turning_point: int | None
    turning_words: str | None
    biggest_swing: SwingOut | None
    #: the chart's axis names in the reader's language
    labels: dict[str, str]


_ANSWERS = {
    200: {"content": {"application/json": {}, "image/svg+xml": {}, "image/png": {}}, "description": "the race"},
    **errors(404, 422),
}


@router.get("/games/{game_id}/race", response_model=RaceOut, responses=_ANSWERS)
def read_race(
    game_id: str,
    svc: Svc,
    format: RaceFormat = "json",
    lang: RaceLang = None,
    accept_language: Annotated[str | None, Header(description="the language of the words (en, es, ja)")] = None,
) -> Response:
    """Each seat's score after every step (numbered as the replay numbers them: ``?at=N`` is step
    N), by the title's own scoring: while the game goes on only the public scores (the score
    track, the expeditions on the table), whoever asks; once it has ended the end's whole scoring.
    With the turning point (the step after which the final winner led for good) and the biggest
    swing, named in words."""
    said = negotiate(lang if lang is not None else accept_language)
    answer = race_out(svc, game_id, said)
    headers = {"Content-Language": said, "Vary": "Accept-Language"}
    if format == "json":
        return Response(RaceOut(**answer).model_dump_json(), media_type="application/json", headers=headers)
    from projections.stats.charts import MEDIA_TYPES
    from replay.race_chart import draw

    return Response(draw(answer, format), media_type=MEDIA_TYPES[format], headers=headers)
