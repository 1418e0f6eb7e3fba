"""The store's pack library: content packs kept beside the log, immutable, keyed by hash.

A pack is plain data; its hash is sha256 of its canonical JSON, so the same content has the same
hash in every store. The library keeps, per pack, what is not in the data: a name, a lineage and
version (``ours-v3`` is version 3 of lineage ``ours``), its parent, where it came from
(``builtin`` ``upload`` ``derived`` ``grown`` ``import``) and when. Each title's working pack is
the one a new game is pinned to when it names none. Packs are loaded into the title's rules
registry when the store opens and whenever one is added.

Titles with writable packs implement ``load_pack``, ``register_pack``, ``builtin_packs``,
``pack_components``, ``derive_pack``, ``diff_packs`` and ``grow_pack`` (see
``rules.marco_polo_2``); a title with only ``builtin_packs`` lists them read-only.

On a store several processes share (PostgreSQL), the library's own tables (``packs``,
``pack_working``, ``pack_grown``) live in that store and every process holds a copy in memory:
a change is announced (``changes.notify``) and every process takes it in at once; a pack asked
for by hash or id that the copy lacks is read again before it is refused. The games a pack is
pinned by are read from the read models (``reads``), brought up to the store first.

Growth: the components a game described and its pack lacked join a new version of the working
lineage (the first time, ``ours-v1`` made from the title's default pack) when the game ends, and
when a new game of the title is created (then only what is public now: never a goal card before
its game's end). A game with ``options.grow_pack: false`` never grows a pack.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
import math
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, ContextManager, Iterator, Protocol

import duckdb
import msgspec

from events.errors import InvalidOptions, PackRefused, PacksBusy, TabletapeError, UnknownPack
from events.log import AppendResult, naive_utc, utc_now
from events.messages import phrase
from events.names import printable_key
from rules import GrowingPacks, PackedTitle, get_title

_logger = logging.getLogger("tabletape.packs")

SCHEMA = """
CREATE TABLE IF NOT EXISTS packs (
    title VARCHAR NOT NULL,
    hash VARCHAR NOT NULL,
    id VARCHAR NOT NULL,
    data VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    lineage VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    parent_id VARCHAR,
    parent_hash VARCHAR,
    source VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL,
    info VARCHAR NOT NULL,
    PRIMARY KEY (title, hash)
);
CREATE TABLE IF NOT EXISTS pack_working (title VARCHAR PRIMARY KEY, hash VARCHAR NOT NULL);
CREATE TABLE IF NOT EXISTS pack_grown (game_id VARCHAR PRIMARY KEY, hash VARCHAR NOT NULL);
"""

SOURCES = ("builtin", "upload", "derived", "grown", "import", "merged")
#: the lineage growth starts when a store has no working pack of its own
GROWN_LINEAGE = "ours"
#: a version number is small (the store keeps it as a 32-bit integer)
_VERSIONED = re.compile(r"^(.+)-v([1-9]\d{0,8})$")
_HASH = re.compile(r"^[0-9a-f]{64}$")


#: how deep a pack may nest (the shipped ones: 6) and how large its canonical JSON may be: a
#: deeper pack passes the JSON encoders' and response models' own depth limits on its reads
MAX_DEPTH = 32
MAX_BYTES = 512 * 1024


def within_limits(data: Any) -> None:
    """Refuse a pack nested deeper than ``MAX_DEPTH``, holding text no storage can encode (a lone
    surrogate) or larger than ``MAX_BYTES`` (422, naming the field: ``pack.<key>``, or ``pack``)."""
    fields = data.items() if isinstance(data, dict) else [(None, data)]
    for key, value in fields:
        where = "pack" if key is None else "pack." + printable_key(str(key))
        if _deeper_than(value, MAX_DEPTH - 1):
            raise InvalidOptions(
                "{where} nests deeper than {max_depth} levels", params=dict(where=where, max_depth=MAX_DEPTH),
                code="pack-too-deep", field=where,
            )
        try:
            canonical({key: value} if key is not None else value)
        except UnicodeEncodeError:
            raise InvalidOptions(
                "{where}: text must be valid Unicode (no lone surrogates)", params=dict(where=where),
                code="pack-not-unicode", field=where,
            ) from None
    size = len(canonical(data))
    if size > MAX_BYTES:
        raise InvalidOptions(
            "the pack is {size} bytes as JSON; a pack holds at most {max_bytes}", params=dict(size=size, max_bytes=MAX_BYTES),
            code="pack-too-large", field="pack",
        )


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects nest in ``value`` more than ``limit`` levels (without recursion:
    the value may be nested past Python's own limit)."""
    level = [value]
    for _ in range(limit + 1):
        level = [x for v in level for x in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else ())]
        if not level:
            return False
    return True


