"""The board the page shows: the SVG text of a position from ``buttonup.svg`` (the one
drawing of the library, the docs and the page), with the piles in their stable slots
and the last move marked. The page parses it as SVG (never as HTML) and attaches its
handlers to the elements with ``class="pile"`` (``data-pile``, ``data-slot``)."""

from __future__ import annotations

from collections.abc import Sequence

from buttonup import svg
from buttonup._core import Position
from buttonup.web.history import Ply


def board(start: Position, plies: Sequence[Ply]) -> tuple[str, tuple[int, ...]]:
    """The SVG text of where ``plies`` from ``start`` lead, and its piles' slots."""
    drawn = plies[-1].board if plies else svg.walk(start, [])
    return drawn.svg(), drawn.slots
