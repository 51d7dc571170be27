"""SVG pictures of positions, boards and final towers, drawn by the Rust core.

The same drawing serves Jupyter (``Position._repr_svg_``, ``Match._repr_svg_``), the
web page and the docs' pictures. Its elements carry stable attributes, listed in the
core's ``buttonup::draw`` documentation: ``<g class="pile" data-pile data-slot
data-buttons data-liftable>`` per pile (classes ``liftable``, ``highlight``,
``dropped``), ``<g class="button" data-pile data-level data-colour>`` per button (its
first child ``<circle class="face">``), ``<g class="lifted" data-slot>`` for the last
move's pile.

>>> from buttonup import Position
>>> picture = position(Position("W/R/B/W/B/R/R/W/B r"))
>>> picture.startswith("<svg") and picture.count('<g class="button') == 9
True

Piles keep their place across moves when drawn with stable slots: ``walk`` plays the
moves of a battle and gives each pile's slot and the last move.

>>> board = walk(Position("W/R/B/W/B/R/R/W/B r"), [3])
>>> board.slots, board.lastmove
((0, 1, 2, 4, 5, 6, 7, 8), LastMove(slot=3, drops=(3,)))
>>> 'data-pile="3" data-slot="4"' in board.svg()
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from buttonup import _core
from buttonup._core import Match, Position

__all__ = ["Board", "LastMove", "Picture", "board", "match_board", "position", "tower", "walk"]

#: The default width and height of a position's picture, in CSS pixels.
SIZE = 360


class Picture(str):
    """SVG text (a ``str``) that Jupyter shows as the picture it is."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


@dataclass(frozen=True)
class LastMove:
    """The move that led to a position, as a picture marks it.

    Attributes:
        slot: where the lifted pile stood.
        drops: the pile (numbered as in the position after the move) that received each
            lifted button, bottom button first (with an overflow the last pile repeats).
    """

    slot: int
    drops: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """A position with its piles' stable slots and the move that led to it.

    Made by :func:`walk`, :func:`walks` and :func:`board`.

    Attributes:
        position: the position.
        slots: the slot of each pile, strictly increasing.
        slot_count: the slots of the circle: the battle start's pile count.
        lastmove: the move that led to the position (``None`` at a battle's start).
        radius: the button radius of its picture (``viewBox`` units): the smallest that
            any position of its battle so far needed, so that buttons keep one size.
    """

    position: Position
    #: The slot of each pile, strictly increasing.
    slots: tuple[int, ...]
    #: The slots of the circle: the battle start's pile count.
    slot_count: int
    lastmove: LastMove | None
    #: The button radius of its picture (``viewBox`` units): the smallest that any
    #: position of its battle so far needed, so that buttons keep one size.
    radius: float

    def svg(
        self, *, size: float | None = SIZE, highlight: Iterable[int] = (), labels: bool = True
    ) -> Picture:
        """The picture of this board (see :func:`position`).

        Args:
            size: the picture's width and height in CSS pixels (``None``: it fills its
                container's width).
            highlight: the piles to outline, by their number in the notation.
            labels: whether to write the pile numbers outside the field.
        """
        return position(
            self.position,
            size=size,
            highlight=highlight,
            lastmove=self.lastmove,
            slots=self.slots,
            slot_count=self.slot_count,
            labels=labels,
            max_radius=self.radius,
        )

    def _repr_svg_(self) -> str:
        return self.svg()


def position(
    position: Position,
    *,
    size: float | None = SIZE,
    highlight: Iterable[int] = (),
    lastmove: LastMove | None = None,
    slots: Iterable[int] | None = None,
    slot_count: int | None = None,
    labels: bool = True,
    max_radius: float | None = None,
) -> Picture:
    """The SVG text of ``position``: the round battle field, every pile whole.

    Args:
        position: the position to draw.
        size: the picture's width and height in CSS pixels (``None``: none, and the
            picture fills its container's width).
        highlight: the piles to outline, by their number in the notation.
        lastmove: marks the lifted pile's slot and the dropped buttons.
        slots: places pile ``i`` at slot ``slots[i]`` (strictly increasing) of a circle
            of ``slot_count`` slots.
        slot_count: the slots of the circle (by default the number of buttons: a
            battle starts with one button a pile).
        labels: whether to write the pile numbers outside the field.
        max_radius: caps the buttons' radius (``viewBox`` units, 20 at most; a
            :class:`Board` passes its own).

    Raises:
        ValueError: if an option does not fit the position (the message names what is
            wrong).

    Example:
        >>> from buttonup import Position
        >>> picture = position(Position("W/R/B r"), size=200, highlight=[0])
        >>> picture.startswith("<svg")
        True
    """
    return Picture(
        _core.draw_position(
            position,
            size=size,
            highlight=list(highlight),
            lastmove=None if lastmove is None else (lastmove.slot, list(lastmove.drops)),
            slots=None if slots is None else list(slots),
            slot_count=slot_count,
            labels=labels,
            max_radius=max_radius,
        )
    )


def tower(position: Position, *, size: float = 400) -> Picture:
    """The SVG text of a finished battle's final pile as rule 6 scores it.

    It shows strength 1 at the bottom to the top, and each player's strengths and sum.

    Args:
        position: a finished battle's position.
        size: the picture's height.

    Raises:
        BattleNotOverError: if the battle is not over.

    Example:
        >>> from buttonup import Position
        >>> 'data-player="red"' in tower(Position("RBWWBRWBR b"))
        True
    """
    return Picture(_core.draw_tower(position, size=size))


def _board(
    raw: tuple[Position, list[int], int, tuple[int, list[int]] | None, float],
) -> Board:
    found, slots, slot_count, last, radius = raw
    lastmove = None if last is None else LastMove(last[0], tuple(last[1]))
    return Board(found, tuple(slots), slot_count, lastmove, radius)


def walk(start: Position, moves: Iterable[int]) -> Board:
    """The board after playing ``moves`` from a battle's ``start``.

    It has each pile's slot (a lift frees the lifted pile's slot; the others keep
    theirs) and the last move.

    Args:
        start: the battle's start.
        moves: the moves played from it.

    Raises:
        IllegalMoveError: if a move is illegal.

    Example:
        >>> from buttonup import Position
        >>> walk(Position("W/R/B/W/B/R/R/W/B r"), [3]).slots
        (0, 1, 2, 4, 5, 6, 7, 8)
    """
    return _board(_core.draw_walk(start, list(moves)))


def walks(start: Position, moves: Iterable[int]) -> list[Board]:
    """The board at ``start`` and after each of ``moves``.

    The same boards as ``walk`` of every prefix, in one walk.

    Args:
        start: the battle's start.
        moves: the moves played from it.

    Raises:
        IllegalMoveError: if a move is illegal.
    """
    return [_board(raw) for raw in _core.draw_walks(start, list(moves))]


def board(match: Match) -> Board:
    """The board of ``match`` now: its current battle with stable slots and the last move.

    Between battles (a starter to choose, or the match won), the latest battle's final
    pile and its last move.

    Args:
        match: the match.
    """
    return _board(_core.draw_match(match))


def match_board(
    match: Match, *, size: float | None = SIZE, highlight: Iterable[int] = (), labels: bool = True
) -> Picture:
    """The SVG text of ``match``'s board now (what ``Match._repr_svg_`` shows).

    Args:
        match: the match.
        size: as :func:`position`'s.
        highlight: as :func:`position`'s.
        labels: as :func:`position`'s.
    """
    return board(match).svg(size=size, highlight=highlight, labels=labels)
