"""Button Up! as a Stable-Baselines3 ``VecEnv`` on :class:`buttonup.VecEnv`: the battle
of ``buttonup/Battle-v0`` against a built-in level played inside Rust, every game
stepped in one call, with ``action_masks()`` for sb3-contrib's MaskablePPO.

>>> from buttonup.envs.sb3 import BattleVecEnv
>>> envs = BattleVecEnv(4, opponent=1, seed=0)
>>> envs.reset().shape, envs.action_masks().shape
((4, 9, 9, 3), (4, 9))

As SB3 expects, a finished game starts its next battle within the same step: the
returned observation is the new battle's, the last one's is in
``infos[i]["terminal_observation"]``. Training with MaskablePPO::

    from sb3_contrib import MaskablePPO
    model = MaskablePPO("MlpPolicy", BattleVecEnv(64, opponent=1, seed=0), n_steps=64)
    model.learn(100_000)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv as _SB3VecEnv

from buttonup.envs.vector import BattleVectorEnv

__all__ = ["BattleVecEnv"]


class BattleVecEnv(_SB3VecEnv):
    """``num_envs`` battles against ``opponent``, the agent playing ``colour``;
    ``reward`` ``"margin"`` or ``"win"`` as in the other adapters. ``opponent`` is a
    level that Rust plays, or any opponent of
    :class:`buttonup.envs.vector.BattleVectorEnv` (an SB3 model among them, asked once
    for the games where it is to move), which :meth:`set_opponent` replaces as training
    goes: self-play against a frozen copy of the model, ``examples/sb3_selfplay.py``."""

    def __init__(
        self,
        num_envs: int,
        *,
        opponent: Any = 5,
        colour: str = "red",
        per_colour: int = 3,
        reward: str = "margin",
        seed: int | None = None,
        threads: int | None = None,
    ) -> None:
        self.render_mode = None
        self.battles = BattleVectorEnv(
            num_envs,
            opponent=opponent,
            colour=colour,
            per_colour=per_colour,
            reward=reward,
            threads=threads,
            autoreset_mode="same_step",
        )
        self._seed = seed
        self._actions: np.ndarray | None = None
        observation_space: spaces.Space[Any] = self.battles.single_observation_space
        super().__init__(num_envs, observation_space, self.battles.single_action_space)

    def reset(self) -> np.ndarray:
        """Deals every battle again; returns the observations."""
        seed = self._seeds[0] if self._seeds[0] is not None else self._seed
        observations, _ = self.battles.reset(seed=seed)
        self._seed = None
        self._reset_seeds()
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        """Keeps the actions for the next ``step_wait``."""
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Plays the kept actions in every battle; returns observations, rewards, ends and infos."""
        assert self._actions is not None, "step_async comes first"
        observations, rewards, ended, _, infos = self.battles.step(self._actions)
        self._actions = None
        listed: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(ended):
            listed[i] = {
                "terminal_observation": infos["final_obs"][i],
                "TimeLimit.truncated": False,
            }
        return observations, rewards, ended.copy(), listed

    def set_opponent(self, opponent: Any) -> None:
        """The opponent from the next step on (not a level: see
        :meth:`buttonup.envs.vector.BattleVectorEnv.set_opponent`)."""
        self.battles.set_opponent(opponent)

    def action_masks(self) -> np.ndarray:
        """The legal piles of each game, ``(num_envs, N)`` bool."""
        return self.battles.action_masks()

    def close(self) -> None:
        """Does nothing: the battles hold no resources."""
        pass

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seed of the next ``reset``."""
        self._seed = seed
        return [seed] * self.num_envs

    def _rows(self, indices: Any) -> list[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute ``attr_name``, once per game of ``indices`` (the games share it)."""
        value = getattr(self, attr_name)
        return [value for _ in self._rows(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Refused with ``AttributeError``: the games share their settings."""
        raise AttributeError(f"BattleVecEnv's games share their settings: {attr_name}")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """Calls ``method_name`` for the games of ``indices``: ``action_masks`` gives each
        game's mask; any other name raises ``AttributeError``."""
        rows = self._rows(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"BattleVecEnv has no per-game method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """False for every game: no game is wrapped."""
        return [False for _ in self._rows(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """Whether the environment has the attribute ``attr_name``."""
        return hasattr(self, attr_name)

    def _get_indices(self, indices: Any) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
