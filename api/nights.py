"""Tournament nights as both doors answer them: the night's own token, each table's game made
with tokens derived from it (so the night's token shows every table's recording link again), and
a night as JSON, its standings and its tables.

``svc`` is the HTTP service's ``Services`` or the command line's ``Layers``: both hold the log,
projector, recorder, tokens and pack library of one store.
"""

from __future__ import annotations

import hmac
from typing import Any, Sequence

from api.errors import TokenMissing, TokenWrong
from events.log import new_game_id
from events.tokens import IssuedTokens, derived_tokens
from projections.nights import Night, Nights, standings
from replay import nights as write


def nights_of(svc: Any) -> Nights:
    return Nights(svc.log, svc.projector.read_models)


def table_tokens(night_token: str, game_id: str, seats: int) -> IssuedTokens:
    """A table's game tokens, the same each time from the night's token and the game's id."""
    secret = hmac.digest(night_token.encode("utf-8", "surrogatepass"), b"night-table " + game_id.encode(), "sha256")
    return derived_tokens(secret, seats)


def check_token(svc: Any, night_id: str, token: str | None) -> None:
    """The bearer holds the night's token (raises TokenMissing, TokenWrong)."""
    if token is None:
        raise TokenMissing("this needs the night's token: Authorization: Bearer <token>", params={}, night_id=night_id)
    if not svc.tokens.check_write(night_id, token):
        raise TokenWrong("this token is not this night's token", params={}, night_id=night_id)


def open_night(
    svc: Any, name: str, title: str, rounds: int, players: Sequence[str], seed: str | None, options: dict[str, Any] | None = None,
    actor: str = "",
) -> tuple[Night, str]:
    """A new night and its token (shown only now); the seed is drawn here when none is given."""
    import secrets

    def check_options(title: str, players: Sequence[str], options: dict[str, Any]) -> None:
        from events.lifecycle import GameCreated
        from projections.fold import start

        prepared, _ = svc.packs.prepare(title, options)
        start(GameCreated(title=title, players=tuple(players), options=prepared))  # the title refuses bad options

    seed = seed if seed is not None else secrets.token_hex(8)
    night = write.open_night(nights_of(svc), name, title, rounds, players, seed, options, actor, check_options)
    issued = svc.tokens.issue(night.night_id, 0)
    return night, issued.write


def draw_round(svc: Any, night_id: str, token: str, actor: str = "") -> Night:
    """Draw the next round; each table's game is created with its tokens derived from the night's."""
    nights = nights_of(svc)
    nights.get(night_id)  # a 404 comes before any token question
    check_token(svc, night_id, token)

    def make_game(title: str, players: Sequence[str], options: dict[str, Any]) -> str:
        with svc.packs.creating(title):
            options, growth = svc.packs.prepare(title, options)
            game_id = new_game_id()
            svc.tokens.issue(game_id, len(players), table_tokens(token, game_id, len(players)))
            try:
                svc.packs.commit(growth)
                svc.recorder.create(title, list(players), options, actor=actor, game_id=game_id)
            except BaseException:
                svc.tokens.revoke(game_id)
                raise
        return game_id

    return write.draw_round(nights, night_id, make_game, actor)


def view(svc: Any, night: Night, token: str | None = None) -> dict[str, Any]:
    """The night, its standings and every round's tables; with the night's token each table also
    carries its game's write token (what its recording link and QR code hold)."""
    nights = nights_of(svc)
    results = nights.results(night)
    rounds = []
    for drawn in night.drawn:
        tables = []
        for number, (players, game_id) in enumerate(zip(drawn.tables, drawn.games), start=1):
            seats = results.get(game_id)
            table: dict[str, Any] = {
                "table": number, "players": list(players), "game_id": game_id, "ended": seats is not None,
                "scores": [s.score for s in seats] if seats is not None else None,
                # the same JSON on the file as over HTTP, whose model says None
                "write_token": table_tokens(token, game_id, len(players)).write if token is not None else None,
            }
            tables.append(table)
        rounds.append({"round": drawn.round, "tables": tables, "byes": list(drawn.byes)})
    return {**night.as_dict(), "present": list(night.present), "standings": standings(night, results), "draws": rounds}
