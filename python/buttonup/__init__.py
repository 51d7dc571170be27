"""buttonup: the board game Button Up! (Bruno Cathala, 2012) with a Rust core.

>>> from buttonup import Position
>>> Position("W/R/B/W/B/R/R/W/B r").play(3)
Position('W/R/B/BW/R/R/W/B b')

The names backed by the Rust extension are loaded on first use, so that the pure-Python
reference engine (:mod:`buttonup.reference`) can be imported without it.
"""

from __future__ import annotations

import importlib
import importlib.metadata as _metadata
from typing import TYPE_CHECKING

from buttonup.errors import BattleNotOverError, IllegalMoveError, NotationError
from buttonup.player import Player
from buttonup.results import Battle, PlayoutSummary, Scoring

if TYPE_CHECKING:
    from buttonup._core import (
        MAX_BUTTONS,
        VARIANT_LIMITS,
        Match,
        Position,
        Searcher,
        SearchResult,
        VecEnv,
        analyze,
        match_analyze,
        perft,
        perft_many,
        random_playouts,
        search,
        solve,
        solve_many,
        start_orders,
        win_probability,
    )

try:  # the version of the installed distribution, from Cargo.toml at build time
    __version__ = _metadata.version("buttonup")
except _metadata.PackageNotFoundError:  # pragma: no cover - a checkout never installed
    __version__ = "0+unknown"

# Public names defined in modules that need the Rust extension.
_LAZY = {
    name: "buttonup._core"
    for name in (
        "MAX_BUTTONS",
        "VARIANT_LIMITS",
        "Match",
        "Position",
        "SearchResult",
        "Searcher",
        "VecEnv",
        "analyze",
        "match_analyze",
        "perft",
        "perft_many",
        "random_playouts",
        "search",
        "solve",
        "solve_many",
        "start_orders",
        "win_probability",
    )
}

__all__ = [
    "MAX_BUTTONS",
    "VARIANT_LIMITS",
    "Battle",
    "BattleNotOverError",
    "IllegalMoveError",
    "Match",
    "NotationError",
    "Player",
    "PlayoutSummary",
    "Position",
    "Scoring",
    "SearchResult",
    "Searcher",
    "VecEnv",
    "analyze",
    "match_analyze",
    "perft",
    "perft_many",
    "random_playouts",
    "search",
    "solve",
    "solve_many",
    "start_orders",
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
