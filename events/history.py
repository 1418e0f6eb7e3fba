"""The effective history of a game: what its log means after undo, redo and amendments.

The log only grows. Each raw seq N has an effective history — the list of events that count
after reading the log up to N — kept as a persistent chain so that undo to any point, redo and
"state at seq N" cost no copying.

Notes on steps (``game.annotated``) are not steps: they stand beside the chain, one tuple of the
notes in force after every raw seq. An undo brings back the notes of the raw seq it returns to (a
note on a step it removes goes with the step, and any note written after that seq), a redo the
notes it took away, an amendment of a note replaces its text, an amendment of a step keeps the
step's notes. A note needs its step in the effective history when it is written.

It stands with the events because it needs nothing but them and gives the history edits
(``game.undone``, ``game.redone``, ``game.amended``) their meaning: projections fold it, replay
plans on it, and neither has to call the other for it.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from events import codec
from events.base import Event
from events.errors import HistoryEditRefused, MalformedEvent
from events.lifecycle import Amended, Forked, GameCreated, Noted, Redone, Undone


class _Logged:
    """What a node and a note share: the raw ``seq``, the ``body`` and the amendment that set it;
    two are equal when they stand for the same event (seq, body, amendment)."""

    __slots__ = ("seq", "body", "amended_by")
    seq: int
    body: Event
    amended_by: int | None

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return (self.seq, self.body, self.amended_by) == (other.seq, other.body, other.amended_by)  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]


class Node(_Logged):
    """One event of the effective history, linked to everything before it.

    ``seq`` is the event's raw seq in the log, ``amended_by`` the seq of the amendment that set
    its body. A chain of nodes is persistent: extending or cutting it never copies. Two nodes
    are equal when they stand for the same event (seq, body, amendment), whatever precedes them.
    """

    __slots__ = ("parent", "length")

    def __init__(
        self, seq: int, body: Event, parent: "Node | None", length: int, amended_by: int | None = None
    ) -> None:
        self.seq = seq
        self.body = body
        self.parent = parent
        self.length = length
        self.amended_by = amended_by

    def __repr__(self) -> str:
        amended = f", amended_by={self.amended_by}" if self.amended_by is not None else ""
        return f"Node(seq={self.seq}, body={self.body!r}{amended})"

    def entries(self) -> list["Node"]:
        out: list[Node] = []
        node: Node | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out

    def ancestor(self, length: int) -> "Node | None":
        """The chain's prefix of ``length`` entries."""
        node: Node | None = self
        while node is not None and node.length > length:
            node = node.parent
        return node


#: an entry of the effective history is its node
Entry = Node


class NoteEntry(_Logged):
    """A note in force: the raw ``seq`` of its ``game.annotated``, its body (the step's seq and the
    text), and the seq of the amendment that set its text."""

    __slots__ = ()

    def __init__(self, seq: int, body: Noted, amended_by: int | None = None) -> None:
        self.seq = seq
        self.body = body
        self.amended_by = amended_by

    @property
    def step_seq(self) -> int:
        return self.body.seq

    def __repr__(self) -> str:
        return f"NoteEntry(seq={self.seq}, body={self.body!r}, amended_by={self.amended_by})"


Notes = tuple[NoteEntry, ...]


def _extend(parent: Node | None, seq: int, body: Event, amended_by: int | None = None) -> Node:
    return Node(seq, body, parent, (parent.length if parent is not None else 0) + 1, amended_by)


