"""The one harness for "each engine": the Rust-backed ``buttonup`` and the pure-Python
``buttonup.reference`` offer the same API, and a differential test asks both the same
thing and compares what they answer.

- The fixture ``each_engine`` (tests/conftest.py) runs a test once on each engine.
- :func:`agree` asks both engines and asserts that they answer the same (a value, or the
  same exception with the same message), in engine-neutral form (:func:`neutral`).

Write a differential test as ``agree(lambda e: e.Position(text).outcome(move))``: the
call builds its own objects from the engine it is given, from text.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import buttonup
import buttonup.reference

DATA = Path(__file__).parent / "data"

ENGINES: dict[str, ModuleType] = {"rust": buttonup, "reference": buttonup.reference}
"""Each engine by its short name (the ids of the ``each_engine`` fixture)."""


def neutral(value: Any) -> Any:
    """``value`` in a form that compares equal between the engines: positions as their
    notation, results (dataclasses) as their class name and fields, containers item by
    item; anything else as it is."""
    if isinstance(value, (buttonup.Position, buttonup.reference.Position)):
        return ("Position", str(value))
    if isinstance(value, enum.Enum):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return (
            type(value).__name__,
            *((field.name, neutral(getattr(value, field.name))) for field in fields),
        )
    if isinstance(value, dict):
        return {key: neutral(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(neutral(item) for item in value)
    if isinstance(value, float) and value != value:
        return "nan"
    return value


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """``("ok", the neutral value)`` of ``call()``, or the name and message of the
    ``ValueError`` or ``TypeError`` it raised (anything else propagates)."""
    try:
        return ("ok", neutral(call()))
    except (ValueError, TypeError) as error:
        return (type(error).__name__, str(error))


def agree(call: Callable[[ModuleType], Any]) -> tuple[str, Any]:
    """Asks ``call`` of each engine and asserts that both answer the same; returns the
    common :func:`outcome` (``("ok", value)`` or ``(error name, message)``)."""
    answers = {
        name: outcome(lambda engine=engine: call(engine)) for name, engine in ENGINES.items()
    }
    assert answers["rust"] == answers["reference"], answers
    return answers["rust"]


def agree_ok(call: Callable[[ModuleType], Any]) -> Any:
    """Like :func:`agree` for a call that must succeed: its neutral value."""
    kind, value = agree(call)
    assert kind == "ok", (kind, value)
    return value


def all_start_orders(per_colour: int = 3) -> list[str]:
    """Every distinct start order (1,680 for three buttons of each colour), from the
    engine (tests/rules/test_variants.py checks it against an enumeration of its own)."""
    return buttonup.start_orders(per_colour)


def encoded_by_the_docs(position: Any, player: Any) -> Any:
    """docs/rl.md's encoding, written here from its text: for ``N`` buttons in all, an
    int8 ``(N, N, 3)`` array whose cell ``[p, h, c]`` is 1 when pile ``p`` holds at height
    ``h`` (0 at the bottom) a button of ``player`` (``c = 0``), of his opponent (1) or a
    white one (2)."""
    import numpy as np  # only the learning tests, which have it, call this

    n = sum(len(pile) for pile in position.piles)
    cells = np.zeros((n, n, 3), dtype=np.int8)
    own, other = player.letter.upper(), player.other.letter.upper()
    for p, pile in enumerate(position.piles):
        for h, button in enumerate(pile):
            cells[p, h, {own: 0, other: 1, "W": 2}[button]] = 1
    return cells


@functools.cache
def line_with_margin(order: str, margin: int) -> tuple[int, ...]:
    """Some move sequence from ``order`` whose final Red-minus-Black margin is
    ``margin``, found by depth-first search on the reference engine (sowing does not
    depend on who moves, so the line works whoever starts)."""

    def search(
        position: buttonup.reference.Position, moves: tuple[int, ...]
    ) -> tuple[int, ...] | None:
        if position.is_over:
            red, black = position.sums()
            return moves if red - black == margin else None
        for move in position.legal_moves():
            found = search(position.play(move), (*moves, move))
            if found is not None:
                return found
        return None

    found = search(buttonup.reference.Position.start(order), ())
    assert found is not None, f"no line from {order} ends {margin:+d}"
    return found
