"""Button Up! as Gymnasium vector environments, on :class:`buttonup.VecEnv` (every game
stepped in one call, in Rust, without the GIL).

- :class:`BattleVectorEnv`: the single-agent battle of ``buttonup/Battle-v0`` against a
  built-in level that Rust plays, registered as that id's vector entry point, so that
  ``gymnasium.make_vec("buttonup/Battle-v0", num_envs=1024,
  vectorization_mode="vector_entry_point")`` makes it.
- :class:`SelfPlayVectorEnv`: both sides played by the agent (two players, batched).

>>> import gymnasium
>>> import buttonup.envs.gymnasium  # registers buttonup/Battle-v0
>>> envs = gymnasium.make_vec("buttonup/Battle-v0", num_envs=8, opponent=1,
...                           vectorization_mode="vector_entry_point")
>>> observations, infos = envs.reset(seed=0)
>>> observations.shape, observations.dtype, infos["action_mask"].shape
((8, 9, 9, 3), dtype('int8'), (8, 9))
>>> bool(envs.action_masks().any(axis=1).all())
True

Finished games start again on their next step (Gymnasium's default ``next_step``
autoreset mode, declared in ``metadata``): that step's action is ignored, its reward is 0
and its mask is the new battle's. ``autoreset_mode="same_step"`` starts them at once
instead, the final observation in ``infos["final_obs"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from buttonup import VecEnv
from buttonup.envs.spaces import observation_space
from buttonup.player import Player

__all__ = ["BattleVectorEnv", "SelfPlayVectorEnv"]

_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}


class _Batched(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """What both vector forms share: the Rust batch, spaces, masks and resets."""

    def __init__(
        self,
        num_envs: int,
        *,
        per_colour: int,
        reward: str,
        autoreset_mode: str,
        render_mode: str | None,
        threads: int | None,
        batch: dict[str, Any],
    ) -> None:
        if reward not in ("margin", "win"):
            raise ValueError(f"reward must be 'margin' or 'win', not {reward!r}")
        if autoreset_mode not in _MODES:
            raise ValueError(
                f"autoreset_mode must be 'next_step' or 'same_step', not {autoreset_mode!r}"
            )
        if render_mode is not None:
            raise ValueError(f"the vector environments do not render: render_mode={render_mode!r}")
        self._batch_kwargs = {"per_colour": per_colour, "threads": threads, **batch}
        self.env = VecEnv(num_envs, seed=0, **self._batch_kwargs)
        self.num_envs = num_envs
        self.per_colour = per_colour
        self.reward_kind = reward
        self._same_step = autoreset_mode == "same_step"
        self.metadata = {"autoreset_mode": _MODES[autoreset_mode]}
        n = 3 * per_colour
        self._shape = (num_envs, n, n, 3)
        self.single_observation_space = observation_space(per_colour)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _observations(self) -> np.ndarray:
        return self.env.observation.reshape(self._shape).copy()

    def action_masks(self) -> np.ndarray:
        """The legal piles of each game, ``(num_envs, N)`` bool (none for a finished
        game in ``next_step`` mode)."""
        return self.env.legal_action_mask.copy()

    def _infos(self) -> dict[str, Any]:
        present = np.ones(self.num_envs, bool)
        return {"action_mask": self.action_masks(), "_action_mask": present}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0]
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63))
        self.env.reset(seed=seed)
        return self._observations(), self._infos()

    def _play(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """Steps the batch; the observations and the step's ends (before any same-step
        restart); the final observations go in ``infos`` in that mode."""
        self.env.step(np.asarray(actions, dtype=np.int64))
        return self._observations(), self.env.terminated.copy()

    def _finish(
        self, observations: np.ndarray, ended: np.ndarray, infos: dict[str, Any]
    ) -> np.ndarray:
        if self._same_step and ended.any():
            infos["final_obs"] = observations
            infos["_final_obs"] = ended
            infos["final_info"] = {}
            infos["_final_info"] = ended
            self.env.restart_finished()
            observations = self._observations()
        infos.update(self._infos())
        return observations

    def _scored(self, rewards: np.ndarray) -> np.ndarray:
        if self.reward_kind == "win":
            rewards = np.sign(rewards)
        scored: np.ndarray = rewards.astype(np.float32)
        return scored


class BattleVectorEnv(_Batched):
    """``num_envs`` battles against ``opponent``, a built-in level played inside Rust,
    the agent playing ``colour``; the arguments of ``buttonup/Battle-v0`` otherwise.
    Rewards, extra moves and the observation are those of the single environment; an
    illegal action is a ``ValueError`` naming the game and the pile (no game changes)."""

    def __init__(
        self,
        num_envs: int = 1,
        opponent: int = 5,
        colour: str = "red",
        per_colour: int = 3,
        reward: str = "margin",
        render_mode: str | None = None,
        *,
        threads: int | None = None,
        autoreset_mode: str = "next_step",
    ) -> None:
        if colour not in ("red", "black"):
            raise ValueError(f"colour must be 'red' or 'black', not {colour!r}")
        if isinstance(opponent, bool) or not isinstance(opponent, int):
            raise ValueError(
                "the vector environment's opponent is a built-in level that Rust plays "
                f"(an int), not {opponent!r}; for any other opponent use "
                "gymnasium.make_vec(..., vectorization_mode='sync')"
            )
        self.agent = Player.RED if colour == "red" else Player.BLACK
        self.opponent = opponent
        super().__init__(
            num_envs,
            per_colour=per_colour,
            reward=reward,
            autoreset_mode=autoreset_mode,
            render_mode=render_mode,
            threads=threads,
            batch={"agent": self.agent, "opponent": opponent},
        )
        self._side = 0 if self.agent is Player.RED else 1

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        observations, ended = self._play(actions)
        rewards = self._scored(self.env.rewards[:, self._side])
        infos: dict[str, Any] = {}
        observations = self._finish(observations, ended, infos)
        return observations, rewards, ended, np.zeros(self.num_envs, bool), infos


class SelfPlayVectorEnv(_Batched):
    """``num_envs`` battles whose both sides the agent plays. Each observation is the
    view of the player to move (``infos["current_player"]``: 0 Red, 1 Black; the same
    player again after an extra move); the reward is that of the player who just
    moved, and ``infos["rewards"]`` holds Red's and Black's (zero-sum) for an agent
    that credits each side."""

    def __init__(
        self,
        num_envs: int = 1,
        per_colour: int = 3,
        reward: str = "margin",
        render_mode: str | None = None,
        *,
        threads: int | None = None,
        autoreset_mode: str = "next_step",
    ) -> None:
        super().__init__(
            num_envs,
            per_colour=per_colour,
            reward=reward,
            autoreset_mode=autoreset_mode,
            render_mode=render_mode,
            threads=threads,
            batch={},
        )

    def _infos(self) -> dict[str, Any]:
        infos = super()._infos()
        infos["current_player"] = self.env.current_player.copy()
        infos["_current_player"] = infos["_action_mask"]
        return infos

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        movers = self.env.current_player.astype(np.intp)
        observations, ended = self._play(actions)
        both = self._scored(self.env.rewards)
        rewards = both[np.arange(self.num_envs), movers]
        infos: dict[str, Any] = {"rewards": both, "_rewards": np.ones(self.num_envs, bool)}
        observations = self._finish(observations, ended, infos)
        return observations, rewards, ended, np.zeros(self.num_envs, bool), infos
