"""The exceptions of buttonup, shared by the Rust engine and the pure-Python reference."""

from __future__ import annotations


class NotationError(ValueError):
    """A text is not a position (or a start order) in the notation of docs/notation.md."""


class IllegalMoveError(ValueError):
    """A move cannot be played: no such pile, a pile without a white button, or the
    battle (or match) is not in a state to take it."""


class MatchStateError(ValueError):
    """A request to a match that is not a move and that the match rules refuse in its
    state: a choice of starter when none is due, an undo with nothing to take back, or a
    standing that no match can reach."""


class BattleNotOverError(ValueError):
    """A battle's result was asked before it ended."""


class SearchStoppedError(RuntimeError):
    """A solve was stopped (``Searcher.stop()``) before it found the exact value."""


class RecordError(ValueError):
    """A text is not a match record (docs/notation.md, "Match records"): the message
    names the line and the token at fault; or a match cannot be written as one."""
