"""How soon each long call of buttonup answers Ctrl-C: the figures of docs/reliability.md.

    python benches/interrupt_latency.py [--rounds N] [--only TEXT]

Each call runs in a child process that is sent SIGINT after half a second; the latency is
the time from the signal to the ``KeyboardInterrupt`` the child catches (both clocks are
the same monotonic clock). Prints, per call, the median and the worst of the rounds.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import textwrap
import time

from bench_tools import started

BIG = "buttonup.Position.random(seed=0, per_colour=10)"
CALLS = {
    "solve": f"buttonup.solve({BIG})",
    "search": f"buttonup.search({BIG})",
    "analyze": f"buttonup.analyze({BIG})",
    "perft": f"buttonup.perft({BIG}, 25)",
    "random_playouts": "buttonup.random_playouts(10**12, seed=1)",
    "win_probability (target 1000)": (
        "buttonup.win_probability(buttonup.Standing(0, 0, target=1000, starter='r'))"
    ),
    "solve_many (2 threads)": f"buttonup.solve_many([{BIG}] * 4, threads=2)",
    "perft_many (2 threads)": f"buttonup.perft_many([{BIG}] * 4, 25, threads=2)",
    "random_playouts (8 of each colour, 2 threads)": (
        "buttonup.random_playouts(10**12, per_colour=8, threads=2)"
    ),
    "Searcher.search": f"searcher.search({BIG})",
    "Searcher.solve": f"searcher.solve({BIG})",
    "list(start_orders(6))": "list(buttonup.start_orders(6))",
    "for order in start_orders(6)": "for order in buttonup.start_orders(6): pass",
    "start_classes(6)": "buttonup._core.start_classes(6)",
    "random_playouts (10 of each colour, 256 threads)": (
        "buttonup.random_playouts(2**62, per_colour=10, threads=256)"
    ),
    "solve (256 threads)": f"buttonup.solve({BIG}, threads=256)",
}


def interrupt(code: str) -> tuple[float, list[str], str]:
    """Runs ``code`` in a child process, sends it SIGINT half a second after it starts,
    then searches the standard start on the child's searcher: the latency (seconds from
    the signal to the ``KeyboardInterrupt``), the words the child printed after it
    started (``interrupted``, its clock, the standard start's value) and its errors."""
    program = textwrap.dedent(
        f"""
        import time, buttonup
        searcher = buttonup.Searcher(tt_mb=16)
        print("start", flush=True)
        try:
            {code}
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
        # The searcher is still usable, and right.
        print(searcher.search(buttonup.Position("W/R/B/W/B/R/R/W/B r")).value, flush=True)
        """
    )
    # SIGINT at its default in the child even where this process ignores it (nohup),
    # and the child's group killed on every outcome (a child deaf to Ctrl-C included).
    with started(
        [sys.executable, "-c", program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None
        assert child.stdout.readline() == "start\n"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    words = out.split()
    latency = float(words[1]) - sent if words[:1] == ["interrupted"] else float("inf")
    return latency, words, err


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="only the calls whose name holds this text")
    args = parser.parse_args()
    print("| call | median | worst |")
    print("|---|---:|---:|")
    for name, code in CALLS.items():
        if args.only and args.only not in name:
            continue
        times = [interrupt(code)[0] * 1000 for _ in range(args.rounds)]
        print(f"| `{name}` | {statistics.median(times):.1f} ms | {max(times):.1f} ms |")


if __name__ == "__main__":
    main()
