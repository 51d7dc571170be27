"""Perfect play by plain memoised minimax: the oracle for the Rust search.

Values are final margins seen from the player to move: his sum minus the opponent's. After
an extra move the same player moves again, so the child's value is kept as it is;
otherwise it is negated.
"""

from __future__ import annotations

from functools import cache

from buttonup.reference.rules import Position


def solve(position: Position, *, threads: int | None = None) -> int:
    """The exact value of ``position`` for the side to move under perfect play
    (``threads`` is taken for the core's signature; the reference uses one)."""
    return _value(str(position))


def analyze(position: Position, *, threads: int | None = None) -> dict[int, int]:
    """The exact value, for the side to move, of every legal move (``threads`` as in
    :func:`solve`)."""
    return {move: _child_value(position, move) for move in position.legal_moves()}


def clear_cache() -> None:
    """Forgets the values memoised so far."""
    _value.cache_clear()


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
