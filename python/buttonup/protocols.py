"""What code that works with either engine's ``Position`` relies on."""

from __future__ import annotations

from typing import Protocol, TypeVar

from buttonup.player import Player

_S = TypeVar("_S")


class PositionLike(Protocol):
    """The API ``buttonup.Position`` and ``buttonup.reference.Position`` share."""

    def play(self: _S, move: int) -> _S: ...
    @property
    def piles(self) -> tuple[str, ...]: ...
    @property
    def to_move(self) -> Player: ...
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[int]: ...
    def strengths(self) -> tuple[int, int]: ...
