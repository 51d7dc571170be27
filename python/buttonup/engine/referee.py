"""A small UGI referee: plays one battle between two engine processes.

    python -m buttonup.engine.referee [--seed N] [--movetime MS] [-- ENGINE ARGS...]

Each engine is started as its own process (by default two ``buttonup engine``), told the
position after every move with ``position fen ... moves ...``, and asked ``go``; the
referee checks every answer with its own rules engine and, at the end, asks Red's engine
for the result (``query result``) to compare with its own scoring.
"""

from __future__ import annotations

import argparse
import queue
import subprocess
import sys
import threading
from collections.abc import Sequence

from buttonup._core import Position
from buttonup.player import Player


class EngineProcess:
    """An engine process spoken to line by line, with time-outs."""

    def __init__(self, command: Sequence[str]) -> None:
        self.process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self, timeout: float = 10.0) -> str:
        line = self._lines.get(timeout=timeout)
        if line is None:
            raise EOFError("the engine closed its output")
        return line

    def until(self, prefix: str, timeout: float = 10.0) -> tuple[str, list[str]]:
        """Reads up to the first line starting with ``prefix``; returns it and the lines
        before it."""
        before: list[str] = []
        while True:
            line = self.read(timeout)
            if line.startswith(prefix):
                return line, before
            before.append(line)

    def close(self) -> int:
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        return self.process.wait(timeout=10)


def play_battle(
    engines: dict[Player, EngineProcess], start: Position, movetime: int = 50
) -> tuple[Position, list[int]]:
    """Plays one battle from ``start``; returns the final position and the moves."""
    for engine in engines.values():
        engine.send("ugi")
        engine.until("ugiok")
        engine.send("uginewgame")
        engine.send("isready")
        engine.until("readyok")
    position, moves = start, list[int]()
    fen = str(start)
    while not position.is_over:
        engine = engines[position.to_move]
        line = f"position fen {fen}" + (" moves " + " ".join(map(str, moves)) if moves else "")
        engine.send(line)
        engine.send(f"go movetime {movetime}")
        answer, _ = engine.until("bestmove")
        move = int(answer.split()[1])
        position = position.play(move)  # the referee's own check
        moves.append(move)
    return position, moves


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one battle between two UGI engines.")
    parser.add_argument("--seed", type=int, default=1, help="seed of the start position")
    parser.add_argument("--movetime", type=int, default=50, help="milliseconds per move")
    parser.add_argument("engine", nargs="*", help="engine command (default: buttonup engine)")
    args = parser.parse_args(argv)
    command = args.engine or [sys.executable, "-m", "buttonup", "engine"]
    engines = {player: EngineProcess(command) for player in Player}
    try:
        start = Position.random(seed=args.seed)
        print(f"start {start}")
        final, moves = play_battle(engines, start, args.movetime)
        print(f"moves {' '.join(map(str, moves))}")
        red, black = final.strengths()
        print(f"final {final} red {red} black {black}")
        engines[Player.RED].send(f"position fen {start} moves {' '.join(map(str, moves))}")
        engines[Player.RED].send("query result")
        print(f"engine says {engines[Player.RED].until('response')[0]}")
    finally:
        for engine in engines.values():
            engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
