"""Adapters for learning agents: PettingZoo (:mod:`buttonup.envs.pettingzoo`), OpenSpiel
(:mod:`buttonup.envs.openspiel`), Gymnasium (:mod:`buttonup.envs.gymnasium`, the whole
match in :mod:`buttonup.envs.match`, and the vector forms in :mod:`buttonup.envs.vector`),
Stable-Baselines3 (:mod:`buttonup.envs.sb3`) and JAX (:mod:`buttonup.envs.jax`), all but
the last on the Rust engine; the circle's rotations for augmentation are in
:mod:`buttonup.envs.augment`; the batched
environment is :class:`buttonup.VecEnv`. :func:`evaluate` measures a policy exactly
(:mod:`buttonup.envs.evaluation`). They need the ``rl`` extra (in a clone of
buttonup, ``pip install '.[rl]'``; ``[sb3]`` and ``[jax]`` for those two); docs/rl.md describes the
encodings and the reward conventions.

The observation of a position, from the point of view of one player, is an int8 array
of shape ``(N, N, 3)`` for ``N`` buttons in all: cell ``[p, h, c]`` is 1 when pile ``p``
(in notation order) has at height ``h`` (0 at the bottom) a button of that player
(``c = 0``), of the opponent (``c = 1``) or a white one (``c = 2``).
"""

from __future__ import annotations

from typing import Any

from buttonup.envs.encoding import action_mask, largest_margin, observation

__all__ = ["action_mask", "evaluate", "largest_margin", "observation"]


def __getattr__(name: str) -> Any:
    # evaluate, imported on first use (it needs NumPy and the bots).
    if name == "evaluate":
        from buttonup.envs.evaluation import evaluate

        return evaluate
    raise AttributeError(f"module 'buttonup.envs' has no attribute {name!r}")
