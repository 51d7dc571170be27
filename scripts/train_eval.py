"""Trains the learned horizon estimate of limited searches (src/search/learned.rs) on
exact values, and writes its weights (src/search/learned_weights.rs).

    python scripts/train_eval.py            # label, fit, write (about 10 min on 2 cores)
    python scripts/train_eval.py --refit    # fit the stored labels again, write

The labelled positions: random plies from random starts of 4 to 10 buttons of each
colour, down to 3 to 21 piles (every pile count alike), each solved exactly. They are
stored, with their values, in scripts/eval_positions.txt.gz; the fit is a ridge
regression (NumPy) of the exact final margin, Red minus Black, on the features that
the core computes (read through scripts/eval_features.rs, built here when missing).
Seeded throughout: the same command writes the same file. Positions whose index is a
multiple of 5 are held out of the fit, and the mean absolute errors of both estimates
on them are printed and written in the weights' file. tests/search/test_learned_eval.py
checks that the shipped weights are the fit of the stored labels, and some labels
against the solver.
"""

from __future__ import annotations

import argparse
import gzip
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from buttonup import Player, Position, solve_many

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "scripts" / "eval_positions.txt.gz"
WEIGHTS = ROOT / "src" / "search" / "learned_weights.rs"
EXAMPLE = ROOT / "target" / "release" / "examples" / "eval_features"
SIZES = range(4, 11)
PILES = range(3, 22)
HELD_OUT = 5
RIDGE = 1.0


def positions(count: int, seed: int) -> list[Position]:
    """``count`` positions, each a random start played at random down to a pile count
    drawn uniformly from PILES (or less, where the start is smaller)."""
    made = []
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + i)
        size = rng.choice(SIZES)
        position = Position.random(rng.getrandbits(64), per_colour=size)
        piles = rng.choice(PILES)
        while len(position.piles) > piles and not position.is_over:
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over:
            made.append(position)
    return made


def red_value(position: Position, value: int) -> int:
    """The final margin (Red minus Black) of a value for the side to move."""
    return value if position.to_move == Player.RED else -value


def estimates(notations: list[str]) -> list[tuple[int, int, list[float]]]:
    """Each unfinished position's two estimates of the final margin, Red minus Black
    (learned, projection), and the learned one's features, as the core computes them."""
    if not EXAMPLE.exists():
        build = ["cargo", "build", "--release", "--quiet", "--features", "training"]
        subprocess.run([*build, "--example", "eval_features"], cwd=ROOT, check=True)
    done = subprocess.run(
        [str(EXAMPLE)], input="\n".join(notations) + "\n", capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"examples/eval_features failed: {done.stderr.strip()}")
    found = []
    for notation, line in zip(notations, done.stdout.splitlines()):
        words = line.split()
        if words[0] in ("over", "error"):
            raise ValueError(f"{notation}: {line}")
        found.append((int(words[0]), int(words[1]), [float(w) for w in words[2:]]))
    return found


def label(count: int, seed: int) -> list[tuple[str, int]]:
    made = positions(count, seed)
    started = time.perf_counter()
    values = solve_many(made)
    print(f"solved {len(made)} positions in {time.perf_counter() - started:.0f} s")
    return [(str(p), red_value(p, v)) for p, v in zip(made, values)]


def read(path: Path = DATA) -> list[tuple[str, int]]:
    rows = []
    with gzip.open(path, "rt", encoding="ascii") as lines:
        for line in lines:
            notation, value = line.rstrip("\n").split("\t")
            rows.append((notation, int(value)))
    return rows


def write(rows: list[tuple[str, int]], path: Path = DATA) -> None:
    # mtime=0: the same rows, the same bytes.
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write("".join(f"{n}\t{v}\n" for n, v in rows).encode("ascii"))


def fit(rows: list[tuple[str, int]]) -> tuple[np.ndarray, dict[str, float]]:
    """The ridge fit on the rows not held out, and both estimates' errors on the others."""
    features = np.array([f for _, _, f in estimates([n for n, _ in rows])], dtype=np.float64)
    values = np.array([v for _, v in rows], dtype=np.float64)
    held = np.arange(len(rows)) % HELD_OUT == 0
    x, y = features[~held], values[~held]
    scale = np.maximum(np.abs(x).max(axis=0), 1.0)  # the ridge penalty, per unit of scale
    xs = x / scale
    weights = np.linalg.solve(xs.T @ xs + RIDGE * np.eye(xs.shape[1]), xs.T @ y) / scale
    weights = weights.astype(np.float32)
    learned = np.rint(features[held].astype(np.float32) @ weights)
    projection = features[held][:, 0]  # the first feature is the projection itself
    errors = {
        "train": float(len(y)),
        "held_out": float(held.sum()),
        "learned": float(np.abs(learned - values[held]).mean()),
        "projection": float(np.abs(projection - values[held]).mean()),
    }
    return weights, errors


def weights_file(weights: np.ndarray, errors: dict[str, float]) -> str:
    # The shortest decimal that reads back as the same f32 (numpy's repr of a float32).
    numbers = ",\n".join(
        f"    {np.format_float_positional(w, unique=True, trim='0')}" for w in weights
    )
    return (
        "//! Written by `python scripts/train_eval.py`: the weights of the learned horizon\n"
        f"//! estimate, fitted on {int(errors['train'])} exactly solved positions; on"
        f" {int(errors['held_out'])} held out, the\n"
        f"//! mean absolute error of the final margin is {errors['learned']:.2f} (the"
        f" projection's {errors['projection']:.2f}).\n\n"
        "/// One weight a feature, in the order of `learned::features`.\n"
        f"pub(super) const WEIGHTS: [f32; {len(weights)}] = [\n{numbers},\n];\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=12_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--refit", action="store_true", help="fit the stored labels again")
    args = parser.parse_args(argv)
    if args.refit:
        rows = read()
    else:
        rows = label(args.positions, args.seed)
        write(rows)
    weights, errors = fit(rows)
    WEIGHTS.write_text(weights_file(weights, errors), encoding="utf-8")
    print(
        f"{int(errors['train'])} positions fitted, {int(errors['held_out'])} held out: "
        f"mean absolute error {errors['learned']:.2f} (projection {errors['projection']:.2f}); "
        f"wrote {WEIGHTS.relative_to(ROOT)}: rebuild the extension to use them"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
