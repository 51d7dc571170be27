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


#: The kinds of error of the core (Rust's ``ErrorKind``, by their stable names), in the
#: order of docs/reliability.md's table, each with the class buttonup raises for it (the
#: one class a kind, as the Rust bindings map it: ``python-ext/src/errors.rs``).
KINDS: tuple[tuple[str, type[BaseException]], ...] = (
    ("notation", NotationError),
    ("illegal_move", IllegalMoveError),
    ("battle_not_over", BattleNotOverError),
    ("match_state", MatchStateError),
    ("record", RecordError),
    ("search_stopped", SearchStoppedError),
    ("invalid_argument", ValueError),
    ("wrong_type", TypeError),
    ("interrupted", KeyboardInterrupt),
    ("memory", MemoryError),
    ("internal", RuntimeError),
)


def kind_of(error: BaseException) -> str | None:
    """The kind of an error that buttonup raised (``"notation"``, ``"illegal_move"``,
    ...: docs/reliability.md, "Error kinds"); the most specific class wins, so a
    ``NotationError`` is ``"notation"`` though it is a ``ValueError`` too. ``None`` for an
    error of no kind.

    >>> kind_of(NotationError("empty notation"))
    'notation'
    >>> kind_of(ValueError("target must be from 1 to 1000, not 0"))
    'invalid_argument'
    """
    best: tuple[str, type[BaseException]] | None = None
    for kind, cls in KINDS:
        if isinstance(error, cls) and (best is None or issubclass(cls, best[1])):
            best = (kind, cls)
    return best[0] if best else None
