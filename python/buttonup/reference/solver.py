"""Perfect play by plain memoised minimax: the oracle for the Rust search.

Values are final margins seen from the player to move: his sum minus the opponent's. After
an extra move the same player moves again, so the child's value is kept as it is;
otherwise it is negated.
"""

from __future__ import annotations

import time
from functools import cache

from buttonup.errors import SearchStoppedError
from buttonup.reference.rules import Position


def solve(position: Position, *, threads: int | None = None) -> int:
    """The exact value of ``position`` for the side to move under perfect play
    (``threads`` is taken for the core's signature; the reference uses one)."""
    return _value(str(_position(position)))


def analyze(
    position: Position, *, threads: int | None = None, time_limit: float | None = None
) -> dict[int, int]:
    """The exact value, for the side to move, of every legal move (``threads`` as in
    :func:`solve`). With ``time_limit`` (seconds), ``SearchStoppedError`` if the moves
    are not all solved in time (checked between moves)."""
    if time_limit is not None and not time_limit >= 0:
        raise ValueError(f"time_limit must be a number of seconds, at least 0, not {time_limit}")
    started = time.monotonic()
    values = {}
    for move in _position(position).legal_moves():
        if time_limit is not None and time.monotonic() - started > time_limit:
            raise SearchStoppedError(
                f"the analysis was not done within its time limit of {time_limit} s"
            )
        values[move] = _child_value(position, move)
    return values


def _position(value: object) -> Position:
    if not isinstance(value, Position):
        raise TypeError(f"a position must be a Position, not {type(value).__name__}")
    return value


def _child_value(position: Position, move: int) -> int:
    child = position.play(move)
    value = _value(str(child))
    return value if child.to_move is position.to_move else -value


@cache
def _value(notation: str) -> int:
    position = Position(notation)
    if position.is_over:
        return position.scoring().margin_for(position.to_move)
    return max(_child_value(position, move) for move in position.legal_moves())
