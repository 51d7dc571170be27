"""The UGI engine under random interleavings of every command, junk included, on
standard and big positions. Invariants: the process lives, every ``go`` gets exactly one
``bestmove`` and it is legal, ``readyok`` comes while an infinite search runs (not after
its ``bestmove``), ``stop`` is answered before the next ``readyok``, ``movetime``
holds (to a few seconds: the machine may be loaded)."""

from __future__ import annotations

import queue
import subprocess
import threading
import time

import ugi_engines
from buttonup import Position
from buttonup.testing.processes import end, popen
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

POSITIONS = [
    "W/R/B/W/B/R/R/W/B r",
    "RBWWBRWBR b",  # a finished battle
    str(Position.random(seed=3, per_colour=7)),
    str(Position.random(seed=4, per_colour=10)),
]
JUNK = [
    "",
    "   ",
    "position",
    "position fen",
    "setoption name",
    "quitter",
    "query",
    "query nothing",
    "xyzzy",
    "position fen W/R/X r",
    "setoption name Hash value 0",
    "position fen W/R/B r moves 1",
    "\t\t",
    "ugi extra",
]
#: Slack for a movetime search's bestmove on a loaded machine, in seconds (the engine
#: answers at once, docs/reliability.md; the order of the answers is checked exactly).
SLACK = 3.0


class Engine:
    """An engine process whose output lines are stamped with their arrival time."""

    def __init__(self, command: list[str]) -> None:
        self.process = popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))

    def send(self, line: str) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return time.monotonic()

    def until(self, wanted: str, timeout: float = 10.0) -> tuple[float, list[str]]:
        """Reads up to the line ``wanted``: its arrival time and every line read."""
        seen = []
        while True:
            stamp, line = self.lines.get(timeout=timeout)
            seen.append(line)
            if line == wanted:
                return stamp, seen


class EngineModel(RuleBasedStateMachine):
    #: The engine's name in tests/ugi_engines.py.
    engine_name = "python"

    def __init__(self) -> None:
        super().__init__()
        self.engine = Engine(ugi_engines.command(self.engine_name))
        self.position: Position | None = None
        self.search_from: Position | None = None
        self.movetime: tuple[float, int] | None = None
        # An infinite search accepted and not yet stopped: it cannot end by itself.
        self.infinite = False
        self.gos = 0
        self.bestmoves: list[str] = []

    def collect(self, lines: list[str], at: float | None = None) -> None:
        for line in lines:
            if line.startswith("bestmove"):
                self.bestmoves.append(line)
                self.check_bestmove(line, at)

    def check_bestmove(self, line: str, at: float | None) -> None:
        move = line.split()[1]
        if move == "(none)":
            return  # a go that could not search (its own, at once)
        assert self.search_from is not None
        assert int(move) in self.search_from.legal_moves(), (line, self.search_from)
        if self.movetime is not None and at is not None:
            sent, ms = self.movetime
            assert at - sent < ms / 1000 + SLACK, (line, at - sent)
        self.movetime = None

    def sync(self) -> list[str]:
        """isready, answered whatever runs; reads (and returns) every line before it."""
        self.engine.send("isready")
        stamp, lines = self.engine.until("readyok")
        if self.infinite:
            # Answered while the search runs, not after it.
            searched = [b for b in lines if b.startswith("bestmove") and b != "bestmove (none)"]
            assert not searched, lines
        self.collect(lines[:-1], stamp)
        return lines

    def refused(self, lines: list[str], command: str) -> bool:
        """Whether the engine refused ``command`` because a search runs (the model does
        not know when a search ends, so it asks). Every rule reads its own answers, so
        these lines are this command's."""
        if command == "go":
            return any("a search is already running" in line for line in lines)
        return any(f"before '{command}'" in line for line in lines)

    @rule(text=st.sampled_from(POSITIONS), moves=st.integers(0, 3))
    def position(self, text: str, moves: int) -> None:
        position, played = Position(text), []
        for _ in range(moves):
            if position.is_over:
                break
            move = position.legal_moves()[-1]
            played.append(str(move))
            position = position.play(move)
        line = f"position fen {text}" + (f" moves {' '.join(played)}" if played else "")
        self.engine.send(line)
        if not self.refused(self.sync(), "position"):
            self.position = position

    @rule(
        limit=st.sampled_from(
            [
                "depth 2",
                "depth 6",
                "nodes 5000",
                "movetime 20",
                "movetime 60",
                "infinite",
                "wtime 500 btime 500",
                "",
                "p1time 200 p2time 200",
                "sideways",
                "depth -1",
                "nodes",
            ]
        )
    )
    def go(self, limit: str) -> None:
        sent = self.engine.send(f"go {limit}".strip())
        search_from = self.position
        movetime = (sent, int(limit.split()[1])) if limit.startswith("movetime") else None
        # The bestmove may come before the sync's readyok: set what it is checked
        # against first, and take it back if the go was refused.
        previous = (self.search_from, self.movetime)
        self.search_from, self.movetime = search_from, movetime
        lines = self.sync()
        if self.refused(lines, "go"):
            # An error line and its own bestmove (none), at once.
            self.search_from, self.movetime = previous
            assert "bestmove (none)" in lines, lines
            self.gos += 1
        else:
            self.gos += 1
            started = not any(line.startswith("bestmove") for line in lines)
            self.infinite = limit == "infinite" and started

    @rule()
    def stop(self) -> None:
        self.engine.send("stop")
        if self.infinite:
            # The bestmove of the stopped search comes before the next readyok.
            self.infinite = False
            lines = self.sync()
            assert sum(line.startswith("bestmove") for line in lines) == 1, lines

    @rule()
    def isready(self) -> None:
        self.sync()

    @rule(level=st.integers(0, 11), seed=st.integers(0, 3))
    def setoption(self, level: int, seed: int) -> None:
        self.engine.send(f"setoption name Level value {level}")
        self.engine.send(f"setoption name Seed value {seed}")
        self.sync()

    @rule(question=st.sampled_from(["gameover", "p1turn", "result"]))
    def query(self, question: str) -> None:
        self.engine.send(f"query {question}")

    @rule()
    def uginewgame(self) -> None:
        self.engine.send("uginewgame")
        if not self.refused(self.sync(), "uginewgame"):
            self.position = None

    @rule(junk=st.sampled_from(JUNK))
    def junk(self, junk: str) -> None:
        self.engine.send(junk)
        self.sync()  # its error lines are read here, not taken for a later command's

    @invariant()
    def alive(self) -> None:
        assert self.engine.process.poll() is None

    def teardown(self) -> None:
        try:
            self.engine.send("stop")
            self.infinite = False
            self.sync()
            # Every go, and only a go, got its one bestmove.
            assert len(self.bestmoves) == self.gos, (self.bestmoves, self.gos)
            self.engine.send("quit")
            assert self.engine.process.wait(timeout=10) == 0
        finally:
            end(self.engine.process)


class NativeEngineModel(EngineModel):
    """The same model, on the native ``buttonup-engine``."""

    engine_name = "native"


# Shrinking restarts engines thousands of times: the failing steps are printed as found.
for model in (EngineModel, NativeEngineModel):
    model.TestCase.settings = settings(
        max_examples=25,
        stateful_step_count=25,
        deadline=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )
test_engine_model = EngineModel.TestCase
test_native_engine_model = NativeEngineModel.TestCase
