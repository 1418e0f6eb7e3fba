"""The effective history of a game: what its log means after undo, redo and amendments.

The log only grows. Each raw seq N has an effective history — the list of events that count
after reading the log up to N — kept as a persistent chain so that undo to any point, redo and
"state at seq N" cost no copying.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from events import codec
from events.base import Event
from events.errors import HistoryEditRefused, MalformedEvent
from events.lifecycle import Amended, GameCreated, Redone, Undone


@dataclass(frozen=True, slots=True)
class Entry:
    """One event of the effective history: its raw seq, its body, and the amendment that set it."""

    seq: int
    body: Event
    amended_by: int | None = None


@dataclass(frozen=True, slots=True)
class Node:
    """A persistent chain of entries: ``parent`` holds everything before ``entry``."""

    entry: Entry
    parent: "Node | None"
    length: int

    def entries(self) -> list[Entry]:
        out: list[Entry] = []
        node: Node | None = self
        while node is not None:
            out.append(node.entry)
            node = node.parent
        out.reverse()
        return out

    def ancestor(self, length: int) -> "Node | None":
        """The chain's prefix of ``length`` entries."""
        node: Node | None = self
        while node is not None and node.length > length:
            node = node.parent
        return node


def _extend(parent: Node | None, entry: Entry) -> Node:
    return Node(entry, parent, (parent.length if parent else 0) + 1)


class History:
    """Effective histories at every raw seq of one game's log."""

    def __init__(self) -> None:
        self.heads: list[Node | None] = [None]  # heads[n] = effective chain after raw seq n
        self._redo: list[tuple[Node | None, ...]] = [()]  # redo stack after raw seq n

    @property
    def last_seq(self) -> int:
        return len(self.heads) - 1

    @property
    def head(self) -> Node | None:
        return self.heads[-1]

    def at(self, seq: int) -> Node | None:
        if not 0 <= seq <= self.last_seq:
            raise HistoryEditRefused(
                f"seq {seq} is outside the log (0..{self.last_seq})", code="seq-out-of-range", seq=seq
            )
        return self.heads[seq]

    def entries(self, seq: int | None = None) -> list[Entry]:
        node = self.head if seq is None else self.at(seq)
        return node.entries() if node is not None else []

    def copy(self) -> "History":
        """An independent history with the same past (nodes are shared: they never change)."""
        twin = History()
        twin.heads = list(self.heads)
        twin._redo = list(self._redo)
        return twin

    def can_redo(self) -> bool:
        return bool(self._redo[-1])

    def push(self, body: Event) -> None:
        """Read the next raw event of the log (seq = last_seq + 1); raises HistoryEditRefused."""
        seq = self.last_seq + 1
        head, redo = self.heads[-1], self._redo[-1]
        if isinstance(body, Undone):
            target = self._undo_target(body.to_seq, seq)
            redo = (*redo, head)
            head = self.heads[target]
        elif isinstance(body, Redone):
            if not redo:
                raise HistoryEditRefused(
                    "nothing to redo: no undo since the last new event", code="nothing-to-redo"
                )
            head, redo = redo[-1], redo[:-1]
        elif isinstance(body, Amended):
            head = self._amend(head, body, seq)
            redo = ()
        else:
            if seq == 1 and not isinstance(body, GameCreated):
                raise HistoryEditRefused("a game's first event must be game.created", code="not-created")
            head = _extend(head, Entry(seq, body))
            redo = ()
        self.heads.append(head)
        self._redo.append(redo)

    def _undo_target(self, to_seq: int, seq: int) -> int:
        if not 0 <= to_seq < seq:
            raise HistoryEditRefused(
                f"cannot undo to seq {to_seq}: it must be between 0 and {seq - 1}",
                code="undo-out-of-range",
                to_seq=to_seq,
            )
        # seq 1 creates the game; undoing "to before the first move" keeps it
        return max(to_seq, 1)

    def _amend(self, head: Node | None, amendment: Amended, seq: int) -> Node:
        entries = head.entries() if head is not None else []
        for index, entry in enumerate(entries):
            if entry.seq == amendment.seq:
                break
        else:
            raise HistoryEditRefused(
                f"seq {amendment.seq} is not in the effective history; only a counted event can be amended",
                code="amend-not-effective",
                seq=amendment.seq,
            )
        if index == 0:
            raise HistoryEditRefused("the game's creation cannot be amended", code="amend-creation")
        try:
            body = codec.from_builtins(amendment.body)
        except MalformedEvent as exc:
            raise HistoryEditRefused(
                f"the amended body is not a valid event: {exc.message}", code="amend-malformed"
            ) from exc
        node = head.ancestor(index) if head is not None else None
        node = _extend(node, Entry(entry.seq, body, seq))
        for later in entries[index + 1 :]:
            node = _extend(node, later)
        return node


def build(bodies: Iterable[Event]) -> History:
    history = History()
    for body in bodies:
        history.push(body)
    return history


def iter_bodies(node: Node | None) -> Iterator[Event]:
    for entry in node.entries() if node is not None else ():
        yield entry.body
