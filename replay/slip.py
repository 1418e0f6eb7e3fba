"""The end-of-game slip: a game's id, its final scores and its log's head hash at the end, sealed
with the store's key, as one line of text (its QR code carries the same line).

``TT1:<game id>:<seq>:<score>,<score>,...:<head hash, hex>:<seal, base64url>``

``check`` says, part by part, whether a slip matches the stored log: the seal is this store's
for exactly these contents, the game is here, its log verifies (hash chain and keyed anchors),
the log holds this head hash at this seq, and the game ended there with these scores. Whether
the game has gone on since (an undo after the end) is said too, without making the slip false:
the log still holds the end the slip was made of.
"""

from __future__ import annotations

import base64
import hmac
import re
from urllib.parse import quote, unquote

import msgspec

from events.errors import ChainBroken, GameUnreadable, SlipUnreadable, UnknownGame
from events.log import EventLog
from events.messages import Phrase, listed, phrase
from projections.projector import Projector

PREFIX = "TT1"
#: a slip's text is at most this long (a game id of 200 characters, eight scores)
MAX_TEXT = 600
_SLIP = re.compile(
    r"TT1:(?P<game>[A-Za-z0-9%._~-]{1,300}):(?P<seq>[0-9]{1,9}):(?P<scores>-?[0-9]{1,9}(?:,-?[0-9]{1,9}){0,15}|)"
    r":(?P<head>[0-9a-f]{64}):(?P<seal>[A-Za-z0-9_-]{22})"
)
#: the parts ``check`` judges, in order
PARTS = ("seal", "game", "log", "head", "scores")
_PART_NAMES = {
    "seal": phrase("slip/part-seal", "the seal"), "game": phrase("slip/part-game", "the game"),
    "log": phrase("slip/part-log", "the stored log"), "head": phrase("slip/part-head", "the head hash"),
    "scores": phrase("slip/part-scores", "the scores"),
}


class Slip(msgspec.Struct, frozen=True):
    game_id: str
    #: the log's last seq when the slip was made (the game's end)
    seq: int
    scores: tuple[int, ...]
    #: the chain hash of event ``seq`` (hex)
    head: str
    #: the store's keyed MAC of the rest (base64url)
    seal: str

    @property
    def body(self) -> str:
        """The slip's text without its seal: what the seal covers."""
        scores = ",".join(str(s) for s in self.scores)
        return f"{PREFIX}:{quote(self.game_id, safe='')}:{self.seq}:{scores}:{self.head}"

    @property
    def text(self) -> str:
        return f"{self.body}:{self.seal}"


def _sealed(log: EventLog, body: str) -> str:
    return base64.urlsafe_b64encode(log.seal(body.encode())).rstrip(b"=").decode()


def make(log: EventLog, projector: Projector, game_id: str) -> Slip:
    """The slip of an ended game now (the caller has checked that it ended)."""
    game = projector.state(game_id)
    assert game.ended is not None
    seq = projector.history(game_id).last_seq
    head = log.read(game_id, seq, seq)[0].hash
    unsealed = Slip(game_id, seq, tuple(int(s) for s in game.ended.scores), head, "")
    return msgspec.structs.replace(unsealed, seal=_sealed(log, unsealed.body))


def parse(text: str) -> Slip:
    """A slip from its text (surrounding blanks ignored); ``bad-slip`` when it is not one."""
    given = text.strip() if isinstance(text, str) else ""
    match = _SLIP.fullmatch(given) if len(given) <= MAX_TEXT else None
    if match is None:
        raise SlipUnreadable(
            "this is not a tabletape slip: a slip is one line TT1:game:seq:scores:hash:seal, as its QR code holds it", params={}
        )
    scores = tuple(int(s) for s in match["scores"].split(",")) if match["scores"] else ()
    return Slip(unquote(match["game"]), int(match["seq"]), scores, match["head"], match["seal"])


class Part(msgspec.Struct, frozen=True):
    """One thing ``check`` judged: ``ok`` None when it could not be judged (an earlier part failed)."""

    part: str
    ok: bool | None
    words: Phrase


class Verdict(msgspec.Struct, frozen=True):
    slip: Slip
    #: every part holds: the slip is this store's and the stored, verified log says the same
    matches: bool
    #: the stored log verified (None: there is no such game)
    verified: bool | None
    parts: tuple[Part, ...]
    #: the log's last seq now, when the game has gone on since the slip was made
    since: int | None
    words: Phrase


