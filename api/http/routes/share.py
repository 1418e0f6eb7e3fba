"""Share links, the picture of a final table, the embed frame and the end-of-game slip.

- ``POST /games/{game_id}/shares`` (write token): a read-only link to the game, optionally at one
  step; ``DELETE /games/{game_id}/shares/{share}`` withdraws it, ``DELETE /games/{game_id}/shares``
  every link of the game.
- ``GET /shared/{share}``: the ended game the link opens, with its replay (no token); a game in
  progress, a withdrawn or an unknown link is refused, and nothing of the game is shown.
- ``GET /shared/{share}/picture`` and ``GET /games/{game_id}/picture``: the final table as SVG or PNG.
- ``GET /embed/{share}``: the replay in a frame page other sites may put in an ``<iframe>``.
- ``GET /games/{game_id}/slip``: the end-of-game slip (JSON, its QR code as SVG, or a PNG);
  ``POST /slips/check``: whether a slip matches the stored, verified log, in words.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Response, status
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from api.errors import UnknownShare
from api.http.auth import Credentials, Svc, require_ended, require_write
from api.http.models import Strict
from api.http.routes import errors
from api.http.routes.web import STATIC
from api.http.streaming import frame_out
from api import i18n
from api.i18n import negotiate
from api.share import card, check_out, ended_date, open_link, slip_out
from events.messages import phrase
from events.shares import ShareLink
from replay import frames as replay_frames
from replay.slip import MAX_TEXT

router = APIRouter(tags=["sharing"])

PictureFormat = Annotated[Literal["svg", "png"], Query(description="the picture as SVG or PNG")]
Lang = Annotated[str | None, Query(max_length=35, description="the language of the words (en, es, ja)")]
AcceptLanguage = Annotated[str | None, Header(description="the language of the words (en, es, ja)")]
_IMAGES = {200: {"content": {"image/svg+xml": {}, "image/png": {}}, "description": "the picture"}}


class ShareIn(Strict):
    at: int | None = Field(None, ge=0, le=1_000_000, description="the replay's step the link opens at (default: the end)")


class ShareOut(BaseModel):
    share: str = Field(description="the link's token, shown only now")
    game_id: str
    at: int | None
    link: str = Field(description="the page that opens the replay, with no token")
    embed: str = Field(description="the frame page for an <iframe>")
    picture: str = Field(description="the final table as a picture (add ?format=png)")


class WithdrawnOut(BaseModel):
    game_id: str
    withdrawn: int = Field(description="how many links were open and are now withdrawn")


class SharedOut(BaseModel):
    title: str
    title_name: str
    players: list[str]
    outcome: dict[str, list[int]]
    ended_on: str = Field(description="the day the game ended (UTC, ISO)")
    at: int = Field(description="the step the link opens at")
    frames: list[dict[str, Any]] = Field(description="the replay's frames in the full view (diff mode), as /frames answers them")
    content: dict[str, Any]


class SlipOut(BaseModel):
    text: str = Field(description="the slip as one line: what its QR code holds")
    game_id: str
    seq: int
    players: list[str]
    scores: list[int]
    head: str = Field(description="the chain hash of the log's event at seq (hex)")
    seal: str = Field(description="the store's keyed MAC of the rest (base64url)")


class SlipIn(Strict):
    slip: str = Field(max_length=MAX_TEXT * 4, description="a slip's text, as its QR code holds it")


class PartOut(BaseModel):
    part: Literal["seal", "game", "log", "head", "scores"]
    ok: bool | None = Field(description="null: not checked, an earlier part failed")
    words: str


class CheckOut(BaseModel):
    matches: bool
    verified: bool | None = Field(description="the stored log verified; null when there is no such game")
    game_id: str
    seq: int
    words: str
    parts: list[PartOut]
    since: int | None = Field(description="the log's last seq now, when the game has gone on since the slip")
    since_words: str | None


def _links(token: str) -> dict[str, str]:
    return {"link": f"/?share={token}", "embed": f"/embed/{token}", "picture": f"/shared/{token}/picture"}


@router.post("/games/{game_id}/shares", status_code=status.HTTP_201_CREATED, response_model=ShareOut, responses=errors(401, 403, 404, 422))
def make_share(game_id: str, svc: Svc, creds: Credentials, body: ShareIn | None = None) -> ShareOut:
    """A read-only link to this game (the write token's holder makes it). It opens the replay with
    no token once the game has ended, at ``at`` if given; while the game goes on it shows nothing."""
    require_write(svc, game_id, creds, phrase("what/sharing", "sharing a game"))
    at = body.at if body is not None else None
    token = svc.shares.make(game_id, at)
    return ShareOut(share=token, game_id=game_id, at=at, **_links(token))


@router.delete("/games/{game_id}/shares/{share}", response_model=WithdrawnOut, responses=errors(401, 403, 404, 422))
def withdraw_share(game_id: str, share: str, svc: Svc, creds: Credentials) -> WithdrawnOut:
    """Withdraw one link of this game: from now on it answers ``share-withdrawn`` (410)."""
    require_write(svc, game_id, creds, phrase("what/withdrawing", "withdrawing a share link"))
    link = svc.shares.find(share) if len(share) <= 64 else None
    if link is None or link.game_id != game_id:
        raise UnknownShare("no share link of this store has this token", params={})
    return WithdrawnOut(game_id=game_id, withdrawn=svc.shares.withdraw(game_id, share))


@router.delete("/games/{game_id}/shares", response_model=WithdrawnOut, responses=errors(401, 403, 404, 422))
def withdraw_shares(game_id: str, svc: Svc, creds: Credentials) -> WithdrawnOut:
    """Withdraw every link of this game."""
    require_write(svc, game_id, creds, phrase("what/withdrawing", "withdrawing a share link"))
    return WithdrawnOut(game_id=game_id, withdrawn=svc.shares.withdraw(game_id))


def _shared(svc: Any, link: ShareLink, game: Any, lang: str) -> dict[str, Any]:
    """What a share link opens: the ended game's summary and its replay in the full view (an
    ended game hides nothing), at the link's step (the last one if the game has fewer now)."""
    steps = replay_frames.frames(
        svc.projector, link.game_id, perspective=replay_frames.Perspective(full=True, all_moves=True), diff=True
    )
    frames = [frame_out(step, lang) for step in steps]
    at = len(frames) - 1 if link.at is None else min(link.at, len(frames) - 1)
    ended = game.ended
    return {
        "title": game.title.id, "title_name": i18n.title_name(game.title, lang), "players": list(game.players),
        "outcome": {"scores": list(ended.scores), "ranks": list(ended.ranks), "winners": list(ended.winners)},
        "ended_on": ended_date(svc, link.game_id), "at": at, "frames": frames,
        "content": game.title.table_content(game.state) or {},
    }


