"""The layers one app instance works with, over one database (a DuckDB file or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable

from api import i18n
from api.models import UnreadableOut
from api.settings import Settings
from api.streaming import Hub
from events.creation_keys import CreationKeys
from events.duckdb_log import DuckDBEventLog
from events.log import AppendResult
from events.stores import open_log
from events.tokens import AdminToken, TokenStore
from projections.packs import LOCK_WAIT_S, PackLibrary
from projections.projector import Projector
from replay.recorder import Recorder


def library(log: DuckDBEventLog, projector: Callable[[], Projector], lock_wait_s: float = LOCK_WAIT_S) -> PackLibrary:
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


def tokens(log: DuckDBEventLog) -> TokenStore:
    """The game tokens of a store; not cached when other processes may reissue them."""
    return TokenStore(log.store, cache_size=0 if log.shared else 50_000)


class Services:
    """Log, projector, recorder, tokens, creation keys, the admin token, the pack library and
    the live-stream hub of one database."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.log = open_log(settings.db_path)
        self.packs = library(self.log, lambda: self.projector, settings.pack_lock_wait_s)
        self.projector = Projector(self.log)
        self.recorder = Recorder(self.log, self.projector)
        self.tokens = tokens(self.log)
        self.creation_keys = CreationKeys(self.log.store)
        self.admin = AdminToken(self.log.store)
        #: the admin token made on this store's first start (shown once, then forgotten)
        self.admin_token_issued: str | None = self.admin.ensure()
        self.recorder.subscribe(self.packs.appended)
        self.hub = Hub()

    def unreadable(self, lang: str = i18n.DEFAULT) -> list[UnreadableOut]:
        """The stored games this code cannot read, with why, in ``lang``."""
        return [
            UnreadableOut(game_id=exc.details["game_id"], seq=exc.details["seq"], reason=exc.details["reason"],
                          message=i18n.message(exc, lang))
            for exc in self.projector.quarantine.games()
        ]

    def subscribe(self, listener: Callable[[str, AppendResult], None]) -> Callable[[], None]:
        """Call ``listener`` after each append: this process's, and on a shared store (PostgreSQL)
        every other process's too."""
        stops = [self.recorder.subscribe(listener)]
        if self.log.shared:
            stops.append(self.log.subscribe(listener))
        return lambda: [stop() for stop in stops] and None

    def close(self) -> None:
        self.hub.close()
        self.log.close()
