"""The layers one app instance works with, over one DuckDB database."""

from __future__ import annotations

from api.settings import Settings
from api.streaming import Hub
from events.creation_keys import CreationKeys
from events.duckdb_log import DuckDBEventLog
from events.tokens import TokenStore
from projections.projector import Projector
from replay.recorder import Recorder


class Services:
    """Log, projector, recorder, tokens, creation keys and the live-stream hub of one database."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.log = DuckDBEventLog(settings.db_path)
        self.projector = Projector(self.log)
        self.recorder = Recorder(self.log, self.projector)
        self.tokens = TokenStore(self.log.con)
        self.creation_keys = CreationKeys(self.log.con)
        self.hub = Hub()

    def close(self) -> None:
        self.hub.close()
        self.log.close()
