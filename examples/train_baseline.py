"""Trains the shipped baseline policy (docs/rl.md, "A shipped baseline"): sb3-contrib's
MaskablePPO, ``MlpPolicy``, on ``BattleVecEnv(64, opponent=1)`` for a fixed number of
steps from a fixed seed, on one torch thread; writes the SB3 zip and the same policy as
ONNX (its action logits: ``buttonup.players``' ONNX form), then the ``evaluate``
row of the zip.

    python examples/train_baseline.py --seed 1 [--steps 3000000] [--out examples/baseline]

Needs the ``sb3`` extra, and ``onnx`` for the ONNX file (skipped without it).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any


def maskable_ppo(envs: Any, seed: int) -> Any:
    """The baseline's MaskablePPO (``MlpPolicy``, on the CPU) on ``envs``
    (examples/sb3_selfplay.py trains with the same settings)."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=128,
        batch_size=1024,
        n_epochs=4,
        gamma=1.0,
        seed=seed,
        device="cpu",
    )


def progress(total: int, every: float = 0.05) -> Any:
    """A callback that says on standard error how far training is, every ``every`` of
    ``total`` steps: the steps so far, the time taken and the time left at this rate."""
    import sys

    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):  # type: ignore[misc]
        def _on_training_start(self) -> None:
            self.started = time.perf_counter()
            self.every = max(1, int(total * every))
            self.next, self.said = self.every, 0

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.say()
                self.next += self.every
            return True

        def _on_training_end(self) -> None:
            if self.said != self.num_timesteps:  # the last line, if not said yet
                self.say()

        def say(self) -> None:
            self.said = self.num_timesteps
            done = self.num_timesteps / total
            spent = time.perf_counter() - self.started
            left = spent * max(0.0, 1 - done) / done
            print(
                f"{self.num_timesteps:,} of {total:,} steps ({done:.0%}), "
                f"{spent:.0f} s, about {left:.0f} s left",
                file=sys.stderr,
                flush=True,
            )

    return Progress()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=3_000_000)
    parser.add_argument("--opponent", type=int, default=1, help="the level trained against")
    parser.add_argument("--out", type=Path, default=Path("examples/baseline"))
    parser.add_argument("--episodes", type=int, default=1000, help="evaluate's battles")
    args = parser.parse_args()

    import torch
    from buttonup.envs import evaluate
    from buttonup.envs.sb3 import BattleVecEnv

    torch.set_num_threads(1)
    envs = BattleVecEnv(64, opponent=args.opponent, seed=args.seed, threads=1)
    model = maskable_ppo(envs, args.seed)
    started = time.perf_counter()
    model.learn(args.steps, callback=progress(args.steps))
    elapsed = time.perf_counter() - started
    print(f"trained {model.num_timesteps:,} steps in {elapsed:.0f} s against level {args.opponent}")
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"maskable_ppo_seed{args.seed}"
    # The optimiser's state is not needed to play: the zip keeps the policy's weights.
    model.save(stem.with_suffix(".zip"), exclude=["policy.optimizer"])
    try:
        export_onnx(model, stem.with_suffix(".onnx"))
    except ImportError as error:
        print(f"no ONNX file ({error})")
    print(f"evaluating {stem}.zip: {args.episodes:,} battles against levels 1, 5 and 9")
    report = evaluate(f"{stem}.zip", episodes=args.episodes, opponents=[1, 5, 9])
    print(report.row(f"MaskablePPO baseline, seed {args.seed}, {model.num_timesteps:,} steps"))


def export_onnx(model: object, path: Path) -> None:
    """The policy's action logits as ONNX: input ``observation`` (float32, ``(B, N, N,
    3)``), output ``logits`` (``(B, N)``)."""
    import onnx  # noqa: F401 (torch's exporter needs it)
    import torch

    policy = model.policy  # type: ignore[attr-defined]

    class Logits(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.policy = policy

        def forward(self, observation: torch.Tensor) -> torch.Tensor:
            features = self.policy.extract_features(observation, self.policy.pi_features_extractor)
            latent = self.policy.mlp_extractor.forward_actor(features)
            return self.policy.action_net(latent)  # type: ignore[no-any-return]

    shape = (1, *policy.observation_space.shape)
    torch.onnx.export(
        Logits().eval(),
        (torch.zeros(shape, dtype=torch.float32),),
        str(path),
        input_names=["observation"],
        output_names=["logits"],
        dynamic_axes={"observation": {0: "batch"}, "logits": {0: "batch"}},
        dynamo=False,
    )


if __name__ == "__main__":
    main()