@router.get("/shared/{share}", response_model=SharedOut, responses=errors(403, 404, 409, 410, 422))
def read_shared(share: str, svc: Svc, lang: Lang = None, accept_language: AcceptLanguage = None) -> Response:
    """The ended game a share link opens, with its replay (the full view: an ended game hides
    nothing). A game in progress is refused (``shared-game-in-progress``) and nothing of it is
    shown; a withdrawn link answers 410 ``share-withdrawn``, an unknown one 404 ``unknown-share``."""
    said = negotiate(lang if lang is not None else accept_language)
    link, game = open_link(svc, share)
    body = SharedOut(**_shared(svc, link, game, said)).model_dump_json()
    return Response(body, media_type="application/json", headers={"Content-Language": said, "Vary": "Accept-Language"})


def _picture(svc: Any, game_id: str, game: Any, fmt: str, lang: str, slip: str | None = None) -> Response:
    from projections.stats.charts import MEDIA_TYPES
    from replay.table_picture import draw

    image = draw(card(svc, game_id, game, lang), fmt, slip)  # type: ignore[arg-type]
    return Response(image, media_type=MEDIA_TYPES[fmt], headers={"Content-Language": lang, "Vary": "Accept-Language"})


@router.get("/shared/{share}/picture", responses={**_IMAGES, **errors(403, 404, 409, 410, 422)})
def shared_picture(share: str, svc: Svc, format: PictureFormat = "svg", lang: Lang = None, accept_language: AcceptLanguage = None) -> Response:
    """The final table of the shared game as a picture for a group chat: the title, the day it
    ended, each player's score, the winners."""
    link, game = open_link(svc, share)
    return _picture(svc, link.game_id, game, format, negotiate(lang if lang is not None else accept_language))


@router.get("/games/{game_id}/picture", responses={**_IMAGES, **errors(403, 404, 409, 422)})
def game_picture(game_id: str, svc: Svc, format: PictureFormat = "svg", lang: Lang = None, accept_language: AcceptLanguage = None) -> Response:
    """The final table as a picture (as ``/shared/{share}/picture``), once the game has ended."""
    game = svc.projector.state(game_id)
    require_ended(game_id, game, phrase("what/picture", "the picture of the final table"), "picture-before-end")
    return _picture(svc, game_id, game, format, negotiate(lang if lang is not None else accept_language))


@router.get("/games/{game_id}/slip", response_model=SlipOut,
            responses={200: {"content": {"application/json": {}, "image/svg+xml": {}, "image/png": {}}, "description": "the slip"}, **errors(403, 404, 409, 422)})
def read_slip(
    game_id: str, svc: Svc, format: Annotated[Literal["json", "svg", "png"], Query(description="JSON, the QR code as SVG, or the slip as PNG")] = "json",
    lang: Lang = None, accept_language: AcceptLanguage = None,
) -> Response:
    """The end-of-game slip: the game's id, its final scores and its log's head hash, sealed with
    the store's key, as one line (``text``) that its QR code holds. Once the game has ended."""
    game = svc.projector.state(game_id)
    require_ended(game_id, game, phrase("what/slip", "the end-of-game slip"), "slip-before-end")
    slip = slip_out(svc, game_id, game)
    if format == "json":
        return Response(SlipOut(**slip).model_dump_json(), media_type="application/json")
    if format == "svg":
        from replay.table_picture import qr_svg

        return Response(qr_svg(slip["text"]), media_type="image/svg+xml")
    return _picture(svc, game_id, game, "png", negotiate(lang if lang is not None else accept_language), slip["text"])


@router.post("/slips/check", response_model=CheckOut, responses=errors(422))
def check_slip(body: SlipIn, svc: Svc, lang: Lang = None, accept_language: AcceptLanguage = None) -> Response:
    """Whether a slip matches this store's stored, verified log, part by part in words: the seal,
    the game, the log's verification, the head hash at the slip's seq, the scores at the end.
    Text that is no slip is refused with ``bad-slip``."""
    said = negotiate(lang if lang is not None else accept_language)
    answer = CheckOut(**check_out(svc, body.slip, said)).model_dump_json()
    return Response(answer, media_type="application/json", headers={"Content-Language": said, "Vary": "Accept-Language"})


@router.get("/embed/{share}", include_in_schema=False)
def embed(share: str) -> FileResponse:
    """The frame page: it asks ``/shared/{share}`` itself, so it holds nothing of any game."""
    return FileResponse(STATIC / "embed.html", headers={"Cache-Control": "no-cache"})
