"""The page's view of a battle's past besides its plies (the core's line view,
``_core.line_view``): the chart's points, and each move's loss against perfect play
(the review)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from buttonup._core import VARIANT_LIMITS, Match, Position, analyze, win_probability
from buttonup._core import review as core_review
from buttonup.errors import SearchStoppedError
from buttonup.player import Player

#: Positions of at most this many buttons get a value on the chart (solved at once).
CHARTED_BUTTONS = 15


def review(
    start: Position, plies: Sequence[dict[str, Any]], seconds: float, budget: float
) -> list[dict[str, Any]]:
    """Each move's loss against perfect play: the mover's best margin minus the margin
    of the move played (both the engine's exact values, for the mover), and the best
    line from the position before it. A loss of at least 1 is marked a mistake. Each
    position has ``seconds`` and the whole review ``budget`` (the core's review: the
    last moves are judged first); a move not judged in time has its loss ``None``.
    ``plies``: the battle's, as the core's line view gives them (``line_view``)."""
    moves = [ply["move"] for ply in plies]
    judged = core_review(start, moves, time_limit=seconds, budget=budget)
    out: list[dict[str, Any]] = []
    for ply, (best, played, best_moves, best_line) in zip(plies, judged):
        loss = None if best is None or played is None else best - played
        out.append(
            {
                **ply,
                "best_value": best,
                "played_value": played,
                "loss": loss,
                "mistake": bool(loss),
                "best_moves": best_moves,
                "best_line": best_line,
            }
        )
    return out


def by_colour(red: float | None = None, black: float | None = None) -> dict[str, float | None]:
    return {Player.RED.letter: red, Player.BLACK.letter: black}


def margins(position: Position, seconds: float) -> dict[str, float | None]:
    """Each colour's margin in the battle under perfect play (his sum minus the other's
    once it is over); ``None`` for a position too big to chart or not solved within
    ``seconds``."""
    if position.is_over:
        scoring = position.scoring()
        return by_colour(scoring.margin_for(Player.RED), scoring.margin_for(Player.BLACK))
    if sum(len(pile) for pile in position.piles) > CHARTED_BUTTONS:
        return by_colour(None, None)
    try:
        values = analyze(position, time_limit=seconds)
    except SearchStoppedError:
        return by_colour(None, None)
    best = max(values.values())  # the side to move's margin; the other's is its opposite
    return {position.to_move.letter: best, position.to_move.other.letter: -best}


def chances(match: Match) -> dict[str, float | None]:
    """Each colour's chance of winning the match from here under perfect match play
    (``None`` for a variant beyond the engine's match odds)."""
    if match.per_colour > VARIANT_LIMITS["match_odds"] and match.winner is None:
        return by_colour(None, None)
    odds = win_probability(match) if match.winner is None else None
    return {
        player.letter: (odds.of(player) if odds else float(player is match.winner))
        for player in Player
    }
