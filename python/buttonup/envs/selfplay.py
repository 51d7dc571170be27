"""Self-play for a single-agent learner: :class:`SelfPlayEnv` is the battle of
``buttonup/Battle-v0`` whose opponent is drawn, each episode, from an
:class:`OpponentPool`, and whose side (Red or Black) is a fair coin, so that one policy
learns both. Add frozen copies of the learner to the pool as it improves (any form of
:mod:`buttonup.players`: a function of the observation and the mask, an SB3
model, a level, a bot).

>>> from buttonup.envs.selfplay import OpponentPool, SelfPlayEnv
>>> pool = OpponentPool([1])
>>> game = SelfPlayEnv(pool)
>>> _, info = game.reset(seed=0)
>>> pool.add(lambda observation, mask: int(mask.nonzero()[0][-1]), name="last pile")
>>> len(pool), pool.names
(2, ['level 1', 'last pile'])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from buttonup.envs.gymnasium import BattleEnv
from buttonup.player import Player

__all__ = ["OpponentPool", "SelfPlayEnv"]


class OpponentPool:
    """Opponents to draw from. Each draw takes the newest with probability ``latest``
    (when there are two or more), else one of all of them uniformly."""

    def __init__(self, opponents: list[Any] | None = None, *, latest: float = 0.5) -> None:
        if not 0.0 <= latest <= 1.0:
            raise ValueError(f"latest must be a probability, not {latest!r}")
        self.latest = latest
        self.opponents: list[Any] = []
        self.names: list[str] = []
        for opponent in opponents or []:
            self.add(opponent)

    def __len__(self) -> int:
        return len(self.opponents)

    def add(self, opponent: Any, *, name: str | None = None) -> None:
        """Adds ``opponent`` (the next draws may take it)."""
        if name is None:
            is_level = isinstance(opponent, int) and not isinstance(opponent, bool)
            name = f"level {opponent}" if is_level else f"opponent {len(self)}"
        self.opponents.append(opponent)
        self.names.append(name)

    def draw(self, rng: np.random.Generator) -> tuple[str, Any]:
        """One opponent and its name."""
        if not self.opponents:
            raise ValueError("the opponent pool is empty: add an opponent first")
        if len(self) > 1 and rng.random() < self.latest:
            i = len(self) - 1
        else:
            i = int(rng.integers(len(self)))
        return self.names[i], self.opponents[i]


class SelfPlayEnv(BattleEnv):
    """A battle against an opponent drawn from ``pool`` at each reset, the agent's side a
    fair coin (``info["opponent"]`` names the opponent, ``info["colour"]`` the side).
    The other arguments are those of :class:`buttonup.envs.gymnasium.BattleEnv`."""

    def __init__(
        self,
        pool: OpponentPool,
        per_colour: int = 3,
        reward: str = "margin",
        render_mode: str | None = None,
    ) -> None:
        self.pool = pool
        super().__init__(opponent=1, per_colour=per_colour, reward=reward, render_mode=render_mode)
        self.spec = self._own_spec(pool=pool, per_colour=per_colour, reward=reward)
        self._drawn = ""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals a new battle and draws its opponent from the pool."""
        if seed is not None:
            super(BattleEnv, self).reset(seed=seed)
        self._drawn, opponent = self.pool.draw(self.np_random)
        self.set_opponent(opponent, seed=int(self.np_random.integers(0, 2**63)))
        self.agent = Player.RED if self.np_random.random() < 0.5 else Player.BLACK
        observation, info = super().reset(options=options)
        return observation, self._named(info)

    def _named(self, info: dict[str, Any]) -> dict[str, Any]:
        info["opponent"] = self._drawn
        info["colour"] = "red" if self.agent is Player.RED else "black"
        return info

    def step(self, action: Any) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """Plays ``action``, then the opponent's replies."""
        observation, reward, done, truncated, info = super().step(action)
        return observation, reward, done, truncated, self._named(info)
