"""The Gymnasium spaces of the adapters (docs/rl.md)."""

from __future__ import annotations

from gymnasium import spaces

__all__ = ["observation_space"]


def observation_space(per_colour: int) -> spaces.MultiBinary:
    """The observation space of one battle: ``MultiBinary((N, N, 3))`` (int8 cells) for
    ``N = 3 * per_colour`` buttons, docs/rl.md's encoding. The checkers of Gymnasium and
    SB3 accept it without a warning (SB3 reads a 3-D ``Box`` as an image)."""
    n = 3 * per_colour
    return spaces.MultiBinary([n, n, 3])
