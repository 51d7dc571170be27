"""Results as plain data, filled in by either engine.

None of these classes applies a rule: the Rust engine (``buttonup``) and the reference
engine (``buttonup.reference``) fill in every field, so that a front end can show a move,
a result, a search or the match odds without knowing the rules.

One point of view holds throughout (docs/ai.md): a *value* of a position (a search's
``value``, ``analyze``, ``solve``) is for the side to move; what is about the two colours
is named by colour (``red``/``black`` fields, or a method taking the player).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from buttonup.constants import STANDARD_PER_COLOUR, STANDARD_TARGET
from buttonup.player import Player, PlayerLike

P = TypeVar("P")

__all__ = [
    "Battle",
    "Chances",
    "MoveOutcome",
    "PlayoutSummary",
    "Scoring",
    "SearchResult",
    "Standing",
]


@dataclass(frozen=True)
class Scoring:
    """The scoring of a final pile (rule 6): each button's strength and owner.

    Strengths count from 1 at the bottom. What ``Position.scoring()`` returns.

    Example:
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

    def sum(self, player: PlayerLike) -> int:
        """``player``'s sum: the strengths of his buttons added up.

        Args:
            player: a ``Player`` or ``"r"``/``"b"``.

        Example:
            >>> from buttonup import Position
            >>> Position("RBWWBRWBR b").scoring().sum("r")
            16
        """
        return self.red if Player.of(player) is Player.RED else self.black

    def margin_for(self, player: PlayerLike) -> int:
        """``player``'s sum minus the opponent's.

        Args:
            player: a ``Player`` or ``"r"``/``"b"``.

        Example:
            >>> from buttonup import Player, Position
            >>> scoring = Position("RBWWBRWBR b").scoring()
            >>> scoring.margin_for(Player.RED), scoring.margin_for(Player.BLACK)
            (1, -1)
        """
        player = Player.of(player)
        return self.sum(player) - self.sum(player.other)

    def strengths(self, player: PlayerLike) -> tuple[int, ...]:
        """The strengths of ``player``'s buttons, lowest first.

        Args:
            player: a ``Player`` or ``"r"``/``"b"``.
        """
        return self.red_strengths if Player.of(player) is Player.RED else self.black_strengths


@dataclass(frozen=True)
class Battle(Generic[P]):
    """One finished battle of a match: who started it, its start, its moves, its last
    position (the final pile) and its scoring.

    What ``Match.battles`` holds.

    Example:
        >>> from buttonup import Match
        >>> game = Match(target=1, per_colour=1, seed=5)
        >>> _ = game.play(2), game.play(0)
        >>> battle = game.battles[0]
        >>> battle.start, battle.moves, battle.final_position
        (Position('B/R/W r'), (2, 0), Position('RBW r'))
        >>> battle.red, battle.black, battle.winner, battle.points
        (1, 2, <Player.BLACK: 'b'>, 1)
    """

    number: int
    """1 for the first battle of the match."""
    starter: Player
    """The player who moved first in the battle."""
    start: P
    """The battle's start position."""
    moves: tuple[int, ...]
    """The moves played, first to last."""
    final_position: P
    """The final pile, as a position."""
    scoring: Scoring
    """The scoring of the final pile."""

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

    Example:
        >>> from buttonup import random_playouts
        >>> summary = random_playouts(1000, seed=1)
        >>> summary.battles, summary.moves, sum(summary.red_margins.values())
        (1000, 8000, 1000)
        >>> summary.red_wins + summary.black_wins + summary.draws
        1000
        >>> summary.mean_red_margin
        0.22
    """

    battles: int
    """The battles played."""
    moves: int
    """The moves played in all of them."""
    red_wins: int
    """Battles won by Red."""
    black_wins: int
    """Battles won by Black."""
    draws: int
    """Battles with equal sums."""
    red_margin_sum: int
    """The sum of Red's final margins (Red's sum minus Black's)."""
    red_margins: dict[int, int]
    """How many battles ended at each final margin of Red's, for the margins that
    occurred."""

    @property
    def mean_red_margin(self) -> float:
        """Red's mean final margin."""
        return self.red_margin_sum / self.battles if self.battles else 0.0


