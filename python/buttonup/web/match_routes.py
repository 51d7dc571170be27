"""The routes of the page's matches against the AI (docs/http.md): a match's state, its
moves, the AI's, the tie rule's choice, undo, hints, each battle's plies, chart and
review, and the match record to download and to import.

Each match is the core's session of it (``buttonup._core.Session``, the offline page's
too): its changes, views, hint, review and record are the session's, and the routes
convert them. Every request that changes a match holds that match's lock (409 when
another holds it); after every change the chart's point for the new state is computed
off the event loop, and the match is committed to the database before the answer
(:meth:`buttonup.web.service.Service.save`); a match not in memory is read back from
there (:meth:`~buttonup.web.service.Service.fetch`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date
from typing import Annotated, Any

from fastapi import FastAPI, Path, Request
from fastapi.responses import PlainTextResponse
from starlette.concurrency import run_in_threadpool

from buttonup._core import Match
from buttonup.ai import LevelBot
from buttonup.player import Player
from buttonup.records import record_date
from buttonup.web.models import SERVER_MAX_TARGET, ImportIn, MoveIn, NewMatchIn, StarterIn
from buttonup.web.service import Conflict, Entry, Service
from buttonup.web.views import match_json

#: A battle's number or a ply's, in a path.
Number = Annotated[int, Path(ge=0, le=10_000)]


def add_match_routes(app: FastAPI, service: Service, errors: dict[int | str, Any]) -> None:
    """Adds the match routes to ``app``; ``errors`` are the statuses every route may
    answer besides 200 (each with the body ``{"error": ...}``)."""
    # The record's route answers text, its errors JSON as everywhere.
    error_json = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
    record_responses: dict[int | str, Any] = {
        200: {"content": {"text/plain": {}}, "description": "the match record"},
        **{
            status: {"description": error["description"], "content": error_json}
            for status, error in errors.items()
        },
    }

    @asynccontextmanager
    async def hold(key: str) -> AsyncIterator[Entry]:
        """The match ``key``, locked for one request; 409 if another holds it."""
        entry = await service.fetch(key)
        if entry.lock.locked():
            raise Conflict("another request on this match is still being answered")
        async with entry.lock:
            yield entry

    def state(key: str, entry: Entry, played: bool = False) -> dict[str, Any]:
        """The match's state (with how many people play it, 2: pass and play) and,
        with ``played``, the move just made."""
        return match_json(key, entry, played=played)

    async def noted(key: str, entry: Entry, played: bool = False) -> dict[str, Any]:
        """The match's state after a change, its chart's point recorded and the match
        committed first."""
        await service.run(entry.session.note, entry.match.position)
        await service.save(key, entry)
        return state(key, entry, played)

    @app.post("/api/matches")
    async def new_match(body: NewMatchIn, request: Request) -> dict[str, Any]:
        """A match against the AI; the human plays `human`. With `players` 2, pass and
        play: both sides are people at one screen, the AI is never asked, `play` takes
        the move of the side to move, `undo` the battle's last move, `choose` the
        chooser's choice and `hint` answers for the side to move."""
        client = request.client.host if request.client else "?"
        match = Match(body.starter, target=body.target, seed=body.seed)
        human = Player.of(body.human)
        key = service.add(match, client, human, body.level, body.seed, body.players, body.opponent)
        return await noted(key, service.entry(key))

    @app.post("/api/matches/import")
    async def match_import(body: ImportIn, request: Request) -> dict[str, Any]:
        """A new match made from a record (`Match.from_record`: a bad record is a 400
        naming what is wrong), to play on from where it stands, the human playing
        `human` against the AI at `level`."""
        match = Match.from_record(body.record)
        # A record names its own target: the same cap as a new match's, else its odds
        # table would build for minutes on a request thread.
        if match.target > SERVER_MAX_TARGET:
            raise ValueError(f"the server takes match targets of 1 to {SERVER_MAX_TARGET} points")
        client = request.client.host if request.client else "?"
        key = service.add(match, client, Player.of(body.human), body.level, None, body.players)
        entry = service.entry(key)
        await service.run(entry.session.backfill, match.position)
        await service.save(key, entry)
        return state(key, entry)

    @app.get("/api/matches/{key}")
    async def get_match(key: str) -> dict[str, Any]:
        """The match's whole state: the position and its drawing, the scores, the
        battle being played with its moves and chart, the battles scored."""
        return state(key, await service.fetch(key))

    @app.post("/api/matches/{key}/play")
    async def match_play(key: str, body: MoveIn) -> dict[str, Any]:
        """The human's move, with its drops and extra move."""
        async with hold(key) as entry:
            entry.session.play(body.move)
            return await noted(key, entry, played=True)

    @app.post("/api/matches/{key}/ai")
    async def match_ai(key: str) -> dict[str, Any]:
        """The AI's next move (or its choice of starter when the tie rule asks it)."""
        async with hold(key) as entry:
            session, ai = entry.session, entry.ai
            if isinstance(ai, LevelBot):  # the core's bot: the session takes its turn
                did, _ = await service.run(lambda: session.ai_move(ai.core), entry.match.position)
                return await noted(key, entry, played=did == "move")
            match = entry.match  # an extra opponent of this server's
            if session.ai_turn() == "choose_starter":
                session.choose_for_ai(ai.choose_starter(match))
                return await noted(key, entry)
            move = await service.run(lambda: ai.choose(match.position, match), match.position)
            session.play_for_ai(move)
            return await noted(key, entry, played=True)

    @app.post("/api/matches/{key}/choose")
    async def match_choose(key: str, body: StarterIn) -> dict[str, Any]:
        """The tie rule: the human, as chooser, names who starts."""
        async with hold(key) as entry:
            entry.session.choose(Player.of(body.starter))
            return await noted(key, entry)

    @app.post("/api/matches/{key}/undo")
    async def match_undo(key: str) -> dict[str, Any]:
        """Takes back the human's last move and the AI's replies after it."""
        async with hold(key) as entry:
            entry.session.undo()
            return await noted(key, entry)

    @app.post("/api/matches/{key}/hint")
    async def match_hint(key: str) -> dict[str, Any]:
        """For the position on the board: every move's value for the human (his margin
        under perfect play; with two players, for the side to move), which moves give
        an extra move, the best line, his chance of winning the match after each move
        (`match_odds`) and from here (`match_win_probability`, `null` once the match is
        over). `position` names the position answered for."""
        async with hold(key) as entry:
            # Past the odds' limit (a variant imported from a record) the hint is the
            # moves' values alone: match odds are not computed there.
            return await service.run(entry.session.hint, entry.match.position)

    @app.get("/api/matches/{key}/battles/{number}")
    async def match_battle(key: str, number: Number) -> dict[str, Any]:
        """Battle `number` (1 for the first): its start, its moves (each with its drops,
        the slots they go to, and the record's label, `+` for an extra move), the
        chart's points (Red's margin under perfect play and Red's chance of winning the
        match, after each move) and, once scored, its scoring."""
        entry = await service.fetch(key)
        entry.battle(number)  # a 404, naming the battles there are
        found: dict[str, Any] = entry.session.battle_view(number)
        return found

    @app.get("/api/matches/{key}/battles/{number}/plies/{ply}")
    async def match_ply(key: str, number: Number, ply: Number) -> dict[str, Any]:
        """The position after the first `ply` moves of battle `number` (0: its start),
        drawn with its piles where they were and the move that led there marked."""
        entry = await service.fetch(key)
        entry.battle(number, ply)  # a 404, in the core's words
        # Off the loop: the drawing of a long line takes a while.
        found: dict[str, Any] = await run_in_threadpool(entry.session.ply_view, number, ply)
        return found

    @app.get("/api/matches/{key}/battles/{number}/review")
    async def match_review(key: str, number: Number) -> dict[str, Any]:
        """Each move of battle `number` against perfect play: the mover's best margin,
        the margin of the move played (both for the mover), the loss (`mistake` when at
        least 1), the best moves and the best line from the position before it."""
        entry = await service.fetch(key)
        start, _ = entry.battle(number)  # a 404, naming the battles there are
        found: dict[str, Any] = await service.run(lambda: entry.session.review(number), start)
        return found

    @app.get(
        "/api/matches/{key}/record",
        response_class=PlainTextResponse,
        responses=record_responses,
    )
    async def match_record(key: str) -> PlainTextResponse:
        """The match as a record (docs/notation.md): its tags, the start and the moves of
        each battle with `+` for extra moves, the results and points; a file to keep, to
        read with `Match.from_record`, or to import here again."""
        entry = await service.fetch(key)
        text = entry.session.record(entry.ai_name, "buttonup serve", record_date(date.today()))
        filename = f"buttonup-{key[:8]}.txt"
        return PlainTextResponse(
            text, headers={"content-disposition": f'attachment; filename="{filename}"'}
        )
