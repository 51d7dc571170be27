"""Whole-process A/B rounds of the hot calls, for a change that must be "no slower".

    python benches/ab_rounds.py --rounds 6 --a /path/to/old/python

runs this script's timings in a fresh process for A (``PYTHONPATH`` set to ``--a``, a
tree holding an older ``buttonup`` package with its built ``_core``) and for B (the
``buttonup`` installed here), alternated, and prints the minimum of each figure over the
rounds and the ratio B/A. The timed calls use only API that every version has: perft to
the end of every standard start, 300,000 playouts on one thread, 1,680 ``solve`` calls,
and 20,000 ``play`` steps with ``legal_moves`` from Python.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def timings() -> dict[str, float]:
    import buttonup

    starts = [buttonup.Position.start(order) for order in buttonup.start_orders(3)]
    buttonup.random_playouts(1, seed=0, threads=1)  # the move graph, built once

    def best(work: object) -> float:
        fastest = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            work()  # type: ignore[operator]
            fastest = min(fastest, time.perf_counter() - started)
        return fastest

    def steps() -> None:
        p = starts[0]
        for _ in range(20_000):
            p = starts[0] if p.is_over else p.play(p.legal_moves()[0])

    return {
        "perft to the end of all 1,680 starts": best(
            lambda: [buttonup.perft(p, 8) for p in starts]
        ),
        "300,000 playouts, move graph, 1 thread": best(
            lambda: buttonup.random_playouts(300_000, seed=1, threads=1)
        ),
        "1,680 solve calls": best(lambda: [buttonup.solve(p) for p in starts]),
        "20,000 play + legal_moves calls": best(steps),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--a", required=True, help="PYTHONPATH of the older package (A)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(timings()))
        return
    # Here, not at the top: the child imports this file on build A, which may not have it.
    import processes

    runs: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    for _ in range(args.rounds):
        for side in ("A", "B"):
            env = dict(os.environ)
            if side == "A":
                env["PYTHONPATH"] = args.a
            else:
                env.pop("PYTHONPATH", None)
            command = [sys.executable, __file__, "--child", "--a", args.a]
            done = processes.run(command, env=env, capture_output=True, text=True, check=True)
            runs[side].append(json.loads(done.stdout))
    print("| work | A (min) | B (min) | B / A |")
    print("|---|---:|---:|---:|")
    for name in runs["A"][0]:
        a = min(run[name] for run in runs["A"])
        b = min(run[name] for run in runs["B"])
        print(f"| {name} | {a * 1000:.2f} ms | {b * 1000:.2f} ms | {b / a:.3f} |")


if __name__ == "__main__":
    main()