@dataclass(frozen=True)
class MoveOutcome(Generic[P]):
    """What one move does, from one evaluation by the engine.

    What ``Position.outcome`` and ``Match.play`` return.

    Example:
        >>> from buttonup import Position
        >>> outcome = Position("RW/B/W/B/R/R/W/B r").outcome(0)
        >>> outcome.position, outcome.extra_move, outcome.drops
        (Position('BR/WW/B/R/R/W/B r'), True, (1, 2))
    """

    position: P
    """The position after the move (the same player to move again after an extra move)."""
    extra_move: bool
    """Whether the last button sown landed on a white one, so that the mover plays again
    (rule 4)."""
    drops: tuple[int, ...]
    """The pile, numbered before the move, that receives each lifted button, bottom
    button first (rule 3; with an overflow the last pile repeats)."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the best move, its value, and how the search got there.

    ``value`` is for the side to move: his final margin under perfect play when
    ``exact``, else the estimate at the search's horizon. What ``search``,
    ``Searcher.search`` and a search's ``on_iteration`` callback give.

    Example:
        >>> from buttonup import Position, search
        >>> result = search(Position("W/R/B/W/B/R/R/W/B r"))
        >>> result.best_move, result.value, result.exact, result.depth, result.pv
        (3, 1, True, 8, (3, 0, 0, 1, 3, 3, 2, 0))
    """

    best_move: int | None
    """The move to play (``None`` in a finished battle)."""
    value: int
    """The value for the side to move."""
    exact: bool
    """Whether ``value`` is the perfect-play value (the search reached every end)."""
    depth: int
    """The depth of the last completed iteration, in moves."""
    nodes: int
    """Positions visited."""
    pv: tuple[int, ...]
    """The principal variation: the best line found, from this position."""
    elapsed: float
    """Seconds spent."""
    threads: int = 1
    """The threads it ran on: helpers share the table of an exact search or one within a
    time alone, for positions of 16 piles or more; a depth or node limit keeps a search
    on one thread, so that its answer is the same on every run."""


@dataclass(frozen=True)
class Standing:
    """The scores of a match between two battles, and what the next battle depends on.

    What the match odds are computed from (rules 7 to 9): ``Match.standing`` gives
    one, and ``win_probability`` takes one.

    ``last_loser`` is the loser of the latest battle that had a winner (``None`` before
    any; it may be left out with unequal scores, where it changes nothing). ``starter`` is
    who starts the next battle where the rules leave it open (the first battle, or the tie
    rule's choice once made). With unequal scores the player behind starts, so
    ``starter`` may be left out (or must be that player). With equal scores after a
    decided battle and no ``starter``, the choice is still due.

    Example:
        >>> from buttonup import Player, Standing, win_probability
        >>> chances = win_probability(Standing(3, 5))   # Red is behind, so Red starts
        >>> round(chances.red, 5), round(chances.of(Player.BLACK), 5)
        (0.48696, 0.51304)
    """

    red: int
    """Red's victory points."""
    black: int
    """Black's victory points."""
    target: int = STANDARD_TARGET
    """The victory points that win the match."""
    last_loser: Player | None = None
    """The loser of the latest battle that had a winner (``None`` before any)."""
    starter: Player | None = None
    """Who starts the next battle where the rules leave it open (``None``: not given)."""
    per_colour: int = STANDARD_PER_COLOUR
    """Buttons of each colour in each battle."""


@dataclass(frozen=True)
class Chances:
    """Each player's probability of winning a match under perfect match play.

    The shuffles are taken as chance. What ``win_probability`` returns.

    Example:
        >>> from buttonup import Standing, win_probability
        >>> chances = win_probability(Standing(3, 5))
        >>> round(chances.red, 5), round(chances.of("b"), 5)
        (0.48696, 0.51304)
    """

    red: float
    """Red's probability of winning the match."""
    black: float
    """Black's probability of winning the match."""

    def of(self, player: PlayerLike) -> float:
        """``player``'s probability of winning the match.

        Args:
            player: a ``Player`` or ``"r"``/``"b"``.
        """
        return self.red if Player.of(player) is Player.RED else self.black
