"""buttonup: the board game Button Up! (Bruno Cathala, 2012) with a Rust core.

>>> from buttonup import Position
>>> Position("W/R/B/W/B/R/R/W/B r").play(3)
Position('W/R/B/BW/R/R/W/B b')

The names backed by the Rust extension are loaded on first use, so that the pure-Python
reference engine (:mod:`buttonup.reference`) can be imported without it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from buttonup.errors import BattleNotOverError, IllegalMoveError, NotationError
from buttonup.player import Player

if TYPE_CHECKING:
    from buttonup._core import (
        MAX_BUTTONS,
        Position,
        Searcher,
        SearchResult,
        analyze,
        perft,
        random_playouts,
        search,
        solve,
        win_probability,
    )
    from buttonup.match import Battle, Match

__version__ = "0.1.0"

# Public names defined in modules that need the Rust extension.
_LAZY = {
    "MAX_BUTTONS": "buttonup._core",
    "Position": "buttonup._core",
    "perft": "buttonup._core",
    "random_playouts": "buttonup._core",
    "SearchResult": "buttonup._core",
    "Searcher": "buttonup._core",
    "analyze": "buttonup._core",
    "search": "buttonup._core",
    "solve": "buttonup._core",
    "win_probability": "buttonup._core",
    "Battle": "buttonup.match",
    "Match": "buttonup.match",
}

__all__ = [
    "MAX_BUTTONS",
    "Battle",
    "BattleNotOverError",
    "IllegalMoveError",
    "Match",
    "NotationError",
    "Player",
    "Position",
    "SearchResult",
    "Searcher",
    "analyze",
    "perft",
    "random_playouts",
    "search",
    "solve",
    "win_probability",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'buttonup' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
