"""Players that choose for a whole batch at once: the learned opponents of
:class:`buttonup.envs.vector.BattleVectorEnv` (and the SB3 adapter on it), called once a
step with every game where the opponent is to move, instead of once a game.

- :class:`BatchPolicy` wraps ``f(observations, masks) -> piles``: the movers' views
  ``(B, N, N, 3)`` int8 and their legal piles ``(B, N)`` bool, one pile a game back;
- a **Stable-Baselines3 model** is asked once for the batch: the legal pile of its
  policy's highest logit (as :mod:`buttonup.players` plays one game), or
  ``predict`` with the masks where its policy has no distribution to read;
- any other player of :mod:`buttonup.players` (a bot, a policy of one game, a
  function of a position, a policy spec) is asked game by game, on each game's
  position.

>>> import numpy as np
>>> first = BatchPolicy(lambda observations, masks: masks.argmax(axis=1))
>>> choose = batch_chooser(first)
>>> masks = np.array([[False, True, True], [True, False, False]])
>>> choose(np.zeros((2, 3, 3, 3), np.int8), masks, list).tolist()
[1, 0]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from buttonup._core import Position
from buttonup.players import PolicyError, chooser, sb3_logits

__all__ = ["BatchChooser", "BatchPolicy", "batch_chooser", "sb3_policy"]

BatchChooser = Callable[
    [npt.NDArray[np.int8], npt.NDArray[np.bool_], Callable[[], list[Position]]],
    npt.NDArray[np.int64],
]
"""A player of a whole batch: ``(observations, masks, positions) -> piles``, one pile a
game; ``positions``, when called, gives the games' positions (only the game-by-game form
needs them)."""


class BatchPolicy:
    """``function(observations, masks) -> piles`` as a batched player (named ``name``,
    by default the function's own name)."""

    def __init__(self, function: Callable[..., Any], name: str | None = None) -> None:
        if not callable(function):
            raise TypeError(f"BatchPolicy wraps a callable, not {function!r}")
        self.function = function
        self.name = name or getattr(function, "__name__", "batch policy")

    def __call__(
        self, observations: npt.NDArray[np.int8], masks: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.int64]:
        piles = np.asarray(self.function(observations, masks)).reshape(-1)
        if piles.shape != (len(masks),):
            raise PolicyError(
                f"the batch policy {self.name} gave {piles.size} piles for {len(masks)} games"
            )
        return piles.astype(np.int64)

    def __repr__(self) -> str:
        return f"BatchPolicy({self.name})"


def _best_legal(scores: Any, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    values = np.asarray(scores, dtype=np.float64).reshape(masks.shape)
    best: npt.NDArray[np.int64] = np.argmax(np.where(masks, values, -np.inf), axis=1)
    return best.astype(np.int64)


def sb3_policy(policy: Any, name: str = "SB3 policy") -> BatchPolicy:
    """An SB3 policy (``model.policy``, or a frozen copy of it) as a batched player: the
    legal pile of its highest logit in each game."""
    return BatchPolicy(
        lambda observations, masks: _best_legal(sb3_logits(policy, observations), masks), name
    )


def _sb3(model: Any) -> BatchChooser:
    policy = getattr(model, "policy", None)
    if policy is not None and hasattr(policy, "get_distribution"):
        chosen = sb3_policy(policy)
        return lambda observations, masks, positions: chosen(observations, masks)
    masked = "action_masks" in inspect.signature(model.predict).parameters

    def by_predict(
        observations: npt.NDArray[np.int8],
        masks: npt.NDArray[np.bool_],
        positions: Callable[[], list[Position]],
    ) -> npt.NDArray[np.int64]:
        extra = {"action_masks": masks} if masked else {}
        actions, _ = model.predict(observations, deterministic=True, **extra)
        return np.asarray(actions, dtype=np.int64).reshape(-1)

    return by_predict


def batch_chooser(player: Any) -> BatchChooser:
    """``player`` as a chooser for a batch: a :class:`BatchPolicy`, an SB3 model, or any
    player of :mod:`buttonup.players` asked game by game (a level too, though
    the vector environment plays levels inside Rust)."""
    if isinstance(player, BatchPolicy):
        return lambda observations, masks, positions: player(observations, masks)
    if hasattr(player, "predict") and hasattr(player, "policy"):
        return _sb3(player)
    one = chooser(player)

    def each(
        observations: npt.NDArray[np.int8],
        masks: npt.NDArray[np.bool_],
        positions: Callable[[], list[Position]],
    ) -> npt.NDArray[np.int64]:
        return np.array([one(position) for position in positions()], dtype=np.int64)

    return each
