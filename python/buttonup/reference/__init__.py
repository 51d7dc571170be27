"""The pure-Python reference engine: the same API as :mod:`buttonup`, written to be read
next to docs/rules.md rather than to be fast. It never imports the Rust extension, and
the test suite checks the Rust engine against it.

>>> from buttonup.reference import Position, perft
>>> perft(Position("W/R/B/W/B/R/R/W/B r"), 2)
9
"""

from buttonup.constants import MAX_TARGET, STANDARD_PER_COLOUR, STANDARD_TARGET
from buttonup.errors import BattleNotOverError, IllegalMoveError, MatchStateError, NotationError
from buttonup.player import Player
from buttonup.reference.match import Battle, Match
from buttonup.reference.playout import random_playouts
from buttonup.reference.rules import Position, max_margin, perft
from buttonup.reference.solver import analyze, solve
from buttonup.results import MoveOutcome, Scoring

# The rules and their numbers, in plain Python:
__all__ = [
    "MAX_TARGET",
    "STANDARD_PER_COLOUR",
    "STANDARD_TARGET",
    "Match",
    "Position",
    "analyze",
    "max_margin",
    "perft",
    "random_playouts",
    "solve",
]
# and what both engines share, so that code can take either engine as a module:
__all__ += [
    "Battle",
    "BattleNotOverError",
    "IllegalMoveError",
    "MatchStateError",
    "MoveOutcome",
    "NotationError",
    "Player",
    "Scoring",
]
