"""buttonup: the board game Button Up! (Bruno Cathala, 2012) with a Rust core.

>>> from buttonup import Position
>>> Position("W/R/B/W/B/R/R/W/B r").play(3)
Position('W/R/B/BW/R/R/W/B b')

The names backed by the Rust extension are loaded on first use, so that the pure-Python
reference engine (:mod:`buttonup.reference`) can be imported without it.

One point of view holds throughout: a value of a position (``solve``, ``analyze``, a
search's ``value``, a ``match_analyze`` chance) is for the side to move; what is about
the colours is named by colour (``Scoring.red``, ``Chances.black``, ``margin_for(player)``).
"""

from __future__ import annotations

import importlib
import importlib.metadata as _metadata
from typing import TYPE_CHECKING

from buttonup.errors import (
    BattleNotOverError,
    IllegalMoveError,
    MatchStateError,
    NotationError,
    RecordError,
    SearchStoppedError,
)
from buttonup.player import Player
from buttonup.results import (
    Battle,
    Chances,
    MoveOutcome,
    PlayoutSummary,
    Scoring,
    SearchResult,
    Standing,
)

if TYPE_CHECKING:
    from buttonup._core import (
        MAX_BUTTONS,
        MAX_TARGET,
        RATINGS,
        STANDARD_PER_COLOUR,
        STANDARD_TARGET,
        VARIANT_LIMITS,
        Match,
        Position,
        Searcher,
        StartOrders,
        VecEnv,
        all_positions,
        analyze,
        match_analyze,
        max_margin,
        perft,
        perft_many,
        random_playouts,
        read_records,
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

#: The public names, written once: those not defined above come from the Rust extension
#: (PyO3 writes the extension's ``__all__``; tests hold it and the stub file to this list).
__all__ = [
    "MAX_BUTTONS",
    "MAX_TARGET",
    "RATINGS",
    "STANDARD_PER_COLOUR",
    "STANDARD_TARGET",
    "VARIANT_LIMITS",
    "Battle",
    "BattleNotOverError",
    "Chances",
    "IllegalMoveError",
    "Match",
    "MatchStateError",
    "MoveOutcome",
    "NotationError",
    "Player",
    "PlayoutSummary",
    "Position",
    "RecordError",
    "Scoring",
    "SearchResult",
    "SearchStoppedError",
    "Searcher",
    "Standing",
    "StartOrders",
    "VecEnv",
    "all_positions",
    "analyze",
    "match_analyze",
    "max_margin",
    "perft",
    "perft_many",
    "random_playouts",
    "read_records",
    "search",
    "solve",
    "solve_many",
    "start_orders",
    "win_probability",
]

#: The names of ``__all__`` that the Rust extension defines, loaded on first use.
_CORE_NAMES = frozenset(name for name in __all__ if name not in globals())


def __getattr__(name: str) -> object:
    if name not in _CORE_NAMES:
        raise AttributeError(f"module 'buttonup' has no attribute {name!r}")
    value = getattr(importlib.import_module("buttonup._core"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
