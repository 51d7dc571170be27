"""Button Up! as Gymnasium vector environments, on :class:`buttonup.VecEnv` (every game
stepped in one call, in Rust, without the GIL).

- :class:`BattleVectorEnv`: the single-agent battle of ``buttonup/Battle-v0`` against a
  built-in level that Rust plays, registered as that id's vector entry point, so that
  ``gymnasium.make_vec("buttonup/Battle-v0", num_envs=1024,
  vectorization_mode="vector_entry_point")`` makes it.
- :class:`SelfPlayVectorEnv`: both sides played by the agent (two players, batched);
  :func:`credit_sides` turns a stretch of its steps into each move's return for the
  side that made it.

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
and its mask is the new battle's. Meanwhile a finished game's mask is all True (any
action is taken, and ignored), never all False, so that a masked policy can sample from
it; ``infos["final_mask"]`` holds its real, empty mask. ``autoreset_mode="same_step"``
starts them at once instead, the final observation in ``infos["final_obs"]`` and the
finished battle's info in ``infos["final_info"]``.

``reset(seed=[s0, s1, ...])`` seeds game ``i`` by ``seed[i]`` alone; ``call``,
``get_attr`` and ``set_attr`` are those of Gymnasium's vector environments (the games
share one setting of each attribute), and ``render_mode="ansi"`` renders each game as
text.
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from buttonup import Position, VecEnv
from buttonup.envs.arguments import agent_player, one_of
from buttonup.envs.batch_players import batch_chooser
from buttonup.envs.spaces import observation_space
from buttonup.player import Player
from buttonup.players import PolicyError
from buttonup.text import draw_piles

__all__ = ["BattleVectorEnv", "SelfPlayVectorEnv", "SideCredit", "credit_sides"]

_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}


# Attributes fixed when the batch is made (Rust holds them): ``set_attr`` refuses them.
_FIXED = frozenset(
    {"env", "num_envs", "per_colour", "agent", "opponent", "metadata", "render_mode"}
    | {"observation_space", "action_space", "single_observation_space", "single_action_space"}
)

# The methods whose batched result ``call`` splits into one entry a game.
_PER_GAME = frozenset({"action_masks", "render"})


class _Batched(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """What both vector forms share: the Rust batch, spaces, masks and resets."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

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
        one_of("reward", reward, ("margin", "win"))
        one_of("autoreset_mode", autoreset_mode, _MODES)
        one_of("render_mode", render_mode, (None, "ansi"))
        self.render_mode = render_mode
        self._batch_kwargs = {"per_colour": per_colour, "threads": threads, **batch}
        self.env = VecEnv(num_envs, seed=0, **self._batch_kwargs)
        self.num_envs = num_envs
        self.per_colour = per_colour
        self.reward_kind = reward
        self._same_step = autoreset_mode == "same_step"
        self.metadata = {**type(self).metadata, "autoreset_mode": _MODES[autoreset_mode]}
        n = 3 * per_colour
        self._shape = (num_envs, n, n, 3)
        self.single_observation_space = observation_space(per_colour)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _observations(self) -> np.ndarray:
        return self.env.observation.reshape(self._shape).copy()

    def _waiting(self) -> np.ndarray:
        """The games whose battle ended on the last step and that start again on the
        next one (``next_step`` mode only)."""
        if self._same_step:
            return np.zeros(self.num_envs, bool)
        waiting: np.ndarray = self.env.terminated.copy()
        return waiting

    def action_masks(self) -> np.ndarray:
        """The legal piles of each game, ``(num_envs, N)`` bool; all True for a game
        that finished on the last step in ``next_step`` mode (its next action is
        ignored), so that no row is all False."""
        masks: np.ndarray = self.env.legal_action_mask.copy()
        masks[self._waiting()] = True
        return masks

    def _infos(self) -> dict[str, Any]:
        present = np.ones(self.num_envs, bool)
        infos: dict[str, Any] = {"action_mask": self.action_masks(), "_action_mask": present}
        waiting = self._waiting()
        if waiting.any():
            infos["final_mask"] = self.env.legal_action_mask.copy()
            infos["_final_mask"] = waiting
        return infos

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New battles in every game: ``seed`` an int for all of them, or a list of
        one seed a game (game ``i`` seeded by ``seed[i]`` alone)."""
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = [None if s is None else int(s) for s in seed]
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: {len(seeds)} seeds for {self.num_envs} games")
            super().reset(seed=seeds[0])
            if any(s is None for s in seeds):
                seeds = [int(self.np_random.integers(0, 2**63)) if s is None else s for s in seeds]
            self.env.reset(seed=seeds)
        else:
            super().reset(seed=seed)
            if seed is None:
                seed = int(self.np_random.integers(0, 2**63))
            self.env.reset(seed=seed)
        self._dealt(np.ones(self.num_envs, bool))
        return self._observations(), self._infos()

    def _dealt(self, fresh: np.ndarray) -> None:
        """After new battles in the games ``fresh``: what the form does before the
        agent sees them (nothing here)."""

    def _play(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """Steps the batch; the observations and the step's ends (before any same-step
        restart); the final observations go in ``infos`` in that mode."""
        self.env.step(np.asarray(actions, dtype=np.int64))
        return self._observations(), self.env.terminated.copy()

    def _finish(
        self, observations: np.ndarray, ended: np.ndarray, infos: dict[str, Any]
    ) -> np.ndarray:
        if self._same_step and ended.any():
            # The finished battles' own info, as Gymnasium's same-step reset gives it:
            # each entry with its ``_`` flags of the games it holds.
            final = {**infos, **self._infos()}
            infos["final_obs"] = observations
            infos["_final_obs"] = ended
            final_info: dict[str, Any] = {}
            for name, item in final.items():
                if not name.startswith("_"):
                    final_info[name] = item
                    final_info[f"_{name}"] = ended.copy()
            infos["final_info"] = final_info
            infos["_final_info"] = ended
            self.env.restart_finished()
            self._dealt(ended)
            observations = self._observations()
        infos.update(self._infos())
        return observations

    def render(self) -> tuple[str, ...] | None:
        """Each game's piles as text, legal ones marked (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return tuple(f"{position}\n{draw_piles(position)}" for position in self.env.positions())

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """The attribute ``name``, once a game (the games share their settings)."""
        value = getattr(self, name)
        return tuple(value for _ in range(self.num_envs))

    def set_attr(self, name: str, values: Any) -> None:
        """Sets ``name`` (one value, or a list of one a game, all equal: the games share
        their settings). A setting fixed when the batch was made is refused."""
        if isinstance(values, (list, tuple)):
            if len(values) != self.num_envs:
                raise ValueError(f"set_attr: {len(values)} values for {self.num_envs} games")
            if any(value != values[0] for value in values):
                raise ValueError(f"set_attr: the games share {name!r}: give equal values")
            values = values[0]
        if name in _FIXED:
            raise ValueError(f"set_attr: {name!r} is fixed when the batch is made")
        if name == "reward_kind":
            one_of("reward", values, ("margin", "win"))
        setattr(self, name, values)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Calls method ``name`` (or reads the attribute), one result a game: a method
        of the whole batch (``action_masks``, ``render``) split by game, any other
        called once for the batch."""
        function = getattr(self, name)
        if not callable(function):
            return self.get_attr(name)
        result = function(*args, **kwargs)
        if name in _PER_GAME and result is not None:
            return tuple(result)
        return tuple(result for _ in range(self.num_envs))

    def _scored(self, rewards: np.ndarray) -> np.ndarray:
        if self.reward_kind == "win":
            rewards = np.sign(rewards)
        scored: np.ndarray = rewards.astype(np.float32)
        return scored


class BattleVectorEnv(_Batched):
    """``num_envs`` battles against ``opponent``, the agent playing ``colour``; the
    arguments of ``buttonup/Battle-v0`` otherwise. Rewards, extra moves and the
    observation are those of the single environment; an illegal action is a
    ``ValueError`` naming the game and the pile (no game changes).

    A level (an int, 1 to 10) is played inside Rust, in the same call as the agent's
    moves. Any other opponent (:mod:`buttonup.envs.batch_players`: a
    :class:`~buttonup.envs.batch_players.BatchPolicy`, an SB3 model, or any player of
    :mod:`buttonup.players`, asked game by game) is asked once for every game where
    it is to move, its moves played in Rust between the agent's (the games where it is
    not to move sit out): a learned opponent, or a frozen copy of the agent for
    self-play, at batch speed. A battle that it would play to its end without the agent
    moving is dealt again, as in the single environment; a pile it picks that is not
    legal is a :class:`~buttonup.players.PolicyError` (the agent's moves of that
    step are played: reset the batch)."""

    def __init__(
        self,
        num_envs: int = 1,
        opponent: Any = 5,
        colour: str = "red",
        per_colour: int = 3,
        reward: str = "margin",
        render_mode: str | None = None,
        *,
        threads: int | None = None,
        autoreset_mode: str = "next_step",
    ) -> None:
        self.agent = agent_player(colour)
        self._side = 0 if self.agent is Player.RED else 1
        level = isinstance(opponent, int) and not isinstance(opponent, bool)
        # Made before the batch: a player that is no player fails first.
        self._choose = None if level else batch_chooser(opponent)
        self.opponent = opponent
        super().__init__(
            num_envs,
            per_colour=per_colour,
            reward=reward,
            autoreset_mode=autoreset_mode,
            render_mode=render_mode,
            threads=threads,
            # Without a Rust opponent the batch shows the mover's view: the agent's
            # once the opponent has moved, the opponent's while it chooses.
            batch={"agent": self.agent, "opponent": opponent} if level else {},
        )

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays one action in each battle (and the opponents' replies); finished battles are dealt
        again."""
        if self._choose is None:
            observations, ended = self._play(actions)
            rewards = self.env.rewards[:, self._side].copy()
        else:
            # The games that start again on this step (next-step mode): dealt now.
            fresh = self._waiting()
            self.env.step(np.asarray(actions, dtype=np.int64))
            rewards = self.env.rewards[:, self._side].copy()
            ended = self.env.terminated.copy()
            self._opponent_turns(fresh, rewards, ended)
            observations = self._observations()
        infos: dict[str, Any] = {}
        observations = self._finish(observations, ended, infos)
        return observations, self._scored(rewards), ended, np.zeros(self.num_envs, bool), infos

    def set_opponent(self, opponent: Any) -> None:
        """Plays against ``opponent`` from the next step on (the games go on), say a
        fresh copy of the agent in self-play. A batch made against a level is played
        in Rust and keeps it; any other opponent takes any form but a level."""
        if self._choose is None or (isinstance(opponent, int) and not isinstance(opponent, bool)):
            raise ValueError(
                "set_opponent: a batch against a level keeps it, and a level cannot "
                "replace a learned opponent: make a new batch"
            )
        self._choose = batch_chooser(opponent)
        self.opponent = opponent

    def _dealt(self, fresh: np.ndarray) -> None:
        if self._choose is not None:
            nothing = np.zeros(self.num_envs, bool)
            self._opponent_turns(fresh, np.zeros(self.num_envs, np.float32), nothing)

    def _observations(self) -> np.ndarray:
        observations = super()._observations()
        if self._choose is not None:
            # A battle the opponent ended shows the mover's view: turned to the agent's.
            other = self.env.current_player != self._side
            if other.any():
                observations[other] = observations[other][..., [1, 0, 2]]
        return observations

    def _positions_of(self, games: np.ndarray) -> list[Position]:
        every = self.env.positions()
        return [every[i] for i in games]

    def _opponent_turns(self, fresh: np.ndarray, rewards: np.ndarray, ended: np.ndarray) -> None:
        """The opponent's moves in every game not ``ended`` until the agent is to move
        (``rewards`` and ``ended`` updated in place); a battle of the games ``fresh``
        (dealt in this call, the agent not yet moving) that it ends is dealt again."""
        assert self._choose is not None
        games = np.arange(self.num_envs)
        n = 3 * self.per_colour
        while True:
            theirs = ~ended & (self.env.current_player != self._side)
            if not theirs.any():
                return
            masks = self.env.legal_action_mask[theirs]
            views = self.env.observation.reshape(self._shape)[theirs]
            picked = games[theirs]
            chosen = self._choose(views, masks, partial(self._positions_of, picked))
            if chosen.shape != (len(picked),):
                raise PolicyError(f"the opponent gave {chosen.size} piles for {len(picked)} games")
            legal = (chosen >= 0) & (chosen < n)
            legal[legal] = masks[legal.nonzero()[0], chosen[legal]]
            if not legal.all():
                bad = int(np.flatnonzero(~legal)[0])
                raise PolicyError(
                    f"the opponent chose pile {int(chosen[bad])} in game "
                    f"{int(picked[bad])}, which is not a legal move there"
                )
            actions = np.zeros(self.num_envs, np.int64)
            actions[theirs] = chosen
            self.env.step(actions, waiting=~theirs)
            done = self.env.terminated & theirs
            again = done & fresh
            rewards += np.where(done & ~fresh, self.env.rewards[:, self._side], 0.0)
            ended |= done & ~fresh
            if again.any():
                # A finished game starts again when it steps: only those, to be dealt.
                self.env.step(np.zeros(self.num_envs, np.int64), waiting=~again)


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
        """Plays one action in each battle for the learner, then the opponent's replies; finished
        battles are dealt again."""
        movers = self.env.current_player.astype(np.intp)
        observations, ended = self._play(actions)
        both = self._scored(self.env.rewards)
        rewards = both[np.arange(self.num_envs), movers]
        infos: dict[str, Any] = {"rewards": both, "_rewards": np.ones(self.num_envs, bool)}
        observations = self._finish(observations, ended, infos)
        return observations, rewards, ended, np.zeros(self.num_envs, bool), infos


