"""Button Up! as a single-agent Gymnasium environment against a ``buttonup.ai`` bot,
registered as ``buttonup/Battle-v0`` (and the whole match, ``buttonup/Match-v0``:
:mod:`buttonup.envs.match`).

>>> import gymnasium
>>> import buttonup.envs.gymnasium  # registers the environment
>>> game = gymnasium.make("buttonup/Battle-v0", opponent=1)
>>> observation, info = game.reset(seed=3)
>>> observation.shape, observation.dtype, info["action_mask"].shape
((9, 9, 3), dtype('int8'), (9,))
>>> game.unwrapped.action_masks().tolist() == info["action_mask"].tolist()
True

One episode is one battle. The agent plays ``colour`` (Red by default); the opponent's
moves, extra moves included, are played inside ``step``. ``opponent`` takes any form of
:mod:`buttonup.players` (a level, a bot, a callable, a policy). The observation
space is ``MultiBinary((N, N, 3))`` (int8 cells); ``action_masks()`` gives the legal piles, as
sb3-contrib's MaskablePPO asks. The reward comes at the end:
the agent's margin (``reward="margin"``) or +1/0/-1 (``reward="win"``). ``info`` holds the
``action_mask`` of the agent's legal piles, bool as in the vector environments. An
illegal action (a pile without a white button, or beyond the last pile) ends the
episode at once with the worst reward, the largest possible margin against (or -1), and
``info["illegal_action"]`` set. A battle
that the opponent would play to its end without the agent moving is dealt again.

``gymnasium.make_vec("buttonup/Battle-v0", num_envs=...,
vectorization_mode="vector_entry_point")`` makes the batched form,
:class:`buttonup.envs.vector.BattleVectorEnv`.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, SupportsFloat, TypeVar

import gymnasium
import numpy as np
from gymnasium import spaces

from buttonup._core import Position, max_margin
from buttonup.envs.arguments import agent_player, one_of
from buttonup.envs.encoding import action_mask, observation
from buttonup.envs.spaces import observation_space
from buttonup.player import Player
from buttonup.players import Chooser, chooser
from buttonup.text import draw_piles

__all__ = ["BattleEnv"]

Observed = TypeVar("Observed")


class AgentEnv(gymnasium.Env[Observed, np.int64]):
    """What the battle and the match environments share: the agent's colour and the
    checks of ``reward`` (one of ``rewards``) and ``render_mode``, the deal of a reset,
    and the answer to an illegal action."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's)

    _level: Any
    """The opponent as it was given (a level is seeded again by a reset's seed)."""

    def __init__(
        self, colour: str, reward: str, rewards: tuple[str, str], render_mode: str | None
    ) -> None:
        self.agent = agent_player(colour)
        one_of("reward", reward, rewards)
        one_of("render_mode", render_mode, (None, "ansi"))
        self.reward_kind = reward
        self.render_mode = render_mode

    def _observe(self) -> tuple[Observed, dict[str, Any]]:
        raise NotImplementedError

    def _reseed(self, seed: int) -> None:
        """Makes the level opponent again from ``seed``."""
        raise NotImplementedError

    def _deal(self, seed: int, starter: Player) -> bool:
        """Starts a new episode from ``seed`` with ``starter`` to move and plays the
        opponent's turns: whether the agent has anything to do in it."""
        raise NotImplementedError

    def _dealt(self, seed: int | None) -> tuple[Observed, dict[str, Any]]:
        """Gymnasium's reset from ``seed``: an episode the opponent would finish without
        the agent acting is dealt again."""
        super().reset(seed=seed)
        if seed is not None and isinstance(self._level, int):
            self._reseed(seed)
        while True:
            draw = int(self.np_random.integers(0, 2**63))
            if self._deal(draw >> 1, Player.RED if draw & 1 == 0 else Player.BLACK):
                return self._observe()

    def _refused(self, worst: float) -> tuple[Observed, SupportsFloat, bool, bool, dict[str, Any]]:
        """An illegal action's step: the episode over with the worst reward (-1, or
        ``worst`` unless ``reward`` is ``"win"``), ``info["illegal_action"]`` set."""
        observed, info = self._observe()
        reward = -1.0 if self.reward_kind == "win" else worst
        return observed, reward, True, False, {**info, "illegal_action": True}


