"""The routes of the online matches (docs/online.md): players, a
match made and joined through its invite, its state, the moves, the tie rule's choice
and resigning, the record, its event stream, a player's matches, and the pages.

The checks and the writes are in :mod:`buttonup.web.online`; everything refused leaves
the match as it was."""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections.abc import AsyncIterator
from datetime import datetime, timezone
from typing import Any, Optional

from fastapi import FastAPI, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.concurrency import run_in_threadpool

from buttonup._core import Match
from buttonup.player import Player
from buttonup.records import record_date
from buttonup.web import online as online_module
from buttonup.web import online_clock, pages
from buttonup.web.guard import same_origin
from buttonup.web.lane import Lanes
from buttonup.web.match_routes import Number
from buttonup.web.online import Forbidden, Online, Unauthorized, seat_of, stream_key
from buttonup.web.online_models import CreateIn, JoinIn, OnlineMoveIn, OnlineStarterIn, VersionIn
from buttonup.web.online_views import entry_of, links, restore, summary_json
from buttonup.web.service import Conflict

#: Seconds between two keep-alive comments of an event stream.
KEEPALIVE = 15.0
#: What an event stream's queue is given when it has waited long enough (a keep-alive is
#: due, or the running seat's time may have run out).
TICK = object()


def bearer(request: Request) -> Optional[str]:  # noqa: UP045 (FastAPI reads it on 3.9)
    """The player token of ``Authorization: Bearer <token>``, if any."""
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()[:256]


def state_answer(encoded: bytes) -> Response:
    """A state encoded once (:meth:`buttonup.web.online.Online.answer`), answered as
    it is: the framework does not encode it again."""
    return Response(encoded, media_type="application/json")


def client_of(request: Request) -> str:
    """The address a request came from ("?" where the server does not know it)."""
    return request.client.host if request.client else "?"