class SideCredit(NamedTuple):
    """Each step's credit, from :func:`credit_sides` (``T`` steps of ``B`` games)."""

    returns: np.ndarray
    """``(T, B, 2)`` float32: Red's and Black's return from that step to the end of
    its battle (zero-sum: the battle's final reward, discounted, seen from each side);
    0 at a next-step restart."""
    own: np.ndarray
    """``(T, B)`` float32: the return of the side that moved at that step."""
    moved: np.ndarray
    """``(T, B)`` bool: the step was a move (not a next-step restart, whose action is
    ignored) of a battle that ended within the ``T`` steps, so that its return is
    known: the steps to learn from."""


def credit_sides(
    players: Any,
    rewards: Any,
    terminations: Any,
    *,
    gamma: float = 1.0,
    autoreset_mode: str = "next_step",
    waiting: Any = None,
) -> SideCredit:
    """Credits each move of ``T`` consecutive :class:`SelfPlayVectorEnv` steps to the
    side that made it: ``players[t]`` is ``infos["current_player"]`` as step ``t``
    began (the mover), ``rewards[t]`` and ``terminations[t]`` are that step's
    ``infos["rewards"]`` (Red's and Black's) and terminations. The end-of-battle
    reward goes to both sides, the winner's moves positive and the loser's negative,
    whoever moved last (extra moves make the turn order irregular), discounted by
    ``gamma`` a step of the battle. ``autoreset_mode`` is the environment's: in
    ``"next_step"`` mode the step after a battle's end is its restart, not a move;
    ``waiting`` (``(B,)`` bool) marks the games whose battle ended on the step before
    ``t = 0`` (the default: none)."""
    if autoreset_mode not in _MODES:
        raise ValueError(
            f"autoreset_mode must be 'next_step' or 'same_step', not {autoreset_mode!r}"
        )
    if not 0.0 <= gamma <= 1.0:
        raise ValueError(f"gamma must be between 0 and 1, not {gamma!r}")
    players = np.asarray(players)
    paid = np.asarray(rewards, dtype=np.float32)
    ended = np.asarray(terminations, dtype=bool)
    if players.ndim != 2 or ended.shape != players.shape:
        raise ValueError(
            "credit_sides: players and terminations must both be (T, B), not "
            f"{players.shape} and {ended.shape}"
        )
    steps, games = players.shape
    if paid.shape != (steps, games, 2):
        raise ValueError(f"credit_sides: rewards must be ({steps}, {games}, 2), not {paid.shape}")
    if not np.isin(players, (0, 1)).all():
        raise ValueError("credit_sides: players must be 0 (Red) or 1 (Black)")
    before = np.zeros(games, bool) if waiting is None else np.asarray(waiting, dtype=bool)
    if before.shape != (games,):
        raise ValueError(f"credit_sides: waiting must be ({games},), not {before.shape}")
    returns = np.zeros((steps, games, 2), np.float32)
    known = np.zeros((steps, games), bool)
    ahead = np.zeros((games, 2), np.float32)
    seen_end = np.zeros(games, bool)
    # Backwards: a step's return is its reward plus the discounted return of the next
    # step of the same battle; a battle's last step starts the sum afresh.
    for t in range(steps - 1, -1, -1):
        ahead = np.where(ended[t][:, None], paid[t], paid[t] + np.float32(gamma) * ahead)
        seen_end |= ended[t]
        returns[t] = ahead
        known[t] = seen_end
    restarts = np.zeros((steps, games), bool)
    if autoreset_mode == "next_step" and steps:
        restarts[0] = before
        restarts[1:] = ended[:-1]
    returns[restarts] = 0.0
    own = np.take_along_axis(returns, players.astype(np.intp)[..., None], axis=2)[..., 0]
    return SideCredit(returns=returns, own=own, moved=known & ~restarts)
