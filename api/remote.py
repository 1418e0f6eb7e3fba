"""The command line beside a running service: the discovery file ``tabletape serve`` writes beside
its database, and a small HTTP client for the commands that go through the service's API.

DuckDB lets one process hold a file, so while ``tabletape serve`` runs on it the other commands
ask the service instead. The service writes ``<db>.service.json`` (its URL, pid and database)
once it listens and removes it when it stops; a file left by a killed server names a dead pid or
a URL that no longer answers, and is ignored. Standard library only (``urllib``): the CLI needs
no HTTP dependency of its own.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events.stores import is_postgres

#: the service's URL given on the command line (``tabletape --url``, or ``TABLETAPE_URL``)
given_url: str | None = None
SUFFIX = ".service.json"
TIMEOUT_S = 30.0


def discovery_path(db: str) -> Path:
    return Path(db).with_name(Path(db).name + SUFFIX)


def announce(db: str, url: str) -> Path | None:
    """Write the discovery file of a service now listening at ``url`` on ``db`` (none for ``:memory:``,
    nor for PostgreSQL, which every command may open beside the service)."""
    if db == ":memory:" or is_postgres(db):
        return None
    path = discovery_path(db)
    record = {"url": url, "pid": os.getpid(), "db": str(Path(db).resolve())}
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(record) + "\n", encoding="utf-8")
    tmp.replace(path)  # a reader never sees half a file
    return path


def withdraw(path: Path | None) -> None:
    """Remove this process's discovery file (not one a later service wrote over it)."""
    if path is None:
        return
    try:
        if json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


def listening_url(host: str, port: int) -> str:
    """The URL a client on this machine uses for a server bound to ``host``."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    except OSError:
        return False
    return True


class Unreachable(Exception):
    """The service did not answer (it stopped, or the URL is wrong)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url}: {reason}")
        self.url, self.reason = url, reason


class NotTabletape(Unreachable):
    """Something answered at the URL, but not as a tabletape service does (an HTML page, not JSON)."""

    def __init__(self, url: str, status: int) -> None:
        super().__init__(url, f"HTTP {status}, not tabletape's JSON")
        self.status = status


class Refused(Exception):
    """The service answered an error: ``{code, message}``, and the rulebook's words it quotes."""

    def __init__(self, status: int, code: str, message: str, rulebook: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.rulebook = status, code, message, rulebook


@dataclass(frozen=True)
class Service:
    """A running service: its base URL, and its pid when found through the discovery file."""

    url: str
    pid: int | None = None
    lang: str = "en"
    token: str | None = None

    def with_token(self, token: str | None) -> "Service":
        return Service(self.url, self.pid, self.lang, token)

    def request(
        self, method: str, path: str, params: Any = None, body: Any = None, timeout: float = TIMEOUT_S
    ) -> tuple[bytes, str]:
        """The answer's body and content type; an error answer raises ``Refused``, no answer ``Unreachable``."""
        url = self.url.rstrip("/") + path
        pairs = [(k, v) for k, v in (params or []) if v is not None]
        if pairs:
            url += "?" + urllib.parse.urlencode([(k, _query(v)) for k, v in pairs])
        headers = {"Accept-Language": self.lang, "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as answer:
                return answer.read(), answer.headers.get("content-type", "")
        except urllib.error.HTTPError as exc:
            raise _refused(exc, self.url) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise Unreachable(self.url, str(reason)) from None

    def get(self, path: str, params: Any = None) -> Any:
        return self._json(self.request("GET", path, params)[0])

    def post(self, path: str, body: Any, params: Any = None) -> Any:
        return self._json(self.request("POST", path, params, body)[0])

    def _json(self, raw: bytes) -> Any:
        try:
            return json.loads(raw)
        except ValueError:  # e.g. a web server's HTML page at that URL
            raise NotTabletape(self.url, 200) from None


def _query(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _refused(exc: urllib.error.HTTPError, url: str) -> Exception:
    """A tabletape error answer as ``Refused``; any other (an HTML 404 page) as ``NotTabletape``."""
    raw = exc.read()
    try:
        data = json.loads(raw)
        return Refused(exc.code, str(data["code"]), str(data["message"]), data.get("rulebook"))
    except (ValueError, KeyError, TypeError):
        return NotTabletape(url, exc.code)


def answers(url: str) -> bool:
    try:
        Service(url).request("GET", "/health", timeout=2.0)
    except (Unreachable, Refused):
        return False
    return True


def discovered(db: str) -> Service | None:
    """The live service that holds ``db``, from its discovery file; None if there is none, or the
    file is stale (its pid is gone, its URL does not answer, or it names another database)."""
    if db == ":memory:" or is_postgres(db):
        return None
    try:
        record = json.loads(discovery_path(db).read_text(encoding="utf-8"))
        url, pid, held = str(record["url"]), int(record["pid"]), str(record["db"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if held != str(Path(db).resolve()) or not _alive(pid) or not answers(url):
        return None
    return Service(url, pid)


def find(db: str, lang: str = "en") -> Service | None:
    """The service a command should go through: ``--url`` if given, else the one holding ``db``."""
    found = Service(given_url) if given_url else discovered(db)
    return None if found is None else Service(found.url, found.pid, lang)
