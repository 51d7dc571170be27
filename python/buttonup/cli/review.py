"""The review after a battle in the terminal game: each move's loss against perfect
play (the mover's margin given up), mistakes marked, and what each player gave up."""

from __future__ import annotations

from dataclasses import dataclass

from buttonup._core import Position
from buttonup._core import review as core_review
from buttonup.player import Player
from buttonup.results import Battle

#: Seconds that are no limit (a terminal battle is solved in well under one).
UNLIMITED = 1e9

#: A loss of this many points or more is a blunder (``??``); any loss is a mistake (``?``).
BLUNDER = 4


@dataclass(frozen=True)
class Reviewed:
    """One move of a finished battle, judged by perfect play."""

    number: int
    mover: Player
    move: int
    extra_move: bool
    #: The mover's final margin under perfect play after this move.
    value: int
    #: The best value the mover could have had, and a move that has it.
    best: int
    best_move: int

    @property
    def loss(self) -> int:
        return self.best - self.value

    @property
    def mark(self) -> str:
        """``??`` for a blunder, ``?`` for a mistake, nothing for a best move."""
        if self.loss >= BLUNDER:
            return "??"
        return "?" if self.loss > 0 else ""


def review(battle: Battle[Position]) -> list[Reviewed]:
    """Every move of ``battle`` with its value and the best value at its position (the
    core's review, without a time limit: every value is exact)."""
    judged = core_review(battle.start, list(battle.moves), time_limit=UNLIMITED, budget=UNLIMITED)
    position = battle.start
    out = []
    for number, (move, (best, played, best_moves, _)) in enumerate(zip(battle.moves, judged), 1):
        assert best is not None and played is not None  # no time limit: solved
        outcome = position.outcome(move)
        out.append(
            Reviewed(
                number=number,
                mover=position.to_move,
                move=move,
                extra_move=outcome.extra_move,
                value=played,
                best=best,
                best_move=best_moves[0],
            )
        )
        position = outcome.position
    return out


def review_lines(battle: Battle[Position], human: Player) -> list[str]:
    """What the terminal prints after ``battle``: a line a move, then the totals."""
    moves = review(battle)
    lines = [
        f"Review of battle {battle.number}: each move's value for its mover (the final",
        "margin under perfect play) and the points it gave up against the best move:",
    ]
    for reviewed in moves:
        written = f"{reviewed.move}{'+' if reviewed.extra_move else ''}"
        who = f"({'you' if reviewed.mover is human else 'AI'})"
        if reviewed.loss == 0:
            verdict = "best"
        else:
            best = f"best: {reviewed.best_move}, {reviewed.best:+d}"
            verdict = f"gave up {reviewed.loss} {reviewed.mark:<2}  ({best})"
        lines.append(
            f"  {reviewed.number:>2}. {reviewed.mover!s:<5} {who:<5} {written:<4}"
            f"{reviewed.value:+3d}   {verdict}"
        )
    for player in (human, human.other):
        mine = [r for r in moves if r.mover is player]
        mistakes = sum(r.loss > 0 for r in mine)
        lost = sum(r.loss for r in mine)
        who = "You" if player is human else "The AI"
        lines.append(
            f"{who} ({player}): {len(mine)} moves, {mistakes} mistake{'s' * (mistakes != 1)},"
            f" {lost} point{'s' * (lost != 1)} given up."
        )
    return lines
