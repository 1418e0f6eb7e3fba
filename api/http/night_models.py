"""Pydantic models of the tournament night endpoints (``api/http/routes/nights.py``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from api.http.models import JsonObject, Strict
from api.http.season_models import Standing

#: generous at the edge: the rules of a night (projections.nights) refuse past their own limits,
#: naming the field, before anything is written
_TEXT = 1_000


class NightIn(Strict):
    name: str = Field(max_length=_TEXT, description="the night's name (at most 80 characters)")
    title: str = Field(max_length=64, description="the title every table plays (lost-cities, marco-polo, marco-polo-2)")
    rounds: int = Field(description="how many rounds the night has, 1 to 20 (night-rounds-out-of-range otherwise, as on the command line)")
    players: list[str] = Field(default_factory=list, max_length=200, description="the players' names (2 to 100, each once)")
    season_id: str | None = Field(None, max_length=80, description="instead of players: this season's members")
    seed: str | None = Field(None, max_length=64, description="the draws' seed (drawn by the server when left out)")
    options: JsonObject = Field(default_factory=dict, description='every table\'s game options, e.g. {"rounds": 1}')


class PlayerIn(Strict):
    player: str = Field(max_length=_TEXT, description="the player's name")


class TableOut(BaseModel):
    table: int = Field(description="the table's number in its round, from 1")
    players: list[str] = Field(description="the names in seat order")
    game_id: str
    ended: bool
    scores: list[int] | None = Field(description="each seat's score once the game has ended (None: still playing)")
    write_token: str | None = Field(None, description="the game's write token: only with the night's token")


class DrawOut(BaseModel):
    round: int
    tables: list[TableOut]
    byes: list[str] = Field(description="who sat this round out (a bye counts as a win)")


class NightStandingRow(Standing):
    """A player's line in a night: most night points first, then most points scored, then the
    title's tie-break, then name."""

    night_points: float = Field(description="per finished game the share of the table beaten (a tie counts half); a bye counts 1")
    tiebreak: int = Field(description="the title's tie-break added up (Marco Polo: camels; 0 for a title without one)")
    byes: int
    dropped: bool


class NightOut(BaseModel):
    night_id: str
    name: str
    title: str
    title_name: str = Field("", description="the title's name in the reader's language")
    rounds: int
    seed: str
    players: list[str]
    options: dict[str, Any] = Field(default_factory=dict)
    present: list[str] = Field(default_factory=list, description="who the next draw seats")
    dropped: list[str]
    rounds_drawn: int
    standings: list[NightStandingRow] = Field(default_factory=list)
    draws: list[DrawOut] = Field(default_factory=list)


class NightOpenedOut(NightOut):
    token: str = Field(description="the night's token, shown only now: it draws rounds, seats late players and drops")


class NightsOut(BaseModel):
    nights: list[NightOut]
