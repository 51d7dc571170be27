"""``hint`` in the terminal game: every legal move's exact value for the mover, whether
it gives an extra move, and the mover's chance of winning the match after it."""

from __future__ import annotations

from dataclasses import dataclass

from buttonup._core import VARIANT_LIMITS, Match, analyze, match_analyze, win_probability
from buttonup.svg import Board


@dataclass(frozen=True)
class MoveHint:
    """One legal move as ``hint`` tells it."""

    move: int
    #: The letter of the pile's fixed place.
    place: str
    pile: str
    #: The mover's final margin under perfect play after this move.
    value: int
    extra_move: bool
    #: The mover's chance of winning the match after this move (None where the match
    #: odds do not reach: more buttons of each colour than they support).
    match_chance: float | None


def has_match_odds(match: Match) -> bool:
    """Whether the match odds cover this match's count of buttons."""
    return match.per_colour <= VARIANT_LIMITS["match_odds"]


def move_hints(match: Match, board: Board, markers: str) -> list[MoveHint]:
    """The hints for the current battle's position, best first (value, then chance)."""
    position = match.position
    values = analyze(position)
    chances = match_analyze(match) if has_match_odds(match) else {}
    hints = [
        MoveHint(
            move=move,
            place=markers[board.slots[move]],
            pile=position.piles[move],
            value=value,
            extra_move=position.gives_extra_move(move),
            match_chance=chances.get(move),
        )
        for move, value in values.items()
    ]
    return sorted(hints, key=lambda h: (-h.value, -(h.match_chance or 0.0), h.move))


def hint_lines(match: Match, board: Board, markers: str) -> list[str]:
    """What ``hint`` prints: a line a move, then the mover's chance now."""
    hints = move_hints(match, board, markers)
    odds = has_match_odds(match)
    lines = [
        "Each move for you: its exact value (your final margin under perfect play)"
        + (", and your chance of winning the match after it:" if odds else ":")
    ]
    for hint in hints:
        extra = "extra move" if hint.extra_move else ""
        chance = f"  match {hint.match_chance:.1%}" if hint.match_chance is not None else ""
        move = f"  pile {hint.move} ({hint.place}, {hint.pile}): {hint.value:+d}"
        lines.append(f"{move}  {extra:<10}{chance}".rstrip())
    if odds:
        now = win_probability(match).of(match.to_move)
        lines.append(f"Your chance of winning the match now, both playing perfectly: {now:.1%}")
    else:
        lines.append("(match odds cover up to 3 buttons of each colour)")
    return lines
