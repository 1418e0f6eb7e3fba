"""The projector: state at any seq (from snapshots), live state per game, read models kept current.

Snapshots are keyed by raw seq: the log is append-only, so the state after raw seq N never
changes for a given rules version, whatever is appended later.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Sequence

import duckdb
import msgspec

from events.base import Event
from events.errors import GameUnreadable, MalformedEvent, UnknownGame, game_unreadable
from events.log import EventLog
from events.history import History, Node
from events.lifecycle import GameEnded
from events.seasons import is_club_stream
from projections.fold import GameState, fold, start
from projections.locks import KeyedLocks
from projections.quarantine import Quarantine, effective_steps, first_unfoldable, reason_of
from projections.read_models import ReadModels
from projections.rules_check import ResultDiffers, result_differs

#: Chosen by measurement (`python -m benchmarks`, last table): reading one snapshot back from
#: DuckDB costs ~1.5 ms, as much as folding ~1,000 Lost Cities events, so a stored snapshot only
#: pays off for long histories; short seeks are served by the in-memory marks below.
SNAPSHOT_EVERY = 1024

#: In-memory marks for scrubbing a game that is in the cache: any seq is at most this many
#: events of folding away from a mark.
MARK_EVERY = 64

SNAPSHOT_SCHEMA = """
CREATE TABLE IF NOT EXISTS snapshots (
    game_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    rules_version VARCHAR NOT NULL,
    length INTEGER NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (game_id, seq, rules_version)
);
"""


@dataclass(slots=True)
class Live:
    """One game as the projector keeps it; the recorder plans an append from one of these."""

    history: History
    #: the state after the whole effective history
    head_state: GameState
    #: states after raw seqs that are multiples of MARK_EVERY (in memory, for scrubbing)
    marks: dict[int, GameState] = field(default_factory=dict)
    #: the recorded end last checked against today's rules, and the verdict
    result_check: tuple[GameEnded, ResultDiffers | None] | None = None


def rules_version(game: GameState) -> str:
    return f"{game.title.id}@{game.title.version}"


class Projector:
    """Folds games through their rules core, with snapshots and a live cache."""

    def __init__(
        self,
        log: EventLog,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        cache_size: int = 2_000,
        read_models: bool = True,
    ) -> None:
        self.log = log
        # our own connection for writing snapshots; reads go through the log's per-thread cursor
        self.con: duckdb.DuckDBPyConnection = log.cursor()
        self._db_lock = threading.Lock()
        self.snapshot_every = snapshot_every
        self._cache_lock = threading.Lock()
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._cache_size = cache_size
        self._game_lock = KeyedLocks()
        self._decoders: dict[type, msgspec.msgpack.Decoder] = {}
        with self._db_lock:
            self.con.execute(SNAPSHOT_SCHEMA)
        self.read_models = ReadModels(log) if read_models else None
        #: the games that cannot be folded or projected: refused with ``game-unreadable``
        self.quarantine = self.read_models.quarantine if self.read_models is not None else Quarantine()

    # -- live state ------------------------------------------------------------------------

    def cached(self, game_id: str) -> bool:
        """Whether the live game is in memory and current (reading it needs no query)."""
        live = self._live.get(game_id)
        return live is not None and self.log.cached_seq(game_id) == live.history.last_seq

    def live(self, game_id: str) -> Live:
        """The game's effective history and the state after it, current with the log."""
        return self._refresh(game_id)

    def history(self, game_id: str) -> History:
        return self._refresh(game_id).history

    def result_differs(self, game_id: str) -> ResultDiffers | None:
        """For an ended game: how today's rules score its final state, if not as recorded (None:
        as recorded, or not ended). Checked once per recorded end, on the live state."""
        live = self._refresh(game_id)
        ended = live.head_state.ended
        if ended is None:
            return None
        if live.result_check is None or live.result_check[0] is not ended:
            live.result_check = (ended, result_differs(live.head_state))
        return live.result_check[1]

    def state(self, game_id: str) -> GameState:
        """The state after the whole effective history (the live game)."""
        return self._refresh(game_id).head_state

    def state_at(self, game_id: str, seq: int | None = None) -> GameState:
        """The state after raw seq ``seq`` of the log (None: now)."""
        live = self._refresh(game_id)
        history = live.history
        if seq is None or seq >= history.last_seq:
            return live.head_state
        seq = max(seq, 1)
        node = history.at(seq)
        for mark in range(seq - seq % MARK_EVERY, 0, -MARK_EVERY)[:8]:
            base = live.marks.get(mark)
            base_node = history.at(mark)
            if base is not None and base_node is not None and node is not None:
                if node.ancestor(base_node.length) is base_node:
                    return self._fold_marking(live, node, seq, base, base_node.length)
        if node is not None and node.length == seq and seq < self.snapshot_every:
            first = live.head_state
            base = GameState(first.title, first.created, first.title.setup(first.players, first.created.options))
            return self._fold_marking(live, node, seq, base, 1)
        return self.project(game_id, history, node, seq)

    def _fold_marking(self, live: Live, node: Node, seq: int, base: GameState, base_length: int) -> GameState:
        """Fold from ``base`` to ``node``, keeping marks on the way where raw seq == length."""
        entries = _suffix(node, base_length)
        game = base
        if node.length != seq:  # edits in between: raw seqs and positions differ
            return fold(game, (e.body for e in entries))
        done = 0
        next_mark = base_length - base_length % MARK_EVERY + MARK_EVERY
        while next_mark <= seq:
            upto = next_mark - base_length
            game = fold(game, (e.body for e in entries[done:upto]))
            live.marks.setdefault(next_mark, game)
            done, next_mark = upto, next_mark + MARK_EVERY
        return fold(game, (e.body for e in entries[done:]))

    def forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._live.pop(game_id, None)

    def appended(self, game_id: str, bodies: Sequence[Event] = (), first_seq: int | None = None) -> GameState:
        """Bring the live state up to date after an append (the appended bodies spare a read)."""
        with self._game_lock(game_id):
            live = self._cached(game_id)
            if live is None or first_seq is None or live.history.last_seq != first_seq - 1:
                return self._refresh(game_id, created=first_seq == 1).head_state
            return self._advance(game_id, live, bodies).head_state

    def project(
        self, game_id: str, history: History, node: Node | None, seq: int, base: GameState | None = None,
        base_node: Node | None = None,
    ) -> GameState:
        """The state at the end of ``node`` (the chain at raw ``seq``), by the cheapest fold."""
        if node is None:
            raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
        if base is not None and base_node is not None and node.ancestor(base_node.length) is base_node:
            return fold(base, (e.body for e in _suffix(node, base_node.length)))
        return self._fold_to(game_id, history, node, seq)

    # -- internals -------------------------------------------------------------------------

    def _cached(self, game_id: str) -> Live | None:
        with self._cache_lock:
            live = self._live.get(game_id)
            if live is not None:
                self._live.move_to_end(game_id)
            return live

    def _refresh(self, game_id: str, created: bool = False) -> Live:
        if is_club_stream(game_id):  # a season's stream shares the log, never a game's door
            raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
        if game_id in self.quarantine:
            raise self.quarantine.get(game_id)  # type: ignore[misc]
        live = self._cached(game_id)
        if live is not None and self.log.last_seq(game_id) == live.history.last_seq:
            return live  # the common case: no lock, no query
        with self._game_lock(game_id):
            live = self._cached(game_id)
            if live is None:
                return self._load(game_id, created)
            last = self.log.last_seq(game_id)
            if last != live.history.last_seq:
                try:
                    bodies = self.log.read_bodies(game_id, live.history.last_seq + 1)
                except MalformedEvent:  # appended by a newer version elsewhere: the check names its seq
                    self.forget(game_id)
                    return self._load(game_id, created)
                live = self._unless_unfoldable(game_id, lambda: self._advance(game_id, live, bodies))
            return live

    def _load(self, game_id: str, created: bool) -> Live:
        """A game read from the log and folded (its first load in this process)."""
        # a game's chain and anchors are checked once, when it is first loaded; a broken one raises
        # ChainBroken here on every read and write, one this code cannot read GameUnreadable
        try:
            bodies = self.log.read_checked(game_id)  # raises UnknownGame, ChainBroken, GameUnreadable
        except GameUnreadable as refusal:
            self._set_aside(refusal)
            raise

        def folded() -> Live:
            history = History()
            for body in bodies:
                history.push(body)
            return Live(history, self._fold_to(game_id, history, history.head, history.last_seq, True))

        live = self._unless_unfoldable(game_id, folded)
        self._remember(game_id, live)
        if created and self.read_models is not None:
            self.read_models.track(game_id, live.history, live.head_state, None)
        return live

    def _unless_unfoldable(self, game_id: str, fold_it: Callable[[], Live]) -> Live:
        """``fold_it()``; a game whose events do not fold is set aside and refused from then on."""
        try:
            return fold_it()
        except Exception as exc:
            bodies = self.log.read_bodies(game_id)
            found = first_unfoldable(effective_steps(range(1, len(bodies) + 1), bodies))
            if found is None:
                raise  # the game folds: the failure was not the game's (the database, a closing log)
            refusal = game_unreadable(game_id, found[0], reason_of(found[1]))
            self._set_aside(refusal)
            raise refusal from exc

    def _set_aside(self, refusal: GameUnreadable) -> None:
        self.forget(refusal.details["game_id"])
        if self.read_models is not None:
            self.read_models.set_aside(refusal)
        else:
            self.quarantine.add(refusal)

    def _advance(self, game_id: str, live: Live, bodies: Sequence[Event]) -> Live:
        history = live.history
        before, before_node, first_new = live.head_state, history.head, history.last_seq + 1
        for body in bodies:
            history.push(body)
        state = self.project(game_id, history, history.head, history.last_seq, before, before_node)
        if history.last_seq % MARK_EVERY == 0 and history.head is not None and history.head.length == history.last_seq:
            live.marks[history.last_seq] = state
        live = Live(history, state, live.marks)
        self._remember(game_id, live)
        self._snapshot_new(game_id, history, first_new, state)
        if self.read_models is not None:
            self.read_models.track(game_id, history, state, before)
        return live

    def _remember(self, game_id: str, live: Live) -> None:
        with self._cache_lock:
            self._live[game_id] = live
            self._live.move_to_end(game_id)
            if len(self._live) > self._cache_size:
                self._live.popitem(last=False)

    def _fold_to(
        self, game_id: str, history: History, node: Node | None, seq: int, capture: bool = False
    ) -> GameState:
        """Fold the chain ending at ``node`` from the best usable snapshot.

        With ``capture`` (a cold load of a history without edits), snapshots missing on the way
        are written as a side effect of the same fold.
        """
        if node is None:
            raise UnknownGame("no game {game_id!r}", params=dict(game_id=game_id), game_id=game_id)
        entries = node.entries()
        first = start(entries[0].body)
        every = self.snapshot_every
        base, base_length = first, 1
        if seq >= every:  # no snapshot exists below the first multiple of `every`
            version = rules_version(first)
            rows = self.log.reader().execute(
                "SELECT seq, length, state FROM snapshots WHERE game_id = ? AND rules_version = ? "
                "AND seq <= ? ORDER BY seq DESC LIMIT 8",
                [game_id, version, seq],
            ).fetchall()
            for snap_seq, length, blob in rows:
                snap_node = history.at(snap_seq)
                if snap_node is not None and length <= node.length and node.ancestor(length) is snap_node:
                    base = self._decode_snapshot(first, bytes(blob), length)
                    base_length = length
                    break
            if capture and node.length == seq and seq - base_length >= every:
                # no edits: raw seq == effective length, so the fold passes every mark
                game = base
                for mark in range(base_length - base_length % every + every, seq + 1, every):
                    game = fold(game, (e.body for e in entries[game.length : mark]))
                    self._write_snapshot(game_id, mark, game)
                return fold(game, (e.body for e in entries[game.length :]))
        return fold(base, (e.body for e in entries[base_length:]))

    def _snapshot_new(self, game_id: str, history: History, first_new: int, head_state: GameState) -> None:
        every = self.snapshot_every
        for mark in range(first_new + (-first_new) % every, history.last_seq + 1, every):
            if mark == history.last_seq:
                game = head_state
            else:
                game = self._fold_to(game_id, history, history.at(mark), mark)
            self._write_snapshot(game_id, mark, game)

    def _write_snapshot(self, game_id: str, seq: int, game: GameState) -> None:
        blob = msgspec.msgpack.encode((game.state, game.ended, game.forked))
        with self._db_lock:
            self.con.execute(
                "INSERT OR IGNORE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                [game_id, seq, rules_version(game), game.length, blob],
            )

    def _decode_snapshot(self, first: GameState, blob: bytes, length: int) -> GameState:
        from events.lifecycle import Forked

        state_type = first.title.state_type
        decoder = self._decoders.get(state_type)
        if decoder is None:
            decoder = msgspec.msgpack.Decoder(tuple[state_type, GameEnded | None, Forked | None])
            self._decoders[state_type] = decoder
        state, ended, forked = decoder.decode(blob)
        return GameState(first.title, first.created, state, ended, forked, length)


def _suffix(head: Node, length: int) -> list:
    out = []
    node: Node | None = head
    while node is not None and node.length > length:
        out.append(node)
        node = node.parent
    out.reverse()
    return out
