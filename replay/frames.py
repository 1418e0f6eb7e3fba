"""Replay frames for scrubbing: one frame per step of a game, with who moved, the move in the
title's notation, and what the table looked like after it (a view, or a diff from the last frame).

Frames fold incrementally: the state before a window comes from the projector (snapshots), then
each step is one ``evolve``. A ``Perspective`` says whose eyes the views are for; a move's
notation is shown whole only to those who may know it (before the end, a draw names the drawn
card); others get it as the table saw it (the title's ``public_move``), and every frame words
the step as a sentence (the title's ``describe``) from what its viewer may know, a ``Phrase``
that the API says in its reader's language (``sentence``, ``status_words``).
Everything here works through the ``Title`` protocol, for every title.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
import json
from typing import Any

import msgspec

from events import codec
from events.base import Event
from events.errors import HistoryEditRefused, TabletapeError
from events.history import Entry, History, Node, Notes
from events.lifecycle import LIFECYCLE_EVENTS, Amended, Forked, GameCreated, GameEnded, Noted, Redone, ScoreOnly, Undone
from events.messages import Phrase, phrase, say
from projections.fold import GameState, fold, start, status_words
from projections.projector import Projector
from rules import title_words


class Perspective(msgspec.Struct, frozen=True):
    """Whose eyes: the public (no seat), one seat, or the full log (only once a game has ended).

    ``all_moves``: every move's notation may be shown (the game has ended, nothing is secret).
    """

    seat: int | None = None
    full: bool = False
    all_moves: bool = False

    @property
    def name(self) -> str:
        return "full" if self.full else "seat" if self.seat is not None else "public"

    def see(self, game: GameState) -> dict[str, Any]:
        if self.full:
            return game.title.full_view(game.state)
        return game.title.view(game.state, self.seat)

    def shows(self, body: Event) -> bool:
        """Whether this viewer may read the move itself (a seat always knows its own moves)."""
        if self.full or self.all_moves:
            return True
        return self.seat is not None and getattr(body, "seat", None) == self.seat


PUBLIC = Perspective()


class Frame(msgspec.Struct, kw_only=True):
    """One step. ``view`` holds the whole view, or ``diff`` the changes from the previous frame."""

    #: position in the effective history (0: the game's creation)
    index: int
    #: the raw log seq of the event
    seq: int
    type: str
    seat: int | None = None
    player: str | None = None
    #: the move in the title's notation, as far as this viewer may know it; None for lifecycle
    #: events, or for a title that does not say what of a move is public
    move: str | None = None
    #: the step as a plain sentence with names, from what this viewer may know (English)
    text: str | None = None
    #: the same sentence as a template key and parameters, for the API to say in the reader's
    #: language (``localised``); not sent as such
    sentence: Phrase | None = None
    amended_by: int | None = None
    #: the title's one-line status after this step (English)
    status: str
    #: the same as a phrase, for the API to say in the reader's language; not sent as such
    status_words: Phrase | None = None
    to_move: int | None = None
    ended: bool = False
    view: dict[str, Any] | None = None
    diff: list[dict[str, Any]] | None = None
    #: raw frames only: what a history edit did (``to_seq`` of an undo, ``seq`` of an amendment)
    edit: dict[str, Any] | None = None
    #: raw frames only: the event body itself, when the viewer may see every move
    body: dict[str, Any] | None = None
    #: components this step describes or uses although the game's content pack lacks them
    #: ("kind:id"), for titles that implement ``described(state, event)``; None: the pack alone
    described: list[str] | None = None
    #: the notes the table wrote on this step, in the order written (``seq`` of each note's event,
    #: its ``text``, ``amended_by``)
    notes: list[dict[str, Any]] | None = None


# -- diffs ----------------------------------------------------------------------------------------


def _pointer(key: str) -> str:
    return "/" + str(key).replace("~", "~0").replace("/", "~1")


def diff_views(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """JSON-patch operations on top-level keys that turn ``before`` into ``after``."""
    ops: list[dict[str, Any]] = []
    for key, value in after.items():
        if key not in before:
            ops.append({"op": "add", "path": _pointer(key), "value": value})
        elif before[key] != value:
            ops.append({"op": "replace", "path": _pointer(key), "value": value})
    ops.extend({"op": "remove", "path": _pointer(key)} for key in before if key not in after)
    return ops


def apply_diff(view: dict[str, Any], ops: list[dict[str, Any]]) -> dict[str, Any]:
    """The view after applying ``diff_views`` operations (what a scrubbing client does)."""
    out = dict(view)
    for op in ops:
        key = op["path"][1:].replace("~1", "/").replace("~0", "~")
        if op["op"] == "remove":
            out.pop(key, None)
        else:
            out[key] = op["value"]
    return out


# -- notation and who -------------------------------------------------------------------------


def notation(game: GameState, body: Event) -> str | None:
    """The move in the title's notation; None for events that are not the title's."""
    if type(body) not in game.title.event_types:
        return None
    try:
        return game.title.format_move(body)
    except TabletapeError:
        return None


def _who(game: GameState, body: Event) -> tuple[int | None, str | None]:
    seat = getattr(body, "seat", None)
    if isinstance(seat, int) and 0 <= seat < len(game.players):
        return seat, game.players[seat]
    return None, None


def described(game: GameState, body: Event) -> list[str] | None:
    """The components the step rests on without the content pack (``Title.described``, given the
    state after the step)."""
    if type(body) not in game.title.event_types:
        return None
    return list(game.title.described(game.state, body)) or None


def known_move(game: GameState, body: Event, perspective: Perspective) -> Event | None:
    """The move as this viewer may know it: whole, as the table saw it (``public_move``), or
    None (not the title's, or a title that does not say what of it is public)."""
    if perspective.shows(body):
        return body
    if type(body) not in game.title.event_types:
        return None
    return game.title.public_move(body)


_LIFECYCLE_TEXT = {
    Undone: phrase("step.undone", "Moves were taken back"),
    Redone: phrase("step.redone", "A move taken back was put back"),
    Amended: phrase("step.amended", "An earlier step was corrected"),
    Forked: phrase("step.forked", "This game was forked from another one"),
    Noted: phrase("step.noted", "A note was written on a step"),
}


def sentence(before: GameState | None, after: GameState, body: Event, known: Event | None) -> Phrase:
    """The step in words: the title's ``describe`` of the move as known, else a plain line."""
    if isinstance(body, GameCreated):
        return phrase("step.began", "{title} began: {players}", title=title_words(after.title), players=", ".join(body.players))
    if isinstance(body, ScoreOnly):
        return phrase(
            "step.score-only",
            "Played {when} UTC and recorded by its result alone: no moves",
            when=body.played_at.replace("T", " ")[:16],
        )
    if isinstance(body, GameEnded):
        if after.score_only is not None and not body.scores:  # the source named its winners alone
            winners = ", ".join(after.players[seat] for seat in body.winners)
            return phrase("step.ended-winners", "The game ended: {winners} won (no scores recorded)", winners=winners)
        if after.score_only is not None:
            scores = ", ".join(f"{p} {s}" for p, s in zip(after.players, body.scores))
            return phrase("step.ended-scores", "The game ended: {scores}", scores=scores)
        return phrase("step.ended", "The game ended: {status}", status=status_words(after))
    if type(body) in _LIFECYCLE_TEXT:
        return _LIFECYCLE_TEXT[type(body)]
    if known is not None and before is not None:
        try:
            words = after.title.describe(before.state, known, after.state)
        except Exception:  # noqa: BLE001 - a sentence is a reading aid: the plain line below does
            words = None
        if words is not None:
            return words
    tag = codec.tag_of(type(body))
    # the event's kind in words, catalogued by its tag (``phrases``: ``event-type/...``)
    words = Phrase(f"event-type/{tag}", tag.split(".")[-1].replace("-", " "))
    seat, player = _who(after, body)
    if player:
        return phrase("step.plain-seat", "{player}: {words}", player=player, words=words)
    return Phrase("step.plain", "{words}", {"words": words}, capital=True)


def _frame(
    game: GameState, index: int, seq: int, body: Event, perspective: Perspective, before: GameState | None = None
) -> Frame:
    seat, player = _who(game, body)
    known = known_move(game, body, perspective)
    words = sentence(before, game, body, known)
    standing = status_words(game)
    return Frame(
        index=index,
        seq=seq,
        type=codec.tag_of(type(body)),
        seat=seat,
        player=player,
        move=notation(game, known) if known is not None else None,
        text=say(words),
        sentence=words,
        status=say(standing),
        status_words=standing,
        to_move=game.title.to_move(game.state),
        ended=game.ended is not None,
        described=described(game, body),
    )


# -- frames of the effective history ----------------------------------------------------------


def notes_listed(history: History, at: int | None = None) -> list[dict[str, Any]]:
    """The notes in force after raw ``at`` (default: now), each with its ``step`` as the replay
    numbers it, in step order then as written."""
    at = history.last_seq if at is None else at
    steps = {entry.seq: index for index, entry in enumerate(history.entries(at))}
    out = [
        {"step": steps[note.step_seq], "step_seq": note.step_seq, "seq": note.seq, "text": note.body.text, "amended_by": note.amended_by}
        for note in history.notes_at(at)
        if note.step_seq in steps
    ]
    return sorted(out, key=lambda note: (note["step"], note["seq"]))


def notes_by_step(notes: Notes) -> dict[int, list[dict[str, Any]]]:
    """The notes in force, by the raw seq of their step."""
    out: dict[int, list[dict[str, Any]]] = {}
    for note in notes:
        out.setdefault(note.step_seq, []).append({"seq": note.seq, "text": note.body.text, "amended_by": note.amended_by})
    return out


def _window(entries: list[Entry], from_seq: int | None, to_seq: int | None) -> tuple[int, int]:
    seqs = [e.seq for e in entries]
    lo = 0 if from_seq is None else bisect_left(seqs, from_seq)
    hi = len(seqs) if to_seq is None else bisect_right(seqs, to_seq)
    return lo, hi


def _state_before_window(
    projector: Projector, game_id: str, history: History, node: Node, entries: list[Entry], lo: int, at: int
) -> GameState | None:
    """The state after the step before the window (None when the window starts at the creation)."""
    if lo == 0:
        return None
    prefix = node.ancestor(lo)
    last = entries[lo - 1].seq
    if history.at(last) is prefix:
        # the chain was the head at that raw seq: the projector's seek (marks, snapshots) applies
        return projector.state_at(game_id, last)
    return projector.project(game_id, history, prefix, at)


def frames(
    projector: Projector,
    game_id: str,
    *,
    at: int | None = None,
    from_seq: int | None = None,
    to_seq: int | None = None,
    perspective: Perspective = PUBLIC,
    diff: bool = False,
) -> list[Frame]:
    """Frames of the effective history at raw seq ``at`` (default: now), for the steps whose raw
    seq lies in ``from_seq..to_seq``. With ``diff`` only the first frame carries the whole view."""
    history = projector.history(game_id)
    at = history.last_seq if at is None else at
    node = history.at(at)
    if node is None:
        return []
    entries = node.entries()
    lo, hi = _window(entries, from_seq, to_seq)
    if lo >= hi:
        return []
    game = _state_before_window(projector, game_id, history, node, entries, lo, at)
    noted = notes_by_step(history.notes_at(at))
    out: list[Frame] = []
    previous: dict[str, Any] | None = None
    for index in range(lo, hi):
        entry = entries[index]
        before = game
        game = start(entry.body) if game is None else fold(game, (entry.body,))
        frame = _frame(game, index, entry.seq, entry.body, perspective, before)
        frame.amended_by = entry.amended_by
        frame.notes = noted.get(entry.seq)
        view = perspective.see(game)
        if diff and previous is not None:
            frame.diff = diff_views(previous, view)
        else:
            frame.view = view
        previous = view
        out.append(frame)
    return out


# -- frames of the raw log (what a live stream sends) -------------------------------------------


def _edit(body: Event) -> tuple[dict[str, Any] | None, Event | None]:
    """What a history edit did, and for an amendment the new body."""
    if isinstance(body, Undone):
        return {"to_seq": body.to_seq}, None
    if isinstance(body, Redone):
        return {}, None
    if isinstance(body, Amended):
        return {"seq": body.seq}, codec.from_builtins(body.body)
    if isinstance(body, Noted):
        return {"step_seq": body.seq, "note": body.text}, None
    return None, None


def _state_after(
    projector: Projector, game_id: str, history: History, seq: int, previous: tuple[Node | None, GameState | None]
) -> GameState:
    """The state after raw ``seq``: one fold from the previous one when the event extended the
    chain, else the projector's seek (an undo or an amendment changed the chain)."""
    node = history.at(seq)
    before_node, before = previous
    if before is not None and node is not None and node.parent is before_node:
        return fold(before, (node.body,))
    return projector.state_at(game_id, seq)


def raw_frames(
    projector: Projector, game_id: str, from_seq: int, to_seq: int, perspective: Perspective = PUBLIC
) -> list[Frame]:
    """One frame per raw log event in ``from_seq..to_seq`` (history edits included), each with the
    whole view after it: what a spectator's live stream shows."""
    history = projector.history(game_id)
    from_seq, to_seq = max(from_seq, 1), min(to_seq, history.last_seq)
    if from_seq > to_seq:
        return []
    bodies = projector.log.read_bodies(game_id, from_seq, to_seq)
    previous_node = history.at(from_seq - 1)
    previous: tuple[Node | None, GameState | None] = (
        previous_node,
        projector.state_at(game_id, from_seq - 1) if previous_node is not None else None,
    )
    out: list[Frame] = []
    for seq, body in zip(range(from_seq, to_seq + 1), bodies):
        before = previous[1]
        game = _state_after(projector, game_id, history, seq, previous)
        node = history.at(seq)
        previous = (node, game)
        edit, amended = _edit(body)
        frame = _frame(game, node.length - 1 if node else 0, seq, amended or body, perspective, before)
        if amended is not None or type(body) in (Undone, Redone, Noted):
            frame.sentence = sentence(before, game, body, None)
            frame.text = say(frame.sentence)
        frame.type = codec.tag_of(type(body))
        frame.edit = edit
        frame.view = perspective.see(game)
        if perspective.full or perspective.all_moves:
            frame.body = codec.to_builtins(body)
        out.append(frame)
    return out


# -- seeking helpers for the recorder's front ends ----------------------------------------------


def state_before(projector: Projector, game_id: str, seq: int) -> GameState:
    """The state just before the effective step recorded at raw ``seq`` (to read an amendment)."""
    history = projector.history(game_id)
    head = history.head
    entries = head.entries() if head is not None else []
    index = next((i for i, e in enumerate(entries) if e.seq == seq), None)
    if index is None:
        raise HistoryEditRefused(
            "seq {seq} is not a move in the effective history", params=dict(seq=seq), code="amend-not-effective", seq=seq
        )
    if index == 0:
        raise HistoryEditRefused("the game's creation cannot be amended", code="amend-creation", seq=seq)
    assert head is not None
    return projector.project(game_id, history, head.ancestor(index), history.last_seq)


def _automatic(body: Event, digital: bool) -> bool:
    """Recorded by the recorder itself after a move: the end, and a digital game's chance."""
    if isinstance(body, GameEnded):
        return True
    return digital and getattr(body, "seat", None) is None and type(body) not in LIFECYCLE_EVENTS


def take_back_moves(entries: list[Entry], digital: bool, count: int) -> int:
    """The seq to undo to so that the last ``count`` moves go (with what was recorded
    automatically after each); refused when there are fewer."""
    to_seq = None
    for taken in range(count):
        to_seq = take_back_seq(entries, digital)
        if to_seq is None:
            if taken == 0:
                raise HistoryEditRefused("there is no move to take back", code="nothing-to-undo")
            raise HistoryEditRefused(
                "there are only {taken} move(s) to take back, not {count}", params=dict(taken=taken, count=count), code="undo-out-of-range"
            )
        entries = entries[: next(i for i, e in enumerate(entries) if e.seq == to_seq) + 1]
    assert to_seq is not None
    return to_seq


def take_back_seq(entries: list[Entry], digital: bool) -> int | None:
    """The seq to undo to so that the last move goes, with what was recorded automatically after
    it (a digital shuffle, the end); None when there is no move to take back."""
    for index in range(len(entries) - 1, 0, -1):
        body = entries[index].body
        if _automatic(body, digital):
            continue
        if isinstance(body, Forked):
            return None
        return entries[index - 1].seq
    return None


def describe_as_seen(game: GameState, body: Event, ended: bool | None = None) -> str:
    """``describe`` of a step of ``game`` as the table saw it: not a digital shuffle's order, nor the
    card a face-down draw took, nor a digital game's seed (it deals every card), until the game has
    ended (``ended``: whether it has now, when ``game`` is an earlier step of it)."""
    ended = game.ended is not None if ended is None else ended
    if not ended and isinstance(body, GameCreated):
        body = msgspec.structs.replace(body, seed=None)
    return describe(game, known_move(game, body, Perspective(all_moves=ended)) or body).rstrip()


def describe(game: GameState, body: Event) -> str:
    """An event in words: the title's notation for its moves, a phrase for lifecycle events."""
    if isinstance(body, GameCreated):
        seed = f", seed {body.seed}" if body.seed is not None else ""
        return f"{body.title}: {', '.join(body.players)}{seed}"
    if isinstance(body, GameEnded) and not body.scores:
        return "end: " + ", ".join(game.players[seat] for seat in body.winners) + " won"
    if isinstance(body, GameEnded):
        return "end: " + ", ".join(f"{p} {s}" for p, s in zip(game.players, body.scores))
    if isinstance(body, Undone):
        return f"undo to {body.to_seq}"
    if isinstance(body, Redone):
        return "redo"
    if isinstance(body, Amended):
        try:
            new = notation(game, codec.from_builtins(body.body))
        except TabletapeError:  # an old body that no longer decodes is still listed
            new = None
        return f"amend #{body.seq} -> {new or json.dumps(body.body)}"
    if isinstance(body, Forked):
        return f"fork of {body.parent_id} at {body.at_seq}"
    if isinstance(body, Noted):
        return f"note on #{body.seq}: {body.text}"
    return notation(game, body) or codec.tag_of(type(body))
