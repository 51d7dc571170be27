"""The web app of ``buttonup serve``: the JSON API (docs/http.md) and the page.

The routes only read requests and write answers: positions, moves and their outcomes,
the AI, analyses, matches and match odds all come from the library (see
:mod:`buttonup.web.service`). Every request that changes a match holds that match's
lock; one that finds it held is answered 409 and changes nothing.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException

from buttonup._core import RATINGS, Position, line_view, win_probability
from buttonup.ai import LEVELS, Bot, bot
from buttonup.errors import IllegalMoveError, kind_of
from buttonup.player import Player
from buttonup.players import BotFactory, PolicyError, is_policy_spec
from buttonup.results import Standing
from buttonup.web import pages
from buttonup.web.api_docs import add_api_docs
from buttonup.web.guard import Guard
from buttonup.web.lane import Lane, Lanes
from buttonup.web.match_routes import add_match_routes
from buttonup.web.models import AnalyzeIn, BestMoveIn, ErrorOut, OddsIn, PlayIn
from buttonup.web.online import Online
from buttonup.web.online_routes import add_online_routes
from buttonup.web.service import Busy, Conflict, NotFound, Service, Stopping, TooMany
from buttonup.web.store import EXPIRE_SECONDS
from buttonup.web.views import drawn_line, position_json

STATIC = resources.files("buttonup.web") / "static"

#: Every status the API answers besides 200, each with the body ``{"error": ...}``.
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": description}
    for status, description in {
        400: "a bad position, an illegal move, a request the match refuses, a bad Host",
        401: "no player token, or one this server never issued (online matches)",
        403: "the player token holds no seat that may do this (online matches)",
        404: "no such match, or no such route",
        409: "another request on the same match is being answered; online: not your "
        "turn, a stale version, a match not begun or over",
        413: "the request body is larger than the server's limit",
        422: "malformed JSON, a wrong type or a value out of range, naming the field",
        429: "too many of something made from this address: matches against the AI "
        "unfinished, online matches waiting for their second player, players in no "
        "match, event streams open (of this match, or from this address)",
        500: "the server failed: an opponent of its own that could not play, or a fault "
        "of the server's (a full disk)",
        503: "too many searches are waiting, or the server is stopping",
    }.items()
}


#: The HTTP status of each kind of error (docs/reliability.md, "Error kinds"): a
#: request's fault is 400; the other kinds (a search stopped, an interruption, memory, a
#: bug) are not the request's and answer 500.
HTTP_STATUS: dict[str, int] = {
    "notation": 400,
    "illegal_move": 400,
    "battle_not_over": 400,
    "match_state": 400,
    "record": 400,
    "invalid_argument": 400,
    "wrong_type": 400,
    "search_stopped": 500,
    "interrupted": 500,
    "memory": 500,
    "internal": 500,
}


#: FastAPI's own OpenTelemetry (from FastAPI 0.165) asks for the global providers on
#: every request, about 6% of the server's CPU under load (docs/http.md): this server
#: sets up none, so it is off where the framework has it.
NO_TELEMETRY: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False}}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters
    else {}
)


class JsonCors(CORSMiddleware):
    """Starlette's CORS, its refused preflights answered as every refusal is (JSON)."""

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code == 200:
            return response
        reason = bytes(response.body).decode().removeprefix("Disallowed CORS ")
        headers = {
            name: value
            for name, value in response.headers.items()
            if name not in ("content-length", "content-type")
        }
        return JSONResponse(
            {"error": f"this cross-origin request is not allowed here (its {reason})"},
            status_code=400,
            headers=headers,
        )


