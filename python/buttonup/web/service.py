"""What the web app's answers are made of: the searches' pool and its limits, the JSON of
positions and matches, and the matches of the page with their AI (``buttonup.ai.bot``).

Every answer comes from the library: the rules engine (moves with their outcome,
scoring), the AI, the search, the match state machine and the match odds. Searches run
off the event loop in a small pool of threads (the GIL is released), each capped in time;
when too many wait, the answer is 503.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from buttonup._core import Match, Position, analyze, search
from buttonup.ai import LevelBot, Limits, bot
from buttonup.errors import SearchStoppedError
from buttonup.player import Player
from buttonup.results import MoveOutcome, Scoring
from buttonup.web.models import NewMatchIn

T = TypeVar("T")

#: Matches kept; the oldest go first.
MAX_MATCHES = 1000


class Busy(Exception):
    """Too many searches are waiting."""


def scoring_json(scoring: Scoring) -> dict[str, Any]:
    return {
        "tower": scoring.tower,
        "red_strengths": list(scoring.red_strengths),
        "black_strengths": list(scoring.black_strengths),
        "red": scoring.red,
        "black": scoring.black,
        "winner": scoring.winner.letter if scoring.winner else None,
        "points": scoring.points,
    }


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
        data["scoring"] = scoring_json(position.scoring())
    return data


def played_json(before: Position, move: int, outcome: MoveOutcome[Position]) -> dict[str, Any]:
    """What a move did, from the engine's one evaluation of it."""
    return {
        "move": move,
        "drops": list(outcome.drops),
        "extra_move": outcome.extra_move,
        "from": str(before),
    }


@dataclass
class Entry:
    """One match of the page: the match, the human's side and the AI facing him."""

    match: Match
    human: Player
    level: int
    ai: LevelBot


class Service:
    """The searches' pool, the limits, and the matches of the page."""

    def __init__(self, workers: int, max_pending: int, search_seconds: float) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="search")
        self.max_pending = max_pending
        self.search_seconds = search_seconds
        self.pending = 0
        self.lock = threading.Lock()
        self.matches: OrderedDict[str, Entry] = OrderedDict()

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
        """Every move's exact value for the side to move and the best line, when the
        engine solves them within the time cap; else the capped search's best line and
        value only (``exact`` false)."""
        if position.is_over:
            return {"value": None, "moves": {}, "pv": [], "exact": True, "extra_moves": {}}
        moves = position.legal_moves()
        try:
            values = analyze(position, time_limit=self.search_seconds / 2)
        except SearchStoppedError:
            values = {}
        best = search(position, time_limit=self.search_seconds / 2)
        return {
            "value": max(values.values()) if values else best.value,
            "moves": {str(move): value for move, value in values.items()},
            "pv": list(best.pv),
            "exact": bool(values) and best.exact,
            "extra_moves": {str(move): position.outcome(move).extra_move for move in moves},
        }

    def best_move(self, ai: LevelBot, position: Position, match: Match | None) -> dict[str, Any]:
        """The AI's move, and how it was chosen."""
        move = ai.choose(position, match)
        if ai.last_random:
            return {"move": move, "random": True}
        if ai.last_search is not None:
            return {"move": move, "value": ai.last_search.value, "exact": ai.last_search.exact}
        return {"move": move}

    def limits(self, seconds: float) -> Limits:
        """A search of ``seconds``, within the server's cap."""
        return Limits(time_limit=min(seconds, self.search_seconds))

    # --- matches --------------------------------------------------------------------
    def match_json(self, key: str) -> dict[str, Any]:
        entry = self.matches[key]
        match = entry.match
        red, black = match.scores
        data = position_json(match.position)
        data.update(
            {
                "id": key,
                "human": entry.human.letter,
                "level": entry.level,
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
                        **position_json(b.final_position),
                    }
                    for b in match.battles
                ],
            }
        )
        return data

    def new_match(self, spec: NewMatchIn) -> str:
        key = secrets.token_hex(8)
        match = Match(spec.starter, target=spec.target, seed=spec.seed)
        ai = bot(spec.level, spec.seed, limits=self.limits(1.0))
        self.matches[key] = Entry(match, Player.of(spec.human), spec.level, ai)
        while len(self.matches) > MAX_MATCHES:
            self.matches.popitem(last=False)
        return key

    def entry(self, key: str) -> Entry:
        if key not in self.matches:
            raise ValueError(f"no match {key!r} (matches are kept while the server runs)")
        return self.matches[key]
