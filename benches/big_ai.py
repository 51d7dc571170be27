"""How strong the perfect level is where the game is not solved in time: level 9 within a
time budget a move (what the web page, ``/api/bestmove`` and ``go movetime`` play)
against the exact value of every legal move (``buttonup.analyze``).

    python benches/big_ai.py                    # the table of docs/ai.md
    python benches/big_ai.py --exact-only --exact-threads 1   # fill the exact values first
    python benches/big_ai.py --sizes 7,8 --budgets 50,100 --projection --before ../old

For each size (buttons of each colour) and seed, a random start is played by seeded
random moves (the same positions whatever the bot plays): the bot is asked the start and
the next ``--plies`` - 1 positions, at every size, within each budget, and its regret is
the exact value of the best move minus that of its move (points, for the side to move).
``--seeds`` seeds a size up to 8 of each colour, ``--big-seeds`` at 9 and 10. Exact
values are kept in benches/big_ai_exact.json.gz, in the repository, since they cost
hours (up to a few minutes a position at 10 of each colour): the default run finds them
all there; other seeds, sizes or plies are solved first (``--exact-only`` fills them
alone, on ``--exact-threads`` threads) and added to the file. The machine's load average
is printed at the start and the end of the timed run.

``--projection`` adds this build with its limited searches' horizon estimate the
projection instead of the network (``BUTTONUP_EVAL=projection``); ``--variant
NAME:VAR=VALUE`` this build with an environment variable set (``BIG_AI_THREADS=1``: the
bot on one thread, where by default a search within a time uses every core); ``--before DIR``
adds another build: ``DIR`` a checkout whose ``python/`` holds its compiled extension
(made with ``maturin develop --release`` in that checkout). Each variant chooses in a
worker process of its own, the variants alternated seed by seed, in one run.

``--to-the-end`` times instead how soon each variant plays exactly: a fresh bot within a
time long enough is asked each position, and the time it takes (its search stops at the
end) is counted; the table gives the sum, the median and the share of positions that
finish within each budget. It needs no exact values.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple

from bench_tools import processes

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(__file__).resolve().parent / "big_ai_exact.json.gz"


def positions(size: int, seed: int, plies: int) -> list[str]:
    """The positions a seed's bot is asked about, as notation."""
    from buttonup import Position

    rng = random.Random(size * 1_000_003 + seed)
    position = Position.random(seed, per_colour=size)
    asked: list[str] = []
    while len(asked) < plies and not position.is_over:
        asked.append(str(position))
        position = position.play(rng.choice(position.legal_moves()))
    return asked


def exact_values(notations: list[str], threads: int | None = None) -> dict[str, dict[str, int]]:
    """``{notation: {move: exact value}}``, from the cache or solved on ``threads`` threads
    (and cached)."""
    from buttonup import Position, analyze

    cache: dict[str, dict[str, int]] = (
        json.loads(gzip.decompress(CACHE.read_bytes())) if CACHE.exists() else {}
    )
    missing = [n for n in notations if n not in cache]
    for i, notation in enumerate(missing):
        started = time.perf_counter()
        values = analyze(Position(notation), threads=threads)
        cache[notation] = {str(move): value for move, value in values.items()}
        print(
            f"  exact {i + 1}/{len(missing)}: {time.perf_counter() - started:.1f} s",
            file=sys.stderr,
        )
        if i % 10 == 9 or i == len(missing) - 1:
            # mtime=0: the same values make the same file.
            text = json.dumps(cache, sort_keys=True, indent=0)
            CACHE.write_bytes(gzip.compress(text.encode(), mtime=0))
    return {n: cache[n] for n in notations}


