"""The figures of docs/benchmarks.md's "every size" section, in one run:
``python benches/faster.py [--rounds 3] [--seconds 1.0]`` on a release build.

Each comparison runs its variants in rounds, alternated, and reports the median of the
rounds with their range, so that noise from the shared machine hits every variant alike.
Set-up costs (tables, the move graph) are inside the timings unless a row says otherwise.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import buttonup
from bench_tools import processes, spread
from buttonup import Player, Position, Searcher, perft_many, random_playouts, solve, solve_many
from buttonup.matches import tournament
from compare import timed


def openspiel_moves_per_second(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("mancala")
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(2)]
    lengths = []
    for _ in range(50):  # the mean game length, from the same bots
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        lengths.append(len(state.history()))
    games, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, games)
        games += 1
    return games / (time.perf_counter() - started) * statistics.mean(lengths)


def playout_rate(per_colour: int, threads: int, seconds: float) -> float:
    battles = 100_000
    moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        moves += random_playouts(battles, seed=moves, per_colour=per_colour, threads=threads).moves
    return moves / (time.perf_counter() - started)


EXAMPLE = Path(__file__).resolve().parent.parent / "target" / "release" / "examples" / "playouts"


def bitpacked_standard_rate(threads: int) -> float | None:
    """The standard game on the bit-packed path, which the Python API never takes (it
    walks the move graph): through the Rust example, when it is built
    (``cargo build --release --examples``)."""
    if not EXAMPLE.exists():
        return None
    done = processes.run(
        [str(EXAMPLE), "2000000", "3", str(threads), "bitpacked"],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split(": ")[-1].split()[0]) * 1e6


def playouts(rounds: int, seconds: float) -> list[str]:
    sizes = [3, 4, 5, 6, 8]
    rates: dict[tuple[str, int], list[float]] = {}
    for _ in range(rounds):
        os_rate = openspiel_moves_per_second(seconds)
        for threads in (1, 2):
            rate = bitpacked_standard_rate(threads)
            if rate is not None:
                rates.setdefault((f"{threads}", -3), []).append(rate)
                if os_rate:
                    rates.setdefault((f"{threads}/os", -3), []).append(rate / os_rate)
        for n in sizes:
            for threads in (1, 2):
                rate = playout_rate(n, threads, seconds)
                rates.setdefault((f"{threads}", n), []).append(rate)
                if os_rate:
                    rates.setdefault((f"{threads}/os", n), []).append(rate / os_rate)
        if os_rate:
            rates.setdefault(("os", 0), []).append(os_rate)
    lines = [
        "| buttons of each colour | path | 1 thread, M moves/s | 2 threads, M moves/s "
        "| 1 thread / OpenSpiel | 2 threads / OpenSpiel |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for n in [-3, *sizes] if ("1", -3) in rates else sizes:
        path = (
            "move graph" if 0 < n <= 3 else "bit-packed (Rust example)" if n < 0 else "bit-packed"
        )
        cells = [spread([r / 1e6 for r in rates[(t, n)]], fmt="{:,.1f}") for t in ("1", "2")]
        cells += [
            spread(rates[(t, n)], fmt="{:.1f}x") if (t, n) in rates else ""
            for t in ("1/os", "2/os")
        ]
        lines.append(f"| {abs(n)} | {path} | " + " | ".join(cells) + " |")
    if ("os", 0) in rates:
        lines.append("")
        lines.append(
            f"OpenSpiel mancala, C++ uniform random bots through evaluate_bots: "
            f"{spread([r / 1e6 for r in rates[('os', 0)]], fmt='{:,.1f}')} M moves/s"
        )
    graph = processes.run(
        [
            sys.executable,
            "-c",
            "import time, buttonup; t = time.perf_counter(); "
            "buttonup.random_playouts(1, seed=0, threads=1); print(time.perf_counter() - t)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines.append(
        f"Move graph build (first standard playout in a fresh process): "
        f"{float(graph.stdout) * 1000:.0f} ms"
    )
    return lines


def standard_solves(rounds: int) -> list[str]:
    starts = [Position.start(o, to_move=s) for s in Player for o in buttonup.start_orders(3)]
    times: dict[str, list[float]] = {}
    expected = [solve(p) for p in starts]

    def independent() -> list[int]:
        searcher = Searcher(tt_mb=0.25)
        values = []
        for p in starts:
            searcher.clear()
            values.append(searcher.solve(p))
        return values

    def batch() -> list[int]:
        searcher = Searcher(tt_mb=16)
        return [searcher.solve(p) for p in starts]

    variants: dict[str, Callable[[], list[int]]] = {
        "independent: Searcher.solve, 256 KiB table cleared before each start, 1 thread": (
            independent
        ),
        "batch: one Searcher (16 MiB, made in the timing), all starts, 1 thread": batch,
        "batch: solve_many(threads=1), one shared 16 MiB table": lambda: solve_many(
            starts, threads=1
        ),
        "batch: solve_many(threads=2), one shared 16 MiB table": lambda: solve_many(
            starts, threads=2
        ),
    }
    for _ in range(rounds):
        for name, work in variants.items():
            values, seconds = timed(work)
            assert values == expected, name
            times.setdefault(name, []).append(seconds * 1000)
    lines = ["| all 3,360 standard starts (both sides) | ms, median (range) |", "|---|---:|"]
    lines += [f"| {name} | {spread(t, fmt='{:,.1f}')} |" for name, t in times.items()]
    return lines


def variant_solves(sizes: list[int], seeds: list[int]) -> list[str]:
    lines = [
        "| buttons of each colour | seeds | solve() time, s, median (range) "
        "| Searcher().solve, 1 thread, s | values |",
        "|---:|---|---:|---:|---|",
    ]
    for n in sizes:
        seconds, alone, values = [], [], []
        for seed in seeds:
            start = Position.random(seed=seed, per_colour=n)
            value, took = timed(lambda start=start: solve(start))
            one, took_alone = timed(lambda start=start: Searcher().solve(start))
            assert one == value, (n, seed)
            seconds.append(took)
            alone.append(took_alone)
            values.append(value)
        lines.append(
            f"| {n} | {seeds[0]}-{seeds[-1]} | {spread(seconds, fmt='{:.3f}')} | "
            f"{spread(alone, fmt='{:.3f}')} | " + " ".join(f"{v:+d}" for v in values) + " |"
        )
    return lines


def threads(rounds: int) -> list[str]:
    standard = [Position.start(o) for o in buttonup.start_orders(3)]
    four = [Position.start(o) for o in buttonup.start_orders(4)[:4000]]
    work = {
        "perft_many, all 1,680 standard starts to the end": lambda t: perft_many(
            standard, 8, threads=t
        ),
        "solve_many, 4,000 starts of 4 per colour": lambda t: solve_many(four, threads=t),
        "random_playouts, 200,000 battles of 6 per colour": lambda t: random_playouts(
            200_000, seed=1, per_colour=6, threads=t
        ),
        "tournament, levels 1, 5, 9 and match, 300 matches a pairing (worker processes "
        "started inside the timing)": lambda t: [
            s.as_dict() for s in tournament(["1", "5", "9", "match"], 300, seed=1, threads=t)
        ],
    }
    lines = ["| work | 1 thread, s | 2 threads, s | speed-up |", "|---|---:|---:|---:|"]
    for name, call in work.items():
        one: list[float] = []
        two: list[float] = []
        ratios = []
        for _ in range(rounds):
            a, t1 = timed(lambda call=call: call(1))
            b, t2 = timed(lambda call=call: call(2))
            assert a == b, name
            one.append(t1)
            two.append(t2)
            ratios.append(t1 / t2)
        lines.append(
            f"| {name} | {spread(one, fmt='{:.3f}')} | {spread(two, fmt='{:.3f}')} | "
            f"{spread(ratios, fmt='{:.2f}x')} |"
        )
    return lines


def vecenv(rounds: int, seconds: float) -> list[str]:
    """VecEnv's step on its kept threads, alternated in rounds (benches/vecenv_speed.py
    has the pgx comparison and the A/B against another build)."""
    from vecenv_speed import VECENV_ROWS, vecenv_label, vecenv_rate

    found: dict[str, list[float]] = {vecenv_label(*row): [] for row in VECENV_ROWS}
    for _ in range(rounds):
        for row in VECENV_ROWS:
            found[vecenv_label(*row)].append(vecenv_rate(*row, seconds) / 1e6)
    lines = ["| VecEnv step (lowest legal pile, argmax in the loop) | M steps/s |", "|---|---:|"]
    lines += [f"| {name} | {spread(values, fmt='{:.2f}')} |" for name, values in found.items()]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--sizes", default="4,5,6,7,8", help="variant solves, per colour")
    parser.add_argument("--seeds", default="1,2,3,4,5,6")
    parser.add_argument(
        "--only", default="playouts,standard,variants,threads,vecenv", help="which sections"
    )
    args = parser.parse_args()
    only = args.only.split(",")
    if "playouts" in only:
        print("\n".join(playouts(args.rounds, args.seconds)), end="\n\n", flush=True)
    if "standard" in only:
        print("\n".join(standard_solves(args.rounds)), end="\n\n", flush=True)
    if "threads" in only:
        print("\n".join(threads(args.rounds)), end="\n\n", flush=True)
    if "vecenv" in only:
        print("\n".join(vecenv(args.rounds, args.seconds)), end="\n\n", flush=True)
    if "variants" in only:
        sizes = [int(n) for n in args.sizes.split(",")]
        seeds = [int(s) for s in args.seeds.split(",")]
        print("\n".join(variant_solves(sizes, seeds)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
