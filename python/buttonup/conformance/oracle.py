"""The expected answers: this project's Rust engine, which the test suite checks against
the pure-Python reference (``buttonup.reference``), asked one question at a time.

A *question* is one request of the protocol about one position: ``legal``, ``play I`` or
``score`` after ``state PILES``. Positions are written as in the protocol, the piles part
of the notation (``W/R/B/W/B/R/R/W/B``); the side to move never matters to the rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from buttonup._core import Position, start_orders
from buttonup.errors import IllegalMoveError, NotationError


@dataclass(frozen=True)
class Question:
    """``state position`` then ``request``, and the answer the rules give."""

    position: str
    request: str
    """``legal``, ``play I`` or ``score``."""
    expected: str
    """The answer; for a ``play`` the rule-4 flag is ignored when ``ends`` (the move
    leaves one pile); ``error`` for an illegal move."""
    move: int | None = None
    ends: bool = False

    @property
    def what(self) -> str:
        """What the question counts as: ``positions``, ``moves`` or ``scores``."""
        if self.request == "legal":
            return "positions"
        return "scores" if self.request == "score" else "moves"

    @cached_property
    def wire(self) -> bytes:
        """The two lines sent."""
        return f"state {self.position}\n{self.request}\n".encode("ascii")


def engine_position(piles: str) -> Position:
    """The Rust engine's position for ``piles`` (Red to move: it changes nothing)."""
    return Position(piles + " r")


def play_answer(piles: tuple[str, ...], extra: bool) -> str:
    return "/".join(piles) + (" extra=true" if extra else " extra=false")


def legal_question(position: Position) -> Question:
    piles = "/".join(position.piles)
    return Question(piles, "legal", " ".join(map(str, position.legal_moves())))


def play_question(position: Position, move: int) -> Question:
    piles = "/".join(position.piles)
    try:
        outcome = position.outcome(move)
    except IllegalMoveError:
        return Question(piles, f"play {move}", "error", move)
    after = outcome.position
    return Question(
        piles, f"play {move}", play_answer(after.piles, outcome.extra_move), move, after.is_over
    )


def score_question(position: Position) -> Question:
    red, black = position.sums()
    return Question("/".join(position.piles), "score", f"R={red} B={black}")


def questions(position: Position, *, illegal: bool = False) -> list[Question]:
    """Every question about ``position``: its legal moves, each legal move played, its
    score if it is a final pile; with ``illegal``, also a pile without white and a pile
    number past the end, whose answer must be an error."""
    asked = [legal_question(position)]
    if position.is_over:
        asked.append(score_question(position))
        return asked
    legal = position.legal_moves()
    asked.extend(play_question(position, move) for move in legal)
    if illegal:
        forbidden = [i for i in range(len(position.piles)) if i not in legal]
        if forbidden:
            asked.append(play_question(position, forbidden[0]))
        asked.append(play_question(position, len(position.piles)))
    return asked


def question_for(position: str, request: str) -> Question | None:
    """The question ``request`` about ``position`` (a shrunk candidate), or ``None`` if
    ``position`` is no position or the request does not apply to it."""
    try:
        engine = engine_position(position)
    except NotationError:
        return None
    if request == "legal":
        return legal_question(engine)
    if request == "score":
        return score_question(engine) if engine.is_over else None
    move = int(request.split()[1])
    if engine.is_over or not 0 <= move <= len(engine.piles):
        return None
    return play_question(engine, move)


def standard_positions(limit: int | None = None) -> list[Position]:
    """Every position reachable from the standard start orders (56,380 with three
    buttons of each colour), fewest piles first, so that the first disagreements found
    are small ones; ``limit`` keeps that many."""
    seen: dict[tuple[str, ...], Position] = {}
    stack: list[Position] = []
    for order in start_orders(3):
        start = Position.start(order)
        if start.piles not in seen:
            seen[start.piles] = start
            stack.append(start)
    while stack:
        position = stack.pop()
        for move in position.legal_moves():
            after = position.play(move)
            if after.piles not in seen:
                seen[after.piles] = after
                stack.append(after)
    ordered = sorted(seen.values(), key=lambda p: (len(p.piles), p.piles))
    return ordered if limit is None else ordered[:limit]


def standard_questions(positions: list[Position]) -> Iterator[Question]:
    """The exhaustive sweep: every question about each of ``positions``."""
    for position in positions:
        yield from questions(position)


def count_questions(positions: list[Position]) -> int:
    """How many questions :func:`standard_questions` asks (for the progress bar)."""
    return sum(2 if p.is_over else 1 + len(p.legal_moves()) for p in positions)
