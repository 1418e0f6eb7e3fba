"""Ratings per title (openskill's Plackett-Luce over every finished game): the table, one
player's history, and who is favourite at a table of chosen players."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from api.http.auth import Svc
from api.http.rating_models import FavouriteOut, RatingHistoryOut, RatingsOut
from api.http.routes.stats import errors, left_out
from projections.stats.ratings import MOST_AT_TABLE, Ratings

router = APIRouter(tags=["statistics"], dependencies=[Depends(left_out)])

Title = Annotated[str | None, Query(max_length=64, description="the title (ratings are per title)")]


def ratings(svc: Svc) -> Ratings:
    return Ratings(svc.projector.read_models)


@router.get("/stats/ratings", response_model=RatingsOut, responses=errors(422))
def rating_table(svc: Svc, title: Title = None, limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> RatingsOut:
    """Every rated player of a title: rating (mu), uncertainty (sigma), ordered by mu - 3 sigma."""
    return RatingsOut(title=title or "", rows=ratings(svc).table(title, limit))


@router.get("/stats/ratings/history", response_model=RatingHistoryOut, responses=errors(422))
def rating_history(
    svc: Svc,
    name: Annotated[str, Query(min_length=1, max_length=64, description="the player's name, any case")],
    title: Title = None,
) -> RatingHistoryOut:
    """One player's rating before and after each rated game of a title, oldest first."""
    rows = ratings(svc).history(title, name)
    return RatingHistoryOut(title=title or "", player=rows[0]["player"] if rows else name, rows=rows)


@router.get("/stats/ratings/favourite", response_model=FavouriteOut, responses=errors(422))
def favourite(
    svc: Svc,
    player: Annotated[list[str], Query(max_length=MOST_AT_TABLE, description="a player at the table (repeat: 2 to 8)")],
    title: Title = None,
) -> FavouriteOut:
    """Who is favourite tonight: each chosen player's chance of winning one game at the same table."""
    return FavouriteOut(title=title or "", rows=ratings(svc).favourite(title, player))
