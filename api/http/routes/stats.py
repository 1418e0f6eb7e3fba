"""Statistics over the play history: canned questions, charts, and read-only SQL over the views.

Every question counts finished games, leaves forks out unless ``include_forks``, and first brings
the statistics tables up to date, so an answer never lags the log.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import Response

from api import i18n
from api.http.routes import NamesLanguage
from api.http.auth import Svc
from api.errors import MalformedRequest
from api.http.models import ErrorOut, Moment
from api.http.stats_models import (
    BeijingOut,
    BonusOut,
    CharactersOut,
    ContractsOut,
    HeadToHeadOut,
    LeaderboardOut,
    RoundsOut,
    ScoresOut,
    SeatsOut,
    SourcesOut,
    SqlIn,
    SqlOut,
    ViewOut,
    WagersOut,
)
from api.http.services import Services
from api.http.stats_page_models import DashboardOut, PlayerOut, StatsIndexOut, TitlePageOut
from projections.stats import charts, sql
from projections.stats.pages import Pages
from projections.stats.questions import Filters, Questions
from rules import titles

#: how many stored games every statistics answer leaves out because this code cannot read them
LEFT_OUT_HEADER = "Tabletape-Left-Out"


def left_out(svc: Svc, response: Response) -> None:
    """Say on every answer how many games it leaves out (``GET /health`` names them)."""
    count = len(svc.projector.quarantine.ids())
    if count:
        response.headers[LEFT_OUT_HEADER] = str(count)


router = APIRouter(tags=["statistics"], dependencies=[Depends(left_out)])

_WHY = {
    400: "a refused or failed SQL query (`sql-refused`, `sql-parse-error`, `sql-error`, `sql-timeout`, "
    "`sql-memory-limit`, `sql-result-too-large`)",
    503: "every SQL sandbox stayed busy for the query's time limit (`sql-busy`)",
    422: "malformed filters, or a question asked of a title it does not cover",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorOut, "description": _WHY[status]} for status in statuses}


def option_pairs(options: list[str]) -> tuple[tuple[str, Any], ...]:
    pairs = []
    for text in options:
        key, eq, value = text.partition("=")
        if not eq or not key:
            raise MalformedRequest("option takes key=value, not {text!r}", params=dict(text=text), code="malformed-request")
        try:
            pairs.append((key, json.loads(value)))
        except ValueError:
            pairs.append((key, value))
    return tuple(pairs)


def filters(
    title: Annotated[str | None, Query(max_length=64, description="only this title")] = None,
    player: Annotated[str | None, Query(max_length=64, description="a player's name, any case")] = None,
    date_from: Annotated[Moment | None, Query(description="games created at or after (UTC if no offset)")] = None,
    date_to: Annotated[Moment | None, Query(description="games created before (exclusive)")] = None,
    option: Annotated[
        list[str], Query(max_length=20, description="an option as key=value (repeatable), defaults included")
    ] = [],  # noqa: B006  (FastAPI copies defaults)
    include_forks: Annotated[bool, Query(description="count forked games too")] = False,
) -> Filters:
    return Filters(title, player, date_from, date_to, option_pairs(option), include_forks)


def title_filters(
    player: Annotated[str | None, Query(max_length=64, description="a player's name, any case")] = None,
    date_from: Annotated[Moment | None, Query(description="games created at or after (UTC if no offset)")] = None,
    date_to: Annotated[Moment | None, Query(description="games created before (exclusive)")] = None,
    option: Annotated[
        list[str], Query(max_length=20, description="an option as key=value (repeatable), defaults included")
    ] = [],  # noqa: B006
    include_forks: Annotated[bool, Query(description="count forked games too")] = False,
) -> Filters:
    """The filters of a question whose title is in its path."""
    return Filters(None, player, date_from, date_to, option_pairs(option), include_forks)


Keep = Annotated[Filters, Depends(filters)]
KeepInTitle = Annotated[Filters, Depends(title_filters)]


def questions(svc: Services) -> Questions:
    return Questions(svc.projector.read_models)


def _with_title(keep: Filters, title: str) -> Filters:
    return Filters(title, keep.player, keep.date_from, keep.date_to, keep.options, keep.include_forks)


# -- the statistics page: its index and one answer per screen --------------------------------------


def pages(svc: Services) -> Pages:
    return Pages(svc.projector.read_models)


def named(page: Any, lang: str) -> Any:
    """The page with each title's ``name`` as its edition in ``lang`` prints it."""
    if isinstance(page, list):
        return [named(v, lang) for v in page]
    if not isinstance(page, dict):
        return page
    out = {k: named(v, lang) for k, v in page.items()}
    known = titles()
    if isinstance(out.get("title"), str) and out["title"] in known and "name" in out:
        out["name"] = i18n.title_name(known[out["title"]], lang)
    return out


