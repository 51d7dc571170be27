"""The JSON of an online match (docs/http.md, "Playing a friend"): the state of the AI
matches (:func:`buttonup.web.views.match_json`, all from the engine) without the AI's
fields, with the seats, the version and how the match ended."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from buttonup._core import Match
from buttonup.ai import LevelBot, bot
from buttonup.player import Player
from buttonup.web.service import Entry
from buttonup.web.store import MatchRow
from buttonup.web.views import match_json, played_json

_NO_AI: list[LevelBot] = []


def restore(row: MatchRow) -> Match:
    """The match of a stored row (the engine reads its own record back)."""
    match = Match.__new__(Match)
    match.__setstate__(row.state)
    return match


def entry_of(match: Match) -> Entry:
    """``match`` as the views of the AI matches take it (no chart: its points are
    ``None``)."""
    if not _NO_AI:
        _NO_AI.append(bot(1, 0))  # never asked for a move: the views need the field only
    return Entry(match, Player.RED, 1, _NO_AI[0], "online")


def state_json(row: MatchRow, match: Match, played: bool = False) -> dict[str, Any]:
    """The state of an online match for everyone (``you`` is ``None``; the caller's
    seat is filled in by :func:`for_seat`)."""
    entry = entry_of(match)
    data = match_json(row.id, entry)
    for key in ("human", "level", "level_name"):
        data.pop(key, None)
    if row.ended is not None:
        data["winner"] = row.winner
        data["legal_moves"] = []
    data.update(
        {
            "version": row.version,
            "you": None,
            "seats": {
                side: {"taken": row.seat(side) is not None, "online": False} for side in "rb"
            },
            "begun": row.red is not None and row.black is not None,
            "ended": row.ended,
            "clock": None,
        }
    )
    if played:
        data["played"] = played_json(entry)
    return data


def for_seat(
    state: dict[str, Any],
    seat: str | None,
    online: dict[str, bool],
) -> dict[str, Any]:
    """``state`` as one caller sees it: his seat, and who has an open event stream."""
    seats = {
        side: {**value, "online": online.get(side, False)} for side, value in state["seats"].items()
    }
    return {**state, "you": seat, "seats": seats}


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")


def summary_json(row: MatchRow, seat: str) -> dict[str, Any]:
    """One line of a player's matches (``GET /api/players/me/matches``)."""
    match = restore(row)
    red, black = match.scores
    data: dict[str, Any] = {
        "id": row.id,
        "seat": seat,
        "opponent_joined": row.seat("b" if seat == "r" else "r") is not None,
        "finished": row.ended is not None,
        "ended": row.ended,
        "winner": row.winner,
        "scores": {"r": red, "b": black},
        "target": match.target,
        "version": row.version,
        "created": iso(row.created),
        "updated": iso(row.updated),
        "links": links(row.id),
    }
    if row.ended is not None:
        data["record"] = f"/api/online/{row.id}/record"
    return data


def links(match_id: str, invite: str | None = None) -> dict[str, str]:
    found = {"match": f"/online/{match_id}", "watch": f"/online/{match_id}?watch"}
    if invite is not None:
        found["invite"] = f"/online/{match_id}#join={invite}"
    return found
