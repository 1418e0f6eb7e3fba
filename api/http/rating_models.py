"""Pydantic models of the rating endpoints (``api/http/routes/ratings.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RatingRow(BaseModel):
    position: int = Field(description="1 = the highest conservative rating")
    player: str
    mu: float = Field(description="the rating: openskill's mean skill (a newcomer starts at 25)")
    sigma: float = Field(description="its uncertainty (a newcomer starts at 25/3; it shrinks with games)")
    conservative: float = Field(description="mu - 3 sigma, what the order follows")
    games: int = Field(description="finished games of the title rated for the player")
    wins: int = Field(description="of them, games the player finished first (ties included)")
    last_played: str = Field(description="when the player's latest rated game ended (UTC)")


class RatingsOut(BaseModel):
    title: str
    rows: list[RatingRow]


class RatingStep(BaseModel):
    game_id: str
    ended_at: str = Field(description="when the game ended (UTC): the order games are rated in")
    rank: int = Field(description="the player's rank in that game (1 = best, ties share)")
    mu_before: float
    sigma_before: float
    mu: float = Field(description="the rating after the game")
    sigma: float
    conservative: float


class RatingHistoryOut(BaseModel):
    title: str
    player: str
    rows: list[RatingStep]


class Chance(BaseModel):
    player: str
    win_probability: float = Field(description="the chance of winning at this table (the table's add up to 1)")
    mu: float
    sigma: float
    games: int = Field(description="rated games behind it (0: a newcomer, rated from the start)")


class FavouriteOut(BaseModel):
    title: str
    rows: list[Chance]
