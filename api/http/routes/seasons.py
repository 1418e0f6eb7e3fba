"""Seasons: defined and amended with the admin token, listed, and each one's standings per title
as JSON or CSV. A season is events of its own stream; only finished games count in it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Response, status
from fastapi.concurrency import run_in_threadpool

from api import i18n
from api.http.auth import Svc
from api.http.routes import NamesLanguage, errors
from api.http.routes.packs import Admin
from api.http.routes.stats import left_out
from api.http.season_models import SeasonAmendIn, SeasonIn, SeasonOut, SeasonsOut, SeasonStandingsOut
from projections.seasons import Season, Seasons, csv_text
from replay import seasons as write
from rules import titles

router = APIRouter(tags=["seasons"], dependencies=[Depends(left_out)])

SeasonId = Annotated[str, Path(max_length=80, description="the season's id (season-...)")]


def seasons_of(svc: Any) -> Seasons:
    return Seasons(svc.log, svc.projector.read_models)


@router.post("/seasons", status_code=status.HTTP_201_CREATED, response_model=SeasonOut, responses=errors(401, 403, 422))
async def define_season(body: SeasonIn, svc: Svc, _admin: Admin) -> SeasonOut:
    """A new season (admin): its name, titles, first and last day, members. A refusal is 422
    ``{code, message, field}`` naming the rule, and nothing is written."""
    season = await run_in_threadpool(write.define, seasons_of(svc), actor="admin", **body.model_dump())
    return SeasonOut(**season.as_dict())


@router.post("/seasons/{season_id}/amend", response_model=SeasonOut, responses=errors(401, 403, 404, 409, 422))
async def amend_season(season_id: SeasonId, body: SeasonAmendIn, svc: Svc, _admin: Admin) -> SeasonOut:
    """Correct a season (admin): the fields given replace those in force, as a ``season.amended``
    event appended to its stream (nothing is rewritten)."""
    season = await run_in_threadpool(write.amend, seasons_of(svc), season_id, actor="admin", **body.model_dump())
    return SeasonOut(**season.as_dict())


@router.get("/seasons", response_model=SeasonsOut, responses=errors(422))
def list_seasons(svc: Svc, accept_language: NamesLanguage = None) -> SeasonsOut:
    """Every season, the latest first."""
    lang = i18n.negotiate(accept_language)
    return SeasonsOut(seasons=[SeasonOut(**s.as_dict(), title_names=names(s, lang)) for s in seasons_of(svc).all()])


@router.get(
    "/seasons/{season_id}.csv", response_class=Response, responses={
        200: {"content": {"text/csv": {}}, "description": "the standings, one row per title and member"}, **errors(404, 409, 422)},
)
def season_csv(season_id: SeasonId, svc: Svc) -> Response:
    """A season's standings as CSV: season_id, season, starts, ends, title, position, player,
    rating, mu, sigma, games, wins, points, tiebreak."""
    seasons = seasons_of(svc)
    season = seasons.get(season_id)
    headers = {"Content-Disposition": f'attachment; filename="{season.season_id}.csv"'}
    return Response(content=csv_text(season, seasons.standings(season)), media_type="text/csv; charset=utf-8", headers=headers)


@router.get("/seasons/{season_id}", response_model=SeasonStandingsOut, responses=errors(404, 409, 422))
def season_standings(season_id: SeasonId, svc: Svc, accept_language: NamesLanguage = None) -> SeasonStandingsOut:
    """A season and its standings per title: each member's rating over the season's games alone,
    games, wins and points, ordered by wins, then points, then the title's tie-break."""
    seasons = seasons_of(svc)
    season = seasons.get(season_id)
    lang = i18n.negotiate(accept_language)
    return SeasonStandingsOut(**season.as_dict(), title_names=names(season, lang), standings=named(season, seasons, lang))


def names(season: Season, lang: str) -> list[str]:
    known = titles()
    return [i18n.title_name(known[t], lang) for t in season.titles]


def named(season: Season, seasons: Seasons, lang: str) -> list[dict[str, Any]]:
    known = titles()
    return [{**t, "title_name": i18n.title_name(known[t["title"]], lang)} for t in seasons.standings(season)]
