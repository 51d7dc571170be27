"""The JSON of the web app's answers: positions, moves and matches, all from the engine
(nothing here re-derives a rule)."""

from __future__ import annotations

from typing import Any

from buttonup._core import Position
from buttonup.results import MoveOutcome, Scoring
from buttonup.web.service import Entry


def scoring_json(scoring: Scoring) -> dict[str, Any]:
    return {
        "tower": scoring.tower,
        "red_strengths": list(scoring.red_strengths),
        "black_strengths": list(scoring.black_strengths),
        "red": scoring.red,
        "black": scoring.black,
        "winner": scoring.winner.letter if scoring.winner else None,
        "points": scoring.points,
    }


def position_json(position: Position) -> dict[str, Any]:
    """What a front end needs to draw a position, all from the engine."""
    data: dict[str, Any] = {
        "position": str(position),
        "piles": list(position.piles),
        "to_move": position.to_move.letter,
        "is_over": position.is_over,
        "legal_moves": position.legal_moves(),
    }
    if position.is_over:
        data["scoring"] = scoring_json(position.scoring())
    return data


def played_json(before: Position, move: int, outcome: MoveOutcome[Position]) -> dict[str, Any]:
    """What a move did, from the engine's one evaluation of it."""
    return {
        "move": move,
        "drops": list(outcome.drops),
        "extra_move": outcome.extra_move,
        "from": str(before),
    }


def match_json(key: str, entry: Entry) -> dict[str, Any]:
    """A match's whole state, for the page."""
    match = entry.match
    red, black = match.scores
    data = position_json(match.position)
    data.update(
        {
            "id": key,
            "human": entry.human.letter,
            "level": entry.level,
            "scores": {"r": red, "b": black},
            "target": match.target,
            "starter": match.starter.letter,
            "chooser": match.chooser.letter if match.chooser else None,
            "winner": match.winner.letter if match.winner else None,
            "moves": list(match.moves),
            "legal_moves": match.legal_moves(),
            "battles": [
                {
                    "number": b.number,
                    "starter": b.starter.letter,
                    "moves": list(b.moves),
                    **position_json(b.final_position),
                }
                for b in match.battles
            ],
        }
    )
    return data
