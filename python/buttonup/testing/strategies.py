"""Hypothesis strategies for property tests of code that plays Button Up!.

Every strategy takes ``engine``, the ``Position`` class to build positions with:
``buttonup.Position`` (the Rust engine, the default) or ``buttonup.reference.Position``.

>>> from hypothesis import given
>>> from buttonup.testing import strategies as bst
>>> @given(bst.reachable_positions())
... def test_no_dead_ends(position):
...     assert position.is_over or position.legal_moves()
>>> test_no_dead_ends()
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, Union

try:
    from hypothesis import strategies as st
    from hypothesis.strategies import SearchStrategy
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "buttonup.testing.strategies needs hypothesis: pip install hypothesis"
    ) from error

from buttonup.player import Player

__all__ = [
    "legal_moves",
    "players",
    "reachable_positions",
    "start_orders",
    "start_positions",
]

P = TypeVar("P", bound="_Position")
IntOrStrategy = Union[int, "SearchStrategy[int]"]


class _Position(Protocol):
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[int]: ...
    def play(self: P, move: int) -> P: ...


def _default_engine() -> Any:
    from buttonup import Position

    return Position


def _ints(value: IntOrStrategy) -> SearchStrategy[int]:
    return value if isinstance(value, SearchStrategy) else st.just(value)


def players() -> SearchStrategy[Player]:
    """Red or Black."""
    return st.sampled_from(Player)


def start_orders(per_colour: IntOrStrategy = 3) -> SearchStrategy[str]:
    """Start orders (one letter per one-button pile), e.g. ``"WRBWBRRWB"``.

    Args:
        per_colour: the buttons of each colour: an int or a strategy of ints.
    """
    return _ints(per_colour).flatmap(
        lambda n: st.permutations("R" * n + "B" * n + "W" * n).map("".join)
    )


def start_positions(
    per_colour: IntOrStrategy = 3, *, engine: Any = None, to_move: Player | None = None
) -> SearchStrategy[Any]:
    """Start positions of rule 1, with either player (or ``to_move``) to move.

    Args:
        per_colour: the buttons of each colour: an int or a strategy of ints.
        engine: the ``Position`` class (``None``: ``buttonup.Position``).
        to_move: the player to move (``None``: either).
    """
    position_type = engine or _default_engine()
    movers = st.just(to_move) if to_move is not None else players()
    return st.builds(
        lambda order, mover: position_type.start(order, to_move=mover),
        start_orders(per_colour),
        movers,
    )


@st.composite
def _reachable(
    draw: st.DrawFn, per_colour: IntOrStrategy, engine: Any, min_moves: int, max_moves: int | None
) -> Any:
    position = draw(start_positions(per_colour, engine=engine))
    limit = draw(st.integers(min_moves, max_moves if max_moves is not None else 31))
    for _ in range(limit):
        if position.is_over:
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return position


def reachable_positions(
    per_colour: IntOrStrategy = 3,
    *,
    engine: Any = None,
    min_moves: int = 0,
    max_moves: int | None = None,
) -> SearchStrategy[Any]:
    """Positions reached by legal play from a start. Finished battles included.

    Args:
        per_colour: the buttons of each colour: an int or a strategy of ints.
        engine: the ``Position`` class (``None``: ``buttonup.Position``).
        min_moves: the fewest moves played (fewer if the battle ends first).
        max_moves: the most moves played (``None``: 31).
    """
    return _reachable(per_colour, engine or _default_engine(), min_moves, max_moves)


def legal_moves(position: _Position) -> SearchStrategy[int]:
    """A legal move of ``position``.

    Raises:
        ValueError: if the battle is over.
    """
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the battle is over: the position has no legal move")
    return st.sampled_from(moves)
