"""The think time of a game: how long each seat took over each decision, from the log's times."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Response
from pydantic import BaseModel

from api.i18n import negotiate
from api.think_time import think_out
from api.http.auth import Svc
from api.http.routes import errors

router = APIRouter(tags=["replay"])

ThinkLang = Annotated[str | None, Query(max_length=35, description="the language of the words (en, es, ja)")]


class DecisionOut(BaseModel):
    step: int
    seat: int
    player: str
    #: the seat's turn, counted from 1 in the game
    turn: int
    #: None: no timing (imported, or entered together with the step before)
    seconds: float | None
    words: str
    took: str


class SaidOut(BaseModel):
    total: str
    median_decision: str
    median_turn: str


class _Timed(BaseModel):
    """What a seat's think time in one game and a player's over a title's games both count."""

    decisions: int
    turns: int
    median_decision_s: float | None
    median_turn_s: float | None


class SeatTimeOut(_Timed):
    seat: int
    player: str
    total_s: float
    said: SaidOut
    slowest: DecisionOut | None


class ThinkTimeOut(BaseModel):
    game_id: str
    #: true while the game goes on: each move is said as the table saw it
    public_only: bool
    players: list[str]
    timed: bool
    #: why there are no timings: score-only, imported, none-yet
    untimed: str | None
    untimed_words: str | None
    seats: list[SeatTimeOut]
    decisions: list[DecisionOut]


@router.get("/games/{game_id}/think-time", response_model=ThinkTimeOut, responses=errors(404, 422))
def read_think_time(
    game_id: str,
    svc: Svc,
    lang: ThinkLang = None,
    accept_language: Annotated[str | None, Header(description="the language of the words (en, es, ja)")] = None,
) -> Response:
    """How long each seat took over each decision (from the step before its move to its move, as
    recorded), with each player's median per decision and per turn, total and slowest decision.
    Public whoever asks: while the game goes on a move is said as the table saw it. A game
    recorded after the fact (imported, or by its result alone) says it has no timings."""
    said = negotiate(lang if lang is not None else accept_language)
    answer = think_out(svc, game_id, said)
    headers = {"Content-Language": said, "Vary": "Accept-Language"}
    return Response(ThinkTimeOut(**answer).model_dump_json(), media_type="application/json", headers=headers)


class SlowestOut(BaseModel):
    game_id: str
    step: int
    seconds: float
    took: str
    words: str
    #: the day the game began (UTC)
    on: str | None


class PlayerSaidOut(BaseModel):
    median_decision: str
    median_turn: str


class PlayerThinkOut(_Timed):
    player: str
    #: the player's finished games with timings
    games: int
    said: PlayerSaidOut
    slowest: SlowestOut | None


class TitleThinkOut(BaseModel):
    title: str
    #: the title's finished games that are not forks, and those of them with timings
    games: int
    timed_games: int
    players: list[PlayerThinkOut]


@router.get("/stats/think-time", response_model=TitleThinkOut, responses=errors(422), tags=["statistics"])
def read_title_think_time(
    svc: Svc,
    title: Annotated[str, Query(max_length=64, description="the title (lost-cities, marco-polo, marco-polo-2)")],
    lang: ThinkLang = None,
    accept_language: Annotated[str | None, Header(description="the language of the words (en, es, ja)")] = None,
) -> Response:
    """Per player, think time over a title's latest 200 finished games (forks and games recorded
    after the fact left out): the median decision and turn, and the slowest decision, with its game, step
    and day in words."""
    from api.think_time import title_think_out

    said = negotiate(lang if lang is not None else accept_language)
    answer = title_think_out(svc, title, said)
    headers = {"Content-Language": said, "Vary": "Accept-Language"}
    return Response(TitleThinkOut(**answer).model_dump_json(), media_type="application/json", headers=headers)
