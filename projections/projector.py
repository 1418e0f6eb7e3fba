"""The projector: state at any seq (from snapshots), live state per game, read models kept current.

Snapshots are keyed by raw seq: the log is append-only, so the state after raw seq N never
changes for a given rules version, whatever is appended later.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import duckdb
import msgspec

from events.duckdb_log import DuckDBEventLog
from events.errors import UnknownGame
from events.lifecycle import GameEnded
from projections.fold import GameState, fold, start
from projections.read_models import ReadModels
from replay.history import History, Node

#: Chosen by `python -m benchmarks` (see README): one snapshot read costs about as much as
#: folding ~200 Lost Cities events, and writing one every 256 events adds little to appends.
SNAPSHOT_EVERY = 256

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
class _Live:
    history: History
    #: the state after the whole effective history
    head_state: GameState


def rules_version(game: GameState) -> str:
    return f"{game.title.id}@{getattr(game.title, 'version', '1')}"


class Projector:
    """Folds games through their rules core, with snapshots and a live cache."""

    def __init__(
        self,
        log: DuckDBEventLog,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        cache_size: int = 2_000,
        read_models: bool = True,
    ) -> None:
        self.log = log
        self.con: duckdb.DuckDBPyConnection = log.con
        self.snapshot_every = snapshot_every
        self._lock = threading.RLock()
        self._live: OrderedDict[str, _Live] = OrderedDict()
        self._cache_size = cache_size
        self._decoders: dict[type, msgspec.msgpack.Decoder] = {}
        with self._lock:
            self.con.execute(SNAPSHOT_SCHEMA)
        self.read_models = ReadModels(log) if read_models else None

    # -- live state ------------------------------------------------------------------------

    def history(self, game_id: str) -> History:
        return self._refresh(game_id).history

    def state(self, game_id: str) -> GameState:
        """The state after the whole effective history (the live game)."""
        return self._refresh(game_id).head_state

    def state_at(self, game_id: str, seq: int | None = None) -> GameState:
        """The state after raw seq ``seq`` of the log (None: now)."""
        live = self._refresh(game_id)
        history = live.history
        if seq is None or seq >= history.last_seq:
            return live.head_state
        node = history.at(max(seq, 1))
        return self._fold_to(game_id, history, node, max(seq, 1))

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._live.pop(game_id, None)

    def appended(self, game_id: str) -> GameState:
        """Bring the live state up to date after an append; returns it."""
        live = self._refresh(game_id)
        return live.head_state

    # -- internals -------------------------------------------------------------------------

    def _refresh(self, game_id: str) -> _Live:
        with self._lock:
            live = self._live.get(game_id)
            last = self.log.last_seq(game_id)
            if last == 0:
                raise UnknownGame(f"no game {game_id!r}", game_id=game_id)
            if live is not None and live.history.last_seq == last:
                self._live.move_to_end(game_id)
                return live
            if live is None:
                history = History()
                bodies = self.log.read_bodies(game_id)
            else:
                history = live.history
                bodies = self.log.read_bodies(game_id, history.last_seq + 1)
            before = live.head_state if live is not None else None
            before_node = history.head
            first_new = history.last_seq + 1
            for body in bodies:
                history.push(body)
            head = history.head
            assert head is not None
            if before is not None and before_node is not None and head.ancestor(before_node.length) is before_node:
                state = fold(before, (e.body for e in _suffix(head, before_node.length)))
            else:
                state = self._fold_to(game_id, history, head, history.last_seq)
            live = _Live(history, state)
            self._live[game_id] = live
            self._live.move_to_end(game_id)
            if len(self._live) > self._cache_size:
                self._live.popitem(last=False)
            self._snapshot_new(game_id, history, first_new)
            if self.read_models is not None:
                self.read_models.track(game_id, history, state, before)
            return live

    def _fold_to(self, game_id: str, history: History, node: Node, seq: int) -> GameState:
        """Fold the chain ending at ``node``, starting from the best usable snapshot."""
        base: GameState | None = None
        base_length = 0
        entries = node.entries()
        first = start(entries[0].body)
        version = rules_version(first)
        rows = self.con.execute(
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
        if base is None:
            base, base_length = first, 1
        return fold(base, (e.body for e in entries[base_length:]))

    def _snapshot_new(self, game_id: str, history: History, first_new: int) -> None:
        every = self.snapshot_every
        marks = [s for s in range(first_new, history.last_seq + 1) if s % every == 0]
        if not marks:
            return
        for seq in marks:
            node = history.at(seq)
            if node is None:
                continue
            state = self._fold_to(game_id, history, node, seq - 1) if seq != history.last_seq else None
            if state is None:
                state = self._live[game_id].head_state
            blob = msgspec.msgpack.encode((state.state, state.ended, state.forked))
            self.con.execute(
                "INSERT OR IGNORE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                [game_id, seq, rules_version(state), node.length, blob],
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
        out.append(node.entry)
        node = node.parent
    out.reverse()
    return out