def worker() -> None:
    """Reads ``budget_ms seed notation`` lines, answers each with level 9's move."""
    from buttonup import Position
    from buttonup.ai import Bot, Limits, bot

    # A variant's threads (``--variant one:BIG_AI_THREADS=1``); by default every core.
    threads = int(os.environ["BIG_AI_THREADS"]) if "BIG_AI_THREADS" in os.environ else None
    # ``--variant kept:BIG_AI_KEPT=1``: one bot for a seed's positions at a budget, asked
    # them in the order of the game, as the page and the UGI engines keep theirs through
    # a game (its table, and the time to make it, carried from move to move); by default
    # a bot of its own for every position, as ``/api/bestmove`` answers.
    kept: dict[tuple[str, str], Bot] = {}
    for line in sys.stdin:
        budget, seed, notation = line.rstrip("\n").split(" ", 2)
        if budget == "end":
            # ``--to-the-end``: the seconds a fresh bot within a time takes to find its
            # move when the time is long enough for the search to reach the end.
            started = time.perf_counter()
            bot(9, int(seed), limits=Limits(time_limit=600.0), threads=threads).choose(
                Position(notation)
            )
            print(time.perf_counter() - started, flush=True)
            continue
        limits = (
            Limits(nodes=int(budget[1:]))
            if budget[0] == "n"
            else Limits(time_limit=int(budget) / 1000)
        )
        chooser = kept.get((budget, seed))
        if chooser is None:
            chooser = bot(9, int(seed), limits=limits, threads=threads)
            if os.environ.get("BIG_AI_KEPT") == "1":
                kept.clear()  # one game's bot at a time
                kept[budget, seed] = chooser
        print(chooser.choose(Position(notation)), flush=True)


