"""Pydantic models of the statistics page's answers (index, dashboard, player, title)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from api.http.models import UnreadableOut
from api.http.stats_models import (
    BeijingRow,
    BoardRow,
    BonusOut,
    CharacterRow,
    ContractsRow,
    FirstPlayerRow,
    RoundRow,
    ScoresOut,
    SeatRow,
    SourceRow,
    WagerRow,
)

_FEW = "the rate rests on fewer than 10 games"
_LOW = "lower end of the 95 % Wilson interval of the win rate"
_HIGH = "upper end of the 95 % Wilson interval of the win rate"


class LeftOut(BaseModel):
    left_out: list[UnreadableOut] = Field(
        default_factory=list, description="stored games this page leaves out: this code cannot read them"
    )


class EndpointsOut(BaseModel):
    dashboard: str
    player: str = Field(description="a template: {name} is the player's name, URL-encoded")
    title: str = Field(description="a template: {title} is a title id")
    bgstats: str = Field(description="every finished game as a BG Stats export file, to download")


class IndexTitle(BaseModel):
    title: str
    name: str
    games: int
    first_played: str
    last_played: str
    options: dict[str, list[str | int | float | bool]] = Field(
        description="options whose value differs between finished games, with the values seen"
    )


class IndexPlayer(BaseModel):
    name: str
    games: int


class StatsIndexOut(LeftOut):
    endpoints: EndpointsOut
    games: int = Field(description="finished games, forks left out")
    titles: list[IndexTitle] = Field(description="titles that have finished games, most played first")
    players: list[IndexPlayer]


class LatestSeat(BaseModel):
    seat: int
    player: str
    score: int
    rank: int
    won: bool


class LatestGame(BaseModel):
    game_id: str
    title: str
    name: str
    created_at: str
    ended_at: str | None
    score_only: bool = Field(description="a record of scores only (imported): no moves, no replay")
    seats: list[LatestSeat]


class MonthRow(BaseModel):
    month: str = Field(description="YYYY-MM (UTC) of the games' start")
    games: int


class TitleSummary(BaseModel):
    title: str
    name: str
    games: int
    last_played: str
    avg_duration_s: float | None
    players: int
    avg_score: float | None
    best_score: int | None
    best_player: str | None
    leaderboard: list[BoardRow]


class DashboardOut(LeftOut):
    games: int
    players: int
    leaderboard: list[BoardRow]
    latest: list[LatestGame]
    months: list[MonthRow]
    titles: list[TitleSummary] = Field(description="one per title with finished games")


class PlayerTitle(BaseModel):
    title: str
    name: str
    games: int
    wins: int
    win_rate: float
    avg_score: float
    best_score: int
    worst_score: int


class PlayerMonth(BaseModel):
    month: str
    games: int
    wins: int


class CurrentStreak(BaseModel):
    won: bool
    length: int


class Streaks(BaseModel):
    longest_wins: int
    longest_losses: int
    current: CurrentStreak | None


class Rival(BaseModel):
    opponent: str
    games: int
    wins: int = Field(description="games the player ranked above this rival")
    losses: int
    ties: int


class FavouriteCharacter(BaseModel):
    title: str
    name: str
    character: str | None
    seats: int
    wins: int
    win_rate: float
    avg_score: float


class FavouriteExpedition(BaseModel):
    colour: str
    expeditions: int
    avg_score: float
    bonus_rate: float


class PlayerSource(BaseModel):
    title: str
    name: str
    source: str
    avg_points: float | None = Field(description="the player's average per game")
    group_avg_points: float | None = Field(description="every seat's average, the player's included")


class PlayerOut(LeftOut):
    player: str
    games: int
    wins: int
    win_rate: float | None
    titles_played: int
    h_index: int = Field(description="the largest h such that h titles were each played at least h times")
    by_title: list[PlayerTitle]
    by_month: list[PlayerMonth]
    streaks: Streaks
    rivals: list[Rival]
    characters: list[FavouriteCharacter]
    expeditions: list[FavouriteExpedition]
    sources: list[PlayerSource]
    latest: list[LatestGame]


class SeatRate(SeatRow):
    low: float | None = Field(description=_LOW)
    high: float | None = Field(description=_HIGH)
    few: bool = Field(description=_FEW)


class CharacterRate(CharacterRow):
    low: float | None = Field(description=_LOW)
    high: float | None = Field(description=_HIGH)
    few: bool = Field(description=_FEW)


class BeijingRate(BeijingRow):
    low: float | None = Field(description=_LOW)
    high: float | None = Field(description=_HIGH)
    few: bool = Field(description=_FEW)


class BeijingPage(BaseModel):
    by_slot: list[BeijingRate]
    first_win_rate: float | None
    all_seats_win_rate: float | None


class ColourRow(BaseModel):
    colour: str
    expeditions: int
    avg_score: float
    avg_wagers: float
    negative_rate: float
    bonus_rate: float


class CharacterSource(BaseModel):
    character: str | None
    source: str
    avg_points: float


class ContractsPage(BaseModel):
    by_count: list[ContractsRow]
    correlation: float | None


class TitlePageOut(LeftOut):
    title: str
    name: str
    games: int
    players: int
    avg_score: float | None
    best_score: int | None
    seats: list[SeatRate]
    first_player: list[FirstPlayerRow]
    scores: ScoresOut
    sources: list[SourceRow]
    wagers: list[WagerRow] | None = None
    bonus: BonusOut | None = None
    rounds: list[RoundRow] | None = None
    colours: list[ColourRow] | None = None
    characters: list[CharacterRate] | None = None
    character_sources: list[CharacterSource] | None = None
    beijing: BeijingPage | None = None
    contracts: ContractsPage | None = None