def paged(svc: Services, page: dict[str, Any], accept_language: str | None) -> dict[str, Any]:
    """A page in the reader's language, with the games it leaves out because they cannot be read."""
    lang = i18n.negotiate(accept_language)
    return {**named(page, lang), "left_out": svc.unreadable(lang)}


@router.get("/stats", response_model=StatsIndexOut, responses=errors(422))
def stats_index(svc: Svc, accept_language: NamesLanguage = None) -> StatsIndexOut:
    """What the statistics page starts from: its endpoints, the titles with finished games (and the
    options they were played with), and the players."""
    return StatsIndexOut(**paged(svc, pages(svc).index(), accept_language))


@router.get("/stats/dashboard", response_model=DashboardOut, responses=errors(422))
def stats_dashboard(svc: Svc, keep: Keep, accept_language: NamesLanguage = None) -> DashboardOut:
    """The group's dashboard: leaderboard, the latest games, games per month, a summary per title
    (score-only records counted)."""
    return DashboardOut(**paged(svc, pages(svc).dashboard(keep), accept_language))


@router.get("/stats/player", response_model=PlayerOut, responses=errors(422))
def stats_player(
    svc: Svc,
    keep: Keep,
    name: Annotated[str, Query(min_length=1, max_length=64, description="the player's name, any case")],
    accept_language: NamesLanguage = None,
) -> PlayerOut:
    """One player's page: games and wins per title and per month, streaks, rivals, favourite
    characters and expeditions, points by source against the group (``player`` is ignored)."""
    return PlayerOut(**paged(svc, pages(svc).player(name, keep), accept_language))


@router.get("/stats/titles/{title}", response_model=TitlePageOut, responses=errors(422))
def stats_title(title: Annotated[str, Path(max_length=64)], svc: Svc, keep: KeepInTitle, accept_language: NamesLanguage = None) -> TitlePageOut:
    """One title's page: win rate by seat and character with 95 % Wilson intervals, scores, points
    by source, and the title's own questions (Lost Cities' wagers, bonus, colours and rounds; Marco
    Polo's Beijing and contracts)."""
    return TitlePageOut(**paged(svc, pages(svc).title(title, keep), accept_language))


# -- questions of every title ---------------------------------------------------------------------


# a row holds the rating only when ordered by it: the win-rate leaderboard reads as it always did
@router.get("/stats/leaderboard", response_model=LeaderboardOut, response_model_exclude_unset=True, responses=errors(422))
def leaderboard(
    svc: Svc,
    keep: Keep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    order: Annotated[Literal["win-rate", "rating"], Query(description="rating: by the title's rating (needs title)")] = "win-rate",
) -> LeaderboardOut:
    """Per player: games, wins, win rate, average / best / worst score (with ``player``: the games
    that player took part in); ordered by win rate, or by rating (each row then has it)."""
    if order == "rating":
        from projections.stats.ratings import Ratings, leaderboard as by_rating

        return LeaderboardOut(rows=by_rating(Ratings(svc.projector.read_models), keep, limit))
    return LeaderboardOut(rows=questions(svc).leaderboard(keep, limit))