class Worker:
    def __init__(self, settings: dict[str, str]) -> None:
        env = {**os.environ, **settings}
        self.process = processes.popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def choose(self, budget: str, seed: int, notation: str) -> int:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{budget} {seed} {notation}\n")
        self.process.stdin.flush()
        return int(self.process.stdout.readline())

    def to_the_end(self, seed: int, notation: str) -> float:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"end {seed} {notation}\n")
        self.process.stdin.flush()
        return float(self.process.stdout.readline())

    def close(self) -> None:
        processes.end(self.process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5,6,7,8,9,10")
    parser.add_argument(
        "--budgets", default="10,50,100,1000", help="milliseconds a move, or nN: N positions"
    )
    parser.add_argument("--seeds", type=int, default=20, help="a size up to 8 of each colour")
    parser.add_argument("--big-seeds", type=int, default=10, help="at 9 and 10 of each colour")
    parser.add_argument("--first-seed", type=int, default=1000, help="unseen by training")
    parser.add_argument("--plies", type=int, default=6)
    parser.add_argument("--exact-only", action="store_true", help="fill the exact values")
    parser.add_argument("--exact-threads", type=int, help="threads of the exact analyses")
    parser.add_argument("--projection", action="store_true", help="add the projection")
    parser.add_argument("--before", metavar="DIR", help="add the build of another checkout")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME:VAR=VALUE",
        help="add this build with an environment variable set",
    )
    parser.add_argument(
        "--to-the-end",
        action="store_true",
        help="time each search within a long time to the end, not the regret",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    budgets = args.budgets.split(",")

    def seeds_of(size: int) -> range:
        count = args.seeds if size <= 8 else args.big_seeds
        return range(args.first_seed, args.first_seed + count)

    asked = {
        size: {seed: positions(size, seed, args.plies) for seed in seeds_of(size)} for size in sizes
    }
    if args.exact_only:
        for size in sizes:
            print(f"{size} of each colour:", file=sys.stderr)
            exact_values([n for ns in asked[size].values() for n in ns], args.exact_threads)
        return
    variants: dict[str, dict[str, str]] = {"now": {}}
    if args.projection:
        variants["projection"] = {"BUTTONUP_EVAL": "projection"}
    if args.before:
        variants["before"] = {"PYTHONPATH": str(Path(args.before).resolve() / "python")}
    for variant in args.variant:
        name, _, setting = variant.partition(":")
        variants[name] = dict([setting.split("=", 1)])
    if args.to_the_end:
        to_the_end(sizes, seeds_of, asked, variants, budgets)
        return
    exact = {
        size: exact_values([n for ns in asked[size].values() for n in ns], args.exact_threads)
        for size in sizes
    }
    workers = {name: Worker(settings) for name, settings in variants.items()}
    loads = [os.getloadavg()]
    print(f"load average at the start: {_load(loads[0])}", flush=True)
    try:
        rows: list[Row] = []
        for size in sizes:
            regrets: dict[tuple[str, str], list[int]] = {
                (name, b): [] for name in variants for b in budgets
            }
            for turn, seed in enumerate(seeds_of(size)):
                for name in _alternated(list(variants), turn):
                    for budget in budgets:
                        for notation in asked[size][seed]:
                            values = exact[size][notation]
                            move = workers[name].choose(budget, seed, notation)
                            regrets[name, budget].append(max(values.values()) - values[str(move)])
            for budget in budgets:
                for name in variants:
                    r = regrets[name, budget]
                    rows.append(
                        Row(
                            size,
                            budget,
                            name,
                            len(r),
                            sum(x > 0 for x in r) / len(r),
                            sum(r) / len(r),
                            max(r),
                        )
                    )
                    print(rows[-1].line(), flush=True)
    finally:
        for w in workers.values():
            w.close()
    loads.append(os.getloadavg())
    print(f"load average at the end: {_load(loads[1])}")
    print()
    print(
        "| buttons of each colour | time a move | build | moves | not best | mean regret | worst |"
    )
    print("|---|---:|---|---:|---:|---:|---:|")
    for row in rows:
        print(row.line())
    for name in variants:
        print()
        print(f"{name}: share of moves not best, mean regret (points a move), worst")
        print("| buttons of each colour | " + " | ".join(_budget(b) for b in budgets) + " |")
        print("|---:|" + "---|" * len(budgets))
        for size in sizes:
            cells = [
                row.cell()
                for b in budgets
                for row in rows
                if (row.size, row.budget, row.name) == (size, b, name)
            ]
            print(f"| {size} | " + " | ".join(cells) + " |")


def to_the_end(
    sizes: list[int],
    seeds_of: Callable[[int], range],
    asked: dict[int, dict[int, list[str]]],
    variants: dict[str, dict[str, str]],
    budgets: list[str],
) -> None:
    """How soon level 9 within a time plays exactly: the time each variant's search takes
    to reach the end on every position asked (a fresh bot each, its set-up counted), the
    variants alternated seed by seed, and the share of positions it finishes within each
    time budget."""
    workers = {name: Worker(settings) for name, settings in variants.items()}
    print(f"load average at the start: {_load(os.getloadavg())}", flush=True)
    limits = [int(b) / 1000 for b in budgets if b[0] != "n"]
    lines = []
    try:
        for size in sizes:
            times: dict[str, list[float]] = {name: [] for name in variants}
            for turn, seed in enumerate(seeds_of(size)):
                for name in _alternated(list(variants), turn):
                    for notation in asked[size][seed]:
                        times[name].append(workers[name].to_the_end(seed, notation))
            for name, t in times.items():
                within = ", ".join(
                    f"{sum(x <= limit for x in t) / len(t):.0%} within {limit * 1000:g} ms"
                    for limit in limits
                )
                lines.append(
                    f"| {size} | {name} | {len(t)} | {sum(t):.2f} s | "
                    f"{statistics.median(t) * 1000:.1f} ms | {within} |"
                )
                print(lines[-1], flush=True)
    finally:
        for w in workers.values():
            w.close()
    print(f"load average at the end: {_load(os.getloadavg())}")
    print()
    print("| buttons of each colour | build | positions | in all | median | finished |")
    print("|---|---|---:|---:|---:|---|")
    print("\n".join(lines))


class Row(NamedTuple):
    size: int
    budget: str
    name: str
    moves: int
    not_best: float
    mean: float
    worst: int

    def line(self) -> str:
        return (
            f"| {self.size} | {_budget(self.budget)} | {self.name} | {self.moves} | "
            f"{self.not_best:.0%} | {self.mean:.3f} | {self.worst} |"
        )

    def cell(self) -> str:
        if self.worst == 0:
            return "perfect"
        return f"{self.not_best:.0%}, {self.mean:.3f} ({self.worst})"


def _alternated(names: list[str], turn: int) -> list[str]:
    """The variants in the order of a seed's ``turn``: each seed's first variant is the
    other one's of the seed before."""
    return names[turn % len(names) :] + names[: turn % len(names)]


def _budget(budget: str) -> str:
    return f"{int(budget[1:]):,} nodes" if budget[0] == "n" else f"{budget} ms"


def _load(load: tuple[float, float, float]) -> str:
    return " ".join(f"{x:.2f}" for x in load) + " (1, 5, 15 min)"


if __name__ == "__main__":
    main()
