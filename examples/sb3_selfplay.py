"""Self-play with Stable-Baselines3 at batch speed: sb3-contrib's MaskablePPO on
``BattleVecEnv``, its opponent a frozen copy of the model (asked once a step for every
game where it is to move, its moves played in Rust), the copy refreshed every
``--refresh`` steps; then the ``evaluate`` row of the model (docs/rl.md, "Self-play with
Stable-Baselines3").

    python examples/sb3_selfplay.py [--steps 200000] [--games 64] [--refresh 20000] [--seed 1]

The agent plays Red and the copy Black; the observation is the mover's own view (its
buttons, the other's, the white ones), so one policy plays either side. Needs the
``sb3`` extra.
"""

from __future__ import annotations

import argparse
import copy
import time
from typing import Any


def frozen(model: Any) -> Any:
    """A copy of ``model``'s policy as a batched opponent: the legal pile of its highest
    logit in every game it is asked about."""
    from buttonup.envs.batch_players import sb3_policy

    policy = copy.deepcopy(model.policy)
    policy.set_training_mode(False)
    return sb3_policy(policy, name=f"copy at {model.num_timesteps} steps")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--refresh", type=int, default=20_000, help="steps between copies")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--episodes", type=int, default=500, help="evaluate's battles")
    args = parser.parse_args()

    import torch
    from buttonup.envs import evaluate
    from buttonup.envs.sb3 import BattleVecEnv
    from buttonup.players import first_legal
    from stable_baselines3.common.callbacks import BaseCallback
    from train_baseline import maskable_ppo  # examples/, beside this script

    torch.set_num_threads(1)
    # The first opponent plays the first legal pile; the model's copy replaces it.
    envs = BattleVecEnv(args.games, opponent=first_legal, seed=args.seed, threads=1)
    model = maskable_ppo(envs, args.seed)  # the shipped baseline's settings
    envs.set_opponent(frozen(model))

    class Refresh(BaseCallback):  # type: ignore[misc]
        """Copies the model into the opponent every ``--refresh`` steps."""

        def __init__(self) -> None:
            super().__init__()
            self.last = 0
            self.copies = 1

        def _on_step(self) -> bool:
            if self.num_timesteps - self.last >= args.refresh:
                envs.set_opponent(frozen(self.model))
                self.last = self.num_timesteps
                self.copies += 1
            return True

    refresh = Refresh()
    started = time.perf_counter()
    model.learn(args.steps, callback=refresh)
    elapsed = time.perf_counter() - started
    print(
        f"trained {model.num_timesteps:,} steps in {elapsed:.1f} s "
        f"({model.num_timesteps / elapsed:,.0f} steps/s, policy updates included), "
        f"{refresh.copies} copies of the model as the opponent"
    )
    report = evaluate(model, episodes=args.episodes, opponents=[1, 5, 9], seed=0)
    print(report.row(f"MaskablePPO self-play, seed {args.seed}, {model.num_timesteps:,} steps"))


if __name__ == "__main__":
    main()
