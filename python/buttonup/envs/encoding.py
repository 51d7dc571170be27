"""The encodings of the adapters (docs/rl.md), re-exported by :mod:`buttonup.envs`.

The observation of a position, from the point of view of one player, is an int8 array
of shape ``(N, N, 3)`` for ``N`` buttons in all: cell ``[p, h, c]`` is 1 when pile ``p``
(in notation order) has at height ``h`` (0 at the bottom) a button of that player
(``c = 0``), of the opponent (``c = 1``) or a white one (``c = 2``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from buttonup._core import Position, encode_observation, legal_action_mask, max_margin
from buttonup.player import Player

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["action_mask", "largest_margin", "observation"]


def largest_margin(start: Position) -> int:
    """The largest final margin a battle from ``start`` can have, for either player: the
    engine's scoring of the towers with one player's buttons all on top and the other's
    all at the bottom (``max_margin`` for a start with as many buttons of each colour)."""
    buttons = "".join(start.piles)
    counts = {colour: buttons.count(colour) for colour in "RBW"}
    if counts["R"] == counts["B"] == counts["W"]:
        return max_margin(counts["R"])
    largest = 0
    for top, bottom in (("R", "B"), ("B", "R")):
        tower = bottom * counts[bottom] + "W" * counts["W"] + top * counts[top]
        scoring = Position(f"{tower} r").scoring()
        largest = max(largest, abs(scoring.red - scoring.black))
    return largest


def observation(position: Position, player: Player) -> npt.NDArray[np.int8]:
    """The observation of ``position`` from ``player``'s point of view, ``(N, N, 3)``."""
    n = sum(len(pile) for pile in position.piles)
    return encode_observation(position, player).reshape(n, n, 3)


def action_mask(position: Position, player: Player) -> npt.NDArray[np.int8]:
    """1 for each pile ``player`` may lift now (none when it is not his turn)."""
    mask = legal_action_mask(position).astype("int8")
    if position.to_move is not player:
        mask[:] = 0
    return mask
