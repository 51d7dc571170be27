"""The JSON of the web app's answers: positions with their drawing, moves and matches,
all from the engine (nothing here re-derives a rule)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from buttonup._core import Position
from buttonup.ai import LEVELS
from buttonup.results import Battle as FinishedBattle
from buttonup.results import Scoring
from buttonup.web.drawing import board, tower
from buttonup.web.history import Ply, replay
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


def board_json(position: Position, plies: Sequence[Ply], start: Position) -> dict[str, Any]:
    """A position with its drawing: the piles in the slots the plies leading to it left
    them in, the last of them marked."""
    picture, slots = board(start, plies)
    return {**position_json(position), "svg": picture, "slots": list(slots)}


def drawn_ply(start: Position, moves: Sequence[int]) -> dict[str, Any]:
    """Where ``moves`` played from ``start`` lead, drawn (:func:`board_json`). Each
    route runs it in a thread: the drawing of a long line takes a while, and on the
    event loop it would hold every other request back."""
    plies = replay(start, moves)
    return board_json(plies[-1].after if plies else start, plies, start)


def drawn_line(root: Position, moves: Sequence[int]) -> tuple[Position, dict[str, Any]]:
    """Where ``moves`` played from ``root`` lead, and its board's JSON with ``root``
    and ``line`` (each move with its drops and the record's label); in a thread too."""
    plies = replay(root, moves)
    position = plies[-1].after if plies else root
    line = [ply.json() for ply in plies]
    return position, {**board_json(position, plies, root), "root": str(root), "line": line}


def played_json(entry: Entry, plies: Sequence[Ply] | None = None) -> dict[str, Any]:
    """The move just made in the match (the last of its battle, which it may have
    ended), with its drops and the slots they go to; ``plies``, the current battle's
    (:func:`match_json`'s), where they are that battle's."""
    match = entry.match
    number = len(match.battles) + 1 if match.moves else len(match.battles)
    if plies is None or number != entry.battle_number:
        start, moves = entry.battle(number)
        plies = replay(start, moves)
    return {**plies[-1].json(), "battle": number, "ended_battle": not match.moves}


def battle_json(entry: Entry, number: int, plies: Sequence[Ply] | None = None) -> dict[str, Any]:
    """Battle ``number`` of a match: its start, its moves as plies (``plies``, where
    the caller has them already), the chart's points."""
    start, moves = entry.battle(number)
    match = entry.match
    data: dict[str, Any] = {
        "number": number,
        "start": str(start),
        "starter": start.to_move.letter,
        "plies": [ply.json() for ply in (replay(start, moves) if plies is None else plies)],
        "points": entry.chart(number),
        "over": number <= len(match.battles),
    }
    if data["over"]:
        data["scoring"] = scoring_json(match.battles[number - 1].scoring)
    return data


def finished_battle_json(battle: FinishedBattle[Position]) -> dict[str, Any]:
    """A scored battle as the match's state lists it: its moves with the record's
    labels, its final pile and the tower it scored (the same for the rest of the
    match: a server may keep it)."""
    return {
        "number": battle.number,
        "starter": battle.starter.letter,
        "start": str(battle.start),
        "moves": list(battle.moves),
        "labels": [ply.label for ply in replay(battle.start, battle.moves)],
        **position_json(battle.final_position),
        "tower": tower(battle.final_position),
    }


def match_json(
    key: str, entry: Entry, *, battles: bool = True, played: bool = False
) -> dict[str, Any]:
    """A match's whole state, for the page: the position drawn, the match, the battle
    being played (or the last one, once the match is over), those scored (left out
    with ``battles`` false, for a caller that keeps them: :func:`finished_battle_json`)
    and, with ``played``, the move just made (:func:`played_json`). The current
    battle is replayed once for all of it."""
    match = entry.match
    red, black = match.scores
    number = entry.battle_number
    start, moves = entry.battle(number)
    plies = replay(start, moves)
    data = board_json(match.position, plies, start)  # once over, the final pile
    data.update(
        {
            "id": key,
            "human": entry.human.letter,
            "level": entry.level,
            "level_name": LEVELS[entry.level] if entry.opponent is None else entry.opponent,
            "opponent": entry.opponent,
            "scores": {"r": red, "b": black},
            "target": match.target,
            "per_colour": match.per_colour,
            "starter": match.starter.letter,
            "chooser": match.chooser.letter if match.chooser else None,
            "winner": match.winner.letter if match.winner else None,
            "moves": list(match.moves),
            "legal_moves": match.legal_moves(),
            "battle": battle_json(entry, number, plies),
        }
    )
    if battles:
        data["battles"] = [finished_battle_json(b) for b in match.battles]
    if played:
        data["played"] = played_json(entry, plies)
    return data
