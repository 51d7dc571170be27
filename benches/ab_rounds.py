"""Whole-process A/B rounds of the hot calls, for a change that must be "no slower".

    python benches/ab_rounds.py --rounds 6 --before /path/to/old/python

runs this script's timings in a fresh process for the build before (``--before``, a
checkout's ``python/`` folder with its built ``_core``) and for this one, alternated
(benches/bench_tools.py), and prints the minimum of each figure over the rounds and the
ratio after/before. The timed calls use only API that every version has: perft to
the end of every standard start, 300,000 playouts on one thread, 1,680 ``solve`` calls,
and 20,000 ``play`` steps with ``legal_moves`` from Python.
"""

from __future__ import annotations

import argparse
import time

from bench_tools import alternated, in_process


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
    parser.add_argument("--before", required=True, help="the python/ folder of the older build")
    args = parser.parse_args()
    builds = {"before": args.before, "after": None}
    runs = alternated(args.rounds, builds, lambda path: in_process(__file__, "timings", [], path))
    print("| work | before (min) | after (min) | after / before |")
    print("|---|---:|---:|---:|")
    for name in runs["before"][0]:
        a = min(run[name] for run in runs["before"])
        b = min(run[name] for run in runs["after"])
        print(f"| {name} | {a * 1000:.2f} ms | {b * 1000:.2f} ms | {b / a:.3f} |")


if __name__ == "__main__":
    main()
