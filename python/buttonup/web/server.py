"""``buttonup serve``: the app on uvicorn, bound to 127.0.0.1 unless told otherwise.

Three things are added to uvicorn's own: a header-read timeout (a connection that has
not sent a whole request head within :data:`HEADER_SECONDS` is closed, so slow senders
cannot hold sockets), the ``Host`` allow-list for a loopback address (against DNS
rebinding), and a stop on the first Ctrl-C within a second, whatever runs in the
search pool: every waiting request is answered 503 at once, and the process does not
wait for searches still running in the pool.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import sys
import threading
import webbrowser
from collections.abc import Mapping
from types import FrameType

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from buttonup.ai import BotFactory
from buttonup.web.app import create_app
from buttonup.web.guard import LOOPBACK_HOSTS
from buttonup.web.online import Online
from buttonup.web.service import Service
from buttonup.web.store import default_url, open_store

#: Seconds a connection has to send a whole request head.
HEADER_SECONDS = 10.0


class HeaderTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection that waits for a request head for
    longer than :data:`HEADER_SECONDS` (from its first byte, or from the connection)."""

    header_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = self.loop.call_later(
            self.header_seconds, self._head_late
        )

    def _waiting_for_head(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def data_received(self, data: bytes) -> None:
        if self._head_timer is None and self._waiting_for_head():
            self._head_timer = self.loop.call_later(self.header_seconds, self._head_late)
        super().data_received(data)
        if self._head_timer is not None and not self._waiting_for_head():
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self._waiting_for_head() and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)


class Server(uvicorn.Server):
    """uvicorn's server, answering every waiting request 503 on the first Ctrl-C."""

    def __init__(self, config: uvicorn.Config, service: Service, online: Online) -> None:
        super().__init__(config)
        self.service = service
        self.online = online

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.service.close()
        self.online.close()  # the event streams end now
        super().handle_exit(sig, frame)


def port_free(host: str, port: int) -> str | None:
    """``None`` if ``host:port`` can be bound, else why not."""
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
    by default a SQLite file in the user's data folder)."""
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
        app, host=host, port=port, log_level="warning", http=HeaderTimeoutProtocol
    )
    server = Server(config, app.state.service, app.state.online)
    try:
        server.run()
    except KeyboardInterrupt:
        pass  # uvicorn raises the Ctrl-C it stopped on again, once it has stopped
    if server.service.busy():
        # A search still runs in the pool (each is capped, but the stop is promised
        # within a second): end now, without waiting for the pool's threads.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0
