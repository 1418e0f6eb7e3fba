"""Tournament nights: opened by anyone (the answer holds the night's token, shown once), its
rounds drawn, late players and drops with that token; its standings and tables read by anyone
(with the night's token, each table's write token too, for its recording link and QR code)."""

from __future__ import annotations

from typing import Annotated, Any, Callable

from fastapi import APIRouter, Path, status
from fastapi.concurrency import run_in_threadpool

from api import i18n
from api import nights as night_door
from api.http.auth import Credentials, Svc
from api.http.night_models import NightIn, NightOpenedOut, NightOut, NightsOut, PlayerIn
from api.http.routes import NamesLanguage, errors
from api.http.services import Services
from projections.nights import Night
from projections.seasons import Seasons
from replay import nights as write
from rules import titles

router = APIRouter(tags=["nights"])

NightId = Annotated[str, Path(max_length=80, description="the night's id (night-...)")]


def _token(creds: Any) -> str | None:
    return creds.credentials if creds is not None and creds.credentials else None


def _out(svc: Any, night: Any, lang: str, token: str | None = None) -> dict[str, Any]:
    return {**night_door.view(svc, night, token), "title_name": i18n.title_name(titles()[night.title], lang)}


@router.post("/nights", status_code=status.HTTP_201_CREATED, response_model=NightOpenedOut, responses=errors(404, 422))
def open_night(body: NightIn, svc: Svc, accept_language: NamesLanguage = None) -> NightOpenedOut:
    """Open a night: its name, title, rounds, and its players (or a season's members); the answer
    holds the night's token, shown only now. A refusal is 422 ``{code, message, field}``."""
    players = list(body.players)
    if body.season_id is not None:
        players = list(Seasons(svc.log, svc.projector.read_models).get(body.season_id).members)
    night, token = night_door.open_night(svc, body.name, body.title, body.rounds, players, body.seed, body.options, actor="night")
    return NightOpenedOut(**_out(svc, night, i18n.negotiate(accept_language)), token=token)


@router.get("/nights", response_model=NightsOut, responses=errors(422))
def list_nights(svc: Svc, accept_language: NamesLanguage = None) -> NightsOut:
    """Every night, the newest first (without standings or tables)."""
    lang = i18n.negotiate(accept_language)
    known = titles()
    return NightsOut(nights=[NightOut(**n.as_dict(), present=list(n.present), title_name=i18n.title_name(known[n.title], lang))
                             for n in night_door.nights_of(svc).all()])


@router.get("/nights/{night_id}", response_model=NightOut, responses=errors(403, 404, 409, 422))
def get_night(night_id: NightId, svc: Svc, creds: Credentials, accept_language: NamesLanguage = None) -> NightOut:
    """A night's standings (as each table's game ends) and every round's tables. With the night's
    token (``Authorization: Bearer``) each table also holds its game's write token."""
    night = night_door.nights_of(svc).get(night_id)
    token = _token(creds)
    if token is not None:
        night_door.check_token(svc, night_id, token)
    return NightOut(**_out(svc, night, i18n.negotiate(accept_language), token))


@router.post("/nights/{night_id}/rounds", status_code=status.HTTP_201_CREATED, response_model=NightOut,
             responses=errors(401, 403, 404, 409, 422))
async def draw_round(night_id: NightId, svc: Svc, creds: Credentials, accept_language: NamesLanguage = None) -> NightOut:
    """Draw the next round (the night's token): each table's game is created, with its write token
    in the answer. 409 ``night-round-playing`` while a table of the last round plays on,
    ``night-rounds-done`` once every round is drawn."""
    token = _token(creds)

    def drawn() -> dict[str, Any]:
        night = night_door.draw_round(svc, night_id, token, actor="night")  # type: ignore[arg-type]
        return _out(svc, night, i18n.negotiate(accept_language), token)

    if token is None:
        night_door.nights_of(svc).get(night_id)
        night_door.check_token(svc, night_id, None)
    return NightOut(**await run_in_threadpool(drawn))


@router.post("/nights/{night_id}/players", response_model=NightOut, responses=errors(401, 403, 404, 409, 422))
def join_player(night_id: NightId, body: PlayerIn, svc: Svc, creds: Credentials, accept_language: NamesLanguage = None) -> NightOut:
    """A late player (or one back after a drop), seated from the next draw on (the night's token)."""
    return _seat_changed(svc, creds, night_id, write.join, body.player, accept_language)


@router.post("/nights/{night_id}/drops", response_model=NightOut, responses=errors(401, 403, 404, 409, 422))
def drop_player(night_id: NightId, body: PlayerIn, svc: Svc, creds: Credentials, accept_language: NamesLanguage = None) -> NightOut:
    """A player who leaves: in no draw from the next round on (the night's token)."""
    return _seat_changed(svc, creds, night_id, write.drop, body.player, accept_language)


def _seat_changed(
    svc: Services, creds: Any, night_id: str, change: Callable[..., Night], player: str, accept_language: str | None
) -> NightOut:
    """A join or a drop, once the night is known and its token checked; the night after it."""
    nights = night_door.nights_of(svc)
    nights.get(night_id)
    night_door.check_token(svc, night_id, _token(creds))
    return NightOut(**_out(svc, change(nights, night_id, player, actor="night"), i18n.negotiate(accept_language)))
