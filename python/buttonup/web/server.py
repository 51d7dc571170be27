"""``buttonup serve``: the app on uvicorn, bound to 127.0.0.1 unless told otherwise.

Four things are added to uvicorn's own: one deadline on each whole request, head and
body whatever the framing (a connection that has not delivered it within
:data:`REQUEST_SECONDS` is closed, so slow senders cannot hold sockets), a cap on the
connections served at once below the open-file limit (one past it is answered 503 and
closed, so the server can always accept), the ``Host`` allow-list for a loopback address
(against DNS rebinding), and a stop on the first Ctrl-C within a second, whatever runs
in the search pool or the sockets hold: every waiting request is answered 503 at once,
every connection that owes a request is closed, and the process does not wait for
searches still running in the pool. A second Ctrl-C ends it at once; either way the
status is 130, with one line on standard error.
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import json
import os
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Mapping
from types import FrameType
from typing import Any, NoReturn

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from buttonup.players import BotFactory
from buttonup.web.app import create_app
from buttonup.web.guard import LOOPBACK_HOSTS, connection_cap
from buttonup.web.online import Online
from buttonup.web.service import Service
from buttonup.web.store import default_url, open_store

#: Seconds a connection has to send a whole request, head and body, whatever the framing
#: (from its first byte, or from the connection).
REQUEST_SECONDS = 10.0
#: Seconds the first Ctrl-C waits for the answers under way before the process ends.
STOP_SECONDS = 0.5
#: The line of a Ctrl-C, as every command of buttonup ends on one (:mod:`buttonup.ending`).
STOPPED = "\nbuttonup: interrupted"
#: The most bytes of a request's head (its request line and headers) read: past them the
#: request is answered 431 and its connection closed, however slowly they come.
MAX_HEAD = 16_384


def refuse(transport: asyncio.BaseTransport, status: bytes, message: str) -> None:
    """Answers ``status`` (``b"503 Service Unavailable"``) with the API's JSON error
    ``message`` before anything of the request reaches the app, and closes."""
    body = json.dumps({"error": message}).encode()
    head = (
        b"HTTP/1.1 %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
        b"connection: close\r\n\r\n" % (status, len(body))
    )
    transport.write(head + body)  # type: ignore[attr-defined]
    transport.close()


class Deadline:
    """One deadline on each whole request, head and body (:data:`REQUEST_SECONDS`): a
    connection that has not delivered it by then is closed. A connection that would
    make ``limit_concurrency`` connections is answered 503 and closed at once, without
    reading anything, so that pending sockets can never take every file the process may
    open (uvicorn's own check answers a request only once its head has come, and holds
    the socket until then). A head past :data:`MAX_HEAD` bytes is answered 431, and
    what the HTTP parser refuses 400, each in the API's JSON form. Mixed into either of
    uvicorn's HTTP protocols (:func:`http_protocol`)."""

    request_seconds = REQUEST_SECONDS
    # What uvicorn's protocols have (declared for the type checker).
    cycle: Any
    connections: set[Any]
    limit_concurrency: int | None
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._deadline: asyncio.TimerHandle | None = None
        self._head_bytes, self._head_tail = 0, b""
        cap = self.limit_concurrency
        if cap is not None and len(self.connections) >= cap:  # this one counted
            refuse(transport, b"503 Service Unavailable", "too many connections: try again shortly")
            self.connections.discard(self)  # not counted while its close is under way
            return
        self._deadline = self.loop.call_later(self.request_seconds, self._late)

    def pending(self) -> bool:
        """Whether the connection owes a request (its head or the rest of its body)."""
        cycle = self.cycle
        return cycle is None or cycle.response_complete or cycle.more_body

    def receiving_head(self) -> bool:
        """Whether what comes now is a request's head (each protocol says)."""
        raise NotImplementedError

    def head_done(self) -> None:
        """A head is whole: the next one counts afresh."""
        self._head_bytes, self._head_tail = 0, b""

    def head_too_large(self, data: bytes) -> bool:
        """Whether ``data``, the next bytes of a head, take it past :data:`MAX_HEAD`
        bytes without its end (the blank line) among them."""
        if not self.receiving_head():
            return False
        room = MAX_HEAD - self._head_bytes
        if len(data) > room and b"\r\n\r\n" not in self._head_tail + data[: max(room, 0)]:
            return True
        self._head_bytes += len(data)
        self._head_tail = (self._head_tail + data)[-3:]
        return False

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self._deadline is None and self.pending():  # the first byte of a request
            self._deadline = self.loop.call_later(self.request_seconds, self._late)
        if self.head_too_large(data):
            refuse(
                self.transport,
                b"431 Request Header Fields Too Large",
                f"the request's head is larger than {MAX_HEAD} bytes",
            )
            return
        super().data_received(data)  # type: ignore[misc]
        self.after_events()

    def send_400_response(self, msg: str) -> None:
        """What the HTTP parser refused (two lengths, a bad line), in the JSON form."""
        refuse(self.transport, b"400 Bad Request", "the request is not valid HTTP")

    def after_events(self) -> None:
        """After what was received is parsed: no deadline once the request is whole; a
        new one for a pipelined request read from the buffer, its body still to come."""
        if not self.pending():
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
        elif self._deadline is None and self.cycle is not None and not self.cycle.response_complete:
            self._deadline = self.loop.call_later(self.request_seconds, self._late)

    def _late(self) -> None:
        self._deadline = None
        if self.pending() and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)  # type: ignore[misc]


