"""The arguments of ``Match.record`` and ``Match.from_record`` on the reference engine,
checked as the core's bindings check them, with the same errors."""

from __future__ import annotations

from collections.abc import Mapping

from buttonup.errors import RecordError
from buttonup.reference.record import RecordedMatch
from buttonup.reference.record_write import write

__all__ = ["record_of", "record_text"]


def _type(value: object) -> str:
    return type(value).__name__


def record_text(text: object, what: str) -> str:
    """``text`` if it is a str that is valid Unicode (a record is UTF-8 text)."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {_type(text)}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate
        line = text.count("\n", 0, error.start) + 1
        raise RecordError(
            f"line {line}: the text is not valid Unicode: a lone surrogate "
            f"U+{ord(text[error.start]):04X} at index {error.start}"
        ) from None
    return text


def _key(key: object) -> tuple[int, int]:
    if isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, int) and k >= 0 for k in key):
        return int(key[0]), int(key[1])
    raise TypeError(
        f"a note's key must be (battle, move): the battle from 1, the move from 0, not {_type(key)}"
    )


def record_of(
    game: RecordedMatch,
    comments: Mapping[tuple[int, int], str] | None,
    values: Mapping[tuple[int, int], float] | None,
    tags: Mapping[str, str | None],
) -> str:
    pairs, seed = [], True
    for name, value in tags.items():
        if name == "Seed" and value is None:
            seed = False
            continue
        if not isinstance(value, str):
            raise TypeError(f"the tag {name} must be a str, not {_type(value)}")
        pairs.append((name, value))
    notes: dict[tuple[int, int], list[str]] = {}
    for key, text in (comments or {}).items():
        place = _key(key)
        if not isinstance(text, str):
            raise TypeError(f"a comment must be a str, not {_type(text)}")
        notes.setdefault(place, []).append(text)
    numbers: dict[tuple[int, int], float] = {}
    for key, number in (values or {}).items():
        place = _key(key)
        if isinstance(number, str) or not isinstance(number, (int, float)):
            raise TypeError(f"a value must be a float, not {_type(number)}")
        numbers[place] = float(number)
    return write(game, pairs, notes, numbers, seed)
