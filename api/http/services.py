"""The layers one app instance works with, over one database (a DuckDB file or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable

from api import i18n
from api.http.models import UnreadableOut
from api.http.settings import Settings
from api.http.streaming import Hub
from api.store import library, tokens
from events.creation_keys import CreationKeys
from events.shares import ShareLinks
from events.log import AppendResult
from events.stores import open_log
from events.tokens import AdminToken
from projections.projector import Projector
from replay.recorder import Recorder


class Services:
    """Log, projector, recorder, tokens, creation keys, share links, the admin token, the pack library and
    the live-stream hub of one database."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.log = open_log(settings.db_path)
        self.packs = library(self.log, lambda: self.projector, settings.pack_lock_wait_s)
        self.projector = Projector(self.log)
        self.recorder = Recorder(self.log, self.projector)
        self.tokens = tokens(self.log)
        self.creation_keys = CreationKeys(self.log.store)
        self.shares = ShareLinks(self.log.store)
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
