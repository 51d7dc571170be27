"""``save FILE`` and ``load FILE`` in the terminal game: the match as a record
(docs/notation.md, "Match records")."""

from __future__ import annotations

import datetime
from pathlib import Path

from buttonup._core import Match
from buttonup.errors import RecordError
from buttonup.player import Player
from buttonup.records import record_date


def record_text(match: Match, human: Player, ai_name: str) -> str:
    """The record of ``match`` as the terminal game writes it."""
    names = {human: "you (buttonup play)", human.other: ai_name}
    return match.record(
        Event="buttonup play",
        Date=record_date(datetime.date.today()),
        Red=names[Player.RED],
        Black=names[Player.BLACK],
    )


def save(match: Match, path: str, human: Player, ai_name: str) -> str:
    """Writes the record to ``path`` and says so; an error is said instead."""
    try:
        Path(path).expanduser().write_text(record_text(match, human, ai_name), encoding="utf-8")
    except OSError as error:
        return f"Could not save to {path}: {error.strerror or error}."
    return f"Saved the match to {path}."


def load(path: str) -> Match | str:
    """The match recorded in ``path``, or what is wrong with it (a sentence)."""
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        return f"Could not read {path}: {reason}."
    try:
        return Match.from_record(text)
    except RecordError as error:
        return f"{path} is not a match record: {error}."
