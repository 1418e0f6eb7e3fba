"""The layers one app instance works with, over one DuckDB database."""

from __future__ import annotations

from collections.abc import Callable

from api.settings import Settings
from api.streaming import Hub
from events.creation_keys import CreationKeys
from events.duckdb_log import DuckDBEventLog
from events.tokens import AdminToken, TokenStore
from projections.packs import PackLibrary
from projections.projector import Projector
from replay.recorder import Recorder


def library(log: DuckDBEventLog, projector: Callable[[], Projector]) -> PackLibrary:
    """The store's pack library, its packs loaded into their titles' rules registries (before any
    game is folded: a game may pin one of them)."""

    def state_of(game_id: str) -> tuple[object, bool]:
        game = projector().state(game_id)
        return game.state, game.ended is not None

    return PackLibrary(log.con, state_of)


class Services:
    """Log, projector, recorder, tokens, creation keys, the admin token, the pack library and
    the live-stream hub of one database."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.log = DuckDBEventLog(settings.db_path)
        self.packs = library(self.log, lambda: self.projector)
        self.projector = Projector(self.log)
        self.recorder = Recorder(self.log, self.projector)
        self.tokens = TokenStore(self.log.con)
        self.creation_keys = CreationKeys(self.log.con)
        self.admin = AdminToken(self.log.con)
        #: the admin token made on this store's first start (shown once, then forgotten)
        self.admin_token_issued: str | None = self.admin.ensure()
        self.recorder.subscribe(self.packs.appended)
        self.hub = Hub()

    def close(self) -> None:
        self.hub.close()
        self.log.close()