def add_online_routes(
    app: FastAPI, online: Online, errors: dict[int | str, Any], lanes: Lanes
) -> None:
    """Adds the online routes and pages to ``app``; ``errors`` are the statuses every
    route may answer besides 200 (each with the body ``{"error": ...}``). The routes
    of a match being played go through ``lanes`` too (:mod:`buttonup.web.lane`)."""
    error_json = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}

    def answers(kind: str, description: str) -> dict[int | str, Any]:
        """The statuses of a route answering ``kind`` (its errors JSON as everywhere)."""
        return {
            200: {"content": {kind: {}}, "description": description},
            **{
                status: {"description": error["description"], "content": error_json}
                for status, error in errors.items()
            },
        }

    for kind, status in ((Unauthorized, 401), (Forbidden, 403)):

        async def refused(request: Request, exc: Exception, status: int = status) -> JSONResponse:
            return JSONResponse({"error": str(exc)}, status_code=status)

        app.add_exception_handler(kind, refused)

    @app.get("/online/mine", include_in_schema=False)
    async def mine_page() -> HTMLResponse:
        return HTMLResponse(pages.render("mine"))

    @app.get("/online/{match_id}", include_in_schema=False)
    async def match_page(match_id: str) -> HTMLResponse:
        return HTMLResponse(pages.render("online"))

    @app.post("/api/players")
    async def new_player(request: Request) -> dict[str, str]:
        """A new player token (keep it: it is your seat in every match you play). Asked
        from a page of another site (an `Origin` that is neither this server's nor a
        `--cors-origin` one), the answer is 403: it needs no token, so any page could
        otherwise make players on a visitor's server."""
        origin = request.headers.get("origin")
        host = request.headers.get("host", "")
        if origin is not None and not same_origin(origin, host, request.app.state.cors_origins):
            raise Forbidden(
                f"players are made from this server's own pages, not from {origin[:64]!r}"
            )
        token = await online.new_player(client_of(request))
        return {"token": token, "matches_page": f"/online/mine#p={token}"}

    @app.post("/api/online")
    async def create(body: CreateIn, request: Request) -> dict[str, Any]:
        """A match against a friend: you take the seat `host`; send him the invite link."""
        token = await online.player(bearer(request))
        host = secrets.choice("rb") if body.host == "random" else body.host
        settings: dict[str, Any] = {
            "target": body.target,
            "starter": body.starter,
            "seed": body.seed,
        }
        if body.clock is not None:
            settings["clock"] = body.clock.model_dump(exclude_none=True)
        row, invite = await online.create(token, host, settings, client_of(request))
        state = await online.seen(row, await online.state(row), host)
        return {
            "id": row.id,
            "seat": host,
            "invite": invite,
            "links": links(row.id, invite),
            "state": state,
        }

    @app.post("/api/online/{match_id}/join")
    async def join(match_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
        """Takes the free seat with the invite code (again: your seat, nothing changed).
        The host's `seed`, given again here, decides the deals; otherwise the server
        draws them, so that neither player knows them in advance."""
        token = await online.player(bearer(request))
        row, seat = await online.join(match_id, token, body.invite, body.seed)
        return {
            "seat": seat,
            "state": await online.seen(row, await online.state(row), seat),
        }

    @lanes.route(app, "GET", "/api/online/{match_id}", response_model=dict[str, Any])
    async def get_state(match_id: str, request: Request) -> Response:
        """The match's state; `you` is your seat (with your token), else null."""
        row = await online.current(await online.load(match_id))
        return state_answer(
            await online.answer(row, await online.state(row), seat_of(row, bearer(request)))
        )

    @lanes.route(app, "POST", "/api/online/{match_id}/play", response_model=dict[str, Any])
    async def play(match_id: str, body: OnlineMoveIn, request: Request) -> Response:
        """Your move, at the match's current `version`."""

        def move(match: Match, seat: str) -> str:
            if match.chooser is not None:
                raise Conflict("the tie rule's choice of the next starter is due first")
            if match.to_move.letter != seat:
                raise Conflict("it is not your turn")
            match.play(body.move)
            return str(body.move)

        row, match, seat = await online.act(match_id, bearer(request), body.version, "play", move)
        state = await online.state(row, match, played=True)
        return state_answer(await online.answer(row, state, seat))

    @lanes.route(app, "POST", "/api/online/{match_id}/choose", response_model=dict[str, Any])
    async def choose(match_id: str, body: OnlineStarterIn, request: Request) -> Response:
        """The tie rule: the seat `chooser` names says who starts the next battle."""

        def pick(match: Match, seat: str) -> str:
            if match.chooser is None:
                raise Conflict("no choice of starter is due")
            if match.chooser.letter != seat:
                raise Forbidden("the choice of starter is your opponent's")
            match.choose_starter(Player.of(body.starter))
            return body.starter

        row, match, seat = await online.act(match_id, bearer(request), body.version, "choose", pick)
        return state_answer(await online.answer(row, await online.state(row, match), seat))

    @lanes.route(app, "POST", "/api/online/{match_id}/resign", response_model=dict[str, Any])
    async def resign(match_id: str, body: VersionIn, request: Request) -> Response:
        """Gives the match up: the other seat wins."""
        row, match, seat = await online.act(
            match_id, bearer(request), body.version, "resign", lambda match, seat: seat
        )
        return state_answer(await online.answer(row, await online.state(row, match), seat))

    @app.get("/api/online/{match_id}/battles/{number}")
    async def battle(match_id: str, number: Number) -> dict[str, Any]:
        """Battle `number` (from 1): its start, its plies, and once scored its scoring
        (the chart's points are null: online matches have no chart)."""
        entry = entry_of(restore(await online.load(match_id)))
        entry.battle(number)  # a 404, naming the battles there are
        found: dict[str, Any] = entry.session.battle_view(number)
        return found

    @app.get("/api/online/{match_id}/battles/{number}/plies/{ply}")
    async def ply(match_id: str, number: Number, ply: Number) -> dict[str, Any]:
        """The position after the first `ply` moves of battle `number`, drawn."""
        entry = entry_of(restore(await online.load(match_id)))
        entry.battle(number, ply)  # a 404, in the core's words
        # Off the loop: the drawing of a long line takes a while.
        found: dict[str, Any] = await run_in_threadpool(entry.session.ply_view, number, ply)
        return found

    @app.get(
        "/api/online/{match_id}/record",
        response_class=PlainTextResponse,
        responses=answers("text/plain", "the match record"),
    )
    async def record(match_id: str) -> PlainTextResponse:
        """The match record (docs/notation.md); the seed only once the match is over."""
        row = await online.current(await online.load(match_id))
        match = restore(row)
        extra: dict[str, Any] = {} if row.ended else {"Seed": None}  # no deals foretold
        if row.ended == "resigned":
            extra["Termination"] = f"{'Red' if row.winner == 'b' else 'Black'} resigned"
        elif row.ended == "time":
            extra["Termination"] = f"{'Red' if row.winner == 'b' else 'Black'} lost on time"
        date = record_date(datetime.fromtimestamp(row.created, timezone.utc).date())
        text = match.record(
            Event="buttonup online", Date=date, Red="Red player", Black="Black player", **extra
        )
        filename = f"buttonup-online-{row.id[:8]}.txt"
        return PlainTextResponse(
            text, headers={"content-disposition": f'attachment; filename="{filename}"'}
        )

    @lanes.route(
        app,
        "GET",
        "/api/online/{match_id}/events",
        response_class=StreamingResponse,
        responses=answers("text/event-stream", "the match's changes, as they come"),
    )
    async def events(
        match_id: str,
        request: Request,
        seat: Optional[str] = None,  # noqa: UP045
        key: Optional[str] = None,  # noqa: UP045
    ) -> StreamingResponse:
        """Server-sent events: the state now, then one `state` event per change (`id`
        its version), `presence` when a seat's stream opens or closes, a comment every
        15 s; the stream ends after 10 minutes (EventSource opens the next one by
        itself). `seat` (r or b) with that seat's `key` (its player's state's
        `stream_key`) opens the player's own stream, which shows him online; without
        them, a spectator's. At most 4 streams of a seat, 12 spectators' streams of a
        match and 32 from one address are open at once on this process (429 past
        them), and spectators never take the players' share of the server's streams."""
        row = await online.load(match_id)
        expected = stream_key(row, seat)
        mine = expected is not None and key is not None
        listener = seat if mine and hmac.compare_digest(expected or "", key or "") else ""
        queue = online.broker.subscribe(row.id, listener or "", client_of(request))

        clocked = online_clock.limit_of(row) is not None
        # The row and state shown last. Every change is read once for all the streams
        # of the match (online.newest, online.state); who is online is the broker's,
        # and a clock's time left is counted from the row: neither reads the store.
        latest = row

        loop = asyncio.get_running_loop()
        ends = loop.time() + online_module.STREAM_SECONDS

        async def wait() -> float:
            """Until the next keep-alive, the stream's end, or just past the running
            seat's deadline."""
            clock = await online.clock(latest) if clocked else None
            due = min(KEEPALIVE, max(0.0, ends - loop.time()))
            if clock is None or clock["running"] is None:
                return due
            return min(due, float(clock["left"][clock["running"]]) + 0.05)

        async def stream() -> AsyncIterator[bytes]:
            nonlocal latest
            sent = row.version
            try:
                state = await online.state(row)
                yield online.event(state, "state", await online.clock(row))
                while True:
                    # The timeout is an item of the queue: waiting on the queue itself
                    # (not through wait_for's task of its own) wakes the stream a loop's
                    # turn or two sooner after each change.
                    tick = loop.call_later(await wait(), queue.put_nowait, TICK)
                    try:
                        item = await queue.get()
                    finally:
                        tick.cancel()
                    if item is TICK:
                        if loop.time() >= ends:
                            return  # the browser opens the next one, counted again
                        if clocked:  # the running seat's time may have run out
                            try:
                                if (await online.due(row.id)).version > latest.version:
                                    continue  # its commit wakes this stream
                            except Exception:  # expired, or the store is gone
                                return
                        yield b": keep-alive\n\n"
                        continue
                    if item is None:
                        return
                    if 0 <= item <= sent:
                        continue
                    if item > 0:  # a new version, of this process or another
                        try:
                            found = await online.newest(row.id, item)
                            if found.version > latest.version:
                                latest, state = found, await online.state(found)
                        except Exception:  # expired, or the store is gone
                            return
                    clock = await online.clock(latest) if clocked else None
                    if state.version > sent:
                        sent = state.version
                        yield online.event(state, "state", clock)
                    elif item < 0:
                        yield online.event(state, "presence", clock)
            finally:
                online.broker.unsubscribe(row.id, queue)

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
        )

    @app.get("/api/players/me/matches")
    async def my_matches(request: Request) -> dict[str, Any]:
        """Your matches (the latest changed first), each finished one with its record."""
        token = await online.player(bearer(request))
        return {"matches": [summary_json(row, seat) for row, seat in await online.mine(token)]}
