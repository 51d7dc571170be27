"""How long would ``buttonup solve-all --per-colour N`` take? Solves a seeded random
sample of the variant's classes of starts (``start_classes``: one start solved per
class, with Red to move), one thread and two threads per batch, each in a fresh process
(so no run finds the last one's table), alternated in rounds, and projects the whole
job from the sample: wall time on this machine and CPU-hours for a cluster. It also
prints the sample's values, to estimate the variant's value distribution.

    python benches/solve_all_sample.py --per-colour 6 --sample 300 --seed 22 --rounds 2

The projection assumes the whole job solves its classes as fast as the sample's; the
real job solves them in batches of neighbouring classes that share one table, which can
only help it."""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter

from buttonup.cli.solve_all import first_player_edge


def solve(orders: list[str], threads: int) -> tuple[float, float, list[int]]:
    """Wall and CPU seconds of one ``solve_many`` over the sample, and its values."""
    from buttonup import Player, Position, solve_many

    positions = [Position.start(order, to_move=Player.RED) for order in orders]
    wall, cpu = time.perf_counter(), time.process_time()
    values = solve_many(positions, threads=threads)
    return time.perf_counter() - wall, time.process_time() - cpu, values


def child(path: str, threads: int) -> None:
    with open(path) as handle:
        orders = json.load(handle)
    wall, cpu, values = solve(orders, threads)
    print(json.dumps({"wall": wall, "cpu": cpu, "values": values}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-colour", type=int, default=6)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--threads", type=int, nargs="+", default=[1, 2], help="threads a batch (default 1 2)"
    )
    parser.add_argument("--child", nargs=2, metavar=("FILE", "THREADS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    from bench_tools import processes
    from buttonup._core import start_classes

    representatives, rows = start_classes(args.per_colour)
    picked = random.Random(args.seed).sample(range(len(representatives)), args.sample)
    orders = [representatives[class_] for class_ in picked]
    # Rows of the output each class fills (36 for most: 18 turns, either side to move).
    wanted = set(picked)
    sizes = Counter(class_ for class_ in rows if class_ in wanted)
    path = f"/tmp/solve_all_sample_{os.getpid()}.json"
    with open(path, "w") as handle:
        json.dump(orders, handle)
    results: dict[int, list[dict[str, float]]] = {threads: [] for threads in args.threads}
    values: list[int] | None = None
    for round_ in range(args.rounds):
        # Alternated: 1 then 2 threads in even rounds, 2 then 1 in odd ones.
        for threads in args.threads if round_ % 2 == 0 else args.threads[::-1]:
            script = os.path.abspath(__file__)
            out = processes.run(
                [sys.executable, script, "--child", path, str(threads)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            run = json.loads(out)
            if values is None:
                values = run["values"]
            assert run["values"] == values, "the two runs disagree"
            results[threads].append(run)
            print(
                f"round {round_ + 1}, {threads} thread(s): {run['wall']:.1f} s wall, "
                f"{run['cpu']:.1f} s CPU, {1000 * run['wall'] / args.sample:.1f} ms a class"
            )
    os.remove(path)
    classes = len(representatives)
    print(f"\n{args.per_colour} of each colour: {classes:,} classes;", end=" ")
    print(f"sample {args.sample}, seed {args.seed}")
    for threads, runs in results.items():
        wall = statistics.median(run["wall"] for run in runs) / args.sample
        cpu = statistics.median(run["cpu"] for run in runs) / args.sample
        print(
            f"{threads} thread(s) a batch: median {1000 * wall:.1f} ms wall and "
            f"{1000 * cpu:.1f} ms CPU a class; whole job {wall * classes / 3600:.2f} h wall "
            f"on this machine ({threads} thread(s)), {cpu * classes / 3600:.2f} CPU-hours"
        )
    assert values is not None
    # Each class stands for its rows: the estimate of the whole table's distribution.
    counts: Counter[int] = Counter()
    for class_, value in zip(picked, values):
        counts[value] += sizes[class_]
    total = sum(counts.values())
    mean, won, lost = first_player_edge(counts)
    print(f"estimate from the sample ({total:,} rows): first player's edge {mean:+.3f}")
    print(f"wins {won:.1%}, draws {1 - won - lost:.1%}, loses {lost:.1%}")
    print("  " + ", ".join(f"{v:+d}: {counts[v] / total:.1%}" for v in sorted(counts)))
    print(
        "raw:",
        json.dumps({"picked": picked, "values": values, "sizes": [sizes[c] for c in picked]}),
    )


if __name__ == "__main__":
    main()
