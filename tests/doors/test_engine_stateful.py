"""The UGI engine under random interleavings of every command, junk included, on
standard and big positions (a ``go`` without limits on 10 a colour searches until
stopped, and the commands after it wait). Invariants: the process lives, every ``go``
gets exactly one ``bestmove``, in order, and it is legal in the position its ``go``
searched, ``readyok`` comes whatever runs or waits (an infinite search's ``bestmove``
only after ``stop``), ``stop`` is answered before the next ``readyok``, ``movetime``
holds (to a few seconds: the machine may be loaded)."""

from __future__ import annotations

import collections
import queue
import subprocess
import threading
import time
from dataclasses import dataclass

import ugi_engines
from buttonup import Position
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from processes import end, popen

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

    def until(self, wanted: str, timeout: float = 10.0) -> list[tuple[float, str]]:
        """Reads up to the line ``wanted``: every line read, stamped."""
        seen = []
        while True:
            stamp, line = self.lines.get(timeout=timeout)
            seen.append((stamp, line))
            if line == wanted:
                return seen


@dataclass
class Awaited:
    """A ``go`` whose ``bestmove`` is still to come."""

    #: The position it searches; ``None`` where it cannot search (``bestmove (none)``).
    position: Position | None
    #: When it was sent and its movetime, where it had one and started at once.
    movetime: tuple[float, int] | None = None
    infinite: bool = False
    #: Whether a ``stop`` was sent since (an infinite search answers only then).
    stopped: bool = False


class EngineModel(RuleBasedStateMachine):
    """The engine as docs/protocol.md describes it, predicted: commands apply in the
    order they came (those after a finite search wait for it, while ``isready`` is
    answered at once); during a ``go infinite``, ``position``, ``setoption``,
    ``uginewgame`` and ``go`` are refused; ``stop`` stops every search before it, whose
    ``bestmove`` lines come before the next ``readyok``. ``bestmove`` lines come in
    the order of their ``go`` (a refused one's at once)."""

    #: The engine's name in tests/ugi_engines.py.
    engine_name = "python"

    def __init__(self) -> None:
        super().__init__()
        self.engine = Engine(ugi_engines.command(self.engine_name))
        self.position: Position | None = None
        self.awaited: collections.deque[Awaited] = collections.deque()
        # An infinite search asked for and not yet stopped: it cannot end by itself.
        self.infinite = False
        # Refused gos whose bestmove (none) is still to come.
        self.refused = 0
        self.gos = 0
        self.bestmoves: list[str] = []

    def collect(self, lines: list[tuple[float, str]]) -> None:
        for at, line in lines:
            if line.startswith("bestmove"):
                self.bestmoves.append(line)
                self.check_bestmove(line, at)

    def check_bestmove(self, line: str, at: float) -> None:
        move = line.split()[1]
        first = self.awaited[0] if self.awaited else None
        if move == "(none)" and (first is None or first.position is not None):
            # A refused go's, at once.
            assert self.refused > 0, (line, first)
            self.refused -= 1
            return
        assert first is not None, line
        self.awaited.popleft()
        if first.position is None:
            assert move == "(none)", line
            return
        assert not first.infinite or first.stopped, ("an infinite search answered", line)
        assert move != "(none)" and int(move) in first.position.legal_moves(), (line, first)
        if first.movetime is not None:
            sent, ms = first.movetime
            assert at - sent < ms / 1000 + SLACK, (line, at - sent)

    def sync(self) -> list[str]:
        """isready, answered whatever runs or waits; reads (and returns) every line
        before it."""
        self.engine.send("isready")
        lines = self.engine.until("readyok")
        self.collect(lines[:-1])
        return [line for _, line in lines]

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
        if not self.infinite:
            self.position = position
        self.sync()

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
                "",  # exact: on 10 a colour, it runs until stopped
                "p1time 200 p2time 200",
                "sideways",
                "depth -1",
                "nodes",
            ]
        )
    )
    def go(self, limit: str) -> None:
        self.gos += 1
        bad = limit.split()[:1] == ["sideways"] or limit in ("depth -1", "nodes")
        if self.infinite:
            self.refused += 1
        elif bad or self.position is None or self.position.is_over:
            self.awaited.append(Awaited(None))
        else:
            awaited = Awaited(self.position, infinite=limit == "infinite")
            self.awaited.append(awaited)
            self.infinite = awaited.infinite
        sent = self.engine.send(f"go {limit}".strip())
        if limit.startswith("movetime") and len(self.awaited) == 1 and not self.infinite:
            self.awaited[0].movetime = (sent, int(limit.split()[1]))
        self.sync()

    @rule()
    def stop(self) -> None:
        for awaited in self.awaited:
            awaited.stopped = True
        self.infinite = False
        self.engine.send("stop")
        self.sync()
        # Every search before it answered before the readyok.
        assert not self.awaited and self.refused == 0, (self.awaited, self.refused)

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
        if not self.infinite:
            self.position = None
        self.sync()

    @rule(junk=st.sampled_from(JUNK))
    def junk(self, junk: str) -> None:
        self.engine.send(junk)  # none of them changes the position
        self.sync()

    @invariant()
    def alive(self) -> None:
        assert self.engine.process.poll() is None

    def teardown(self) -> None:
        try:
            self.stop()
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
