"""Whole games as JSON Lines: one event per line, with its envelope (seq, recorded_at, actor, hashes).

Export writes what the log holds of the games that have ended: the log of a game in progress
holds what its public view hides (a digital shuffle, hands, objectives, goal cards), so, like
``GET /games/{id}/events``, it opens at the end and to no one before. Import reads whole games,
checks each one (seqs from 1 without a gap, every body a known event, the effective history legal
under its title's rules), appends them through the log in one batch, and verifies the new hash
chains. The log stamps imported events anew (time, actor ``import``), so their hashes differ from
the exported ones.

A game pinned to a content pack of the store's library carries it: the export writes each such
pack once, before the games, as a line ``{"type": "tabletape.pack", "title", "id", "hash",
"pack"}``; the import adds it (checking its hash) before the games that pin it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from api.errors import NotYetVisible
from events import codec, limits
from events.base import Event
from events.log import EventLog
from events.errors import HistoryEditRefused, MalformedEvent, NoteRefused, TabletapeError
from events.history import History
from events.lifecycle import Forked, GameEnded, Noted, ScoreOnly, check_note, fitting_ranks
from events.log import StoredEvent
from events.nights import is_night
from events.seasons import is_club_stream, is_season
from projections.fold import GameState, fold, start
from projections.packs import Entry, PackLibrary
from projections.projector import Projector


class ImportRefused(TabletapeError):
    code = "import-refused"
    status = 422


def event_line(event: StoredEvent) -> dict[str, Any]:
    """One event with its envelope, as the API's log and the export show it."""
    return {
        "game_id": event.game_id,
        "seq": event.seq,
        "recorded_at": event.recorded_at.replace(tzinfo=UTC).isoformat().replace("+00:00", "Z"),
        "actor": event.actor,
        "type": codec.tag_of(type(event.body)),
        "body": codec.to_builtins(event.body),
        "prev_hash": event.prev_hash,
        "hash": event.hash,
    }


def ended_games(projector: Projector, game_ids: Iterable[str]) -> tuple[list[str], list[str]]:
    """The games whose log may be exported (ended) and those still in progress."""
    ended, in_progress = [], []
    for game_id in game_ids:
        if is_club_stream(game_id):
            continue  # a season or a night is no game (its stream is kept by the store)
        (ended if projector.state(game_id).ended is not None else in_progress).append(game_id)
    return ended, in_progress


PACK_TYPE = "tabletape.pack"


def pack_line(entry: Entry) -> str:
    record = {"type": PACK_TYPE, "title": entry.title, "id": entry.id, "hash": entry.hash, "pack": entry.data}
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def export_lines(
    log: EventLog, projector: Projector, game_ids: Iterable[str], packs: PackLibrary | None = None
) -> Iterator[str]:
    """Every event of the given games, one JSON line each, after the packs they pin (given the
    store's ``packs``); refuses a game in progress."""
    ended, in_progress = ended_games(projector, game_ids)
    if in_progress:
        raise NotYetVisible(
            "game {in_progress_0} is in progress: its log is exported once it has ended, and by no one before", params=dict(in_progress_0=in_progress[0]),
            code="export-before-end",
            game_ids=in_progress,
        )
    carried = packs.packs_of(ended) if packs is not None else []
    return _lines(log, ended, carried)


def _lines(log: EventLog, game_ids: list[str], packs: list[Entry] = ()) -> Iterator[str]:  # type: ignore[assignment]
    for entry in packs:
        yield pack_line(entry)
    for game_id in game_ids:
        for event in log.read(game_id):
            yield json.dumps(event_line(event), ensure_ascii=False, separators=(",", ":"))


