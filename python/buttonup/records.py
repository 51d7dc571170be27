"""Match records with their tags, comments and values (docs/notation.md, "Match records").

``Match.record()`` writes one and ``Match.from_record()`` reads the match alone;
:func:`read_record` reads everything a record says.

>>> from buttonup import Match
>>> from buttonup.records import read_record
>>> game = Match(seed=1, deals=["WRBWBRRWB"])
>>> _ = game.play(3)
>>> text = game.record(Red="Ann", comments={(1, 0): "the book move"}, values={(1, 0): 1})
>>> text.splitlines()[-1]
'1. WRBWBRRWB r 3 (+1) {the book move}'
>>> record = read_record(text)
>>> record.tags["Red"], record.comments, record.values, record.match.moves
('Ann', {(1, 0): 'the book move'}, {(1, 0): 1.0}, (3,))
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from buttonup._core import Match

__all__ = ["Record", "read_record", "record_date"]


def record_date(day: datetime.date) -> str:
    """The ``Date`` tag of a record played on ``day``, as docs/notation.md writes it.

    Every front end's records write it alike: ``YYYY.MM.DD``.

    Args:
        day: the day the match was played.

    Example:
        >>> record_date(datetime.date(2026, 12, 1))
        '2026.12.01'
    """
    return day.strftime("%Y.%m.%d")


@dataclass(frozen=True)
class Record:
    """What a match record says: the match, its tags and its notes.

    What :func:`read_record` returns.
    """

    match: Match
    """The match, played up to where the record ends."""
    tags: dict[str, str]
    """The tags in the order written, except those written from the match itself
    (``Target``, ``PerColour``, ``Seed``, ``Deals``, ``Score``, ``Result``)."""
    comments: dict[tuple[int, int], str]
    """The comments after moves, keyed by ``(battle, move)`` (the battle from 1, the
    move from 0); several after one move are joined by a space. Comments elsewhere in
    the text (before a battle's first move, after its result) are not kept."""
    values: dict[tuple[int, int], float]
    """The values after moves, keyed as ``comments``."""


def read_record(text: str) -> Record:
    """Everything a record says, every move checked by the rules.

    Args:
        text: the record's text (docs/notation.md, "Match records").

    Returns:
        The :class:`Record`: its match, tags, comments and values.

    Raises:
        RecordError: if ``text`` is not a record; the message names the line and token
            of the first fault.
        TypeError: if ``text`` is not a str.

    Example:
        >>> from buttonup import Match
        >>> game = Match(seed=1, deals=["WRBWBRRWB"])
        >>> _ = game.play(3)
        >>> record = read_record(game.record(Event="Club night", comments={(1, 0): "book"}))
        >>> record.tags["Event"], record.comments, record.match.moves
        ('Club night', {(1, 0): 'book'}, (3,))
    """
    match, tags, (comments, values) = Match._read_record(text)
    joined: dict[tuple[int, int], str] = {}
    for key, comment in comments:
        joined[key] = f"{joined[key]} {comment}" if key in joined else comment
    return Record(match, dict(tags), joined, dict(values))
