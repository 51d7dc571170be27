"""What a finished battle came to, as plain data filled in by either engine.

Neither class computes anything: the Rust engine (``buttonup``) and the reference engine
(``buttonup.reference``) apply rule 6 and fill in every field, so a front end can show a
result without knowing the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from buttonup.player import Player

P = TypeVar("P")

__all__ = ["Battle", "PlayoutSummary", "Scoring"]


@dataclass(frozen=True)
class Scoring:
    """Rule 6 on a final pile: each button's strength (1 at the bottom) and owner.

    >>> from buttonup import Position
    >>> scoring = Position("RBWWBRWBR b").scoring()
    >>> scoring.red_strengths, scoring.black_strengths
    ((1, 6, 9), (2, 5, 8))
    >>> scoring.red, scoring.black, scoring.winner, scoring.points
    (16, 15, <Player.RED: 'r'>, 1)
    """

    tower: str
    """The final pile, bottom first."""
    red_strengths: tuple[int, ...]
    """The strengths of Red's buttons, lowest first."""
    black_strengths: tuple[int, ...]
    """The strengths of Black's buttons, lowest first."""
    red: int
    """Red's sum."""
    black: int
    """Black's sum."""
    winner: Player | None
    """The player with the larger sum; ``None`` when the sums are equal."""
    points: int
    """The victory points the winner gains (0 for equal sums)."""

    @property
    def margin(self) -> int:
        """Red's sum minus Black's."""
        return self.red - self.black

    def strengths(self, player: Player) -> tuple[int, ...]:
        """The strengths of ``player``'s buttons, lowest first."""
        return self.red_strengths if player is Player.RED else self.black_strengths


@dataclass(frozen=True)
class Battle(Generic[P]):
    """One finished battle of a match: who started it, its start, its moves, its last
    position (the final pile) and its scoring."""

    number: int
    """1 for the first battle of the match."""
    starter: Player
    start: P
    moves: tuple[int, ...]
    final: P
    scoring: Scoring

    @property
    def red(self) -> int:
        """Red's sum in the final pile."""
        return self.scoring.red

    @property
    def black(self) -> int:
        """Black's sum in the final pile."""
        return self.scoring.black

    @property
    def winner(self) -> Player | None:
        """The player with the larger sum, or ``None`` for equal sums."""
        return self.scoring.winner

    @property
    def points(self) -> int:
        """The victory points the winner gained."""
        return self.scoring.points


@dataclass(frozen=True)
class PlayoutSummary:
    """What a batch of random battles came to (``random_playouts`` of either engine).

    >>> from buttonup import random_playouts
    >>> summary = random_playouts(1000, seed=1)
    >>> summary.battles, summary.moves, sum(summary.margins.values())
    (1000, 8000, 1000)
    >>> summary.red_wins + summary.black_wins + summary.draws
    1000
    """

    battles: int
    moves: int
    red_wins: int
    """Battles won by Red."""
    black_wins: int
    draws: int
    """Battles with equal sums."""
    margin_sum: int
    """The sum of the final margins (Red minus Black)."""
    margins: dict[int, int]
    """How many battles ended at each final margin, for the margins that occurred."""

    @property
    def mean_margin(self) -> float:
        """The mean final margin (Red minus Black)."""
        return self.margin_sum / self.battles if self.battles else 0.0

    def __getitem__(self, key: str) -> int:
        """The older dictionary view: ``summary["battles"]`` and so on."""
        if key not in ("battles", "moves", "red_wins", "black_wins", "draws", "margin_sum"):
            raise KeyError(key)
        value: int = getattr(self, key)
        return value
