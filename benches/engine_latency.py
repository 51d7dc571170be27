"""The two UGI engines side by side, in one run, alternated in rounds: the time from
process start to ``ugiok``, and ``bestmove`` latency (from sending ``go`` to reading the
``bestmove`` line) on standard starts and on 8-per-colour starts.

    python benches/engine_latency.py [--rounds 5] [--native target/release/buttonup-engine]

``buttonup engine`` is the Python engine (Python start-up and imports included);
``buttonup-engine`` the native binary (``cargo build --release``). Each round starts each
engine afresh, in turn, and asks the same things of both: ``go`` (an exact search) on the
standard starts of seeds 1-5, then ``go depth 8`` and ``go movetime 100`` on the
8-per-colour starts of seeds 1-3, each after ``uginewgame``. Figures are medians over
the rounds (ms); the last column is Python's over native's.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_tools import end, popen
from buttonup import Position

ROOT = Path(__file__).resolve().parent.parent


class Engine:
    def __init__(self, command: list[str]) -> None:
        started = time.perf_counter()
        self.process = popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("ugi")
        self.until("ugiok")
        self.startup = time.perf_counter() - started

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str) -> str:
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine ended")
            if line.startswith(prefix):
                return line

    def bestmove(self, position: Position, go: str) -> float:
        self.send("uginewgame")
        self.send(f"position fen {position}")
        self.send("isready")
        self.until("readyok")
        started = time.perf_counter()
        self.send(go)
        self.until("bestmove")
        return time.perf_counter() - started

    def close(self) -> None:
        """quit, 30 s to end, then the engine's group killed, on every outcome."""
        try:
            self.send("quit")
            self.process.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            end(self.process)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--native", default=str(ROOT / "target" / "release" / "buttonup-engine"))
    args = parser.parse_args()
    engines = {
        "buttonup engine": [sys.executable, "-m", "buttonup", "engine"],
        "buttonup-engine": [args.native],
    }
    tasks = [(f"go, standard start seed {s}", Position.random(s), "go") for s in range(1, 6)]
    for seed in range(1, 4):
        big = Position.random(seed, per_colour=8)
        tasks.append((f"go depth 8, 8 per colour seed {seed}", big, "go depth 8"))
        tasks.append((f"go movetime 100, 8 per colour seed {seed}", big, "go movetime 100"))
    times: dict[str, dict[str, list[float]]] = {name: {} for name in engines}
    for _ in range(args.rounds):
        for name, command in engines.items():
            engine = Engine(command)
            try:
                times[name].setdefault("start to ugiok", []).append(engine.startup)
                for label, position, go in tasks:
                    times[name].setdefault(label, []).append(engine.bestmove(position, go))
            finally:
                engine.close()
    python, native = times["buttonup engine"], times["buttonup-engine"]
    print(f"| ms, median of {args.rounds} rounds | buttonup engine | buttonup-engine | ratio |")
    print("|---|---:|---:|---:|")
    for label in python:
        p, n = statistics.median(python[label]), statistics.median(native[label])
        print(f"| {label} | {p * 1000:.2f} | {n * 1000:.2f} | {p / n:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
