"""``buttonup.Match``: the match rules of :mod:`buttonup.matchplay` on the Rust engine."""

from __future__ import annotations

from buttonup._core import Position
from buttonup.matchplay import Battle, MatchBase
from buttonup.player import Player

__all__ = ["Battle", "Match"]


class Match(MatchBase[Position]):
    """A match to 15 (or ``target``) victory points on the Rust engine.

    >>> from buttonup import Match, Player
    >>> match = Match(Player.RED, seed=1)
    >>> match.scores
    (0, 0)
    >>> while match.winner is None:
    ...     if match.chooser is not None:
    ...         match.choose_starter(match.chooser)
    ...     else:
    ...         _ = match.play(match.legal_moves()[0])
    >>> max(match.scores) >= 15
    True
    """

    def _random_start(self, seed: int, to_move: Player) -> Position:
        return Position.random(seed, to_move, self.per_colour)

    def _dealt_start(self, order: str, to_move: Player) -> Position:
        return Position.start(order, to_move)