def _scores(scores: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in scores) or "-"


def check(log: EventLog, projector: Projector, slip: Slip) -> Verdict:
    """Whether ``slip`` matches this store's log, part by part, in words."""
    parts: list[Part] = []
    sealed = hmac.compare_digest(_sealed(log, slip.body), slip.seal)
    parts.append(Part("seal", sealed, phrase("slip/seal-ok", "the seal is this store's, for exactly these contents") if sealed
                      else phrase("slip/seal-bad", "the seal is not this store's for these contents: the slip was changed, or another store made it")))
    verified: bool | None = None
    since = None
    if not log.exists(slip.game_id):
        parts.append(Part("game", False, phrase("slip/game-unknown", "this store holds no game {game_id}", game_id=slip.game_id)))
    else:
        parts.append(Part("game", True, phrase("slip/game-ok", "this store holds game {game_id}", game_id=slip.game_id)))
        report = log.verify(slip.game_id)
        verified = report.ok
        if report.ok:
            parts.append(Part("log", True, phrase("slip/log-ok", "its stored log verifies: the hash chain and the store's keyed anchors hold")))
            parts += _against_log(log, projector, slip)
            last = log.last_seq(slip.game_id)
            since = last if last > slip.seq else None
        else:
            parts.append(Part("log", False, phrase(
                "slip/log-bad", "its stored log does not verify: it was altered at seq {seq} ({reason})",
                seq=report.first_bad_seq, reason=report.reason or "")))
    judged = {p.part for p in parts}
    parts += [Part(name, None, phrase("slip/not-judged", "not checked: an earlier part failed")) for name in PARTS if name not in judged]
    matches = all(p.ok for p in parts)
    if matches:
        words = phrase("slip/matches", "This slip matches the stored, verified log.")
    elif verified is False:
        words = phrase("slip/not-verified", "This slip cannot be checked: the stored log does not verify.")
    else:
        failed = [_PART_NAMES[p.part] for p in parts if p.ok is False]
        words = phrase("slip/does-not-match", "This slip does not match: {parts}.", parts=listed(failed))
    return Verdict(slip, matches, verified, tuple(parts), since, words)


def _against_log(log: EventLog, projector: Projector, slip: Slip) -> list[Part]:
    """The head and scores parts, for a game whose log verified."""
    last = log.last_seq(slip.game_id)
    if not 1 <= slip.seq <= last:
        return [Part("head", False, phrase("slip/head-missing", "the log has no seq {seq} (it ends at seq {last})", seq=slip.seq, last=last))]
    stored = log.read(slip.game_id, slip.seq, slip.seq)[0].hash
    if stored != slip.head:
        return [Part("head", False, phrase("slip/head-bad", "the log's hash at seq {seq} is another: the slip names a head this log never had", seq=slip.seq))]
    parts = [Part("head", True, phrase("slip/head-ok", "the log's hash at seq {seq} is the slip's", seq=slip.seq))]
    try:
        then = projector.state_at(slip.game_id, slip.seq)
    except (ChainBroken, GameUnreadable, UnknownGame):
        then = None
    ended = None if then is None else then.ended
    if ended is None:
        parts.append(Part("scores", False, phrase("slip/not-ended", "the game had not ended at seq {seq}", seq=slip.seq)))
        return parts
    stored_scores = tuple(int(s) for s in ended.scores)
    if stored_scores != slip.scores:
        parts.append(Part("scores", False, phrase(
            "slip/scores-bad", "the game ended at seq {seq} with the scores {stored}, not {given}",
            seq=slip.seq, stored=_scores(stored_scores), given=_scores(slip.scores))))
    else:
        parts.append(Part("scores", True, phrase("slip/scores-ok", "the game ended at seq {seq} with these scores: {scores}", seq=slip.seq, scores=_scores(stored_scores))))
    return parts


def since_words(verdict: Verdict) -> Phrase | None:
    """That the game has gone on since the slip, in words; None when the slip is of its last seq."""
    if verdict.since is None:
        return None
    return phrase("slip/since", "The log has gone on since, to seq {last}: the game was changed after this slip was made.", last=verdict.since)