def _parse(number: int, line: str) -> tuple[str, int, Event]:
    try:
        record = json.loads(line)
        game_id, seq, body = record["game_id"], record["seq"], record["body"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ImportRefused("line {number}: not an exported event ({exc})", params=dict(number=number, exc=exc), line=number) from exc
    if not isinstance(game_id, str) or not game_id or not isinstance(seq, int):
        raise ImportRefused("line {number}: game_id must be text and seq a whole number", params=dict(number=number), line=number)
    if is_season(game_id):
        raise ImportRefused("line {number}: {game_id} names a season's stream, which is no game", params=dict(number=number, game_id=game_id[:80]), line=number)
    if is_night(game_id):
        raise ImportRefused("line {number}: {game_id} names a night's stream, which is no game", params=dict(number=number, game_id=game_id[:80]), line=number)
    try:
        event = codec.from_builtins(body)
    except MalformedEvent as exc:
        raise ImportRefused("line {number}: {message_}", params=dict(number=number, message_=exc), line=number) from exc
    if "type" in record and record["type"] != codec.tag_of(type(event)):
        raise ImportRefused("line {number}: type {type!r} does not match its body", params=dict(number=number, type=record['type']), line=number)
    return game_id, seq, event


@dataclass(frozen=True)
class PackRecord:
    """A pack an export carries: its line, title, hash and data."""

    line: int
    title: str
    hash: str
    data: Any


def _pack_record(number: int, line: str) -> PackRecord | None:
    if PACK_TYPE not in line:
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("type") != PACK_TYPE:
        return None
    title, digest = record.get("title"), record.get("hash")
    if not isinstance(title, str) or not isinstance(digest, str) or not isinstance(record.get("pack"), dict):
        raise ImportRefused("line {number}: a pack line has title, hash and pack", params=dict(number=number), line=number)
    return PackRecord(number, title, digest, record["pack"])


def read_export(lines: Iterable[str]) -> tuple[list[PackRecord], list[tuple[str, list[Event]]]]:
    """The packs and the whole games of JSONL lines (a game's lines in seq order, from 1 without a gap)."""
    packs: list[PackRecord] = []
    games: dict[str, list[Event]] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        pack = _pack_record(number, line)
        if pack is not None:
            packs.append(pack)
            continue
        game_id, seq, event = _parse(number, line)
        events = games.setdefault(game_id, [])
        if seq != len(events) + 1:
            raise ImportRefused(
                "line {number}: game {game_id} jumps to seq {seq} after {n_events}; export whole games", params=dict(number=number, game_id=game_id, seq=seq, n_events=len(events)),
                line=number,
                game_id=game_id,
            )
        events.append(event)
    return packs, list(games.items())


def read_games(lines: Iterable[str]) -> list[tuple[str, list[Event]]]:
    """Whole games from JSONL lines (pack lines left out: see ``read_export``)."""
    return read_export(lines)[1]


def stage_packs(library: PackLibrary, packs: list[PackRecord]) -> list[Entry]:
    """The packs of an import, validated and loaded for the rules check (not stored yet)."""
    staged = []
    for record in packs:
        try:
            staged.append(library.stage(record.title, record.data, record.hash))
        except TabletapeError as exc:
            raise ImportRefused("line {line}: {code_}: {message_}", params=dict(line=record.line, code_=exc.code, message_=exc), line=record.line) from exc
    return staged


@dataclass(frozen=True)
class _Break:
    seq: int
    reason: str


def _rules_break(events: list[Event]) -> _Break | None:
    """The first effective event the rules would not have recorded, or None if all are legal."""
    history = History()
    for seq, body in enumerate(events, 1):
        try:
            if isinstance(body, Noted) and check_note(body.text) != body.text:
                return _Break(seq, "a note's text has spaces at its ends")
            history.push(body)
        except NoteRefused as exc:
            return _Break(seq, exc.message)
        except HistoryEditRefused as exc:
            return _Break(seq, exc.message)
    entries = history.entries()
    try:
        game = start(entries[0].body)
    except TabletapeError as exc:
        return _Break(1, exc.message)
    for entry in entries[1:]:
        body = entry.body
        if isinstance(body, ScoreOnly) or game.score_only is not None:
            broken = _score_only_break(game, entry.seq, body, len(entries))
            if broken is not None:
                return broken
            game = fold(game, (body,))
            continue
        if isinstance(body, Forked):
            game = fold(game, (body,))
            continue
        if isinstance(body, GameEnded):
            result = game.title.outcome(game.state)
            if result is None or tuple(result.scores) != tuple(body.scores):
                return _Break(entry.seq, "the recorded end does not match the rules' result")
            game = fold(game, (body,))
            continue
        try:
            again = game.title.decide(game.state, body)
        except TabletapeError as exc:
            return _Break(entry.seq, f"{exc.code}: {exc.message}")
        if tuple(again) != (body,):
            return _Break(entry.seq, "the rules would record something else here")
        game = fold(game, again)
    return None


def _score_only_break(game: GameState, seq: int, body: Event, length: int) -> _Break | None:
    """A score-only game is exactly creation, its marker, and an end its marker's source decided."""
    if isinstance(body, ScoreOnly):
        if seq != 2 or length != 3 or game.score_only is not None:
            return _Break(seq, "a score-only game is its creation, game.score-only and game.ended, nothing else")
        return None
    seats = len(game.players)
    if not isinstance(body, GameEnded):
        return _Break(seq, "a score-only game has no moves")
    if len(body.scores) not in (0, seats) or not body.winners or any(not 0 <= w < seats for w in body.winners):
        return _Break(seq, "a score-only end needs a score per seat (or none) and winners among the seats")
    if not fitting_ranks(tuple(body.ranks), tuple(body.winners), seats):
        return _Break(seq, "a score-only end ranks every seat from 1, exactly its winners first")
    return None


def check_games(games: list[tuple[str, list[Event]]]) -> None:
    """Refuse the whole import if any game breaks its title's rules."""
    for game_id, events in games:
        broken = _rules_break(events)
        if broken is not None:
            raise ImportRefused(
                "game {game_id}: seq {seq}: {reason}", params=dict(game_id=game_id, seq=broken.seq, reason=broken.reason), game_id=game_id, breaking_seq=broken.seq
            )


def import_games(
    log: EventLog,
    projector: Projector,
    games: list[tuple[str, list[Event]]],
    packs: list[PackRecord] = (),  # type: ignore[assignment]
    library: PackLibrary | None = None,
) -> int:
    """Check, append in one batch, verify the hash chains, bring the catalogue up to date; the
    packs the games carry are added to ``library`` first (and taken back if the import is refused).

    All or nothing: each game's events are checked against what a store holds and its read-model
    rows built (in the tables' types) before anything is appended."""
    staged = stage_packs(library, list(packs)) if library is not None else []
    for game_id, events in games:  # first: the rules' refusals may echo what the limits refuse
        limits.check_game(game_id, events)
    check_games(games)
    at = log.now()
    rows = _staged_rows(projector, games, at)
    added = library.keep(staged) if library is not None else []
    try:
        count = log.import_games(games, at=at)
    except BaseException:
        if library is not None:
            library.forget(added)
        raise
    for report in log.verify_many([game_id for game_id, _ in games]):
        if not report.ok:
            raise ImportRefused("game {game_id}: the imported chain does not verify: {reason}", params=dict(game_id=report.game_id, reason=report.reason), game_id=report.game_id)
    if rows is not None:
        projector.read_models.add_staged(rows)
    return count


def _staged_rows(projector: Projector, games: list[tuple[str, list[Event]]], at: datetime) -> dict[str, Any] | None:
    """The read-model rows of the games (``ReadModels.stage``); a game they cannot hold refuses the import."""
    read_models = projector.read_models
    if read_models is None:
        return None
    try:
        return read_models.stage(games, at)
    except (ValueError, OverflowError, TypeError, ArithmeticError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        for game_id, events in games:  # which game: a second pass, one by one
            try:
                read_models.stage([(game_id, events)], at)
            except (ValueError, OverflowError, TypeError, ArithmeticError):
                raise ImportRefused("game {game_id}: the read models cannot hold it ({exc})", params=dict(game_id=game_id, exc=exc), code="value-out-of-range", game_id=game_id) from None
        raise
