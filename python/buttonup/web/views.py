"""The JSON of the web app's answers: positions with their drawing, moves and matches,
all from the engine (nothing here re-derives a rule)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from buttonup._core import (
    Match,
    Position,
    battle_view,
    line_view,
    position_view,
)
from buttonup.ai import LEVELS
from buttonup.web.service import Entry


def position_json(position: Position) -> dict[str, Any]:
    """What a front end needs to draw a position, all from the engine (the core's view,
    the offline page's too)."""
    return position_view(position)


def drawn_line(root: Position, moves: Sequence[int]) -> tuple[Position, dict[str, Any]]:
    """Where ``moves`` played from ``root`` lead, and its board's JSON with ``root``
    and ``line`` (each move with its drops and the record's label); in a thread too."""
    drawn = line_view(root, list(moves))
    return Position(drawn["position"]), {**drawn, "root": str(root)}


def finished_battle_json(match: Match, number: int) -> dict[str, Any]:
    """Scored battle ``number`` of ``match`` as its state lists it (the core's view):
    its moves with the record's labels, its final pile and the tower it scored (the
    same for the rest of the match: a server may keep it)."""
    found = battle_view(match, number, listed=True)
    if found is None:
        raise ValueError(f"battle {number} of this match is not scored")
    return found


def match_json(
    key: str, entry: Entry, *, battles: bool = True, played: bool = False
) -> dict[str, Any]:
    """A match's whole state, for the page (the core's view, the offline page's too):
    the position drawn, the match, the battle being played (or the last one, once the
    match is over) with the chart's points, those scored (left out with ``battles``
    false, for a caller that keeps them: :func:`finished_battle_json`) and, with
    ``played``, the move just made, with who plays (the core's session of the match);
    and what the server adds, the match's id and the AI it plays."""
    data: dict[str, Any] = entry.session.view(battles=battles, played=played)
    data.update(
        {
            "id": key,
            "level": entry.level,
            "level_name": LEVELS[entry.level] if entry.opponent is None else entry.opponent,
            "opponent": entry.opponent,
        }
    )
    return data
