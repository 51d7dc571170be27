"""The exact evaluation table of docs/rl.md: each built-in level (level 1 is uniformly
random) and (with --train or --model) a MaskablePPO policy trained on the SB3 adapter,
measured by ``buttonup.envs.evaluate`` (regret per move, optimal share, win rates).

    python benches/rl_eval.py [--episodes N] [--train SECONDS] [--model PATH]

--train trains MaskablePPO (MlpPolicy) on ``BattleVecEnv(64, opponent=...)`` for that
many seconds of wall time (one torch thread), saves it to --model and evaluates it;
--model alone evaluates a saved one. Needs the ``sb3`` extra for the model.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from buttonup.envs import evaluate

OPPONENTS = (1, 5, 9)


def train(seconds: float, path: str, opponent: int, seed: int) -> Any:
    import torch
    from buttonup.envs.sb3 import BattleVecEnv
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)

    class Deadline(BaseCallback):  # type: ignore[misc]
        def __init__(self, until: float) -> None:
            super().__init__()
            self.until = until

        def _on_step(self) -> bool:
            return time.perf_counter() < self.until

    envs = BattleVecEnv(64, opponent=opponent, seed=seed)
    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=128, batch_size=1024, n_epochs=4, gamma=1.0, seed=seed
    )
    started = time.perf_counter()
    model.learn(10**9, callback=Deadline(started + seconds))
    elapsed = time.perf_counter() - started
    print(f"trained {model.num_timesteps:,} steps in {elapsed:.0f} s against level {opponent}")
    model.save(path)
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000, help="battles per opponent")
    parser.add_argument("--train", type=float, default=0.0, help="seconds of training")
    parser.add_argument("--model", default="", help="where the trained model is saved")
    parser.add_argument("--opponent", type=int, default=1, help="the training opponent")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    model = None
    if args.train > 0:
        model = train(args.train, args.model or "target/maskable_ppo", args.opponent, args.seed)
    elif args.model:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(args.model)
    players: dict[str, Any] = {f"level {level}": level for level in range(1, 10)}
    if model is not None:
        players["MaskablePPO (this run)"] = model
    names = " | ".join(f"wins against level {o}" for o in OPPONENTS)
    print(f"{args.episodes} battles against each opponent, 95% intervals")
    print(f"| policy | regret per move | optimal moves | {names} |")
    print("|---" * (3 + len(OPPONENTS)) + "|")
    for name, player in players.items():
        started = time.perf_counter()
        report = evaluate(player, episodes=args.episodes, opponents=OPPONENTS, seed=args.seed)
        print(report.row(name), flush=True)
        # The time goes aside, so that stdout is the table as docs/rl.md shows it.
        print(f"{name}: {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
