"""``buttonup conformance --ugi``: a UGI engine (docs/protocol.md) checked in play.

The engine plays battles from random standard starts against buttonup's own AI
(``ai.bot(5)``, which mixes random and perfect moves), Red in the odd battles and Black
in the even ones. The kit checks that every ``bestmove`` is legal, that after every move
of either side (extra moves included) ``query p1turn``, ``query gameover`` and
``query result`` agree with the rules, that ``isready`` is answered while a
``go infinite`` runs (and no ``bestmove`` comes before ``stop``), and that every
``go movetime MS`` answers within ``MS`` plus the tolerance.
"""

from __future__ import annotations

import argparse
import sys
import time

from buttonup._core import Position
from buttonup.ai import bot
from buttonup.conformance.process import DeadlineError, Failure, Process
from buttonup.conformance.report import UGI_KINDS, Example, Report
from buttonup.player import Player

#: The level of buttonup's side: random moves enough to see varied positions.
OPPONENT_LEVEL = 5


class Broken(Exception):
    """The battle cannot go on (the engine crashed, went silent or lost step)."""


class EngineCheck:
    """One engine process and the report its answers go to."""

    def __init__(self, process: Process, report: Report, args: argparse.Namespace) -> None:
        self.process = process
        self.report = report
        self.movetime = args.movetime
        self.tolerance = args.tolerance
        self.max_restarts = args.max_restarts

    def disagree(
        self, kind: str, position: Position, request: str, expected: str, got: str
    ) -> None:
        self.report.add(Example(kind, str(position), None, expected, got, request))

    def send(self, position: Position, lines: str) -> None:
        try:
            self.process.send(lines.encode())
        except Failure as failure:
            self.disagree(failure.kind, position, lines.strip(), "reading", failure.detail)
            raise Broken from None

    def until(
        self,
        position: Position,
        request: str,
        prefixes: tuple[str, ...],
        timeout: float | None = None,
        *,
        silence: bool = False,
    ) -> str | None:
        """The first line starting with one of ``prefixes``, skipping the others (an
        ``info string error`` among them is an error of its own), within ``timeout``
        seconds (the process's time-out by default) however many others come. With
        ``silence``, a time-out is ``None`` rather than a broken battle."""
        wait = self.process.timeout if timeout is None else timeout
        until = time.monotonic() + wait  # no line but the one asked for extends it
        skipped = 0
        while True:
            line: str | None
            try:
                line = self.process.read(max(until - time.monotonic(), 0.0)).strip()
            except Failure as failure:
                if failure.kind != "timeout":
                    if failure.flood and failure.detail not in self.report.notes:
                        self.report.notes.append(failure.detail)
                    self.disagree(failure.kind, position, request, "an answer", failure.detail)
                    raise Broken from None
                line = None
            if line is not None and line.startswith(prefixes):
                return line
            if line is not None:
                skipped += 1
                if line.startswith("info string error"):
                    self.disagree("error", position, request, f"'{prefixes[0]} ...'", line)
            if line is None or time.monotonic() >= until:
                if silence:
                    return None
                others = f" ({skipped:,} other lines meanwhile)" if skipped else ""
                got = f"no '{prefixes[0]}' within {wait:g} s{others}"
                self.disagree("timeout", position, request, "an answer", got)
                raise Broken

    def answer(
        self, position: Position, request: str, prefix: str, wait: float | None = None
    ) -> str:
        line = self.until(position, request, (prefix,), wait)
        assert line is not None
        return line

    def handshake(self, start: Position) -> None:
        self.send(start, "ugi\n")
        self.answer(start, "ugi", "ugiok")
        self.send(start, "isready\n")
        self.answer(start, "isready", "readyok")

    def bestmove(self, position: Position, setup: str, first: bool) -> int | None:
        """Asks the engine its move: the first time in a battle with ``go infinite``,
        ``isready`` and ``stop``, otherwise with ``go movetime``."""
        if first:
            request = f"{setup}; go infinite; isready; stop"
            self.send(position, f"{setup}\ngo infinite\nisready\n")
            ready = ("readyok", "bestmove")
            line = self.until(position, request, ready, self.process.timeout, silence=True)
            if line is None or line.startswith("bestmove"):
                got = line or f"nothing for {self.process.timeout:g} s"
                self.disagree(
                    "isready", position, request, "readyok, then bestmove after stop", got
                )
            if line is None or line.startswith("readyok"):
                self.send(position, "stop\n")
                line = self.answer(position, request, "bestmove")
        else:
            request = f"{setup}; go movetime {self.movetime}"
            began = time.monotonic()
            self.send(position, f"{setup}\ngo movetime {self.movetime}\n")
            wait = self.process.timeout + self.movetime / 1000
            line = self.answer(position, request, "bestmove", wait)
            took = (time.monotonic() - began) * 1000
            if took > self.movetime + self.tolerance:
                limit = f"within {self.movetime + self.tolerance} ms"
                self.disagree("movetime", position, request, limit, f"{took:.0f} ms")
        words = line.split()
        if len(words) < 2 or not words[1].lstrip("-").isdigit():
            kind = "error" if words[1:2] == ["(none)"] else "malformed"
            self.disagree(kind, position, request, "bestmove M, M a legal move", line)
            return None
        move = int(words[1])
        self.report.count("moves")
        if not position.is_legal(move):
            legal = " ".join(map(str, position.legal_moves()))
            self.disagree("legal", position, request, f"one of: {legal}", line)
            return None
        return move

    def queries(self, position: Position, setup: str) -> None:
        """``query p1turn``, ``gameover`` and ``result`` against the rules."""
        over = position.is_over
        expected = {"gameover": ("true" if over else "false", "gameover")}
        if not over:
            turn = "true" if position.to_move is Player.RED else "false"
            expected["p1turn"] = (turn, "turn")
            expected["result"] = ("none", "result")
        else:
            winner = position.scoring().winner
            result = {Player.RED: "p1win", Player.BLACK: "p2win", None: "draw"}[winner]
            expected["result"] = (result, "result")
        self.send(position, setup + "\n" + "".join(f"query {q}\n" for q in expected))
        for query, (answer, kind) in expected.items():
            request = f"{setup}; query {query}"
            line = self.answer(position, request, "response")
            self.report.count("queries")
            if line != f"response {answer}":
                self.disagree(kind, position, request, f"response {answer}", line)

    def battle(self, start: Position, tested: Player, seed: int) -> None:
        ours = bot(OPPONENT_LEVEL, seed)
        position, moves = start, list[int]()
        first = True
        self.send(start, "uginewgame\nisready\n")
        self.answer(start, "uginewgame; isready", "readyok")
        while not position.is_over:
            setup = f"position fen {start}" + (
                f" moves {' '.join(map(str, moves))}" if moves else ""
            )
            move = None
            if position.to_move is tested:
                move = self.bestmove(position, setup, first)
                first = False
            if move is None:  # ours, or in place of an illegal or missing one
                move = ours.choose(position)
            position = position.play(move)
            moves.append(move)
            self.queries(position, f"position fen {start} moves {' '.join(map(str, moves))}")
        self.report.count("battles")