class BattleEnv(AgentEnv[np.ndarray]):
    """One battle against ``opponent``: a level from 1 to 10, a bot, a callable of a
    position or a policy (:mod:`buttonup.players`)."""

    def __init__(
        self,
        opponent: Any = 5,
        colour: str = "red",
        per_colour: int = 3,
        reward: str = "margin",
        render_mode: str | None = None,
    ) -> None:
        super().__init__(colour, reward, ("margin", "win"), render_mode)
        self.position = Position.random(0, per_colour=per_colour)  # checks per_colour
        self.per_colour = per_colour
        self.set_opponent(opponent)
        n = len(self.position.piles)  # a start has one button a pile
        self._worst = -float(max_margin(per_colour))
        self.observation_space = observation_space(per_colour)
        self.action_space = spaces.Discrete(n)
        self.spec = self._own_spec(
            opponent=opponent, colour=colour, per_colour=per_colour, reward=reward
        )

    def _own_spec(self, **kwargs: Any) -> gymnasium.envs.registration.EnvSpec:
        return own_spec(self, "buttonup/Battle-v0", **kwargs)

    def set_opponent(self, opponent: Any, *, seed: int | None = None) -> None:
        """Plays against ``opponent`` (any form of :mod:`buttonup.players`) from
        the next move on."""
        self._level = opponent
        self.opponent: Chooser = chooser(opponent, seed=seed)

    def action_masks(self) -> np.ndarray:
        """The agent's legal piles now, a bool array (none once the battle is over)."""
        return action_mask(self.position, self.agent).astype(bool)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        return observation(self.position, self.agent), {"action_mask": self.action_masks()}

    def _opponent_moves(self) -> None:
        while not self.position.is_over and self.position.to_move is not self.agent:
            self.position = self.position.play(self.opponent(self.position))

    def _reseed(self, seed: int) -> None:
        self.set_opponent(self._level, seed=seed)

    def _deal(self, seed: int, starter: Player) -> bool:
        self.position = Position.random(seed, to_move=starter, per_colour=self.per_colour)
        self._opponent_moves()
        return not self.position.is_over

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals a new battle from ``seed``; the opponent's first moves are played."""
        return self._dealt(seed)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays ``action``, then the opponent's replies; an illegal action ends the battle with
        the worst reward."""
        if not self.position.is_legal(int(action)):
            return self._refused(self._worst)
        self.position = self.position.play(int(action))
        self._opponent_moves()
        reward = 0.0
        if self.position.is_over:
            mine = self.position.scoring().margin_for(self.agent)
            reward = float(np.sign(mine)) if self.reward_kind == "win" else float(mine)
        obs, info = self._observe()
        return obs, reward, self.position.is_over, False, info

    def render(self) -> str | None:
        """The piles as text, legal ones marked (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return f"{self.position}\n{draw_piles(self.position)}"


def own_spec(
    env: gymnasium.Env[Any, Any], env_id: str, **kwargs: Any
) -> gymnasium.envs.registration.EnvSpec:
    """The spec of ``env_id`` that makes ``env``'s class again with ``kwargs``
    (``gymnasium.make`` replaces it with its own), so that Gymnasium's checker can try
    each render mode on one made directly too."""
    return dataclasses.replace(
        gymnasium.spec(env_id), entry_point=functools.partial(_made, type(env)), kwargs=kwargs
    )


def _made(kind: type[gymnasium.Env[Any, Any]], **kwargs: Any) -> gymnasium.Env[Any, Any]:
    return kind(**kwargs)


def _make(**kwargs: Any) -> BattleEnv:
    return BattleEnv(**kwargs)


gymnasium.register(
    id="buttonup/Battle-v0",
    entry_point=_make,
    vector_entry_point="buttonup.envs.vector:BattleVectorEnv",
)

# The whole match, beside the battle (its module imported when one is made).
gymnasium.register(id="buttonup/Match-v0", entry_point="buttonup.envs.match:MatchEnv")
