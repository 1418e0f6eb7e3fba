"""Who may do and see what.

- Writes (moves, undo, redo, amend) need the game's **write token**. It is the recorder's: it
  drives the game, so it also gets the legal moves (which can show the hand of the seat to move,
  and in digital play the next card of a deck). It opens no seat's view and not the full view.
- A seat's view needs **that seat's token**.
- The public view, frames and the live stream in public eyes need no token.
- What would reveal secrets to anyone — the full view, the raw log (a digital shuffle, every
  drawn card), the seed — is open to everyone once the game has ended, and to no one before.
- The statistics, SQL views, charts and exports take no token, so they hold a game in progress
  only as its public ``games`` row, and everything else of it once it has ended
  (``projections.stats.sql.ENDED_GAMES``; ``api.formats.jsonl.export_lines``).
- A live stream keeps the eyes it asked for only while they stay open: an undo that takes an
  ended game back into play closes the full view (and a seat's view without its token), and
  re-issued tokens close a seat's view. The stream then goes on in the public view.
- Forking a game still in progress needs its write token, and the fork keeps the parent's
  tokens (the same people hold the same seats); forking an ended game is open to all and the
  fork gets new tokens. Re-issuing tokens replaces them in every game that shares them (the
  game, its forks made in progress, the game it was forked from): a revoked token opens nothing.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.http.by_hand import bearer_token
from api.errors import MalformedRequest, NotYetVisible, TokenMissing, TokenWrong
from api.http.services import Services
from projections.fold import GameState
from replay.frames import Perspective
from events.messages import phrase


class _Bearer(HTTPBearer):
    """HTTPBearer in the schema; the header read by ``bearer_token``, as on the moves lane."""

    async def __call__(self, request: Request) -> HTTPAuthorizationCredentials | None:  # type: ignore[override]
        return bearer_token(request.headers.get("authorization"))


bearer = _Bearer(
    scheme_name="HTTPBearer",
    auto_error=False,
    description="a game's write token (to record) or a seat's token (to see that seat's hand)",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


async def services(request: Request) -> Services:
    # async, so FastAPI runs it on the event loop instead of handing it to a worker thread
    return request.app.state.services


Svc = Annotated[Services, Depends(services)]


def _token(creds: HTTPAuthorizationCredentials | None) -> str | None:
    return creds.credentials if creds is not None and creds.credentials else None


def require_write(
    svc: Services, game_id: str, creds: HTTPAuthorizationCredentials | None, what: str = phrase("what/a-write", "a write")
) -> None:
    """The game exists and the bearer holds its write token."""
    svc.projector.history(game_id)  # raises UnknownGame: a 404 comes before any token question
    token = _token(creds)
    if token is None:
        raise TokenMissing("{what} needs the game's write token: Authorization: Bearer <token>", params=dict(what=what), game_id=game_id)
    if not svc.tokens.check_write(game_id, token):
        raise TokenWrong("this token is not the write token of this game", game_id=game_id)


def ended(game: GameState) -> bool:
    return game.ended is not None


def require_ended_or_write(
    svc: Services, game_id: str, game: GameState, creds: HTTPAuthorizationCredentials | None, what: str
) -> None:
    """Open to all once the game has ended; before that, the recorder's (write token)."""
    if not ended(game):
        require_write(svc, game_id, creds, phrase("what/in-progress", "{what} of a game in progress", what=what))


def require_ended(game_id: str, game: GameState, what: str, code: str) -> None:
    if not ended(game):
        raise NotYetVisible(
            "{what} is open to everyone once the game has ended, and to no one before", params=dict(what=what), code=code, game_id=game_id
        )


def perspective(
    svc: Services,
    game_id: str,
    game: GameState,
    seat: int | None,
    full: bool,
    creds: HTTPAuthorizationCredentials | None,
) -> Perspective:
    """The eyes a read may use: public, a seat (with its token), or full (after the end)."""
    over = ended(game)
    if full and seat is not None:
        raise MalformedRequest("ask for one seat's view or the full view, not both", code="seat-and-full")
    if full:
        require_ended(game_id, game, phrase("what/full-view", "the full view"), "full-view-before-end")
        return Perspective(full=True, all_moves=True)
    if seat is None:
        return Perspective(all_moves=over)
    players = len(game.players)
    if not 0 <= seat < players:
        raise MalformedRequest(
            "seat {seat} is not a seat of this game (0..{players_minus})", params=dict(seat=seat, players_minus=players - 1), code="unknown-seat", seat=seat
        )
    if not over:
        token = _token(creds)
        if token is None:
            raise TokenMissing(
                "seat {seat}'s view needs that seat's token: Authorization: Bearer <token>", params=dict(seat=seat),
                game_id=game_id,
                seat=seat,
            )
        if not svc.tokens.check_seat(game_id, seat, token):
            raise TokenWrong("this token does not open seat {seat} of this game", params=dict(seat=seat), game_id=game_id, seat=seat)
    return Perspective(seat=seat, all_moves=over)
