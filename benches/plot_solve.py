"""Exact-solve time and positions visited against buttons per colour, for both engines:
``python benches/plot_solve.py [--out docs/solve_scaling.png]`` (needs matplotlib).

Each point solves the start ``Position.random(seed=1, per_colour=n)`` in a fresh process.
The reference is run where it finishes in reasonable time (3 to 5 of each colour)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from buttonup.cli.bench import solve_variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/solve_scaling.png"))
    args = parser.parse_args()
    sizes = {"rust": [3, 4, 5, 6], "reference": [3, 4, 5]}
    figures = {engine: {n: solve_variant(n, engine) for n in ns} for engine, ns in sizes.items()}
    print(json.dumps(figures, indent=2))
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    labels = {
        "rust": "Rust (alpha-beta, 16 MiB table)",
        "reference": "Python reference (memoised minimax)",
    }
    for engine, points in figures.items():
        ns = sorted(points)
        left.plot(ns, [points[n]["seconds"] for n in ns], "o-", label=labels[engine])
        right.plot(ns, [points[n]["positions"] for n in ns], "o-", label=labels[engine])
    for axis, title in ((left, "exact solve time (s)"), (right, "positions visited")):
        axis.set_yscale("log")
        axis.set_xlabel("buttons of each colour")
        axis.set_xticks([3, 4, 5, 6])
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
    left.legend(fontsize=8)
    fig.suptitle("Solving one start exactly (seed 1)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
