"""Running the app on uvicorn, with live streams that end when the server stops, and
connections that must send their request within a time limit.

uvicorn waits for open connections before it shuts the app down, and a live stream never ends
by itself; so the exit signal first closes every stream, then uvicorn stops as usual.

uvicorn times out idle keep-alive connections, but not a client that sends its request slowly
(slow loris: a header line every few seconds, or a body a byte at a time); each such
connection holds a socket and a task forever. ``GuardedProtocol`` gives a request's head and
its body each a time limit and bounds the head's size, and answers a breach with 408 or 431.

A connection closed while the client is still sending (a 413 answered from the declared length,
a 408) would be reset, and a reset makes the client's system drop the answer it has not read
yet; so writing is shut down first and what still comes is read away for a moment ("lingering
close", as nginx does).
"""

from __future__ import annotations

import asyncio
import json
import mmap
import os
import signal
import sys
import time
from types import FrameType
from typing import Any

import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api import i18n, remote
from api.http import edge
from api.http.settings import Settings

_IDLE, _HEAD, _BODY = 0, 1, 2


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with read time limits on a request's head and body.

    A timer is armed when a connection opens (until its first request's head is in) and when a
    request spans more than one read from the socket: a request on a kept-alive connection that
    arrives whole (nearly every one) costs a few attribute checks, no timer.
    """

    head_timeout: float = 10.0
    body_timeout: float = 30.0
    head_limit: int = 32 * 1024
    linger_s: float = 2.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lingering = False
        self._phase = _IDLE
        self._head_bytes = 0
        self._timer: asyncio.TimerHandle | None = None
        self._timer_phase = _IDLE

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # a connection that opens and sends nothing is a request whose head is late
        self._phase = _HEAD
        self._arm(_HEAD)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return  # the answer is sent: the rest of the request is read away unparsed
        super().data_received(data)
        phase = self._phase
        if phase == _IDLE or self.transport.is_closing():
            return
        if phase == _BODY and self.cycle is not None and self.cycle.transport is self.transport:
            self.cycle.transport = _Lingering(self)  # this body is still coming: close it gently
        if phase == _HEAD:
            self._head_bytes += len(data)
            if self._head_bytes > self.head_limit:
                self._refuse(431, "msgs/request-head-too-large", limit=self.head_limit)
            elif self._timer is None:
                self._arm(_HEAD)
        elif self._timer_phase != _BODY:
            self._disarm()
            self._arm(_BODY)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._phase = _HEAD
        self._head_bytes = 0

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._phase = _BODY

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._phase = _IDLE
        if self._timer is not None:
            self._disarm()

    def _arm(self, phase: int) -> None:
        delay = self.head_timeout if phase == _HEAD else self.body_timeout
        self._timer = self.loop.call_later(delay, self._too_slow)
        self._timer_phase = phase

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_phase = _IDLE

    def _too_slow(self) -> None:
        self._timer = None
        if self.transport.is_closing() or self._phase == _IDLE:
            return
        what, limit = ("head", self.head_timeout) if self._phase == _HEAD else ("body", self.body_timeout)
        self._refuse(408, "msgs/request-timeout", what=what, limit=limit)

    def linger(self) -> None:
        """Close the connection: writing now, reading after ``linger_s`` (or when the client closes)."""
        if self._lingering or self.transport.is_closing():
            return
        self._lingering = True
        self._disarm()
        self.flow.resume_reading()
        try:
            self.transport.write_eof()
        except (OSError, RuntimeError, NotImplementedError):
            self.transport.close()
            return
        self._timer = self.loop.call_later(self.linger_s, self.transport.close)

    def _language(self) -> str | None:
        """The ``Accept-Language`` of the request whose body is late (a late head has none yet)."""
        if self._phase != _BODY or self.cycle is None:
            return None
        return edge.accept_language(self.cycle.scope)

    def _refuse(self, status: int, key: str, **params: Any) -> None:
        """Answer (unless an answer is being written) and close the connection; the message is the
        ``edge`` catalogue's ``key``, in the request's language once its head has arrived."""
        self._disarm()
        cycle = self.cycle  # in the head phase, the previous request's (a pipelined answer may be under way)
        if cycle is None or (cycle.response_complete if self._phase == _HEAD else not cycle.response_started):
            lang = i18n.negotiate(self._language())
            if "what" in params:
                params["what"] = i18n.text("edge", f"{key}/{params['what']}", lang)
            code = "request-timeout" if status == 408 else "request-head-too-large"
            message = i18n.text("edge", key, lang, **params)
            body = json.dumps({"code": code, "message": message}, ensure_ascii=False, separators=(",", ":")).encode()
            reason = b"Request Timeout" if status == 408 else b"Request Header Fields Too Large"
            self.transport.write(
                b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
                b"connection: close\r\n\r\n%s" % (status, reason, len(body), body)
            )
        self.linger()


class _Lingering:
    """The connection's transport as one request's cycle sees it, where closing lingers."""

    def __init__(self, protocol: GuardedProtocol) -> None:
        self._protocol = protocol
        self._transport = protocol.transport

    def close(self) -> None:
        self._protocol.linger()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def guarded(settings: Settings) -> type[GuardedProtocol]:
    """``GuardedProtocol`` with the time and size limits of ``settings``."""
    return type(
        "GuardedProtocol",
        (GuardedProtocol,),
        {
            "head_timeout": settings.head_timeout_s,
            "body_timeout": settings.body_timeout_s,
            "head_limit": settings.head_limit,
        },
    )


class Workers:
    """Which of ``configured`` worker slots hold a worker that is serving, in memory shared by
    the supervisor and every worker it forks (so any worker's ``/health`` can count them all)."""

    def __init__(self, configured: int) -> None:
        self.configured = configured
        self._slots = mmap.mmap(-1, configured)  # anonymous and shared: the forks see one copy

    def serving(self, slot: int, yes: bool = True) -> None:
        self._slots[slot] = int(yes)

    def live(self) -> int:
        return sum(self._slots[:])


class Server(uvicorn.Server):
    """uvicorn's server that closes live streams on exit and, while it listens, announces itself
    beside its database file for the command line (``api.remote``) and, as a worker, marks its
    slot serving."""

    def __init__(self, config: uvicorn.Config, app: FastAPI, db: str = ":memory:", slot: int | None = None) -> None:
        super().__init__(config)
        self._app = app
        self._db = db
        self._slot = slot
        self._announced: Any = None

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets)
        if self.started and self._slot is not None:
            self._app.state.workers.serving(self._slot)
        if self.started and self.servers and self.servers[0].sockets:
            port = self.servers[0].sockets[0].getsockname()[1]
            self._announced = remote.announce(self._db, remote.listening_url(self.config.host, port))

    async def shutdown(self, sockets: Any = None) -> None:
        # withdrawn first: from now on a command finds the file closed, not a service going away
        remote.withdraw(self._announced)
        await super().shutdown(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        services = getattr(self._app.state, "services", None)
        if services is not None:
            services.hub.close()
        super().handle_exit(sig, frame)


def run(
    app: FastAPI,
    host: str,
    port: int,
    log_level: str = "info",
    access_log: bool = False,
    settings: Settings | None = None,
    workers: int = 1,
) -> None:
    # no access log by default: it was ~4% of the server's time under the HTTP benchmark
    # the grace period bounds a shutdown that a stuck client would otherwise hold up
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=access_log,
        timeout_graceful_shutdown=5,
        http=guarded(settings or Settings()),
    )
    db = (settings or Settings()).db_path
    if workers <= 1:
        Server(config, app, db).run()
        return
    run_workers(config, app, workers, db)


def _end_with_parent() -> None:
    """Have Linux stop this worker if the process that forked it dies (even by SIGKILL)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the parent's signal handler is all there is
        pass


#: a worker that dies sooner than this after it started is crash-looping: its restarts back off
QUICK_DEATH_S = 10.0
BACKOFF_S = (0.5, 30.0)  # the first pause of a crash loop, and the longest
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class Supervisor:
    """Keeps ``workers`` forked workers serving one socket: a worker that dies is forked again
    (at once after a long life, after pauses doubling up to 30 s while it keeps dying at once);
    a SIGINT or SIGTERM to this process is passed on to every worker and ends it."""

    def __init__(self, config: uvicorn.Config, app: FastAPI, workers: int, db: str) -> None:
        self.config, self.app, self.db = config, app, db
        self.table = app.state.workers = Workers(workers)
        self.sock = config.bind_socket()
        self.pids: dict[int, int] = {}  # pid -> slot
        self.started = [0.0] * workers
        self.quick_deaths = [0] * workers
        self.due: dict[int, float] = {slot: 0.0 for slot in range(workers)}  # slot -> when to fork it
        self.stopping = False

    def run(self) -> None:
        for sig in STOP_SIGNALS:
            signal.signal(sig, self.stop)
        while self.pids or not self.stopping:
            self._fork_due()
            self._reap()
            time.sleep(0.2)  # a death is noticed within this; a sleeping parent costs nothing
        self.sock.close()

    def stop(self, sig: int, frame: FrameType | None) -> None:
        self.stopping = True
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def _fork_due(self) -> None:
        now = time.monotonic()
        for slot, when in list(self.due.items()):
            if not self.stopping and when <= now:
                del self.due[slot]
                self.started[slot] = now
                # held until the fork has its own handlers (the supervisor's would stop its
                # siblings) and the supervisor has its pid (else a stop would miss it)
                signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
                try:
                    self.pids[self._fork(slot)] = slot
                finally:
                    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)

    def _fork(self, slot: int) -> int:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the worker's own exit
            self._work(slot)
        return pid

    def _work(self, slot: int) -> None:  # pragma: no cover - runs in the fork, and ends it
        status = 0
        _end_with_parent()
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        try:
            Server(self.config, self.app, self.db, slot).run(sockets=[self.sock])
        except BaseException:  # noqa: BLE001
            status = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)

    def _reap(self) -> None:
        while self.pids:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            slot = self.pids.pop(pid, None)
            if slot is None:
                continue
            self.table.serving(slot, False)
            if not self.stopping:
                self._again(slot, pid, status)

    def _again(self, slot: int, pid: int, status: int) -> None:
        """Fork ``slot`` again after the pause its record of quick deaths calls for, and say so."""
        lived = time.monotonic() - self.started[slot]
        self.quick_deaths[slot] = self.quick_deaths[slot] + 1 if lived < QUICK_DEATH_S else 0
        pause = backoff(self.quick_deaths[slot])
        self.due[slot] = time.monotonic() + pause
        if os.WIFSIGNALED(status):
            said = i18n.cli("msgs/worker-killed", pid=pid, signal=os.WTERMSIG(status), delay=pause)
        else:
            said = i18n.cli("msgs/worker-exited", pid=pid, status=os.waitstatus_to_exitcode(status), delay=pause)
        print(said, file=sys.stderr, flush=True)


def backoff(quick_deaths: int) -> float:
    """The pause before forking a worker again: none after a long life, then doubling."""
    first, longest = BACKOFF_S
    return 0.0 if quick_deaths == 0 else min(longest, first * 2 ** (quick_deaths - 1))


def run_workers(config: uvicorn.Config, app: FastAPI, workers: int, db: str) -> None:
    """Serve one listening socket from ``workers`` forked processes (each its own app, services
    and connections: the app is only built, its lifespan runs in the child), kept at that
    number by a ``Supervisor``."""
    Supervisor(config, app, workers, db).run()
