"""``buttonup.reference.Match``: the match rules on the pure-Python engine."""

from __future__ import annotations

from buttonup.matchplay import Battle, MatchBase
from buttonup.player import Player
from buttonup.reference.rules import Position

__all__ = ["Battle", "Match"]


class Match(MatchBase[Position]):
    """A match to 15 (or ``target``) victory points on the reference engine."""

    def _random_start(self, seed: int, to_move: Player) -> Position:
        return Position.random(seed, to_move, self.per_colour)

    def _dealt_start(self, order: str, to_move: Player) -> Position:
        return Position.start(order, to_move)