def pack_hash(data: Any) -> str:
    """sha256 of the pack's canonical JSON (its ``id`` included)."""
    return hashlib.sha256(canonical(data)).hexdigest()


def canonical(data: Any) -> bytes:
    return msgspec.json.encode(data, order="sorted")


def lineage_of(pack_id: str) -> tuple[str, int]:
    """``ours-v3`` is version 3 of ``ours``; any other id is version 1 of itself."""
    m = _VERSIONED.match(pack_id)
    return (m.group(1), int(m.group(2))) if m else (pack_id, 1)


@dataclass(frozen=True, slots=True)
class Entry:
    """One pack of the library: its data and what the library knows of it."""

    title: str
    id: str
    hash: str
    data: dict[str, Any]
    name: str
    lineage: str
    version: int
    parent: dict[str, str] | None
    source: str
    #: None for a built-in pack (shipped with the code, never added)
    created_at: datetime | None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def ref(self) -> dict[str, str]:
        return {"id": self.id, "hash": self.hash}


@dataclass(frozen=True, slots=True)
class Growth:
    """A new version grown from games, not yet stored."""

    #: None when the games described nothing new (their end is still recorded)
    entry: Entry | None
    games: tuple[str, ...]
    ended: tuple[str, ...]


def _has_packs(title: Any) -> bool:
    return isinstance(title, PackedTitle)


def _writable(title: Any) -> bool:
    return isinstance(title, GrowingPacks)


#: the notification a change to a shared library sends (its payload: the title)
CHANNEL = "tabletape_packs"
#: seconds a change waits for the pack lock (this process's, and on a shared store every process's)
LOCK_WAIT_S = 10.0


class Changes(Protocol):
    """What a store several processes share offers the library: a notification to all of them,
    and a lock one of them holds at a time."""

    def listen(self, channel: str, listener: Callable[[str], None]) -> Callable[[], None]: ...

    def notify(self, channel: str, payload: str) -> None: ...

    def exclusive(self, name: str, timeout: float | None = None) -> ContextManager[None]: ...


