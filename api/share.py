"""Share links, the picture of a final table and the end-of-game slip, as the HTTP API and the
CLI answer them (their words said in a language)."""

from __future__ import annotations

import re
from typing import Any

from api import i18n
from api.errors import NotYetVisible, ShareWithdrawn, UnknownShare
from events.shares import ShareLink
from replay import slip as replay_slip

#: what a share token looks like (``events.tokens.new_token``); anything else is unknown at once
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def _page(lang: str, key: str) -> str:
    return i18n.catalogue(lang)["page"]["share"][key]


def open_link(svc: Any, token: str) -> tuple[ShareLink, Any]:
    """The link and its game's state now; refused when unknown, withdrawn, or the game goes on."""
    link = svc.shares.find(token) if _TOKEN.fullmatch(token) else None
    if link is None:
        raise UnknownShare("no share link of this store has this token", params={})
    if link.withdrawn:
        raise ShareWithdrawn("this share link was withdrawn by the game's owner", params={})
    game = svc.projector.state(link.game_id)
    if game.ended is None:
        raise NotYetVisible(
            "the shared game is in progress: a share link shows it once it has ended", params={}, code="shared-game-in-progress"
        )
    return link, game


def ended_date(svc: Any, game_id: str) -> str:
    """The day (UTC, ISO) of the game's last event: when it ended."""
    last = svc.log.last_seq(game_id)
    return svc.log.read(game_id, last, last)[0].recorded_at.date().isoformat()


def card(svc: Any, game_id: str, game: Any, lang: str) -> dict[str, Any]:
    """The final table as ``replay.table_picture.draw`` takes it, its words in ``lang``."""
    ended = game.ended
    scores = list(ended.scores)
    rows = [
        {"name": name, "score": scores[seat] if seat < len(scores) else None, "winner": seat in ended.winners}
        for seat, name in enumerate(game.players)
    ]
    return {
        "heading": i18n.title_name(game.title, lang), "date": ended_date(svc, game_id), "rows": rows,
        "winner_label": _page(lang, "winner"), "slip_label": _page(lang, "slip-label"),
    }


def slip_out(svc: Any, game_id: str, game: Any) -> dict[str, Any]:
    made = replay_slip.make(svc.log, svc.projector, game_id)
    return {
        "text": made.text, "game_id": game_id, "seq": made.seq, "players": list(game.players),
        "scores": list(made.scores), "head": made.head, "seal": made.seal,
    }


def check_out(svc: Any, text: str, lang: str) -> dict[str, Any]:
    """A slip's verdict in words (``bad-slip`` when the text is no slip)."""
    verdict = replay_slip.check(svc.log, svc.projector, replay_slip.parse(text))
    since = replay_slip.since_words(verdict)
    return {
        "matches": verdict.matches, "verified": verdict.verified, "game_id": verdict.slip.game_id, "seq": verdict.slip.seq,
        "words": i18n.phrase_text(verdict.words, lang),
        "parts": [{"part": p.part, "ok": p.ok, "words": i18n.phrase_text(p.words, lang)} for p in verdict.parts],
        "since": verdict.since, "since_words": i18n.phrase_text(since, lang) if since is not None else None,
    }
