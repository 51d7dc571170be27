"""What every request passes before the app sees it (an ASGI middleware): the ``Host``
allow-list and the body limit, counted on the bytes actually received, whatever the
framing (``Content-Length`` or chunked).

The body is read here, at most ``max_body`` bytes of it, and handed to the app in one
piece; a body that grows past the limit is answered 413 without keeping any more of the
rest (past a megabyte, dropped as it comes), so no request can make the server hold more
than ``max_body`` bytes of it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The names a server bound to a loopback address answers by default: a page of
#: another site that points its own name at 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")

#: Bytes of a body too large read (and dropped) before the 413 is sent.
DRAIN = 1 << 20
#: Open files kept back from the cap on connections: the database, the pools' pipes, the
#: listening sockets, the logs (so that the server can always accept, and answer).
FILE_MARGIN = 64


def connection_cap(margin: int = FILE_MARGIN) -> int:
    """uvicorn's ``limit_concurrency``: the open-file limit less ``margin`` (connections
    are served while fewer than this are open)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to run into
        return 1024
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 16
    return max(8, soft - margin)


def host_name(value: str) -> str:
    """The host of a ``Host`` header, without its port (``[::1]:8000`` is ``::1``)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def authority(scheme: str, netloc: str) -> tuple[str, int | None]:
    """The host and port of ``netloc`` (``127.0.0.1:8000``, ``[::1]``), the port
    defaulted from ``scheme``; ``("", None)`` for one that cannot be read."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return ("", None)
    return ((parts.hostname or "").lower(), port or {"http": 80, "https": 443}.get(scheme))


def same_origin(origin: str, host: str, allowed: Collection[str] = ()) -> bool:
    """Whether a request's ``Origin`` is the server's own (the authority of its ``Host``)
    or one of ``allowed`` (the ``--cors-origin`` ones); ``null`` (a sandboxed or local
    page) is neither."""
    origin = origin.strip().lower()
    if origin in {value.rstrip("/").lower() for value in allowed}:
        return True
    scheme, sep, netloc = origin.partition("://")
    if not sep or scheme not in ("http", "https") or not netloc or "/" in netloc:
        return False
    return authority(scheme, netloc) == authority(scheme, host.strip().lower()) != ("", None)


async def answer(send: Send, status: int, message: str) -> None:
    """A JSON error, ``{"error": message}``, that closes the connection."""
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def replayed(data: bytes, receive: Receive) -> Receive:
    """``receive`` that gives ``data`` first, as the whole body (a body read already)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": data, "more_body": False}

    return replay


class Guard:
    """The ``Host`` check (when ``allowed_hosts`` is given) and the body limit."""

    def __init__(
        self, app: ASGIApp, *, max_body: int, allowed_hosts: tuple[str, ...] | None
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.allowed = None if allowed_hosts is None else {h.lower() for h in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.lower(): value for name, value in scope.get("headers", [])}
        if self.allowed is not None:
            host = host_name(headers.get(b"host", b"").decode("latin-1"))
            if host not in self.allowed:
                await answer(
                    send,
                    400,
                    f"this server answers only for {', '.join(sorted(self.allowed))}, "
                    f"not the host {host[:64]!r}",
                )
                return
        too_big = f"the request body is larger than {self.max_body} bytes"
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await answer(send, 413, too_big)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body was sent
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self.drain(receive, message)
                await answer(send, 413, too_big)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, replayed(b"".join(chunks), receive), send)

    @staticmethod
    async def drain(receive: Receive, message: Message) -> None:
        """Reads and drops what is left of a body too large, up to :data:`DRAIN`
        bytes, so that the client reads the 413 (a connection closed with bytes unread
        is reset, and the answer lost)."""
        dropped = 0
        while message.get("more_body", False) and dropped < DRAIN:
            message = await receive()
            if message["type"] != "http.request":
                return
            dropped += len(message.get("body", b""))
