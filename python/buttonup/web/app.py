"""The web app of ``buttonup serve``: the JSON API (docs/http.md) and the page.

The routes only read requests and write answers: positions, moves and their outcomes,
the AI, analyses, matches and match odds all come from the library (see
:mod:`buttonup.web.service`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from buttonup._core import Position, win_probability
from buttonup.ai import bot
from buttonup.player import Player
from buttonup.results import Standing
from buttonup.web.models import (
    BestMoveIn,
    MoveIn,
    NewMatchIn,
    OddsIn,
    PlayIn,
    PositionIn,
    StarterIn,
)
from buttonup.web.service import Busy, Service, played_json, position_json

STATIC = resources.files("buttonup.web") / "static"


def create_app(
    *,
    cors_origins: tuple[str, ...] = (),
    max_body: int = 16_384,
    workers: int = 2,
    max_pending: int = 32,
    search_seconds: float = 2.0,
) -> FastAPI:
    """The app; the limits are ``buttonup serve``'s options."""
    app = FastAPI(
        title="buttonup",
        summary="Button Up! rules engine, AI and analysis over HTTP",
        docs_url="/api/docs",
        openapi_url="/api/openapi.json",
    )
    service = Service(workers, max_pending, search_seconds)
    app.state.service = service
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
        )

    @app.middleware("http")
    async def limit_body(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > max_body):
            return JSONResponse(
                {"error": f"the request body is larger than {max_body} bytes"}, status_code=413
            )
        return await call_next(request)

    @app.exception_handler(ValueError)
    async def value_error(request: Request, error: ValueError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=400)

    @app.exception_handler(TypeError)
    async def type_error(request: Request, error: TypeError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=400)

    @app.exception_handler(Busy)
    async def busy(request: Request, error: Busy) -> JSONResponse:
        return JSONResponse(
            {"error": "too many searches are waiting: try again shortly"}, status_code=503
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [
            f"{'.'.join(str(part) for part in problem['loc'][1:]) or 'body'}: {problem['msg']}"
            for problem in error.errors()
        ]
        return JSONResponse({"error": "; ".join(problems)}, status_code=422)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # --- the stateless API ------------------------------------------------------------
    @app.post("/api/analyze")
    async def analyze(body: PositionIn) -> dict[str, Any]:
        """The value for the side to move of every legal move, and the best line."""
        position = Position(body.position)
        return {**position_json(position), **await service.run(lambda: service.analysis(position))}

    @app.post("/api/bestmove")
    async def bestmove(body: BestMoveIn) -> dict[str, Any]:
        """A move of the AI at `level` (1-10, default 10), searching `movetime` ms at most
        (default 1000)."""
        position = Position(body.position)
        if position.is_over:
            raise ValueError("the battle is over: there is no move")
        ai = bot(body.level or 10, limits=service.limits((body.movetime or 1000) / 1000))
        return await service.run(lambda: service.best_move(ai, position, None))

    @app.post("/api/play")
    async def play(body: PlayIn) -> dict[str, Any]:
        """The position after `move`, with what happened: the drops and the extra move."""
        outcome = Position(body.position).outcome(body.move)
        return {
            **position_json(outcome.position),
            "extra_move": outcome.extra_move,
            "drops": list(outcome.drops),
        }

    @app.post("/api/win-probability")
    async def odds(body: OddsIn) -> dict[str, float]:
        """Red's and Black's chances of winning the match from a standing between two
        battles, under perfect match play."""
        standing = Standing(
            body.red_points,
            body.black_points,
            target=body.target,
            last_loser=Player.of(body.last_loser) if body.last_loser else None,
            starter=Player.of(body.starter) if body.starter else None,
        )
        chances = await service.run(lambda: win_probability(standing))
        return {"red": chances.red, "black": chances.black}

    # --- matches for the page -------------------------------------------------------
    @app.post("/api/matches")
    async def new_match(body: NewMatchIn) -> dict[str, Any]:
        """A match against the AI; the human plays `human`."""
        return service.match_json(service.new_match(body))

    @app.get("/api/matches/{key}")
    async def get_match(key: str) -> dict[str, Any]:
        service.entry(key)
        return service.match_json(key)

    @app.post("/api/matches/{key}/play")
    async def match_play(key: str, body: MoveIn) -> dict[str, Any]:
        """The human's move, with its drops and extra move."""
        entry = service.entry(key)
        match = entry.match
        before = match.position
        if match.to_move is not entry.human:
            raise ValueError("it is the AI's turn")
        outcome = match.play(body.move)
        return {**service.match_json(key), "played": played_json(before, body.move, outcome)}

    @app.post("/api/matches/{key}/ai")
    async def match_ai(key: str) -> dict[str, Any]:
        """The AI's next move (or its choice of starter when the tie rule asks it)."""
        entry = service.entry(key)
        match = entry.match
        ai_side = entry.human.other
        if match.chooser is ai_side:
            match.choose_starter(entry.ai.choose_starter(match))
            return service.match_json(key)
        if match.is_over or match.chooser is not None or match.to_move is not ai_side:
            raise ValueError("it is not the AI's turn")
        before = match.position
        choice = await service.run(lambda: service.best_move(entry.ai, before, match))
        move = int(choice["move"])
        outcome = match.play(move)
        return {**service.match_json(key), "played": played_json(before, move, outcome)}

    @app.post("/api/matches/{key}/choose")
    async def match_choose(key: str, body: StarterIn) -> dict[str, Any]:
        """The tie rule: the human, as chooser, names who starts."""
        entry = service.entry(key)
        if entry.match.chooser is not entry.human:
            raise ValueError("no choice of starter is yours to make")
        entry.match.choose_starter(Player.of(body.starter))
        return service.match_json(key)

    @app.post("/api/matches/{key}/undo")
    async def match_undo(key: str) -> dict[str, Any]:
        """Takes back the human's last move and the AI's replies after it."""
        entry = service.entry(key)
        match = entry.match
        movers = match.movers()
        if entry.human not in movers:
            raise ValueError("there is no move of yours to take back in this battle")
        while movers.pop() is not entry.human:
            match.undo()
        match.undo()
        return service.match_json(key)

    @app.post("/api/matches/{key}/hint")
    async def match_hint(key: str) -> dict[str, Any]:
        """The value of every move for the human, and his chance of winning the match
        from here under perfect match play."""
        entry = service.entry(key)
        match = entry.match
        analysis = await service.run(lambda: service.analysis(match.position))
        chance = None
        if not match.is_over:
            chances = await service.run(lambda: win_probability(match))
            chance = chances.of(entry.human)
        return {**analysis, "match_win_probability": chance}

    return app