def create_app(
    *,
    cors_origins: tuple[str, ...] = (),
    allowed_hosts: tuple[str, ...] | None = None,
    max_body: int = 16_384,
    workers: int = 2,
    max_pending: int = 32,
    search_seconds: float = 2.0,
    db: str = "sqlite://:memory:",
    expire_seconds: float = EXPIRE_SECONDS,
    opponents: Mapping[str, BotFactory] | None = None,
    most_streams: int | None = None,
) -> FastAPI:
    """The app; the limits are ``buttonup serve``'s options. With ``allowed_hosts``,
    a request whose ``Host`` is not one of them is refused (400). The online matches
    live in the database ``db`` (:func:`buttonup.web.store.open_store`; in memory by
    default, opened on first use). ``opponents`` are players besides the levels, by
    name (``buttonup serve --opponent NAME=SPEC``: a policy or a named bot), listed by
    ``GET /api/opponents`` and played by ``POST /api/bestmove``'s ``opponent``.
    ``most_streams`` caps the online matches' event streams open at once (by default
    half the connections the process may serve)."""
    extra: dict[str, Bot] = {name: make(0) for name, make in (opponents or {}).items()}
    app = FastAPI(
        title="buttonup",
        summary="Button Up! rules engine, AI and analysis over HTTP",
        docs_url=None,  # buttonup.web.api_docs: the same pages, from installed files
        redoc_url=None,
        openapi_url="/api/openapi.json",
        responses=ERRORS,
        **NO_TELEMETRY,
    )
    add_api_docs(app)
    service = Service(workers, max_pending, search_seconds)
    service.opponents = dict(opponents or {})
    app.state.service = service
    app.state.cors_origins = cors_origins
    lanes = Lanes()  # the online routes' short way, inside the guard and the CORS
    app.add_middleware(Lane, lanes=lanes, owner=app)
    if cors_origins:
        app.add_middleware(
            JsonCors,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["content-type", "authorization"],  # the player token
        )
    app.add_middleware(Guard, max_body=max_body, allowed_hosts=allowed_hosts)

    def error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status, headers=headers)

    # The library's errors (every kind that a request can cause: ValueError and TypeError
    # are the bases of them all) answer by their kind; the web's own by their class.
    async def refused(request: Request, exc: Exception) -> JSONResponse:
        status = HTTP_STATUS.get(kind_of(exc) or "", 400)
        return error(status, str(exc.args[0] if exc.args else exc))

    app.add_exception_handler(ValueError, refused)
    app.add_exception_handler(TypeError, refused)

    statuses: dict[type[Exception], tuple[int, str | None]] = {
        NotFound: (404, None),
        Conflict: (409, None),
        TooMany: (429, None),
        Busy: (503, "too many searches are waiting: try again shortly"),
        Stopping: (503, "the server is stopping"),
        # An opponent of this server's that failed to play: the server's fault.
        PolicyError: (500, None),
    }
    for kind, (status, fixed) in statuses.items():

        async def handler(
            request: Request, exc: Exception, status: int = status, fixed: str | None = fixed
        ) -> JSONResponse:
            text = fixed or (exc.args[0] if exc.args else str(exc))
            return error(status, str(text))

        app.add_exception_handler(kind, handler)

    # Anything else is the server's failure, answered in the same form (the framework
    # still logs it).
    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        return error(500, f"the server failed to answer ({type(exc).__name__})")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 400:  # the framework could not read the body
            return error(422, "body: the body is not valid JSON (or nests too deep)")
        return error(exc.status_code, str(exc.detail), exc.headers)  # 405's Allow

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            f"{'.'.join(str(part) for part in problem['loc'][1:]) or 'body'}: {problem['msg']}"
            for problem in exc.errors()
        ]
        return error(422, "; ".join(problems))

    @app.get("/", include_in_schema=False)
    async def page() -> HTMLResponse:
        return HTMLResponse(pages.render("index"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # --- the stateless API ------------------------------------------------------------
    @app.post("/api/board")
    async def board(body: AnalyzeIn) -> dict[str, Any]:
        """Where `moves` played from `position` lead, drawn (`svg`) with every pile where
        it was at `position` and the last move marked, with `line` (each move with its
        drops and the record's label): what the analysis board shows before its values
        come (no search)."""
        root = Position(body.position)
        _, drawn = await run_in_threadpool(drawn_line, root, body.moves)
        return drawn

    @app.post("/api/analyze")
    async def analyze(body: AnalyzeIn) -> dict[str, Any]:
        """The value for the side to move of every legal move, which give an extra
        move, and the best line (`pv`, and as plies with the record's labels,
        `pv_line`); of `position`, or of where `moves` played from it lead (`line`),
        drawn (`svg`) with every pile where it was at `position`."""
        root = Position(body.position)
        position, drawn = await run_in_threadpool(drawn_line, root, body.moves)
        analysis = await service.run(lambda: service.analysis(position), position)
        best = await run_in_threadpool(lambda: line_view(position, analysis["pv"])["line"])
        return {**drawn, **analysis, "pv_line": best}

    @app.post("/api/bestmove")
    async def bestmove(body: BestMoveIn) -> dict[str, Any]:
        """A move of the AI at `level` (1-10, default 10), searching `movetime` ms at most
        (default 1000)."""
        position = Position(body.position)
        if position.is_over:
            raise IllegalMoveError("the battle is over: there is no move")
        if body.opponent is not None:
            if body.level is not None:
                known = ", ".join(sorted(extra)) or "none"
                raise ValueError(
                    f"opponent: give a level or one of this server's opponents ({known}), not both"
                )
            service.opponent(body.opponent)  # a name it does not offer: refused
            player = extra[body.opponent]
            move = await service.run(lambda: player.choose(position), position)
            return {"move": move, "opponent": body.opponent}
        level = 10 if body.level is None else body.level
        ai = bot(level, limits=service.limits((body.movetime or 1000) / 1000))
        return await service.run(lambda: service.best_move(ai, position, None), position)

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
        battles, under perfect match play (targets up to the server's cap)."""
        standing = Standing(
            body.red_points,
            body.black_points,
            target=body.target,
            last_loser=Player.of(body.last_loser) if body.last_loser else None,
            starter=Player.of(body.starter) if body.starter else None,
        )
        chances = await service.run(lambda: win_probability(standing))
        return {"red": chances.red, "black": chances.black}

    @app.get("/api/levels")
    async def levels() -> dict[str, str]:
        """What each level of the AI is (1 to 10)."""
        return {str(level): text for level, text in LEVELS.items()}

    @app.get("/api/ratings")
    async def ratings() -> dict[str, float]:
        """Each level's rating (1 to 10), on the Elo scale of `buttonup.RATINGS`."""
        return {str(level): rating for level, rating in enumerate(RATINGS, 1)}

    @app.get("/api/opponents")
    async def opponents_list() -> dict[str, str]:
        """The players this server offers besides the levels (`buttonup serve
        --opponent NAME=SPEC`), by name, each with its kind: `"policy"` or `"bot"`."""
        return {
            name: "policy" if is_policy_spec(make.spec) else "bot"
            for name, make in (opponents or {}).items()
        }

    add_match_routes(app, service, ERRORS)
    online = Online(db, service, expire_seconds, most_streams)
    service.db = online.db  # the page's matches live beside the online ones
    service.expire_seconds = expire_seconds
    app.state.online = online
    add_online_routes(app, online, ERRORS, lanes)
    return app
