"""Button Up! as a PettingZoo AEC environment: agents ``red`` and ``black``.

>>> from buttonup.envs.pettingzoo import env
>>> game = env()
>>> game.reset(seed=1)
>>> game.agent_selection in ("red", "black")
True
>>> sorted(game.observe("red"))
['action_mask', 'observation']

An extra move (rule 4) keeps the same agent selected. Rewards come once, on the move
that ends the battle: the margin for each agent (``reward="margin"``) or +1/0/-1
(``reward="win"``). ``render_mode="ansi"`` makes ``render()`` return the piles as text;
``"human"`` prints them after every move.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from buttonup._core import Position
from buttonup.envs.arguments import one_of
from buttonup.envs.encoding import action_mask, observation
from buttonup.player import Player
from buttonup.text import draw_piles

__all__ = ["env", "raw_env"]

AGENTS = {"red": Player.RED, "black": Player.BLACK}


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks around it."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """One battle per episode from a shuffled start; Red or Black starts by a fair coin
    drawn from the seed."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "button_up_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        per_colour: int = 3,
        reward: str = "margin",
        render_mode: str | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        one_of("reward", reward, ("margin", "win"))
        one_of("render_mode", render_mode, (None, "human", "ansi"))
        start = Position.random(0, per_colour=per_colour)  # checks per_colour
        self.per_colour = per_colour
        self.reward_kind = reward
        self.render_mode = render_mode
        n = len(start.piles)  # a start has one button a pile
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (n, n, 3), np.int8),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in AGENTS}
        self._rng = random.Random(seed)
        self._start(self._rng.getrandbits(64))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (both agents have the same)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: one action per pile."""
        return self.action_spaces[agent]

    def _start(self, seed: int) -> None:
        starter = Player.RED if seed & 1 == 0 else Player.BLACK
        self.position = Position.random(seed >> 1, to_move=starter, per_colour=self.per_colour)
        self.agents = list(AGENTS)
        self.rewards: dict[str, float] = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards: dict[str, float] = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = self.position.to_move.name.lower()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new battle (and its starter) from ``seed``, or from the environment's own
        generator."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._start(self._rng.getrandbits(64))

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` sees: its observation and its mask of legal actions."""
        player = AGENTS[agent]
        return {
            "observation": observation(self.position, player),
            "action_mask": action_mask(self.position, player),
        }

    def step(self, action: int) -> None:
        """Plays ``action`` for the agent to move (a finished agent's step moves the turn on)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.position = self.position.play(int(action))
        if self.position.is_over:
            margin = self.position.scoring().margin_for(Player.RED)
            red = float(np.sign(margin)) if self.reward_kind == "win" else float(margin)
            self.rewards = {"red": red, "black": -red}
            self.terminations = {a: True for a in AGENTS}
        else:
            self.rewards = {a: 0.0 for a in AGENTS}
        # Rule 4 decides who moves next: the engine's side to move.
        self.agent_selection = self.position.to_move.name.lower()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The piles as text, legal ones marked: returned (``render_mode="ansi"``, or
        none given) or printed (``"human"``, which also prints after every step)."""
        text = f"{self.position}\n{draw_piles(self.position)}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Does nothing: the environment holds no resources."""
        pass
