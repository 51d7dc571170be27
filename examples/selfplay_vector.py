"""Self-play REINFORCE on SelfPlayVectorEnv, NumPy only, and its speed against
Gymnasium's SyncVectorEnv of the single environment.

    python examples/selfplay_vector.py [--seconds 20] [--games 256] [--augment]
    python examples/selfplay_vector.py --compare [--seconds 4] [--rounds 3]

One linear softmax policy (the mover's 243 observation cells to 9 pile logits, illegal
piles masked) plays both sides of ``--games`` battles at once. Every ``--window`` steps
:func:`buttonup.envs.vector.credit_sides` gives each move the final result of its
battle from the side that made it (+1 won, -1 lost, 0 drawn), and one REINFORCE step
follows on every move of the battles that ended. ``--augment`` adds each move again
with the circle turned by a random shift (:mod:`buttonup.envs.augment`: the same
position, so the same return). At the end the greedy policy is measured exactly
against levels 1 and 5 (``buttonup.envs.evaluate``), before and after.

``--compare`` runs the same learning on ``gymnasium.vector.SyncVectorEnv`` of
``--games`` single environments (``SelfPlayEnv``, whose opponent hook is the same policy,
its moves recorded and credited too, so that both forms learn from every move of both
sides), the two forms alternated in ``--rounds`` rounds of ``--seconds`` each, and prints
the moves per second of each (both sides' moves, policy and learning included; making
the environments outside the timings). Both run on one thread: the Rust batch with
``threads=1``, NumPy with one BLAS thread. docs/rl.md reports a run.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

# One BLAS thread, set before NumPy loads: the products here are small, and on a loaded
# machine BLAS's threads only wait on each other (one run: 26,000 to 127,000 moves/s
# in the vector loop with them, 210,000 to 303,000 without).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from buttonup.envs import evaluate  # noqa: E402
from buttonup.envs.augment import pile_count, rotate_action, rotate_mask, rotate_observation  # noqa: E402
from buttonup.envs.selfplay import OpponentPool, SelfPlayEnv  # noqa: E402
from buttonup.envs.vector import SelfPlayVectorEnv, credit_sides  # noqa: E402

CELLS, PILES = 243, 9


class Policy:
    """A linear softmax policy over the legal piles, learnt by REINFORCE."""

    def __init__(self, rate: float, augment: bool, seed: int) -> None:
        self.weights = np.zeros((CELLS, PILES))
        self.rate = rate
        self.augment = augment
        self.rng = np.random.default_rng(seed)

    def probabilities(self, observations: Any, masks: Any) -> Any:
        x = observations.reshape(len(observations), CELLS)
        logits = np.where(masks, x @ self.weights, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def sample(self, observations: Any, masks: Any) -> Any:
        p = self.probabilities(observations, masks)
        return (p.cumsum(axis=1) > self.rng.random((len(p), 1))).argmax(axis=1)

    def choose(self, observation: Any, mask: Any) -> int:
        return int(self.sample(observation[None], mask[None])[0])

    def greedy(self, observation: Any, mask: Any) -> int:
        return int(np.where(mask, observation.reshape(-1) @ self.weights, -np.inf).argmax())

    def learn(self, observations: Any, masks: Any, actions: Any, returns: Any) -> None:
        """One REINFORCE step on these moves: the gradient of the log-probability of
        each action, weighted by its return, averaged."""
        if not len(actions):
            return
        if self.augment:
            shifts = self.rng.integers(0, PILES, len(actions))
            piles = pile_count(observations)
            observations = np.concatenate([observations, rotate_observation(observations, shifts)])
            masks = np.concatenate([masks, rotate_mask(masks, shifts, piles)])
            actions = np.concatenate([actions, rotate_action(actions, shifts, piles)])
            returns = np.concatenate([returns, returns])
        p = self.probabilities(observations, masks)
        direction = -p
        direction[np.arange(len(actions)), actions] += 1.0
        x = observations.reshape(len(actions), CELLS).astype(float)
        self.weights += self.rate * (x.T @ (returns[:, None] * direction)) / len(actions)


class VectorLoop:
    """Self-play on :class:`SelfPlayVectorEnv`: one call steps every game."""

    def __init__(self, policy: Policy, games: int, window: int, seed: int) -> None:
        self.policy, self.games, self.window = policy, games, window
        self.envs = SelfPlayVectorEnv(games, reward="win", threads=1)
        self.observations, self.infos = self.envs.reset(seed=seed)
        self.waiting = np.zeros(games, bool)

    def run(self, seconds: float) -> int:
        """Windows of steps, each followed by its learning, for ``seconds``; the moves
        played (next-step restarts are not moves)."""
        moves, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            shape = (self.window, self.games)
            seen = np.empty((*shape, 9, 9, 3), np.int8)
            masks = np.empty((*shape, PILES), bool)
            actions = np.empty(shape, np.int64)
            players = np.empty(shape, np.int8)
            rewards = np.empty((*shape, 2), np.float32)
            ended = np.empty(shape, bool)
            for t in range(self.window):
                seen[t], masks[t] = self.observations, self.infos["action_mask"]
                players[t] = self.infos["current_player"]
                actions[t] = self.policy.sample(seen[t], masks[t])
                self.observations, _, ended[t], _, self.infos = self.envs.step(actions[t])
                rewards[t] = self.infos["rewards"]
            credit = credit_sides(players, rewards, ended, waiting=self.waiting)
            restarts = np.concatenate([self.waiting[None], ended[:-1]])
            moves += int((~restarts).sum())
            self.waiting = ended[-1]
            chosen = credit.moved
            self.policy.learn(seen[chosen], masks[chosen], actions[chosen], credit.own[chosen])
        return moves


class SyncLoop:
    """The same learning on Gymnasium's SyncVectorEnv of ``SelfPlayEnv``: the agent's
    moves batched across the games, the opponent's (the same policy, through the
    environment's opponent hook) one call a move inside each game's ``step``."""

    def __init__(self, policy: Policy, games: int, batch: int, seed: int) -> None:
        self.policy, self.games, self.batch = policy, games, batch
        self.theirs: list[list[tuple[Any, Any, int]]] = [[] for _ in range(games)]
        self.envs = gymnasium.vector.SyncVectorEnv([self._maker(i) for i in range(games)])
        self.observations, self.infos = self.envs.reset(seed=seed)
        self.mine: list[list[tuple[Any, Any, int]]] = [[] for _ in range(games)]
        self.samples: list[tuple[Any, Any, int, float]] = []
        self.waiting = np.zeros(games, bool)

    def _maker(self, i: int) -> Any:
        def opponent(observation: Any, mask: Any) -> int:
            action = self.policy.choose(observation, mask)
            self.theirs[i].append((observation, mask, action))
            return action

        return lambda: SelfPlayEnv(OpponentPool([opponent]), reward="win")

    def run(self, seconds: float) -> int:
        moves, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            masks = self.infos["action_mask"]
            # A game that ended on the last step resets on this one, its action
            # ignored; its mask is empty meanwhile.
            masks = np.where(self.waiting[:, None], True, masks)
            actions = self.policy.sample(self.observations, masks)
            before = sum(len(t) for t in self.theirs)
            for i in np.flatnonzero(~self.waiting):
                self.mine[i].append((self.observations[i], masks[i], int(actions[i])))
            moves += int((~self.waiting).sum())
            self.observations, rewards, ended, _, self.infos = self.envs.step(actions)
            moves += sum(len(t) for t in self.theirs) - before
            for i in np.flatnonzero(ended):
                for cells, mask, action in self.mine[i]:
                    self.samples.append((cells, mask, action, float(rewards[i])))
                for cells, mask, action in self.theirs[i]:
                    self.samples.append((cells, mask, action, -float(rewards[i])))
                self.mine[i], self.theirs[i] = [], []
            self.waiting = ended
            if len(self.samples) >= self.batch:
                cells, mask, action, value = zip(*self.samples)
                self.policy.learn(
                    np.stack(cells), np.stack(mask), np.array(action), np.array(value)
                )
                self.samples = []
        return moves


def measured(policy: Policy, label: str) -> str:
    result = evaluate(policy.greedy, episodes=300, opponents=[1, 5], seed=5)
    return (
        f"{label}: regret per move {result.regret.mean:.3f}, won against level 1 "
        f"{result.win_rate['level 1'].mean:.3f}, against level 5 "
        f"{result.win_rate['level 5'].mean:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--games", type=int, default=256)
    parser.add_argument("--window", type=int, default=32)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--augment", action="store_true")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.compare:
        seconds = 4.0 if args.seconds is None else args.seconds
        fast = VectorLoop(Policy(args.rate, args.augment, args.seed), args.games, args.window, 1)
        # The same number of moves between learning steps as a vector window holds.
        slow = SyncLoop(
            Policy(args.rate, args.augment, args.seed), args.games, args.games * args.window, 1
        )
        for round_ in range(1, args.rounds + 1):
            start = time.perf_counter()
            vector = fast.run(seconds) / (time.perf_counter() - start)
            start = time.perf_counter()
            sync = slow.run(seconds) / (time.perf_counter() - start)
            print(
                f"round {round_}: SelfPlayVectorEnv {vector:,.0f} moves/s, "
                f"SyncVectorEnv {sync:,.0f} moves/s, ratio {vector / sync:.1f}x",
                flush=True,
            )
        return
    seconds = 20.0 if args.seconds is None else args.seconds
    policy = Policy(args.rate, args.augment, args.seed)
    print(measured(policy, "untrained"), flush=True)
    loop = VectorLoop(policy, args.games, args.window, args.seed)
    start = time.perf_counter()
    moves = loop.run(seconds)
    took = time.perf_counter() - start
    print(f"trained on {moves:,} moves in {took:.1f} s ({moves / took:,.0f} moves/s)")
    print(measured(policy, "trained"))


if __name__ == "__main__":
    main()
