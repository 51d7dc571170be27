"""A search on a fresh transposition table: the time to make the table and the time of
the solve, on one and on two threads, each in a fresh process, so that every page of the
table is new to it.

    python benches/fresh_table.py [--rounds 5] [--per-colour 8] [--seeds 0,1,2]
                                  [--mb 256] [--before PATH]

``--before`` names another build's ``python/`` folder (the code before a change): the
two builds are then measured in alternated rounds. Prints the medians and spreads of
the table's making and of the solve, by build and threads.
"""

from __future__ import annotations

import argparse
import time

from bench_tools import alternated, in_process, spread


def timings(per_colour: int, seeds: list[int], threads: int, mb: float) -> list[float]:
    """In this process: the seconds to make a searcher of ``mb`` MiB on ``threads``
    threads, then to solve each seed's start on it afresh (a new searcher each)."""
    import buttonup

    made = solved = 0.0
    for seed in seeds:
        position = buttonup.Position.random(seed=seed, per_colour=per_colour)
        start = time.perf_counter()
        searcher = buttonup.Searcher(tt_mb=mb, threads=threads)
        middle = time.perf_counter()
        searcher.solve(position)
        end = time.perf_counter()
        made += middle - start
        solved += end - middle
        del searcher
    return [made, solved]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-colour", type=int, default=8)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--mb", type=float, default=256)
    parser.add_argument("--before", help="another build's python/ folder")
    args = parser.parse_args()
    seeds = [int(seed) for seed in args.seeds.split(",")]
    builds = (
        {"this build": None}
        if args.before is None
        else {
            "before": args.before,
            "after": None,
        }
    )
    print(f"{args.per_colour} of each colour, seeds {args.seeds}, a fresh {args.mb:g} MiB table")
    print("| build | threads | table made (s) | solves (s) | in all (s) |")
    print("|---|---:|---:|---:|---:|")
    for threads in (1, 2):
        rounds = alternated(
            args.rounds,
            builds,
            lambda path, threads=threads: in_process(
                __file__, "timings", [args.per_colour, seeds, threads, args.mb], path
            ),
        )
        for name, results in rounds.items():
            made = [r[0] for r in results]
            solved = [r[1] for r in results]
            total = [r[0] + r[1] for r in results]
            print(f"| {name} | {threads} | {spread(made)} | {spread(solved)} | {spread(total)} |")


if __name__ == "__main__":
    main()
