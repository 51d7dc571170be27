"""The first batch of a process: ``solve_many`` of the 3,360 standard starts against a
loop of a fresh ``Searcher``, each in a fresh process, alternated in rounds.

    flock /tmp/buttonup-heavy.lock python benches/solve_many_cold.py --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def once(kind: str) -> float:
    import buttonup

    starts = [
        buttonup.Position.start(order, to_move=side)
        for order in buttonup.start_orders(3)
        for side in buttonup.Player
    ]
    started = time.perf_counter()
    if kind == "solve_many":
        buttonup.solve_many(starts)
    else:
        searcher = buttonup.Searcher()
        for position in starts:
            searcher.solve(position)
    return (time.perf_counter() - started) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--once", choices=["solve_many", "searcher"])
    args = parser.parse_args()
    if args.once:
        print(once(args.once))
        return
    from processes import run  # not in the child: its import is timed

    times: dict[str, list[float]] = {"solve_many": [], "searcher": []}
    for _ in range(args.rounds):
        for kind in times:
            out = run([sys.executable, __file__, "--once", kind], capture_output=True, text=True)
            times[kind].append(float(out.stdout))
    for kind, values in times.items():
        print(
            f"{kind}: median {statistics.median(values):.1f} ms "
            f"({min(values):.1f}-{max(values):.1f})"
        )


if __name__ == "__main__":
    main()
