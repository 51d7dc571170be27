"""Per-call overhead of the public calls on a trivial input, against the bare cost of a
PyO3 call that does nothing but convert one argument (``max_margin(3)``).

    flock /tmp/buttonup-heavy.lock python benches/call_overhead.py --rounds 7

Each round times every row (calls in a rotated order, so that no row always runs first),
``--calls`` calls each; the table gives the median over the rounds in microseconds a
call, the ratio to the bare call, and the ratio to the row's one-thread or ``Searcher``
equivalent where it has one (named in the last column). The trivial input is a position
of the standard game two piles from the end (one move left), so each row measures what a
call costs before and around the work, not the work. The last rows time ``solve_many``
against a loop of ``Searcher().solve`` over the first N standard starts.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

import buttonup
from buttonup import Match, Position, Searcher


def trivial_position() -> Position:
    p = Position.start("WRBWBRRWB")
    while len(p.piles) > 2:
        p = p.play(p.legal_moves()[0])
    return p


def searcher_loop(searcher: Searcher, positions: list[Position]) -> list[int]:
    return [searcher.solve(position) for position in positions]


def rows() -> list[tuple[str, Callable[[], object], str | None, int]]:
    """(name, call, name of its equivalent row or None, calls a round)."""
    p = trivial_position()
    match = Match()
    searcher = Searcher()
    starts = [Position.start(order) for order in buttonup.start_orders(3)]
    buttonup.random_playouts(1, seed=0, threads=1)  # the move graph, built once
    out: list[tuple[str, Callable[[], object], str | None, int]] = [
        ("max_margin(3)  [bare PyO3 call]", lambda: buttonup.max_margin(3), None, 20_000),
        ("Position.legal_moves()", p.legal_moves, None, 20_000),
        ("Position.play(m)", lambda: p.play(0), None, 20_000),
        ("Searcher().solve(p) [one Searcher]", lambda: searcher.solve(p), None, 20_000),
        ("solve(p, threads=1)", lambda: buttonup.solve(p, threads=1), None, 20_000),
        ("solve(p)", lambda: buttonup.solve(p), "solve(p, threads=1)", 20_000),
        ("analyze(p, threads=1)", lambda: buttonup.analyze(p, threads=1), None, 20_000),
        ("analyze(p)", lambda: buttonup.analyze(p), "analyze(p, threads=1)", 20_000),
        ("Searcher().search(p) [one Searcher]", lambda: searcher.search(p), None, 5_000),
        ("search(p, threads=1)", lambda: buttonup.search(p, threads=1), None, 5_000),
        ("search(p)", lambda: buttonup.search(p), "search(p, threads=1)", 5_000),
        (
            "solve_many([p])",
            lambda: buttonup.solve_many([p]),
            "Searcher().solve(p) [one Searcher]",
            2_000,
        ),
        ("perft(p, 1)", lambda: buttonup.perft(p, 1), None, 20_000),
        (
            "perft_many([p], 1, threads=1)",
            lambda: buttonup.perft_many([p], 1, threads=1),
            None,
            20_000,
        ),
        (
            "perft_many([p], 1)",
            lambda: buttonup.perft_many([p], 1),
            "perft_many([p], 1, threads=1)",
            20_000,
        ),
        (
            "random_playouts(1, 0, threads=1)",
            lambda: buttonup.random_playouts(1, 0, threads=1),
            None,
            5_000,
        ),
        (
            "random_playouts(1, 0)",
            lambda: buttonup.random_playouts(1, 0),
            "random_playouts(1, 0, threads=1)",
            5_000,
        ),
        ("start_orders(1)", lambda: buttonup.start_orders(1), None, 20_000),
        (
            "win_probability(match, threads=1)",
            lambda: buttonup.win_probability(match, threads=1),
            None,
            2_000,
        ),
        (
            "win_probability(match)",
            lambda: buttonup.win_probability(match),
            "win_probability(match, threads=1)",
            2_000,
        ),
        (
            "match_analyze(match, threads=1)",
            lambda: buttonup.match_analyze(match, threads=1),
            None,
            200,
        ),
        (
            "match_analyze(match)",
            lambda: buttonup.match_analyze(match),
            "match_analyze(match, threads=1)",
            200,
        ),
    ]
    for n in (1, 16, 256, 3360):
        batch = (starts * 2)[:n]
        calls = max(1, 3360 // n)
        out.append(
            (f"Searcher loop, {n} starts", partial(searcher_loop, searcher, batch), None, calls)
        )
        equivalent = f"Searcher loop, {n} starts"
        out.append(
            (f"solve_many, {n} starts", partial(buttonup.solve_many, batch), equivalent, calls)
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the calls a round")
    args = parser.parse_args()
    table = rows()
    times: dict[str, list[float]] = {name: [] for name, *_ in table}
    for round_ in range(args.rounds):
        order = table[round_ % len(table) :] + table[: round_ % len(table)]
        for name, call, _, count in order:
            count = max(1, int(count * args.scale))
            started = time.perf_counter()
            for _ in range(count):
                call()
            times[name].append((time.perf_counter() - started) / count * 1e6)
    median = {name: statistics.median(values) for name, values in times.items()}
    bare = median[table[0][0]]
    print(f"| call | us a call (median of {args.rounds}) | x bare call | x its equivalent |")
    print("|---|---:|---:|---:|")
    for name, _, equivalent, _ in table:
        ratio = f"{median[name] / median[equivalent]:.2f} ({equivalent})" if equivalent else ""
        print(f"| `{name}` | {median[name]:.2f} | {median[name] / bare:.1f} | {ratio} |")


if __name__ == "__main__":
    main()
