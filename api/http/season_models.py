"""Pydantic models of the season endpoints (``api/http/routes/seasons.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

#: generous at the edge: the rules of a season (projections.seasons) refuse past their own limits,
#: naming the field, before anything is written
_TEXT = 1_000


class SeasonIn(BaseModel):
    name: str = Field(max_length=_TEXT, description="the season's name (unique, any case; at most 80 characters)")
    titles: list[str] = Field(max_length=16, description="the titles it counts (lost-cities, marco-polo, marco-polo-2)")
    starts: str = Field(max_length=40, description="its first day, YYYY-MM-DD (UTC)")
    ends: str = Field(max_length=40, description="its last day, YYYY-MM-DD (UTC), not before the first")
    members: list[str] = Field(max_length=200, description="its members' names (2 to 100, each once)")


class SeasonAmendIn(BaseModel):
    """Each field given replaces the one in force; a field left out is kept."""

    name: str | None = Field(None, max_length=_TEXT)
    titles: list[str] | None = Field(None, max_length=16)
    starts: str | None = Field(None, max_length=40)
    ends: str | None = Field(None, max_length=40)
    members: list[str] | None = Field(None, max_length=200)


class SeasonOut(BaseModel):
    season_id: str
    name: str
    titles: list[str]
    starts: str
    ends: str
    members: list[str]
    amendments: int = Field(description="corrections appended since it was defined")
    title_names: list[str] = Field(default_factory=list, description="the titles' names in the reader's language")


class SeasonsOut(BaseModel):
    seasons: list[SeasonOut]


class Standing(BaseModel):
    """A player's line in a table of standings: where they stand, and what their games add up to."""

    position: int = Field(description="from 1, in the order the table's description gives")
    player: str
    games: int
    wins: int = Field(description="games the player finished first (ties included)")
    points: int = Field(description="the player's scores added up")


class StandingRow(Standing):
    """A member's line in a season: most wins first, then most points, then the title's tie-break,
    then name."""

    rating: float | None = Field(description="mu - 3 sigma of a rating over this season's games alone (None: no game yet)")
    mu: float | None
    sigma: float | None
    tiebreak: int | None = Field(description="the title's tie-break added up (Marco Polo: camels; None: the title has none)")


class TitleStandings(BaseModel):
    title: str
    title_name: str = Field(description="the title's name in the reader's language")
    rows: list[StandingRow]


class SeasonStandingsOut(SeasonOut):
    standings: list[TitleStandings]
