"""A small UGI referee: plays battles between two engine processes.

    python -m buttonup.ugi.referee [--red CMD] [--black CMD] [--battles N]
                                      [--seed N] [--movetime MS] [ENGINE ARGS...]

Each engine is started as its own process (by default ``buttonup engine``; ``--red`` and
``--black`` give each side its own command line, and trailing arguments one for both),
told the position after every move with ``position fen ... moves ...``, and asked
``go``; the referee checks every answer with its own rules engine and, at the end of
each battle, asks Red's engine for the result (``query result``). With ``--battles N``
the engines play N battles from shuffled starts, swapping colours after each, and a
table sums them up. An engine that cannot be started, dies, answers nonsense or stays
silent ends the run with one line on standard error (status 1).
"""

from __future__ import annotations

import argparse
import queue
import shlex
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from buttonup._core import Position
from buttonup.player import Player


class EngineError(Exception):
    """An engine that cannot be started, died, misbehaved or stayed silent."""


class EngineProcess:
    """An engine process spoken to line by line, with time-outs."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = " ".join(command)
        try:
            self.process = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(f"cannot start '{self.command}': {error.strerror}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"'{self.command}' stopped reading its input") from None

    def read(self, timeout: float = 10.0) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"'{self.command}' said nothing for {timeout:g} s") from None
        if line is None:
            raise EngineError(f"'{self.command}' closed its output")
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
        except EngineError:
            pass
        # Close our end of its input now: an engine that is gone would make the flush at
        # garbage collection fail with a broken pipe.
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


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
        answer, _ = engine.until("bestmove", timeout=max(10.0, movetime / 100))
        try:
            move = int(answer.split()[1])
            position = position.play(move)  # the referee's own check
        except (IndexError, ValueError) as error:
            raise EngineError(f"'{engine.command}' answered '{answer}': {error}") from None
        moves.append(move)
    return position, moves


@dataclass
class Tally:
    """The results of one engine over a series."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0

    def add(self, margin: int) -> None:
        """Counts a battle whose margin is ``margin`` for this engine."""
        self.wins += margin > 0
        self.draws += margin == 0
        self.losses += margin < 0
        self.points += margin


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play battles between two UGI engines.")
    parser.add_argument("--seed", type=int, default=1, help="seed of the (first) start")
    parser.add_argument("--movetime", type=int, default=50, help="milliseconds per move")
    parser.add_argument("--red", default=None, help="command line of the engine playing Red")
    parser.add_argument("--black", default=None, help="command line of the engine playing Black")
    parser.add_argument("--battles", type=int, default=1, help="battles, colours swapped each")
    parser.add_argument("engine", nargs="*", help="engine command for both sides")
    args = parser.parse_args(argv)
    default = args.engine or [sys.executable, "-m", "buttonup", "engine"]
    commands = {
        "A": shlex.split(args.red) if args.red else default,
        "B": shlex.split(args.black) if args.black else default,
    }
    if args.battles < 1:
        parser.error("--battles must be at least 1")
    try:
        return series(commands, args.battles, args.seed, args.movetime)
    except EngineError as error:
        print(f"referee: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("referee: interrupted", file=sys.stderr)
        return 130


def series(commands: dict[str, list[str]], battles: int, seed: int, movetime: int) -> int:
    """Plays the battles (engine A Red in the odd ones) and prints each and a table."""
    engines: dict[str, EngineProcess] = {}
    try:
        for name, command in commands.items():
            engines[name] = EngineProcess(command)
        tallies = {name: Tally() for name in engines}
        for number in range(battles):
            red, black = ("A", "B") if number % 2 == 0 else ("B", "A")
            start = Position.random(seed=seed + number // 2)
            sides = {Player.RED: engines[red], Player.BLACK: engines[black]}
            if battles > 1:
                print(f"battle {number + 1}: {red} plays Red, {black} plays Black")
            print(f"start {start}")
            final, moves = play_battle(sides, start, movetime)
            print(f"moves {' '.join(map(str, moves))}")
            scoring = final.scoring()
            print(f"final {final} red {scoring.red} black {scoring.black}")
            sides[Player.RED].send(f"position fen {start} moves {' '.join(map(str, moves))}")
            sides[Player.RED].send("query result")
            print(f"engine says {sides[Player.RED].until('response')[0]}")
            tallies[red].add(scoring.margin_for(Player.RED))
            tallies[black].add(scoring.margin_for(Player.BLACK))
        if battles > 1:
            print()
            print(f"{'engine':<8}{'wins':>6}{'draws':>7}{'losses':>8}{'points':>8}  command")
            for name, tally in tallies.items():
                print(
                    f"{name:<8}{tally.wins:>6}{tally.draws:>7}{tally.losses:>8}"
                    f"{tally.points:>+8}  {engines[name].command}"
                )
    finally:
        for engine in engines.values():
            engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
