"""A short way through the framework for the requests a busy online server answers
most (a move, the tie rule's choice, a stream opened): the same route functions, the
same error handlers, less of the framework's work per request.

The routes are those the app declares (and documents) as usual; :meth:`Lane.add`
names which of them the lane may take, and with which body. A request the lane takes
is one the route would take without a question: its method and path match, its body
(if any) is JSON of the route's model. Everything else (a malformed or mistyped
body, another method, a path with a ``root_path``) goes the framework's way, so the
answers the framework writes (its 405s, 404s and 422s) stay its own. A route's
refusal is answered by the app's own handler of its kind, as it would be inside.

The lane sits inside :class:`~buttonup.web.guard.Guard` (and the CORS middleware),
so the host check, the body limit and the request deadline hold for it too.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response

from buttonup.web.guard import ASGIApp, Receive, Scope, Send, replayed

#: A route function: the path's parameters, the body (its model), the request.
Endpoint = Callable[..., Awaitable[Any]]
E = typing.TypeVar("E", bound=Endpoint)


@dataclass
class LaneRoute:
    method: str
    pattern: re.Pattern[str]
    endpoint: Endpoint
    body: type[BaseModel] | None
    """The model of the route's ``body`` parameter, if it has one."""
    query: tuple[str, ...]
    """The route's query parameters (every parameter not in the path but ``body``
    and ``request``: each a string, ``None`` when not given)."""


@dataclass
class Lanes:
    """The routes the lane may take (filled in as the app adds them)."""

    routes: list[LaneRoute] = field(default_factory=list)

    def route(self, app: FastAPI, method: str, path: str, **options: Any) -> Callable[[E], E]:
        """A decorator: the route function added to ``app`` for ``method path`` (with
        the framework's ``options``, as ``app.post`` would), and to the lane."""

        def register(endpoint: E) -> E:
            app.add_api_route(path, endpoint, methods=[method], **options)
            self.add(method, path, endpoint)
            return endpoint

        return register

    def add(self, method: str, path: str, endpoint: Endpoint) -> None:
        """``endpoint`` taken by the lane for ``method path``: called with the path's
        parameters (``{name}``, one segment each, as the framework reads them), its
        query's, ``body`` (an instance of its annotated model) and ``request``."""
        names = re.findall(r"\{(\w+)\}", path)
        regex = re.escape(path)
        for name in names:
            regex = regex.replace(re.escape("{" + name + "}"), f"(?P<{name}>[^/]+)")
        hints = typing.get_type_hints(endpoint)
        answer = hints.get("return")
        if not (isinstance(answer, type) and issubclass(answer, Response)):
            raise TypeError(f"{path}: the lane takes routes that answer a Response")
        body = hints.get("body")
        query = tuple(
            name
            for name in inspect.signature(endpoint).parameters
            if name not in (*names, "body", "request")
        )
        self.routes.append(LaneRoute(method, re.compile(f"{regex}$"), endpoint, body, query))

    def find(self, method: str, path: str) -> tuple[LaneRoute, dict[str, Any]] | None:
        for route in self.routes:
            if route.method == method:
                found = route.pattern.match(path)
                if found is not None:
                    return route, found.groupdict()
        return None


class Lane:
    """The ASGI middleware of the lane (``app.add_middleware(Lane, lanes=..., owner=app)``,
    added before :class:`~buttonup.web.guard.Guard` so that it runs inside it)."""

    def __init__(self, app: ASGIApp, *, lanes: Lanes, owner: FastAPI) -> None:
        self.app = app
        self.lanes = lanes
        self.owner = owner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        found = self.lanes.find(scope["method"], scope["path"])
        if found is None:
            await self.app(scope, receive, send)
            return
        route, params = found
        body: BaseModel | None = None
        if route.body is not None:
            data = await whole_body(receive)
            if not json_typed(scope):
                await self.app(scope, replayed(data, receive), send)
                return
            try:
                body = route.body.model_validate_json(data)
            except ValidationError:  # the framework's 422, in its words
                await self.app(scope, replayed(data, receive), send)
                return
            receive = replayed(data, receive)
        request = Request(scope, receive)
        if body is not None:
            params["body"] = body
        for name in route.query:
            params[name] = request.query_params.get(name)
        try:
            response = await route.endpoint(**params, request=request)
        except Exception as refusal:
            handler = self.handler(refusal)
            if handler is None:
                raise
            response = await handler(request, refusal)
        await response(scope, receive, send)

    def handler(self, refusal: Exception) -> Callable[..., Awaitable[Response]] | None:
        """The app's handler of ``refusal``'s kind (the nearest class that has one)."""
        handlers: dict[Any, Any] = self.owner.exception_handlers
        for kind in type(refusal).__mro__:
            if kind in handlers:
                found: Callable[..., Awaitable[Response]] = handlers[kind]
                return found
        return None


def json_typed(scope: Scope) -> bool:
    """Whether the request says its body is JSON (the lane takes no other)."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-type":
            return bool(value.split(b";")[0].strip().lower() == b"application/json")
    return False


async def whole_body(receive: Receive) -> bytes:
    """The request's body (read whole by the guard already: one message)."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)