class History:
    """Effective histories at every raw seq of one game's log."""

    def __init__(self) -> None:
        self.heads: list[Node | None] = [None]  # heads[n] = effective chain after raw seq n
        self._redo: list[tuple[Node | None, ...]] = [()]  # redo stack after raw seq n
        self.notes: list[Notes] = [()]  # notes[n] = the notes in force after raw seq n
        self._redo_notes: list[tuple[Notes, ...]] = [()]  # the notes of each redo stack entry

    @property
    def last_seq(self) -> int:
        return len(self.heads) - 1

    @property
    def head(self) -> Node | None:
        return self.heads[-1]

    def at(self, seq: int) -> Node | None:
        if not 0 <= seq <= self.last_seq:
            raise HistoryEditRefused(
                "seq {seq} is outside the log (0..{last_seq})", params=dict(seq=seq, last_seq=self.last_seq), code="seq-out-of-range", seq=seq
            )
        return self.heads[seq]

    def entries(self, seq: int | None = None) -> list[Entry]:
        node = self.head if seq is None else self.at(seq)
        return node.entries() if node is not None else []

    def stands(self, seq: int) -> bool:
        """Whether the event at raw ``seq`` counts now as it was written: not undone, not amended."""
        node = self.head
        while node is not None and node.seq > seq:
            node = node.parent
        return node is not None and node.seq == seq and node.amended_by is None

    def copy(self) -> "History":
        """An independent history with the same past (nodes are shared: they never change)."""
        twin = History()
        twin.heads = list(self.heads)
        twin._redo = list(self._redo)
        twin.notes = list(self.notes)
        twin._redo_notes = list(self._redo_notes)
        return twin

    def notes_at(self, seq: int | None = None) -> Notes:
        """The notes in force after raw ``seq`` (default: now), in the order they were written."""
        if seq is None:
            return self.notes[-1]
        self.at(seq)  # refuses a seq outside the log
        return self.notes[seq]

    def can_redo(self) -> bool:
        return bool(self._redo[-1])

    def push(self, body: Event) -> None:
        """Read the next raw event of the log (seq = last_seq + 1); raises HistoryEditRefused."""
        heads = self.heads
        seq = len(heads)
        cls = body.__class__
        if cls not in _EDITS:
            head = heads[-1]
            if head is None and cls is not GameCreated:
                raise HistoryEditRefused("a game's first event must be game.created", code="not-created")
            heads.append(Node(seq, body, head, head.length + 1 if head is not None else 1))
            self._redo.append(())
            self._redo_notes.append(())
            self.notes.append(self.notes[-1])
            return
        head, redo, notes, redo_notes = heads[-1], self._redo[-1], self.notes[-1], self._redo_notes[-1]
        if cls is Noted:
            _step_index(head, body.seq)  # type: ignore[attr-defined]
            notes = (*notes, NoteEntry(seq, body))  # type: ignore[arg-type]
            # something new was written: what an undo removed can no longer be put back
            redo, redo_notes = (), ()
        elif cls is Undone:
            target = self._undo_target(body.to_seq, seq)  # type: ignore[attr-defined]
            redo, redo_notes = (*redo, head), (*redo_notes, notes)
            head, notes = heads[target], self.notes[target]
        elif cls is Redone:
            if not redo:
                raise HistoryEditRefused(
                    "nothing to redo: no undo since the last new event", code="nothing-to-redo"
                )
            head, redo = redo[-1], redo[:-1]
            notes, redo_notes = redo_notes[-1], redo_notes[:-1]
        elif any(note.seq == body.seq for note in notes):  # type: ignore[attr-defined]
            notes = self._amend_note(notes, body, seq)  # type: ignore[arg-type]
            redo, redo_notes = (), ()
        else:
            head = self._amend(head, body, seq)  # type: ignore[arg-type]
            redo, redo_notes = (), ()
        heads.append(head)
        self._redo.append(redo)
        self.notes.append(notes)
        self._redo_notes.append(redo_notes)

    def _amend_note(self, notes: Notes, amendment: Amended, seq: int) -> Notes:
        body = _amended_body(amendment)
        old = next(note for note in notes if note.seq == amendment.seq)
        if not isinstance(body, Noted) or body.seq != old.step_seq:
            raise HistoryEditRefused(
                "a note is amended by a note on the same step (seq {step_seq})", params=dict(step_seq=old.step_seq),
                code="amend-note-shape",
                seq=amendment.seq,
            )
        return tuple(NoteEntry(note.seq, body, seq) if note is old else note for note in notes)

    def _undo_target(self, to_seq: int, seq: int) -> int:
        if not 0 <= to_seq < seq:
            raise HistoryEditRefused(
                "cannot undo to seq {to_seq}: it must be between 0 and {seq_minus}", params=dict(to_seq=to_seq, seq_minus=seq - 1),
                code="undo-out-of-range",
                to_seq=to_seq,
            )
        # "before the first move" keeps the game's creation, and a fork's record of its parent
        floor = 2 if len(self.heads) > 2 and isinstance(self.heads[2].body, Forked) else 1  # type: ignore[union-attr]
        return max(to_seq, floor)

    def _amend(self, head: Node | None, amendment: Amended, seq: int) -> Node:
        entries = head.entries() if head is not None else []
        for index, entry in enumerate(entries):
            if entry.seq == amendment.seq:
                break
        else:
            raise HistoryEditRefused(
                "seq {seq} is not in the effective history; only a counted event can be amended", params=dict(seq=amendment.seq),
                code="amend-not-effective",
                seq=amendment.seq,
            )
        if index == 0:
            raise HistoryEditRefused("the game's creation cannot be amended", code="amend-creation")
        body = _amended_body(amendment)
        if isinstance(body, Noted):  # a note stands beside the steps, never in place of one
            raise HistoryEditRefused(
                "a note is amended by a note on the same step (seq {step_seq})", params=dict(step_seq=body.seq),
                code="amend-note-shape",
                seq=amendment.seq,
            )
        node = head.ancestor(index) if head is not None else None
        node = _extend(node, entry.seq, body, seq)
        for later in entries[index + 1 :]:
            node = _extend(node, later.seq, later.body, later.amended_by)
        return node


def _step_index(head: Node | None, step_seq: int) -> int:
    """The position of the step whose event is raw ``step_seq`` in the chain ending at ``head``;
    refused when it is not a step there (undone, never one, or a note)."""
    node = head
    while node is not None and node.seq > step_seq:
        node = node.parent
    if node is None or node.seq != step_seq:
        raise HistoryEditRefused(
            "seq {seq} is not a step of the game now: a note goes on a step the replay shows", params=dict(seq=step_seq),
            code="note-step-not-effective",
            seq=step_seq,
        )
    return node.length - 1


_EDITS = frozenset((Undone, Redone, Amended, Noted))


def build(bodies: Iterable[Event]) -> History:
    history = History()
    for body in bodies:
        history.push(body)
    return history


def iter_bodies(node: Node | None) -> Iterator[Event]:
    for entry in node.entries() if node is not None else ():
        yield entry.body


def _amended_body(amendment: Amended) -> Event:
    """The event an amendment puts in place, refused when it is not a valid one."""
    try:
        return codec.from_builtins(amendment.body)
    except MalformedEvent as exc:
        raise HistoryEditRefused(
            "the amended body is not a valid event: {message_}", params=dict(message_=exc), code="amend-malformed"
        ) from exc
