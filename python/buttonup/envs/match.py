"""A whole match to the target (rules 7 to 9, the real game) as a single-agent
Gymnasium environment against one opponent, registered as ``buttonup/Match-v0`` beside
the one-battle ``buttonup/Battle-v0``.

>>> import gymnasium
>>> import numpy as np
>>> import buttonup.envs.gymnasium  # registers both environments
>>> game = gymnasium.make("buttonup/Match-v0", opponent=1, target=5)
>>> observation, info = game.reset(seed=0)
>>> sorted(observation), observation["board"].shape
(['board', 'choosing', 'score'], (9, 9, 3))
>>> done = False
>>> while not done:
...     action = int(np.flatnonzero(info["action_mask"])[0])
...     observation, reward, done, truncated, info = game.step(action)
>>> reward in (1.0, -1.0), int(max(observation["score"])) >= 5
(True, True)

One episode is one match (:class:`buttonup.Match`) to ``target`` victory points, a
battle after another, the agent playing ``colour`` throughout. The observation is a
dict: ``"board"``, the current battle from the agent's side (docs/rl.md's encoding),
``"score"``, the agent's and the opponent's victory points, and ``"choosing"``, 1 when
the agent must choose who starts the next battle (the tie rule, rule 9), else 0. Then
the action is 0 (the agent starts) or 1 (the opponent starts), and the mask allows those
two; otherwise it is a pile, as in the battle. The opponent (any form of
:mod:`buttonup.players`; a level or a bot is given the match, and chooses
starters by its ``choose_starter``, any other form starts itself) moves and chooses
inside ``step``. The first battle's starter is a fair coin from the seed.

Rewards: ``"win"`` (the default) +1 or -1 when the match ends, else 0 (a match has no
draw); ``"points"``: the victory points of each battle as it is scored, + those the
agent scores, - the opponent's (their sum is the final difference of the scores). An
illegal action ends the episode with the worst reward: -1, or ``-target``. ``info``
holds the ``action_mask`` (bool; also ``action_masks()``, as sb3-contrib's MaskablePPO
asks) and ``battle``, the number of the battle being played, from 1.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np
from gymnasium import spaces

from buttonup._core import Match, Position, max_margin
from buttonup.ai import bot
from buttonup.envs.encoding import action_mask, observation
from buttonup.envs.gymnasium import AgentEnv, own_spec  # and registers buttonup/Match-v0
from buttonup.envs.spaces import observation_space
from buttonup.player import Player
from buttonup.players import Chooser, chooser
from buttonup.text import draw_piles

__all__ = ["MatchEnv"]


class MatchEnv(AgentEnv[dict[str, Any]]):
    """A match to ``target`` against ``opponent``, the agent playing ``colour``."""

    def __init__(
        self,
        opponent: Any = 5,
        colour: str = "red",
        target: int = 15,
        per_colour: int = 3,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__(colour, reward, ("win", "points"), render_mode)
        self.match = Match(target=target, per_colour=per_colour, seed=0)  # checks both
        self.target = target
        self.per_colour = per_colour
        self._level = opponent
        self._set_opponent(opponent, seed=None)
        n = self._actions = 3 * per_colour
        # Scores stay below the target until the last battle, which adds one margin.
        most = target - 1 + max_margin(per_colour)
        self.observation_space = spaces.Dict(
            {
                "board": observation_space(per_colour),
                "score": spaces.Box(0, most, (2,), np.int64),
                "choosing": spaces.Discrete(2),
            }
        )
        self.action_space = spaces.Discrete(n)
        self.spec = own_spec(
            self,
            "buttonup/Match-v0",
            opponent=opponent,
            colour=colour,
            target=target,
            per_colour=per_colour,
            reward=reward,
        )

    def _set_opponent(self, opponent: Any, *, seed: int | None) -> None:
        if isinstance(opponent, int) and not isinstance(opponent, bool):
            opponent = bot(opponent, seed=seed)
        self._opponent = opponent
        # Bots see the match (a level plays its standing); the other forms a position.
        self._choose: Chooser
        if hasattr(opponent, "choose"):
            self._choose = lambda position: int(opponent.choose(position, self.match))
        else:
            choose = chooser(opponent)
            self._choose = lambda position: int(choose(position))

    @property
    def choosing(self) -> bool:
        """The agent must now choose who starts the next battle."""
        return self.match.chooser is self.agent

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions now, bool: its piles, or 0 and 1 while it chooses
        a starter; none once the match is over or while the opponent is to move."""
        mask = np.zeros(self._actions, bool)
        if self.choosing:
            mask[:2] = True
        elif not self.match.is_over and self.match.chooser is None:
            mask[:] = action_mask(self.match.position, self.agent).astype(bool)
        return mask

    def _scores(self) -> np.ndarray:
        other = self.agent.other
        return np.array([self.match.score(self.agent), self.match.score(other)], np.int64)

    def _observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        seen = {
            "board": observation(self.match.position, self.agent),
            "score": self._scores(),
            "choosing": int(self.choosing),
        }
        info = {
            "action_mask": self.action_masks(),
            "battle": len(self.match.battles) + (0 if self.match.is_over else 1),
        }
        return seen, info

    def _opponent_turns(self) -> None:
        """The opponent's moves and starter choices until the agent acts or the match
        is over."""
        other = self.agent.other
        while not self.match.is_over:
            if self.match.chooser is other:
                choose_starter: Any = getattr(self._opponent, "choose_starter", None)
                starter = other if choose_starter is None else choose_starter(self.match)
                self.match.choose_starter(starter)
            elif self.match.chooser is None and self.match.to_move is other:
                self.match.play(self._choose(self.match.position))
            else:
                return

    def _reseed(self, seed: int) -> None:
        self._set_opponent(self._level, seed=seed)

    def _deal(self, seed: int, starter: Player) -> bool:
        self.match = Match(starter, target=self.target, per_colour=self.per_colour, seed=seed)
        self._opponent_turns()
        return not self.match.is_over

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Starts a new match from ``seed``; the opponent's first moves are played."""
        return self._dealt(seed)

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays ``action`` (a pile, or a starter when the tie rule asks), then the opponent's
        replies; an illegal one ends the match with reward ``-target``."""
        action = int(action)
        if not (0 <= action < self._actions and self.action_masks()[action]):
            return self._refused(-float(self.target))
        before = self._scores()
        if self.choosing:
            self.match.choose_starter(self.agent if action == 0 else self.agent.other)
        else:
            self.match.play(action)
        self._opponent_turns()
        if self.reward_kind == "points":
            gained = self._scores() - before
            reward = float(gained[0] - gained[1])
        elif self.match.is_over:
            reward = 1.0 if self.match.winner is self.agent else -1.0
        else:
            reward = 0.0
        seen, info = self._observe()
        return seen, reward, self.match.is_over, False, info

    def render(self) -> str | None:
        """The score and the piles as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        mine, theirs = self._scores()
        position: Position = self.match.position
        return f"{mine}-{theirs} to {self.target}\n{position}\n{draw_piles(position)}"
