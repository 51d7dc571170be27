"""The exceptions of buttonup, shared by the Rust engine and the pure-Python reference.

Each kind of error of the core is one exception class (docs/reliability.md, "Error
kinds"); the message is the error's own. All but :class:`SearchStoppedError` are
``ValueError`` subclasses, so code that catches ``ValueError`` catches them too.

>>> from buttonup import IllegalMoveError, Position
>>> try:
...     Position("W/R/B/W/B/R/R/W/B r").play(1)
... except IllegalMoveError as error:
...     print(error)
pile 1 (R) has no white button, so it cannot be lifted
"""

from __future__ import annotations


class NotationError(ValueError):
    """A text is not a position (or a start order) in the notation of docs/notation.md.

    Raised by ``Position(text)``, ``Position.start``, and a ``Match``'s ``deals``.

    Example:
        >>> from buttonup import Position
        >>> Position("W/R/B")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        buttonup.errors.NotationError: missing side to move: ...
    """


class IllegalMoveError(ValueError):
    """A move cannot be played.

    There is no such pile, the pile has no white button, or the battle (or match) is
    not in a state to take it.

    Example:
        >>> from buttonup import Position
        >>> Position("W/R/B/W/B/R/R/W/B r").play(20)
        Traceback (most recent call last):
        ...
        buttonup.errors.IllegalMoveError: there is no pile 20: the piles are numbered 0 to 8
    """


class MatchStateError(ValueError):
    """A request to a match, not a move, that the match rules refuse in its state.

    A choice of starter when none is due, an undo with nothing to take back, or a
    standing that no match can reach.

    Example:
        >>> from buttonup import Match
        >>> Match(seed=1).choose_starter("r")
        Traceback (most recent call last):
        ...
        buttonup.errors.MatchStateError: no choice of starter is due
    """


class BattleNotOverError(ValueError):
    """A battle's result was asked before it ended.

    Example:
        >>> from buttonup import Position
        >>> Position("W/R/B r").sums()
        Traceback (most recent call last):
        ...
        buttonup.errors.BattleNotOverError: the battle is not over: it has more than one pile
    """


class SearchStoppedError(RuntimeError):
    """A solve was stopped before it found the exact value.

    Raised by ``Searcher.solve`` after ``Searcher.stop()``, and by ``analyze`` when its
    ``time_limit`` runs out.
    """


class RecordError(ValueError):
    """A text is not a match record, or a match cannot be written as one.

    For a text that is not a record (docs/notation.md, "Match records"), the message
    names the line and the token at fault.

    Example:
        >>> from buttonup import Match
        >>> Match.from_record("[Event")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        buttonup.errors.RecordError: line 1, ...
    """


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
    """The kind of an error that buttonup raised (docs/reliability.md, "Error kinds").

    The kinds are ``"notation"``, ``"illegal_move"`` and the others of :data:`KINDS`.
    The most specific class wins, so a ``NotationError`` is ``"notation"`` though it is
    a ``ValueError`` too.

    Args:
        error: the exception.

    Returns:
        Its kind, or ``None`` for an error of no kind.

    Example:
        >>> kind_of(NotationError("empty notation"))
        'notation'
        >>> kind_of(ValueError("target must be from 1 to 1000, not 0"))
        'invalid_argument'
        >>> kind_of(KeyError("x")) is None
        True
    """
    best: tuple[str, type[BaseException]] | None = None
    for kind, cls in KINDS:
        if isinstance(error, cls) and (best is None or issubclass(cls, best[1])):
            best = (kind, cls)
    return best[0] if best else None