def check_engine(process: Process, args: argparse.Namespace) -> Report | None:
    """Plays ``args.battles`` battles with the engine ``process`` runs; ``None`` when it
    cannot be started (it dies before its first line)."""
    report = Report(UGI_KINDS, mode="ugi", command=process.name, part="battles")
    check = EngineCheck(process, report, args)
    try:
        starts = [Position.random(args.seed + number) for number in range(args.battles)]
        try:
            check.handshake(starts[0])
        except Broken:
            if process.lines_read == 0 and "crash" in report.counts:
                detail = report.examples["crash"].got
                print(f"buttonup: error: cannot start '{process.name}': {detail}", file=sys.stderr)
                return None
            report.notes.append("the engine failed the handshake (ugi, isready): stopped")
            return report
        for number, start in enumerate(starts):
            tested = Player.RED if number % 2 == 0 else Player.BLACK
            try:
                check.battle(start, tested, args.seed + number)
            except Broken:
                report.restarts += 1
                if report.restarts > args.max_restarts:
                    report.notes.append(f"gave up after {args.max_restarts} restarts")
                    break
                process.restart()
                try:
                    check.handshake(start)
                except Broken:
                    report.notes.append("the engine failed again right after a restart: stopped")
                    break
    except DeadlineError:
        report.stop(f"stopped at the deadline of {args.deadline:g} s: the rest was not played")
    return report