class PackLibrary:
    """The ``packs`` tables of one store, with every pack in memory (packs are small and few).

    ``store`` holds the library's tables (the log's ``store``), ``reads`` the read models'
    ``games`` (the log's ``con``); on DuckDB both are the one file. ``state_of(game_id) ->
    (title state, ended)`` reads a game (the projector's); growth uses it. ``changes``: the
    store's notifications when other processes share it; ``reads_current`` then brings the read
    models up to the store before ``games`` is read. A change waits at most ``lock_wait_s`` for
    the pack lock (``PacksBusy``, 503, before anything is written).
    """

    def __init__(
        self,
        store: Any,
        reads: duckdb.DuckDBPyConnection,
        state_of: Callable[[str], tuple[Any, bool]],
        changes: Changes | None = None,
        reads_current: Callable[[], object] = lambda: None,
        lock_wait_s: float = LOCK_WAIT_S,
    ) -> None:
        self._lock_wait_s = lock_wait_s
        self._con = store.cursor()
        self._reads = reads.cursor()
        self._lock = threading.RLock()
        #: whether this thread holds the store's lock (``_changing``): a nested change takes it once
        self._changing_here = threading.local()
        self._changing_lock = threading.Lock()
        self._reads_lock = threading.Lock()
        self._state_of = state_of
        self._changes = changes
        self._reads_current = reads_current
        self._packs: dict[str, dict[str, Entry]] = {}
        #: per title, the id of each stored pack beyond the limits (stored before them), by id and by hash
        self._unserved: dict[str, dict[str, str]] = {}
        self._working: dict[str, str] = {}
        self._complete: dict[str, bool] = {}
        #: another process changed the library while this one's lock was held (taken in on next use)
        self._stale = False
        with self._lock:
            self._con.execute(SCHEMA)
            self._load()
        self._stop = changes.listen(CHANNEL, self._changed_elsewhere) if changes is not None else None

    def _changed_elsewhere(self, _title: str) -> None:
        # the notifications' thread also wakes live streams: it never waits on a growth here
        if self._lock.acquire(blocking=False):
            try:
                self.catch_up()
            finally:
                self._lock.release()
        else:
            self._stale = True

    # -- reading -------------------------------------------------------------------------------

    def _games(self, query: str, params: list) -> list[tuple]:
        """Rows of the read models' ``games``, current with the store."""
        self._reads_current()
        with self._reads_lock:  # one cursor: DuckDB's are not shared across threads unguarded
            return self._reads.execute(query, params).fetchall()

    def catch_up(self) -> bool:
        """Take in what other processes changed in a shared library; whether anything had."""
        if self._changes is None:
            return False
        try:
            return self._take_in()
        except Exception:  # a failed catch-up leaves the copy as it was: the next miss asks again
            _logger.exception("reading the shared pack library failed")
            return False

    def _take_in(self) -> bool:
        with self._lock:
            self._stale = False
            held = {(t, h) for t, entries in self._packs.items() for h in entries}
            there = {tuple(r) for r in self._con.execute("SELECT title, hash FROM packs").fetchall()}
            for title_id, digest in held - there:  # deleted elsewhere
                self._packs[title_id].pop(digest, None)
            if there - held:
                self._load(skip=held)
            working = dict(self._con.execute("SELECT title, hash FROM pack_working").fetchall())
            changed = held != there or working != self._working
            self._working = working
            return changed

    @contextlib.contextmanager
    def _changing(self) -> Iterator[None]:
        """Held around a change: the library's lock and, on a shared store, the one every process
        takes (the next version number counts the versions another process is adding). That one
        comes first, so this process's readers never wait while another process changes. Each
        wait is bounded: after ``lock_wait_s`` in all, ``PacksBusy``."""
        deadline = time.monotonic() + self._lock_wait_s
        with contextlib.ExitStack() as held:
            if self._changes is None or getattr(self._changing_here, "held", False):
                self._take(held, self._lock, deadline)
                yield
                return
            # one thread of this process at a time waits for the store's lock: each waiter there holds
            # a connection of the log's pool, which the holder needs for its own writes
            self._take(held, self._changing_lock, deadline)
            try:
                held.enter_context(self._changes.exclusive(CHANNEL, timeout=max(0.0, deadline - time.monotonic())))
            except TimeoutError:
                raise self._busy() from None
            self._changing_here.held = True
            held.callback(setattr, self._changing_here, "held", False)
            self._take(held, self._lock, deadline)
            self._take_in()  # what the process that held it last added; a failure refuses the change
            yield

    def _take(self, held: contextlib.ExitStack, lock: Any, deadline: float) -> None:
        if not lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise self._busy()
        held.callback(lock.release)

    def _busy(self) -> PacksBusy:
        wait = math.ceil(self._lock_wait_s)
        return PacksBusy(
            "the pack library is busy with another change; nothing was written: try again in {retry_after} s",
            params=dict(retry_after=wait), retry_after=wait,
        )

    def _announce(self, title_id: str) -> None:
        if self._changes is not None:
            self._changes.notify(CHANNEL, title_id)

    def _load(self, skip: set[tuple[str, str]] = frozenset()) -> None:
        rows = self._con.execute(
            "SELECT title, hash, id, data, name, lineage, version, parent_id, parent_hash, source, created_at, info "
            "FROM packs ORDER BY created_at"
        ).fetchall()
        for title_id, digest, pid, data, name, lineage, version, parent_id, parent_hash, source, at, info in rows:
            if (title_id, digest) in skip:
                continue
            parsed = self._parsed(title_id, pid, digest, data)
            if parsed is None:
                continue
            if pack_hash(parsed) != digest:
                _logger.error("pack %s of %s no longer matches its hash %s: left out", pid, title_id, digest)
                continue
            parent = {"id": parent_id, "hash": parent_hash} if parent_hash else None
            entry = Entry(title_id, pid, digest, parsed, name, lineage, version, parent, source, at, json.loads(info))
            try:
                self._register(entry)
            except TabletapeError as exc:  # a title that no longer accepts it: kept, not served
                _logger.error("pack %s of %s no longer loads: %s", pid, title_id, exc.message)
                continue
            if self._beyond_limits(entry):  # registered all the same: the games pinned to it still fold
                continue
            self._packs.setdefault(title_id, {})[digest] = entry
        self._working = dict(self._con.execute("SELECT title, hash FROM pack_working").fetchall())

    def _parsed(self, title_id: str, pack_id: str, digest: str, data: str) -> Any:
        """A stored pack's data, or None for one nested past Python's own limit (kept, refused by name)."""
        try:
            return json.loads(data)
        except RecursionError:
            self._unserve(title_id, pack_id, digest)
            return None

    def _beyond_limits(self, entry: Entry) -> bool:
        """Whether a stored pack (stored before the limits) is beyond them: then it is not served."""
        try:
            within_limits(entry.data)
        except InvalidOptions:
            self._unserve(entry.title, entry.id, entry.hash)
            return True
        return False

    def _unserve(self, title_id: str, pack_id: str, digest: str) -> None:
        _logger.error("pack %s of %s is beyond a pack's limits: kept, not served", pack_id, title_id)
        self._unserved.setdefault(title_id, {}).update({pack_id: pack_id, digest: pack_id})

    def _refuse_unserved(self, title_id: str, asked: str) -> None:
        pack_id = self._unserved.get(title_id, {}).get(asked)
        if pack_id is not None:
            raise PackRefused(
                "{title_id} pack {pack_id!r} is kept in this store but not served: it is beyond a pack's limits "
                "({max_depth} levels deep, {max_bytes} bytes)", params=dict(title_id=title_id, pack_id=pack_id, max_depth=MAX_DEPTH, max_bytes=MAX_BYTES),
                code="pack-not-served", pack=pack_id,
            )

    def _builtins(self, title_id: str) -> dict[str, Entry]:
        title = get_title(title_id)
        if not _has_packs(title):
            return {}
        out = {}
        for data in title.builtin_packs():
            digest = pack_hash(data)
            out[digest] = Entry(
                title_id, data["id"], digest, data, data.get("title") or data["id"], data["id"], 1, None, "builtin", None
            )
        return out

    def entries(self, title_id: str) -> list[Entry]:
        """Every pack of a title: the built-in ones first, then the store's in the order added."""
        title = get_title(title_id)
        if not _has_packs(title):
            raise UnknownPack("{title_id} has no content packs", params=dict(title_id=title_id), code="no-packs")
        if self._stale:
            self.catch_up()
        with self._lock:
            return [*self._builtins(title_id).values(), *self._packs.get(title_id, {}).values()]

    def working(self, title_id: str) -> Entry | None:
        with self._lock:
            digest = self._working.get(title_id)
            return self.by_hash(title_id, digest) if digest else None

    def get(self, title_id: str, pack_id: str, digest: str | None = None) -> Entry:
        """A pack by id (``digest`` when the id is ambiguous), or by its hash in place of the id."""
        try:
            return self._get(title_id, pack_id, digest)
        except UnknownPack:
            if not self.catch_up():
                raise
            return self._get(title_id, pack_id, digest)

    def _get(self, title_id: str, pack_id: str, digest: str | None) -> Entry:
        entries = self.entries(title_id)
        if digest is None and _HASH.match(pack_id):
            by_hash = [e for e in entries if e.hash == pack_id]
            if by_hash:
                return by_hash[0]
        named = [e for e in entries if e.id == pack_id and (digest is None or e.hash == digest)]
        if not named:
            self._refuse_unserved(title_id, digest or pack_id)
            what = phrase("what/pack-hash", "{pack_id!r} with hash {digest}", pack_id=pack_id, digest=digest) if digest else repr(pack_id)
            raise UnknownPack("{title_id} has no content pack {what} in this store", params=dict(title_id=title_id, what=what), code="unknown-pack")
        if len(named) > 1:
            raise PackRefused(
                "{n_named} packs of {title_id} have the id {pack_id!r}; name one by its hash (?hash=)", params=dict(n_named=len(named), title_id=title_id, pack_id=pack_id),
                code="pack-id-ambiguous", hashes=[e.hash for e in named],
            )
        return named[0]

    def by_hash(self, title_id: str, digest: str) -> Entry | None:
        """The pack with that hash (read again from a shared store before it is missed)."""
        found = self._held(title_id, digest)
        if found is None and self.catch_up():
            found = self._held(title_id, digest)
        return found

    def _held(self, title_id: str, digest: str) -> Entry | None:
        for entry in self.entries(title_id):
            if entry.hash == digest:
                return entry
        return None

    def pinned_hash(self, title_id: str, options: dict[str, Any]) -> str | None:
        """The hash of the pack a game's options pin (the title's default when they name none)."""
        title = get_title(title_id)
        content = options.get("content") if isinstance(options, dict) else None
        if not isinstance(content, dict):
            return title.content.get("hash") if isinstance(title, PackedTitle) else None
        if content.get("hash"):
            return str(content["hash"])
        named = [e for e in self.entries(title_id) if e.id == content.get("id")]
        if named and named[0].source == "builtin":  # a shipped pack's id is its own (as the rules read it)
            return named[0].hash
        return named[0].hash if len(named) == 1 else None

    def games_pinned(self, title_id: str) -> dict[str, int]:
        """How many games pin each pack (by hash)."""
        rows = self._games("SELECT options FROM games WHERE title = ?", [title_id])
        counts: dict[str, int] = {}
        for (options,) in rows:
            digest = self.pinned_hash(title_id, json.loads(options))
            if digest:
                counts[digest] = counts.get(digest, 0) + 1
        return counts

    def components(self, entry: Entry) -> dict[str, int]:
        title = get_title(entry.title)
        if isinstance(title, GrowingPacks):
            return title.pack_components(entry.data)
        return {k: len(v) for k, v in entry.data.items() if isinstance(v, list) and all(isinstance(x, dict) for x in v)}

    def complete(self, entry: Entry) -> bool:
        title = get_title(entry.title)
        if not _writable(title):
            return True
        if entry.hash not in self._complete:
            self._complete[entry.hash] = bool(title.load_pack(entry.data).complete)
        return self._complete[entry.hash]

    # -- writing -------------------------------------------------------------------------------

    def _title_for_writes(self, title_id: str) -> Any:
        title = get_title(title_id)
        if not _has_packs(title):
            raise UnknownPack("{title_id} has no content packs", params=dict(title_id=title_id), code="no-packs")
        if not _writable(title):
            raise PackRefused("{title_id}'s content pack is built in and cannot be changed", params=dict(title_id=title_id), code="packs-read-only")
        return title

    def _register(self, entry: Entry) -> None:
        title = get_title(entry.title)
        if _writable(title):
            title.register_pack(title.load_pack(entry.data))

    def _insert(self, entry: Entry, working: bool) -> None:
        parent = entry.parent or {}
        with self._lock:
            self._con.execute("BEGIN")
            try:
                self._con.execute(
                    "INSERT INTO packs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    [
                        entry.title, entry.hash, entry.id, canonical(entry.data).decode(), entry.name, entry.lineage,
                        entry.version, parent.get("id"), parent.get("hash"), entry.source, entry.created_at,
                        json.dumps(entry.info, sort_keys=True),
                    ],
                )
                if working:
                    self._set_working(entry)
                self._con.execute("COMMIT")
            except BaseException:
                self._con.execute("ROLLBACK")
                raise
            self._packs.setdefault(entry.title, {}).setdefault(entry.hash, entry)
            if working:
                self._working[entry.title] = entry.hash
        self._announce(entry.title)

    def _set_working(self, entry: Entry) -> None:
        self._con.execute(
            "INSERT INTO pack_working VALUES (?, ?) ON CONFLICT (title) DO UPDATE SET hash = excluded.hash",
            [entry.title, entry.hash],
        )

    def make_working(self, entry: Entry) -> None:
        with self._changing():
            self._set_working(entry)
            self._working[entry.title] = entry.hash
        self._announce(entry.title)

    def creating(self, title_id: str) -> Any:
        """Held around a creation of a game of a title whose packs grow: what it grows and pins
        is not moved on meanwhile (other titles' creations are not held up)."""
        return self._changing() if _writable(get_title(title_id)) else contextlib.nullcontext()

    def _new_entry(
        self, title_id: str, data: dict, name: str | None, lineage: str, version: int, parent: Entry | None,
        source: str, info: dict | None = None,
    ) -> Entry:
        return Entry(
            title_id, data["id"], pack_hash(data), data, name or data["id"], lineage, version,
            parent.ref if parent is not None else None, source, naive_utc(utc_now()), info or {},
        )

    def upload(self, title_id: str, data: Any, working: bool = False, source: str = "upload") -> tuple[Entry, bool]:
        """Add a pack file; ``(entry, added)``. The same content again is the pack already there;
        the same id with other content is refused (``pack-id-taken``); a bad field is refused
        naming it."""
        title = self._title_for_writes(title_id)
        within_limits(data)
        pack = title.load_pack(data)
        with self._changing():
            there = self._held(title_id, pack.hash)
            if there is not None:
                if working:
                    self.make_working(there)
                return there, False
            taken = [e for e in self.entries(title_id) if e.id == pack.id]
            if taken and source != "import":
                raise PackRefused(
                    "{title_id} already has a pack {pack_id!r} with other content (hash {hash}); packs are immutable: give this one another id", params=dict(title_id=title_id, pack_id=pack.id, hash=taken[0].hash),
                    code="pack-id-taken", field="pack.id", hash=taken[0].hash,
                )
            lineage, version = lineage_of(pack.id)
            entry = self._new_entry(title_id, pack.data, None, lineage, version, None, source)
            title.register_pack(pack)
            self._insert(entry, working)
            return entry, True

    def _next_id(self, title_id: str, lineage: str) -> tuple[str, int]:
        entries = self.entries(title_id)
        version = max((e.version for e in entries if e.lineage == lineage), default=0) + 1
        ids = {e.id for e in entries}
        while f"{lineage}-v{version}" in ids:
            version += 1
        return f"{lineage}-v{version}", version

    def derive(
        self, title_id: str, parent: Entry, add: list, replace: list, remove: list, name: str | None, working: bool
    ) -> Entry:
        """A new version of ``parent`` (its lineage, the next version) with components changed."""
        title = self._title_for_writes(title_id)
        with self._changing():
            # the group's own lineage grows from the title's default pack; another built-in pack's
            # versions are a lineage of their own (not interleaved with the group's)
            own = parent.source == "builtin" and parent.hash == title.content["hash"]
            lineage = GROWN_LINEAGE if own else parent.lineage
            new_id, version = self._next_id(title_id, lineage)
            data = title.derive_pack(parent.data, new_id, add, replace, remove)
            if {**data, "id": parent.id} == parent.data and (name is None or name == parent.name):
                raise InvalidOptions(
                    "the new version would hold just what {parent_id} holds: add, replace or remove a component", params=dict(parent_id=parent.id),
                    code="pack-unchanged", field="add",
                )
            within_limits(data)
            pack = title.load_pack(data)
            there = self._held(title_id, pack.hash)
            if there is not None:  # only when it is the very same data, id included
                return there
            name = name or (parent.name if parent.source != "builtin" else None)
            entry = self._new_entry(title_id, data, name, lineage, version, parent, "derived")
            title.register_pack(pack)
            self._insert(entry, working)
            return entry

    def _merge_lineage(self, title: Any, a: Entry) -> str:
        own = a.source == "builtin" and a.hash == title.content["hash"]
        return GROWN_LINEAGE if own else a.lineage

    def merge_plan(self, title_id: str, a: Entry, b: Entry, keep: list | None = None) -> dict[str, Any]:
        """What merging ``b`` into ``a`` would give, nothing written: ``content.library.merge``'s
        answer (``data`` None while a clash is unresolved) under the id the new version would get."""
        title = self._title_for_writes(title_id)
        with self._lock:
            new_id, _ = self._next_id(title_id, self._merge_lineage(title, a))
        return title.merge_packs(a.data, b.data, new_id, keep or [])

    def merge(
        self, title_id: str, a: Entry, b: Entry, keep: list, name: str | None, working: bool
    ) -> tuple[Entry, bool]:
        """Packs ``a`` and ``b`` as a new version of ``a``'s lineage (source ``merged``), each clash
        resolved by ``keep``; ``(entry, added)``: when the merge holds just what ``a``, ``b`` or
        another pack holds (under its own id), that pack, not stored again. A clash left unresolved is refused (409
        ``pack-merge-clash``, listing them) and nothing is written."""
        title = self._title_for_writes(title_id)
        with self._changing():
            lineage = self._merge_lineage(title, a)
            new_id, version = self._next_id(title_id, lineage)
            plan = title.merge_packs(a.data, b.data, new_id, keep)
            if plan["data"] is None:
                open_ = [c for c in plan["clashes"] if c["kept"] is None]
                raise PackRefused(
                    "{n} component(s) differ between the two packs: choose which to keep of each", params=dict(n=len(open_)),
                    code="pack-merge-clash", clashes=open_,
                )
            data = plan["data"]
            # a pack that holds just this already (one of the two, or the same merge made before)
            for side in (a, b, *self.entries(title_id)):
                if {**data, "id": side.id} == side.data:
                    if working:
                        self.make_working(side)
                    return side, False
            within_limits(data)
            pack = title.load_pack(data)
            there = self._held(title_id, pack.hash)
            if there is not None:
                return there, False
            info = {"merged_from": [a.ref, b.ref], "kept": {f"{c['kind']}:{c['id']}": c["kept"] for c in plan["clashes"]}}
            entry = self._new_entry(title_id, data, name or (a.name if a.source != "builtin" else None), lineage, version, a, "merged", info)
            title.register_pack(pack)
            self._insert(entry, working)
            return entry, True

    def import_pack(self, title_id: str, data: Any, digest: str | None = None, working: bool = False) -> tuple[Entry, bool]:
        """Add a pack another store passed on (its file, or what its link leads to); ``digest``:
        the hash the link names, checked. Unlike an upload, an id this store already has for other
        content is kept beside it (two groups' ``ours-v1`` are two packs, told apart by hash)."""
        self._passed_on(title_id, data, digest)
        return self.upload(title_id, data, working=working, source="import")

    def _passed_on(self, title_id: str, data: Any, digest: str | None) -> Any:
        """A pack another store passed on, loaded, within the limits and hashing to ``digest`` when given."""
        title = self._title_for_writes(title_id)
        within_limits(data)
        pack = title.load_pack(data)
        if digest is not None and pack.hash != digest:
            raise InvalidOptions(
                "pack {pack_id!r} hashes to {hash}, not {digest}: it was changed after its export", params=dict(pack_id=pack.id, hash=pack.hash, digest=digest),
                code=f"{title_id}.content-mismatch", field="hash",
            )
        return pack

    def delete(self, title_id: str, entry: Entry) -> None:
        """Forget a pack no game pins, that is not built in and not the working pack."""
        self._title_for_writes(title_id)
        with self._changing():
            if entry.source == "builtin":
                raise PackRefused("{entry_id} is built in", params=dict(entry_id=entry.id), code="pack-in-use")
            pinned = self.games_pinned(title_id).get(entry.hash, 0)
            if pinned:
                raise PackRefused("{pinned} game(s) are pinned to {entry_id}", params=dict(pinned=pinned, entry_id=entry.id), code="pack-in-use", games=pinned)
            if self._working.get(title_id) == entry.hash:
                raise PackRefused(
                    "{entry_id} is the working pack of {title_id}; make another pack working first", params=dict(entry_id=entry.id, title_id=title_id), code="pack-in-use"
                )
            self._con.execute("DELETE FROM packs WHERE title = ? AND hash = ?", [title_id, entry.hash])
            self._packs.get(title_id, {}).pop(entry.hash, None)
        self._announce(title_id)

    # -- pinning and growth ----------------------------------------------------------------------

    def pin(self, title_id: str, options: dict[str, Any], growth: Growth | None = None) -> dict[str, Any]:
        """A new game's options with ``content`` as ``{id, hash}`` of a pack this store holds: the
        working pack (or the one ``growth`` makes) when the options name none."""
        title = get_title(title_id)
        if not _writable(title):
            return options
        content = options.get("content")
        if content is None:
            target = growth.entry if growth is not None else self.working(title_id)
            ref = target.ref if target is not None else dict(title.content)
            return {**options, "content": ref}
        if not isinstance(content, dict):
            return options  # the title's own check names it
        if content.get("hash") is None:
            named = [e for e in self.entries(title_id) if e.id == content.get("id")]
            if len(named) == 1:
                return {**options, "content": named[0].ref}
            if not named and isinstance(content.get("id"), str):
                # the rules registry may still know it (deleted here, or another store's in this process)
                raise InvalidOptions(
                    "options.content: this store holds no {title_id} pack {id!r}; upload it first", params=dict(title_id=title_id, id=content['id']),
                    code=f"{title_id}.content-mismatch", field="options.content",
                )
            return options  # ambiguous or malformed: the title's check names it
        held = self.by_hash(title_id, str(content["hash"]))
        if held is None:
            raise InvalidOptions(
                "options.content: this store holds no {title_id} pack with hash {hash}; upload it first", params=dict(title_id=title_id, hash=content['hash']),
                code=f"{title_id}.content-mismatch", field="options.content",
            )
        return options if content.get("id") is not None else {**options, "content": held.ref}

    def _growable(self, title_id: str, only: str | None = None) -> list[tuple[str, bool, dict[str, Any]]]:
        """(game, ended) of the title's games whose descriptions may still grow a pack: those not
        grown from since their end (``only``: that game, even if it ended before, was taken back
        into play by an undo and has ended again)."""
        if only is not None:
            query, params = "SELECT game_id, options, status FROM games WHERE title = ? AND game_id = ?", [title_id, only]
            grown: set[str] = set()
        else:
            query, params = "SELECT game_id, options, status FROM games WHERE title = ? ORDER BY created_at", [title_id]
            with self._lock:  # the library's table, in its own store (the games are the read models')
                grown = {r[0] for r in self._con.execute("SELECT game_id FROM pack_grown").fetchall()}
        return [
            (gid, status == "ended", opts)
            for gid, options, status in self._games(query, params)
            if gid not in grown and (opts := json.loads(options)).get("grow_pack", True) is not False
        ]

    def _feeds(self, title_id: str, options: dict[str, Any], lineage: str) -> bool:
        """Whether a game's descriptions belong to the lineage growing: it is pinned to the public
        pack or to a version of that lineage (a game on another group's pack, or on an invented
        one, grows nothing of ours)."""
        digest = self.pinned_hash(title_id, options)
        entry = self._held(title_id, digest) if digest else None
        if entry is None:
            return False
        if entry.source == "builtin":
            return not entry.data.get("invented")
        return entry.lineage == lineage

    def plan_growth(self, title_id: str, only: str | None = None) -> Growth | None:
        """The version the title's games would grow now (``only``: one game), not yet stored."""
        title = get_title(title_id)
        if not _writable(title):
            return None
        with self._lock:
            base = self.working(title_id)
            if base is None or base.source == "builtin":
                lineage = GROWN_LINEAGE
                base = base or self.by_hash(title_id, title.content["hash"])
            else:
                lineage = base.lineage
            assert base is not None
            states, games, ended = [], [], []
            for gid, was_over, options in self._growable(title_id, only):
                if not self._feeds(title_id, options, lineage):
                    if was_over:
                        ended.append(gid)
                    continue
                try:
                    state, over = self._state_of(gid)
                except TabletapeError:  # an altered or unreadable game grows nothing
                    continue
                if getattr(state, "described", None):
                    states.append((state, over))
                    games.append(gid)
                if over:
                    ended.append(gid)
            if not states:
                return Growth(None, (), tuple(ended)) if ended else None
            new_id, version = self._next_id(title_id, lineage)
            data, added, conflicts = title.grow_pack(base.data, new_id, states)
            if data is None:
                return Growth(None, (), tuple(ended)) if ended else None
            info = {"grown_from": games, "added": len(added), **({"conflicts": conflicts} if conflicts else {})}
            entry = self._new_entry(title_id, data, None, lineage, version, base, "grown", info)
            title.register_pack(title.load_pack(data))
            return Growth(entry, tuple(games), tuple(ended))

    def commit(self, growth: Growth | None) -> None:
        """Store a planned growth: its new version becomes the working pack; its ended games
        grow nothing again."""
        if growth is None:
            return
        with self._changing():
            if growth.entry is not None:
                self._insert(growth.entry, working=True)
            digest = growth.entry.hash if growth.entry is not None else ""
            if growth.ended:
                self._con.executemany(
                    "INSERT INTO pack_grown VALUES (?, ?) ON CONFLICT DO NOTHING", [[gid, digest] for gid in growth.ended]
                )

    def prepare(self, title_id: str, options: dict[str, Any]) -> tuple[dict[str, Any], Growth | None]:
        """A new game's options pinned (see ``pin``), and the growth its creation brings; the
        caller ``commit``s the growth just before it appends the game, so a refused creation
        changes nothing."""
        if _writable(get_title(title_id)):
            self.catch_up()  # the working pack may have moved on in another process
        growth = self.plan_growth(title_id)
        return self.pin(title_id, dict(options), growth), growth

    def grow(self, title_id: str, only: str | None = None) -> Entry | None:
        with self._changing():
            growth = self.plan_growth(title_id, only)
            self.commit(growth)
            return growth.entry if growth is not None else None

    def appended(self, game_id: str, result: AppendResult) -> None:
        """After an append: a game that has just ended grows its title's working pack."""
        if "game.ended" not in result.types:
            return
        try:
            rows = self._games("SELECT title FROM games WHERE game_id = ?", [game_id])
            row = rows[0] if rows else None
            if row is not None and _writable(get_title(row[0])):
                self.grow(row[0], only=game_id)
        except Exception:  # growth must never fail the move that ended the game
            _logger.exception("growing the pack from game %s failed", game_id)

    # -- moving games between stores ---------------------------------------------------------------

    def packs_of(self, game_ids: list[str]) -> list[Entry]:
        """The packs (not built in) the games pin, once each."""
        if not game_ids:
            return []
        rows = self._games("SELECT DISTINCT title, options FROM games WHERE list_contains(?, game_id)", [game_ids])
        out: dict[str, Entry] = {}
        for title_id, options in rows:
            if not _writable(get_title(title_id)):
                continue
            digest = self.pinned_hash(title_id, json.loads(options))
            entry = self.by_hash(title_id, digest) if digest else None
            if entry is not None and entry.source != "builtin":
                out[entry.hash] = entry
        return list(out.values())

    def stage(self, title_id: str, data: Any, digest: str | None = None) -> Entry:
        """A pack an import carries, validated (and its hash checked when given) and loaded into
        the rules registry so that the import's games can be checked; not stored yet (``keep``)."""
        pack = self._passed_on(title_id, data, digest)
        there = self.by_hash(title_id, pack.hash)
        if there is not None:
            return there
        shipped = next((e for e in self._builtins(title_id).values() if e.id == pack.id), None)
        if shipped is not None:  # games name a shipped pack by id alone: its id is never another's
            raise PackRefused(
                "pack {pack_id!r} is the id of a pack shipped with {title_id} (hash {hash}), with other content", params=dict(pack_id=pack.id, title_id=title_id, hash=shipped.hash),
                code="pack-id-taken", field="pack.id", hash=shipped.hash,
            )
        self._title_for_writes(title_id).register_pack(pack)
        lineage, version = lineage_of(pack.id)
        return self._new_entry(title_id, pack.data, None, lineage, version, None, "import")

    def keep(self, entries: list[Entry]) -> list[Entry]:
        """Store staged packs (an id taken here by other content is kept: packs are told apart by
        hash); returns those that were new."""
        added = []
        with self._changing():
            for entry in entries:
                if self.by_hash(entry.title, entry.hash) is None:
                    self._insert(entry, working=False)
                    added.append(entry)
        return added

    def forget(self, entries: list[Entry]) -> None:
        """Take back packs ``keep`` added for an import that was then refused."""
        with self._changing():
            for entry in entries:
                self._con.execute("DELETE FROM packs WHERE title = ? AND hash = ?", [entry.title, entry.hash])
                self._packs.get(entry.title, {}).pop(entry.hash, None)
        for title_id in {entry.title for entry in entries}:
            self._announce(title_id)
