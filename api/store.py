"""The layers every door builds over one store: its pack library and its game tokens (the HTTP
service and the command line each open a store with these)."""

from __future__ import annotations

from collections.abc import Callable

from events.log import EventLog
from events.tokens import TokenStore
from projections.packs import LOCK_WAIT_S, PackLibrary
from projections.projector import Projector


def library(log: EventLog, projector: Callable[[], Projector], lock_wait_s: float = LOCK_WAIT_S) -> PackLibrary:
    """The store's pack library, its packs loaded into their titles' rules registries (before any
    game is folded: a game may pin one of them); its tables in the store every process shares;
    a change waits at most ``lock_wait_s`` for the pack lock."""

    def state_of(game_id: str) -> tuple[object, bool]:
        game = projector().state(game_id)
        return game.state, game.ended is not None

    if not log.shared:
        return PackLibrary(log.store, log.con, state_of, lock_wait_s=lock_wait_s)

    def reads_current() -> None:  # games another process created are in the catalogue first
        read_models = projector().read_models
        if read_models is not None:
            read_models.catch_up()

    return PackLibrary(log.store, log.con, state_of, changes=log, reads_current=reads_current, lock_wait_s=lock_wait_s)


def tokens(log: EventLog) -> TokenStore:
    """The game tokens of a store; not cached when other processes may reissue them."""
    return TokenStore(log.store, cache_size=0 if log.shared else 50_000)
