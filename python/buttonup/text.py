"""Plain-text pictures of positions and battle results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from buttonup.player import Player
from buttonup.results import Scoring

if TYPE_CHECKING:
    import buttonup._core
    import buttonup.reference.rules

AnyPosition = Union["buttonup._core.Position", "buttonup.reference.rules.Position"]
"""A position of either engine: what these pictures read (piles, side, legal moves, and the
scoring of a finished battle)."""


def draw_piles(position: AnyPosition) -> str:
    """The piles as columns, top button up, numbered below; ``^`` marks legal moves.

    Args:
        position: a position of either engine.

    Example:
        >>> from buttonup.reference import Position
        >>> print(draw_piles(Position("RW/B/W r")))
         W
         R  B  W
         0  1  2
         ^     ^
    """
    piles = position.piles
    height = max(len(pile) for pile in piles)
    width = max(2, len(str(len(piles) - 1)))
    legal = set(position.legal_moves())
    rows = []
    for level in range(height - 1, -1, -1):
        cells = [(pile[level] if level < len(pile) else "").rjust(width) for pile in piles]
        rows.append(" ".join(cells).rstrip())
    rows.append(" ".join(str(i).rjust(width) for i in range(len(piles))))
    marks = " ".join(("^" if i in legal else "").rjust(width) for i in range(len(piles)))
    if marks.strip():
        rows.append(marks.rstrip())
    return "\n".join(rows)


def scoring_lines(scoring: Scoring) -> list[str]:
    """A battle's scoring (rule 6, applied by the engine) written out as in the rulebook.

    Args:
        scoring: the scoring of a final pile.

    Returns:
        The lines: each player's sum, then who gains how many victory points.

    Example:
        >>> from buttonup.reference import Position
        >>> for line in scoring_lines(Position("RBWWBRWBR b").scoring()):
        ...     print(line)
        Red: 1 + 6 + 9 = 16
        Black: 2 + 5 + 8 = 15
        Red gains 1 victory point
    """
    lines = []
    for player in Player:
        strengths = scoring.strengths(player)
        terms = " + ".join(map(str, strengths)) or "0"
        lines.append(
            f"{player}: {terms} = {scoring.red if player is Player.RED else scoring.black}"
        )
    if scoring.winner is None:
        lines.append("Equal sums: nobody gains victory points")
    else:
        points = scoring.points
        lines.append(f"{scoring.winner} gains {points} victory point{'s' if points > 1 else ''}")
    return lines


def describe_position(position: AnyPosition) -> str:
    """The piles, the side to move and the legal moves (or the result).

    Args:
        position: a position of either engine.

    Example:
        >>> from buttonup import Position
        >>> print(describe_position(Position("RW/B/W r")))
         W
         R  B  W
         0  1  2
         ^     ^
        <BLANKLINE>
        Red to move. Legal moves: 0 2
    """
    lines = [draw_piles(position), ""]
    if position.is_over:
        lines.append("The battle is over. Final pile, bottom first: " + position.piles[0])
        lines.extend(scoring_lines(position.scoring()))
    else:
        moves = " ".join(map(str, position.legal_moves()))
        lines.append(f"{position.to_move} to move. Legal moves: {moves}")
    return "\n".join(lines)
