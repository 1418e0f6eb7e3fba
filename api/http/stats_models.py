"""Pydantic models of the statistics and SQL endpoints (``api/http/routes/stats.py``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from api.http.models import Strict


class BoardRow(BaseModel):
    player: str
    games: int
    wins: int
    win_rate: float
    #: None: every game of theirs was recorded by its winners alone
    avg_score: float | None
    best_score: int | None


class LeaderRow(BoardRow):
    worst_score: int | None
    #: the title's current rating, when the leaderboard is ordered by it (``order=rating``)
    mu: float | None = None
    sigma: float | None = None
    conservative: float | None = None


class LeaderboardOut(BaseModel):
    rows: list[LeaderRow]


class HeadToHeadRow(BaseModel):
    player: str
    opponent: str
    games: int = Field(description="games in which the two sat on opposing sides")
    wins: int = Field(description="pairings where the player ranked better")
    losses: int
    ties: int


class HeadToHeadOut(BaseModel):
    rows: list[HeadToHeadRow]


class SeatRow(BaseModel):
    players: int = Field(description="number of players in those games")
    seat: int
    games: int
    wins: int
    win_rate: float
    avg_score: float


class FirstPlayerRow(BaseModel):
    players: int
    games: int = Field(description="games counted for the first player")
    wins: int
    win_rate: float | None
    others_win_rate: float | None = Field(description="win rate of every other seat, for comparison")


class SeatsOut(BaseModel):
    title: str
    by_seat: list[SeatRow]
    first_player: list[FirstPlayerRow]


class ScoreSummary(BaseModel):
    count: int
    mean: float | None
    stddev: float | None
    min: int | None
    p10: float | None
    median: float | None
    p90: float | None
    max: int | None


class ScoreBin(BaseModel):
    low: int = Field(description="inclusive")
    high: int = Field(description="exclusive")
    count: int


class ScoresOut(BaseModel):
    title: str
    summary: ScoreSummary
    bin_width: int
    histogram: list[ScoreBin]
    games_without_scores: int = Field(0, description="games left out: recorded by their winners alone (a BG Stats play)")


class SourceRow(BaseModel):
    source: str
    avg_points: float
    share: float | None = Field(description="this source's share of all points scored")
    winners_avg_points: float | None


class SourcesOut(BaseModel):
    title: str
    rows: list[SourceRow]


class WagerRow(BaseModel):
    wagers: int
    expeditions: int
    avg_score: float
    avg_sum: float
    avg_cards: float
    negative_rate: float = Field(description="share of these expeditions that lost points")
    bonus_rate: float


class WagersOut(BaseModel):
    rows: list[WagerRow]


class BonusOut(BaseModel):
    expeditions: int
    bonuses: int
    per_expedition: float | None
    per_side_round: float | None = Field(description="share of a side's rounds with at least one bonus")
    per_match: float | None = Field(description="share of matches with at least one bonus")


class RoundRow(BaseModel):
    round: int | None = Field(description="null: all rounds together")
    sides: int
    avg_opened: float | None
    avg_score: float | None
    starter_avg_score: float | None = Field(description="the average of the side that opened the round")


class RoundsOut(BaseModel):
    rows: list[RoundRow]


class CharacterRow(BaseModel):
    character: str | None
    seats: int
    wins: int
    win_rate: float
    avg_score: float
    avg_rank: float


class CharactersOut(BaseModel):
    title: str
    rows: list[CharacterRow]


class BeijingRow(BaseModel):
    slot: int | None = Field(description="arrival order in Beijing (1 = first); null = never arrived")
    seats: int
    wins: int
    win_rate: float
    avg_score: float


class BeijingOut(BaseModel):
    title: str
    by_slot: list[BeijingRow]
    first_win_rate: float | None
    all_seats_win_rate: float | None


class ContractsRow(BaseModel):
    contracts: int
    seats: int
    avg_rank: float
    win_rate: float
    avg_score: float


class ContractsOut(BaseModel):
    title: str
    by_count: list[ContractsRow]
    correlation: float | None = Field(description="of contracts completed and rank (negative: more is better)")


class SqlIn(Strict):
    query: str = Field(min_length=1, max_length=20_000, examples=["SELECT title, count(*) FROM games GROUP BY title"])
    row_limit: int = Field(1_000, ge=1, le=10_000)
    time_limit_s: float = Field(5.0, gt=0, le=30)


class SqlOut(BaseModel):
    columns: list[str]
    types: list[str]
    rows: list[list[Any]]
    truncated: bool = Field(description="more rows matched than row_limit")
    elapsed_ms: float


class ViewOut(BaseModel):
    name: str
    description: str