class DeadlineProtocol(Deadline, H11Protocol):  # type: ignore[misc]
    """uvicorn's pure-Python protocol (h11) with :class:`Deadline`."""

    def receiving_head(self) -> bool:
        # Until a request's head is whole, h11 waits in IDLE.
        return bool(self.conn.their_state is h11.IDLE)

    def handle_events(self) -> None:
        super().handle_events()
        if not self.receiving_head():
            self.head_done()
        self.after_events()


def http_protocol() -> type[asyncio.Protocol]:
    """The HTTP protocol the server runs, with :class:`Deadline`: uvicorn's on the
    ``httptools`` parser where it is installed (the web extra's: lighter than h11,
    docs/http.md), else on h11."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return DeadlineProtocol

    class FastDeadlineProtocol(Deadline, HttpToolsProtocol):  # type: ignore[misc]
        """uvicorn's protocol on ``httptools`` with :class:`Deadline`."""

        in_head = True

        def receiving_head(self) -> bool:
            return self.in_head

        def on_headers_complete(self) -> None:
            self.in_head = False  # its body (if any) comes now
            self.head_done()
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self.in_head = True  # the next request's head comes next
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.after_events()  # a pipelined request may be under way

    return FastDeadlineProtocol


def stopped_now(sig: int = signal.SIGINT) -> NoReturn:
    """Ends the process at once, as the signal ``sig`` asked (after Ctrl-C, status 130
    and its one line): for a second Ctrl-C, and where work would outlast the stop (a
    search in the pool, an answer still being written), without waiting for it and
    without a traceback."""
    if sig == signal.SIGINT:
        print(STOPPED, file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(128 + sig)


class Server(uvicorn.Server):
    """uvicorn's server, stopping within a second on the first Ctrl-C (every waiting
    request answered 503, every connection that owes a request closed) and at once on
    the second."""

    def __init__(self, config: uvicorn.Config, service: Service, online: Online) -> None:
        super().__init__(config)
        self.service = service
        self.online = online
        self.signals: list[int] = []

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.should_exit and sig == signal.SIGINT:
            stopped_now()
        self.signals.append(sig)
        self.service.close()
        self.online.close()  # the event streams end now
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        state = self.server_state
        for connection in list(state.connections):
            if isinstance(connection, Deadline) and connection.pending():
                connection.transport.close()  # a request never completed is not waited for
            else:
                connection.shutdown()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_SECONDS
        while (state.connections or state.tasks) and loop.time() < deadline:
            await asyncio.sleep(0.02)
        if self.signals and (state.connections or state.tasks or self.service.busy()):
            stopped_now(self.signals[0])  # cancelling them would print their tracebacks
        await super().shutdown(sockets)  # what is left of uvicorn's (nothing to wait for)


def port_free(host: str, port: int) -> str | None:
    """``None`` if ``host:port`` can be bound, else why not."""
    if not 0 <= port <= 65_535:
        return "a port is a number from 0 to 65535"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            return error.strerror or str(error)
    return None


def allowed_hosts(host: str) -> tuple[str, ...] | None:
    """The ``Host`` names a server bound to ``host`` answers: the loopback names for a
    loopback address, that address alone for another one, anything (``None``) for
    every interface (``0.0.0.0``, ``::``), where the names cannot be known."""
    if host == "localhost":
        return LOOPBACK_HOSTS
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return (host,)
    if address.is_loopback:
        return LOOPBACK_HOSTS
    if address.is_unspecified:
        return None
    return (str(address),)


def open_page(url: str) -> bool:
    """Opens ``url`` in the user's browser, or says on standard error that no browser
    could be opened here (a server, a container) and where the page is."""
    try:
        opened = webbrowser.open(url)
    except Exception:  # a broken browser setting must not stop the server
        opened = False
    if not opened:
        print(f"buttonup: no browser could be opened here: open {url} yourself", file=sys.stderr)
    return opened


#: Allocations between two collections of the youngest generation of the cyclic garbage
#: collector while serving (Python's default is 2,000).
YOUNG_COLLECTIONS_EVERY = 50_000


def collect_less() -> None:
    """Sets the cyclic garbage collector for a long-lived server: what the process holds
    once started (the app, the library, the tables) is frozen out of every collection,
    and the young generation is collected 25 times less often. Requests make few
    cycles, and collecting at the default rate cost a tenth of the server's CPU an
    action under load (0.43 against 0.39 ms) and a fifth of its slowest moves' latency
    (docs/online.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTIONS_EVERY, 20, 20)


def serve(
    host: str,
    port: int,
    open_browser: bool,
    cors_origins: tuple[str, ...],
    db: str | None = None,
    expire_days: float = 30.0,
    *,
    opponents: Mapping[str, BotFactory] | None = None,
) -> int:
    """Serves until Ctrl-C; a port that cannot be bound is a one-line error (status 2),
    and so is a database that cannot be opened (``db``: the online matches' store,
    by default a SQLite file in the user's data folder), and an ``expire_days`` that is
    not above 0."""
    if not expire_days > 0:  # NaN included: every unfinished match would go at start
        raise ValueError(f"expire_days must be above 0 (days without a move), not {expire_days}")
    if db is not None:  # the schema migrated, or a one-line error, before serving
        open_store(db).close()
    url_db = db or default_url()  # opened on first use (nothing written before)
    problem = port_free(host, port)
    if problem is not None:
        raise ValueError(f"cannot listen on {host}:{port}: {problem}")
    url = f"http://{host if ':' not in host else f'[{host}]'}:{port}/"
    print(f"buttonup: serving on {url} (Ctrl-C stops)", flush=True)
    if open_browser:
        threading.Timer(1.0, open_page, args=(url,)).start()
    app = create_app(
        cors_origins=cors_origins,
        allowed_hosts=allowed_hosts(host),
        db=url_db,
        expire_seconds=expire_days * 86_400,
        opponents=opponents,
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=http_protocol(),
        loop="auto",
        limit_concurrency=connection_cap(),
    )
    server = Server(config, app.state.service, app.state.online)
    collect_less()
    try:
        server.run()
    except KeyboardInterrupt:
        pass  # uvicorn raises the Ctrl-C it stopped on again, once it has stopped
    if server.service.busy():
        # A search still runs in the pool (each is capped, but the stop is promised
        # within a second): end now, without waiting for the pool's threads.
        stopped_now()
    if signal.SIGINT in server.signals:
        raise KeyboardInterrupt  # one line and status 130 (buttonup.ending.run_command)
    return 0
