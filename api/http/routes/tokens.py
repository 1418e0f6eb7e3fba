"""Handing a game over: new tokens for it, as ``tabletape tokens`` issues them.

``POST /games/{game_id}/tokens`` needs the game's write token and answers a new write token and
one new token per seat; every earlier token of the game stops working at once (the devices that
held them lose access, and a live stream in a seat's eyes goes on in the public view), in this
game and in every game that shared them (forks made while it was in progress, and their parent).
"""

from __future__ import annotations

from fastapi import APIRouter

from api.http.auth import Credentials, Svc, require_write
from api.http.models import Tokens
from api.http.routes import errors
from api.http.routes.games import tokens_out
from events.messages import phrase

router = APIRouter(tags=["games"])


@router.post("/games/{game_id}/tokens", response_model=Tokens, responses=errors(401, 403, 404, 422))
def reissue_tokens(game_id: str, svc: Svc, creds: Credentials) -> Tokens:
    """New tokens for this game, shown only now; the old ones (this request's too) stop working."""
    require_write(svc, game_id, creds, phrase("what/issuing-tokens", "issuing new tokens"))
    players = svc.projector.state(game_id).players
    return tokens_out(tuple(players), svc.tokens.issue(game_id, len(players)))
