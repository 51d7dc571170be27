"""Short training runs on the Gymnasium vector forms, with no library beyond NumPy: a
linear softmax policy learnt by REINFORCE, first against level 1 on ``BattleVectorEnv``,
then in self-play on ``SelfPlayVectorEnv`` (each side credited with its own reward).
``buttonup.envs.evaluate`` then measures it exactly: it must give away less than the
same policy untrained. Seeds are fixed, so each run is the same."""

from __future__ import annotations

import os
from typing import Any

import pytest

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import numpy as np
else:
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")

from buttonup.envs import evaluate
from buttonup.envs.vector import BattleVectorEnv, SelfPlayVectorEnv

GAMES, CELLS, PILES = 256, 243, 9


def reinforce(envs: Any, steps: int, *, self_play: bool, seed: int = 0) -> Any:
    """The weights of a linear softmax policy after ``steps`` agent steps of REINFORCE
    (the episode's final reward for each move; in self-play, the mover's side's)."""
    rng = np.random.default_rng(seed)
    weights = np.zeros((CELLS, PILES))
    observations, infos = envs.reset(seed=seed)
    played: list[list[tuple[Any, Any, int]]] = [[] for _ in range(GAMES)]
    gradient, episodes = np.zeros_like(weights), 0
    for _ in range(steps // GAMES):
        x = observations.reshape(GAMES, -1).astype(float)
        masks = infos["action_mask"]
        logits = np.where(masks, x @ weights, -1e9)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        actions = (p.cumsum(axis=1) > rng.random((GAMES, 1))).argmax(axis=1)
        movers = infos["current_player"] if self_play else np.zeros(GAMES, int)
        score = -p
        score[np.arange(GAMES), actions] += 1
        for i in range(GAMES):
            played[i].append((x[i], score[i], int(movers[i])))
        observations, rewards, ended, _, infos = envs.step(actions)
        for i in np.flatnonzero(ended):
            reward = infos["rewards"][i] if self_play else (rewards[i], -rewards[i])
            for cells, direction, side in played[i]:
                gradient += reward[side] * np.outer(cells, direction)
            played[i] = []
            episodes += 1
        if episodes >= GAMES:
            weights += 0.05 * gradient / episodes
            gradient[:], episodes = 0.0, 0
    return weights


def greedy(weights: Any) -> Any:
    def policy(observation: Any, mask: Any) -> int:
        return int(np.where(mask, observation.reshape(-1) @ weights, -1e9).argmax())

    return policy


@pytest.mark.parametrize("self_play", [False, True])
def test_reinforce_learns_on_the_vector_env(self_play: bool) -> None:
    if self_play:
        envs: Any = SelfPlayVectorEnv(GAMES, reward="win", autoreset_mode="same_step")
    else:
        envs = BattleVectorEnv(GAMES, opponent=1, reward="win", autoreset_mode="same_step")
    weights = reinforce(envs, 40_000, self_play=self_play)
    before = evaluate(greedy(np.zeros((CELLS, PILES))), episodes=300, opponents=[1], seed=5)
    after = evaluate(greedy(weights), episodes=300, opponents=[1], seed=5)
    assert after.regret.high < before.regret.low, (before.regret, after.regret)
    assert after.win_rate["level 1"].mean > before.win_rate["level 1"].mean
