"""The web app of ``buttonup serve``: the JSON API (docs/http.md) and the page.

Every answer comes from the library: the rules engine (moves, extra moves, drops,
scoring), the search, the match state machine and the match odds. Searches run off the
event loop in a small pool of threads (the GIL is released), each capped in time; when
too many wait, the answer is 503.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any, Literal, Optional, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from buttonup._core import Match, Position, search, win_probability
from buttonup.ai import EPSILON
from buttonup.player import Player

T = TypeVar("T")
STATIC = resources.files("buttonup.web") / "static"


class Busy(Exception):
    """Too many searches are waiting."""


class PositionIn(BaseModel):
    position: str = Field(examples=["W/R/B/W/B/R/R/W/B r"])


class BestMoveIn(PositionIn):
    level: Optional[int] = Field(default=None, ge=1, le=10)  # noqa: UP045 (pydantic, 3.9)
    movetime: Optional[int] = Field(default=None, ge=1, le=10_000)  # noqa: UP045


class PlayIn(PositionIn):
    move: int = Field(examples=[3])


class OddsIn(BaseModel):
    red_points: int = Field(ge=0)
    black_points: int = Field(ge=0)
    starter: Literal["r", "b"]
    target: int = Field(default=15, ge=1, le=1000)
    chooser: Optional[Literal["r", "b"]] = None  # noqa: UP045


class NewMatchIn(BaseModel):
    human: Literal["r", "b"] = "r"
    level: int = Field(default=5, ge=1, le=10)
    target: int = Field(default=15, ge=1, le=1000)
    starter: Literal["r", "b"] = "r"
    seed: Optional[int] = Field(default=None, ge=0, lt=2**64)  # noqa: UP045


class MoveIn(BaseModel):
    move: int


class StarterIn(BaseModel):
    starter: Literal["r", "b"]


def position_json(position: Position) -> dict[str, Any]:
    """What a front end needs to draw a position, all from the engine."""
    data: dict[str, Any] = {
        "position": str(position),
        "piles": list(position.piles),
        "to_move": position.to_move.letter,
        "is_over": position.is_over,
        "legal_moves": position.legal_moves(),
    }
    if position.is_over:
        scoring = position.scoring()
        data["scoring"] = {
            "tower": scoring.tower,
            "red_strengths": list(scoring.red_strengths),
            "black_strengths": list(scoring.black_strengths),
            "red": scoring.red,
            "black": scoring.black,
            "winner": scoring.winner.letter if scoring.winner else None,
            "points": scoring.points,
        }
    return data


class Service:
    """The searches' pool, the limits, and the matches of the page."""

    def __init__(self, workers: int, max_pending: int, search_seconds: float) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="search")
        self.max_pending = max_pending
        self.search_seconds = search_seconds
        self.pending = 0
        self.lock = threading.Lock()
        self.matches: OrderedDict[str, dict[str, Any]] = OrderedDict()

    async def run(self, work: Callable[[], T]) -> T:
        with self.lock:
            if self.pending >= self.max_pending:
                raise Busy
            self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, work)
        finally:
            with self.lock:
                self.pending -= 1

    # --- searching ------------------------------------------------------------------
    def analysis(self, position: Position) -> dict[str, Any]:
        """Every move's value for the side to move (exact where the capped searches
        reach the end) and the best line."""
        if position.is_over:
            return {"value": None, "moves": {}, "pv": [], "exact": True}
        moves = position.legal_moves()
        budget = self.search_seconds / (len(moves) + 1)
        values, exact = {}, True
        for move in moves:
            child = position.play(move)
            if child.is_over:
                margin = child.scoring().margin
                values[str(move)] = margin if position.to_move is Player.RED else -margin
                continue
            result = search(child, time_limit=budget)
            same = child.to_move is position.to_move
            values[str(move)] = result.value if same else -result.value
            exact = exact and result.exact
        best = search(position, time_limit=budget)
        return {
            "value": best.value,
            "moves": values,
            "pv": best.pv,
            "exact": exact and best.exact,
            "extra_moves": {str(m): position.gives_extra_move(m) for m in moves},
        }

    def best_move(
        self, position: Position, level: int, seconds: float, rng: random.Random
    ) -> dict[str, Any]:
        """The level's move: its chance of a random move, else the capped search."""
        if rng.random() < EPSILON[level]:
            return {"move": rng.choice(position.legal_moves()), "random": True}
        result = search(position, time_limit=min(seconds, self.search_seconds))
        return {"move": result.best_move, "value": result.value, "exact": result.exact}

    # --- matches --------------------------------------------------------------------
    def match_json(self, key: str) -> dict[str, Any]:
        entry = self.matches[key]
        match: Match = entry["match"]
        red, black = match.scores
        data = position_json(match.position)
        data.update(
            {
                "id": key,
                "human": entry["human"].letter,
                "level": entry["level"],
                "scores": {"r": red, "b": black},
                "target": match.target,
                "starter": match.starter.letter,
                "chooser": match.chooser.letter if match.chooser else None,
                "winner": match.winner.letter if match.winner else None,
                "moves": list(match.moves),
                "legal_moves": match.legal_moves(),
                "battles": [
                    {
                        "number": b.number,
                        "starter": b.starter.letter,
                        "moves": list(b.moves),
                        **position_json(b.final),
                    }
                    for b in match.battles
                ],
            }
        )
        return data

    def new_match(self, spec: NewMatchIn) -> str:
        key = secrets.token_hex(8)
        match = Match(Player(spec.starter), target=spec.target, seed=spec.seed)
        self.matches[key] = {
            "match": match,
            "human": Player(spec.human),
            "level": spec.level,
            "rng": random.Random(spec.seed),
            "lock": threading.Lock(),
        }
        while len(self.matches) > 1000:  # the oldest matches go
            self.matches.popitem(last=False)
        return key


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
        """A move of the AI at `level` (1-10, default 10) or of a search of `movetime` ms."""
        position = Position(body.position)
        if position.is_over:
            raise ValueError("the battle is over: there is no move")
        level = body.level or 10
        seconds = (body.movetime or 1000) / 1000
        rng = random.Random()
        return await service.run(lambda: service.best_move(position, level, seconds, rng))

    @app.post("/api/play")
    async def play(body: PlayIn) -> dict[str, Any]:
        """The position after `move`, with what happened: the drops and the extra move."""
        position = Position(body.position)
        drops = position.drops(body.move)
        extra = position.gives_extra_move(body.move)
        after = position.play(body.move)
        return {**position_json(after), "extra_move": extra, "drops": drops}

    @app.post("/api/win-probability")
    async def odds(body: OddsIn) -> dict[str, float]:
        """Red's and Black's chances of winning the match from a battle about to start."""
        chooser = Player(body.chooser) if body.chooser else None

        def work() -> float:
            return win_probability(
                body.red_points, body.black_points, Player(body.starter), body.target, chooser
            )

        red = await service.run(work)
        return {"red": red, "black": 1.0 - red}

    # --- matches for the page -------------------------------------------------------
    def entry(key: str) -> dict[str, Any]:
        if key not in service.matches:
            raise ValueError(f"no match {key!r} (matches are kept while the server runs)")
        return service.matches[key]

    @app.post("/api/matches")
    async def new_match(body: NewMatchIn) -> dict[str, Any]:
        """A match against the AI; the human plays `human`."""
        return service.match_json(service.new_match(body))

    @app.get("/api/matches/{key}")
    async def get_match(key: str) -> dict[str, Any]:
        entry(key)
        return service.match_json(key)

    @app.post("/api/matches/{key}/play")
    async def match_play(key: str, body: MoveIn) -> dict[str, Any]:
        """The human's move, with its drops and extra move."""
        match: Match = entry(key)["match"]
        before = match.position
        if match.to_move is not entry(key)["human"]:
            raise ValueError("it is the AI's turn")
        match.play(body.move)
        return {
            **service.match_json(key),
            "played": {
                "move": body.move,
                "drops": before.drops(body.move),
                "extra_move": before.gives_extra_move(body.move),
                "from": str(before),
            },
        }

    @app.post("/api/matches/{key}/ai")
    async def match_ai(key: str) -> dict[str, Any]:
        """The AI's next move (or its choice of starter when the tie rule asks it)."""
        data = entry(key)
        match: Match = data["match"]
        ai: Player = data["human"].other
        if match.chooser is ai:
            match.choose_starter(ai)  # starting is worth more on average
            return service.match_json(key)
        if match.is_over or match.chooser is not None or match.to_move is not ai:
            raise ValueError("it is not the AI's turn")
        before = match.position
        choice = await service.run(
            lambda: service.best_move(before, data["level"], 1.0, data["rng"])
        )
        move = int(choice["move"])
        match.play(move)
        return {
            **service.match_json(key),
            "played": {
                "move": move,
                "drops": before.drops(move),
                "extra_move": before.gives_extra_move(move),
                "from": str(before),
            },
        }

    @app.post("/api/matches/{key}/choose")
    async def match_choose(key: str, body: StarterIn) -> dict[str, Any]:
        """The tie rule: the human, as chooser, names who starts."""
        data = entry(key)
        if data["match"].chooser is not data["human"]:
            raise ValueError("no choice of starter is yours to make")
        data["match"].choose_starter(Player(body.starter))
        return service.match_json(key)

    @app.post("/api/matches/{key}/undo")
    async def match_undo(key: str) -> dict[str, Any]:
        """Takes back the human's last move and the AI's replies after it."""
        data = entry(key)
        match: Match = data["match"]
        movers = match.movers()
        if data["human"] not in movers:
            raise ValueError("there is no move of yours to take back in this battle")
        while movers.pop() is not data["human"]:
            match.undo()
        match.undo()
        return service.match_json(key)

    @app.post("/api/matches/{key}/hint")
    async def match_hint(key: str) -> dict[str, Any]:
        """The value of every move, and the human's chance of winning the match."""
        data = entry(key)
        match: Match = data["match"]
        position = match.position
        analysis = await service.run(lambda: service.analysis(position))
        red, black = match.scores
        chance = None
        if not match.is_over and match.chooser is None and max(red, black) < match.target:
            red_odds = await service.run(
                lambda: win_probability(red, black, match.starter, match.target, match.last_loser)
            )
            chance = red_odds if data["human"] is Player.RED else 1 - red_odds
        return {**analysis, "match_win_probability": chance}

    return app
