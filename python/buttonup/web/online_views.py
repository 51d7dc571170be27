"""The JSON of an online match (docs/online.md): the state of the AI
matches (:func:`buttonup.web.views.match_json`, all from the engine) without the AI's
fields, with the seats, the version and how the match ended."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

from buttonup._core import Match, Session, match_view_text
from buttonup.ai import LevelBot, bot
from buttonup.player import Player
from buttonup.web.service import Entry
from buttonup.web.store import MatchRow
from buttonup.web.views import finished_battle_json

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
    return Entry(Session(match, Player.RED), 1, _NO_AI[0], "online")


#: What each caller's answer fills in (``you``, the seats' ``online``, the clock's time
#: left) and what a process keeps apart (the scored battles): written into the encoded
#: state where these stand.
_HOLES = ("battles", "you", "seats", "clock", "stream_key")


class StateView:
    """The state of an online match at one version, for everyone, encoded to JSON once
    (docs/online.md): the core's view of the match as its text
    (:func:`buttonup._core.match_view_text`, never made into Python values) and the
    online match's own fields. What one caller is answered differs only in ``you``,
    who is online and the clock's time left, written into the holes the encoding left
    for them, and the scored battles are encoded once for the rest of the match
    (:func:`finished_battle_json`, kept by the caller)."""

    def __init__(
        self, view: str, data: dict[str, Any], battles: Sequence[tuple[dict[str, Any], str]]
    ) -> None:
        self.view = view
        """The core's view of the match, as JSON text (an object)."""
        self.data = data
        """The online match's fields (``you`` null, nobody online): the id, the version,
        the seats, how it ended, the clock."""
        self.battles = battles
        """Each scored battle's JSON, as a value and encoded."""
        marked = json.dumps({**data, **{name: f"\0{name}\0" for name in _HOLES}})
        cuts = sorted((marked.index(json.dumps(f"\0{name}\0")), name) for name in _HOLES)
        self.order = [name for _, name in cuts]
        self.parts: list[str] = []
        start = 0
        for at, name in cuts:
            self.parts.append(marked[start:at])
            start = at + len(json.dumps(f"\0{name}\0"))
        self.parts.append(marked[start:])
        # the view's fields, then the match's own: one object
        self.parts[0] = view[:-1] + ", " + self.parts[0][1:]
        self.battles_json = "[" + ",".join(encoded for _, encoded in battles) + "]"

    @property
    def version(self) -> int:
        return int(self.data["version"])

    def seats(self, online: dict[str, bool]) -> dict[str, dict[str, bool]]:
        return {
            side: {**value, "online": online.get(side, False)}
            for side, value in self.data["seats"].items()
        }

    def json(
        self,
        seat: str | None,
        online: dict[str, bool],
        clock: dict[str, Any] | None = None,
        stream_key: str | None = None,
    ) -> dict[str, Any]:
        """The state as ``seat`` sees it (``None``: a spectator), as a value, with the
        key of the seat's own event streams."""
        return {
            **json.loads(self.view),
            **self.data,
            "battles": [value for value, _ in self.battles],
            "you": seat,
            "seats": self.seats(online),
            "clock": clock,
            "stream_key": stream_key,
        }

    def encode(
        self,
        seat: str | None,
        online: dict[str, bool],
        clock: dict[str, Any] | None = None,
        stream_key: str | None = None,
    ) -> str:
        """:meth:`json`, encoded: the holes filled in, nothing else encoded again."""
        fills = {
            "battles": self.battles_json,
            "you": json.dumps(seat),
            "seats": json.dumps(self.seats(online)),
            "clock": json.dumps(clock),
            "stream_key": json.dumps(stream_key),
        }
        pieces = [self.parts[0]]
        for name, part in zip(self.order, self.parts[1:]):
            pieces += (fills[name], part)
        return "".join(pieces)


def state_view(
    row: MatchRow,
    match: Match,
    finished: Callable[[Match, int], tuple[dict[str, Any], str]],
    played: bool = False,
) -> StateView:
    """The state of an online match for everyone (``you`` is ``None``; the caller's
    seat is filled in by :meth:`StateView.encode`); ``finished`` gives each scored
    battle's JSON (the caller keeps them: they never change). The core's view of the
    match, without the AI's fields, and the online match's: its id, version, seats,
    how it ended and its clock."""
    view = match_view_text(match, battles=False, played=played)
    if row.ended is not None:  # resigned or lost on time: the match itself goes on
        view = json.dumps({**json.loads(view), "winner": row.winner, "legal_moves": []})
    data = {
        "id": row.id,
        "opponent": None,
        "version": row.version,
        "you": None,
        "seats": {side: {"taken": row.seat(side) is not None, "online": False} for side in "rb"},
        "begun": row.red is not None and row.black is not None,
        "ended": row.ended,
        "clock": None,
        "stream_key": None,
    }
    count = len(match.battles)
    return StateView(view, data, [finished(match, number) for number in range(1, count + 1)])


def battle_encoded(match: Match, number: int) -> tuple[dict[str, Any], str]:
    """Scored battle ``number``'s JSON (:func:`finished_battle_json`) without its tower,
    as a value and encoded. Every answer and event of the match carries the scored
    battles, and the tower's drawing was most of each (7 KB a battle): the page takes it
    from the battle's own route, once."""
    value = finished_battle_json(match, number)
    del value["tower"]
    return value, json.dumps(value)


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
