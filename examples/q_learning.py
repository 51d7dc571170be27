"""Tabular Q-learning on VecEnv against random play, then matches against level 1.

    python examples/q_learning.py [--seconds 30] [--games 4096] [--matches 200]

Every game of the batch seats the learner on one side (even games Red, odd games Black)
and a uniformly random player on the other. The learner's table maps an observation
(the mover's view, so one table serves both colours) and a pile to the mean final margin
seen after that choice (every-visit Monte Carlo). It acts epsilon-greedily while it
learns, greedily afterwards, and plays a uniformly random move in a position it never
met. At the end it plays ``--matches`` matches to 15 points against ``bot(1)`` (colours
alternated) and prints its win rate with a 95% interval. docs/rl.md reports a run.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import buttonup
import numpy as np
from buttonup import Match, Player, Position
from buttonup.ai import bot
from buttonup.envs import observation


class Learner:
    """The table and the policy."""

    def __init__(self) -> None:
        self.total: dict[bytes, np.ndarray] = {}
        self.count: dict[bytes, np.ndarray] = {}
        self.rng = random.Random(0)
        self.name = "q-learner"

    def values(self, key: bytes, width: int) -> tuple[np.ndarray, np.ndarray]:
        if key not in self.total:
            self.total[key] = np.zeros(width)
            self.count[key] = np.zeros(width)
        return self.total[key], self.count[key]

    def act(self, key: bytes, mask: np.ndarray, epsilon: float) -> int:
        legal = np.flatnonzero(mask)
        if key not in self.total or self.rng.random() < epsilon:
            return int(self.rng.choice(legal.tolist()))
        total, count = self.total[key], self.count[key]
        mean = np.where(count > 0, total / np.maximum(count, 1), 0.0)
        best = legal[np.argmax(mean[legal])]
        return int(best)

    # The buttonup.ai.Bot interface, for matches.
    def choose(self, position: Position, match: Match | None = None) -> int:
        key = observation(position, position.to_move).tobytes()
        mask = np.zeros(len(position.piles) + 1, bool)
        mask[position.legal_moves()] = True
        return self.act(key, mask, 0.0)

    def choose_starter(self, match: Match) -> Player:
        return match.chooser or Player.RED


def train(learner: Learner, games: int, seconds: float) -> int:
    env = buttonup.VecEnv(games, seed=1)
    learner_side = np.arange(games) % 2  # 0: the learner is Red in this game
    episodes: list[list[tuple[bytes, int]]] = [[] for _ in range(games)]
    rng = np.random.default_rng(0)
    battles, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        epsilon = max(0.05, 1.0 - (time.perf_counter() - started) / (0.6 * seconds))
        masks, obs, movers = env.legal_action_mask, env.observation, env.current_player
        actions = np.zeros(games, np.int64)
        for i in range(games):
            legal = np.flatnonzero(masks[i])
            if legal.size == 0:
                continue  # finished: the next step starts a new battle
            if movers[i] == learner_side[i]:
                key = obs[i].tobytes()
                actions[i] = learner.act(key, masks[i], epsilon)
                episodes[i].append((key, int(actions[i])))
            else:
                actions[i] = legal[rng.integers(legal.size)]
        env.step(actions)
        for i in np.flatnonzero(env.terminated):
            reward = float(env.rewards[i, learner_side[i]])
            for key, action in episodes[i]:
                total, count = learner.values(key, masks.shape[1])
                total[action] += reward
                count[action] += 1
            episodes[i] = []
            battles += 1
    return battles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--games", type=int, default=4096)
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    learner = Learner()
    started = time.perf_counter()
    battles = train(learner, args.games, args.seconds)
    print(
        f"trained on {battles:,} battles in {time.perf_counter() - started:.1f} s; "
        f"{len(learner.total):,} positions in the table"
    )
    wins = 0
    for index in range(args.matches):
        match = Match(Player.RED, seed=index)
        players = {Player.RED: learner, Player.BLACK: bot(1, seed=index)}
        if index % 2:
            players = {Player.RED: bot(1, seed=index), Player.BLACK: learner}
        while not match.is_over:
            if match.chooser is not None:
                match.choose_starter(players[match.chooser].choose_starter(match))
            else:
                match.play(players[match.to_move].choose(match.position, match))
        wins += players[match.winner] is learner
    n, p = args.matches, wins / args.matches
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print(
        f"matches won against level 1: {wins}/{n} = {p:.3f} "
        f"(95% interval {centre - half:.3f}-{centre + half:.3f})"
    )


if __name__ == "__main__":
    main()