@router.get("/stats/head-to-head", response_model=HeadToHeadOut, responses=errors(422))
def head_to_head(
    svc: Svc,
    keep: Keep,
    opponent: Annotated[str | None, Query(max_length=64, description="only against this player")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> HeadToHeadOut:
    """Records between players on opposing sides: ``player``'s against each rival, or every pair."""
    return HeadToHeadOut(rows=questions(svc).head_to_head(keep, opponent, limit))


@router.get("/stats/seats", response_model=SeatsOut, responses=errors(422))
def seats(svc: Svc, keep: Keep) -> SeatsOut:
    """Win rate by seat, and of the first player against the other seats (``title`` required)."""
    return SeatsOut(**questions(svc).seats(keep))


@router.get("/stats/scores", response_model=ScoresOut, responses=errors(422))
def scores(
    svc: Svc, keep: Keep, bin_width: Annotated[int | None, Query(ge=1, le=10_000)] = None
) -> ScoresOut:
    """The distribution of final scores per seat: summary and histogram (``title`` required)."""
    return ScoresOut(**questions(svc).scores(keep, bin_width))


@router.get("/stats/sources", response_model=SourcesOut, responses=errors(422))
def sources(svc: Svc, keep: Keep) -> SourcesOut:
    """Points by source (``title`` required): average per seat, share, the winners' average."""
    return SourcesOut(title=keep.title or "", rows=questions(svc).sources(keep))


# -- charts (before the per-title routes: /stats/charts/... is not a title) -----------------------

ChartFormat = Annotated[Literal["svg", "png"], Query(description="image format")]
_IMAGE = {200: {"content": {"image/svg+xml": {}, "image/png": {}}, "description": "the chart"}}


def _image(data: bytes, fmt: str) -> Response:
    return Response(content=data, media_type=charts.MEDIA_TYPES[fmt])


@router.get("/stats/charts/scores", response_class=Response, responses={**_IMAGE, **errors(422)})
def chart_scores(svc: Svc, keep: Keep, format: ChartFormat = "svg") -> Response:
    """Histogram of final scores (``title`` required)."""
    return _image(charts.scores(questions(svc).scores(keep), format), format)


@router.get("/stats/charts/seats", response_class=Response, responses={**_IMAGE, **errors(422)})
def chart_seats(svc: Svc, keep: Keep, format: ChartFormat = "svg") -> Response:
    """Win rate by seat (``title`` required)."""
    return _image(charts.seats(questions(svc).seats(keep), format), format)


@router.get("/stats/charts/characters", response_class=Response, responses={**_IMAGE, **errors(422)})
def chart_characters(svc: Svc, keep: Keep, format: ChartFormat = "svg") -> Response:
    """Win rate by character (``title``: marco-polo by default)."""
    keep = keep if keep.title else _with_title(keep, "marco-polo")
    answer = questions(svc).title_question(keep, "characters")
    return _image(charts.characters(answer, keep.title or "", format), format)


# -- a title's own questions ------------------------------------------------------------------------


@router.get("/stats/lost-cities/wagers", response_model=WagersOut, responses=errors(422))
def lost_cities_wagers(svc: Svc, keep: KeepInTitle) -> WagersOut:
    """Does investing pay? Opened expeditions by wager cards: average score, sum, losses, bonus."""
    return WagersOut(rows=questions(svc).title_question(_with_title(keep, "lost-cities"), "wagers"))


@router.get("/stats/lost-cities/bonus", response_model=BonusOut, responses=errors(422))
def lost_cities_bonus(svc: Svc, keep: KeepInTitle) -> BonusOut:
    """How often the 8-card bonus is earned."""
    return BonusOut(**questions(svc).title_question(_with_title(keep, "lost-cities"), "bonus"))


@router.get("/stats/lost-cities/rounds", response_model=RoundsOut, responses=errors(422))
def lost_cities_rounds(svc: Svc, keep: KeepInTitle) -> RoundsOut:
    """Expeditions opened and the score per round (per side)."""
    return RoundsOut(rows=questions(svc).title_question(_with_title(keep, "lost-cities"), "rounds"))


TitlePath = Annotated[str, Path(max_length=64, description="a title with characters: marco-polo (marco-polo-2 once it lands)")]


@router.get("/stats/{title}/characters", response_model=CharactersOut, responses=errors(422))
def characters(title: TitlePath, svc: Svc, keep: KeepInTitle) -> CharactersOut:
    """Win rate and average score by character."""
    rows = questions(svc).title_question(_with_title(keep, title), "characters")
    return CharactersOut(title=title, rows=rows)


@router.get("/stats/{title}/beijing", response_model=BeijingOut, responses=errors(422))
def beijing(title: TitlePath, svc: Svc, keep: KeepInTitle) -> BeijingOut:
    """Does reaching Beijing first win? Win rate by arrival slot against every seat's."""
    return BeijingOut(title=title, **questions(svc).title_question(_with_title(keep, title), "beijing"))


@router.get("/stats/{title}/contracts", response_model=ContractsOut, responses=errors(422))
def contracts(title: TitlePath, svc: Svc, keep: KeepInTitle) -> ContractsOut:
    """Contracts completed against the final rank."""
    return ContractsOut(title=title, **questions(svc).title_question(_with_title(keep, title), "contracts"))


# -- read-only SQL ----------------------------------------------------------------------------------


@router.get("/sql/views", response_model=list[ViewOut])
def sql_views() -> list[ViewOut]:
    """The views ``POST /sql`` can read, with what a row of each is."""
    return [ViewOut(name=name, description=doc) for name, (_, doc) in sorted(sql.views().items())]


@router.post("/sql", response_model=SqlOut, responses=errors(400, 422, 503))
def run_sql(body: SqlIn, svc: Svc) -> SqlOut:
    """One read-only SELECT over the documented views (``GET /sql/views``), in a sandbox without
    file or network access; at most ``row_limit`` rows and the server's byte limit of JSON (8 MiB
    unless set), 1 GB of memory, stopped after ``time_limit_s``."""
    answer = sql.run(
        svc.projector.read_models, body.query, body.row_limit, body.time_limit_s, svc.settings.sql_byte_limit
    )
    return SqlOut.model_validate(answer, from_attributes=True)
