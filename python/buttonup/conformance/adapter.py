"""This project's own implementation of the kit's line protocol (docs/conformance.md).

    python -m buttonup.conformance.adapter [--reference]

speaks the protocol on standard input and output with the Rust engine, or with the
pure-Python reference engine (``--reference``). It reads whatever input has arrived,
answers every complete line of it and flushes once, so a kit that sends many requests
ahead gets their answers in one write.

>>> import io
>>> out = io.StringIO()
>>> answer_lines(Adapter(), ["state RW/B/W/B/R/R/W/B", "legal", "play 0", "play 9"], out)
True
>>> print(out.getvalue(), end="")
ok
0 2 6
BR/WW/B/R/R/W/B extra=true
error there is no pile 9: the piles are numbered 0 to 6
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any

from buttonup.ending import run_command
from buttonup.errors import BattleNotOverError, IllegalMoveError, NotationError


class Adapter:
    """The protocol's state: the current position, of either engine."""

    def __init__(self, engine: Any = None) -> None:
        if engine is None:
            from buttonup import _core as engine
        self.engine = engine
        self.position: Any | None = None

    def answer(self, line: str) -> str | None:
        """The answer to one request; ``None`` for ``quit``."""
        command, _, argument = line.strip().partition(" ")
        argument = argument.strip()
        if command == "quit":
            return None
        if command == "state":
            try:
                self.position = self.engine.Position(argument + " r")
            except NotationError as error:
                self.position = None
                return f"error {error}"
            return "ok"
        if command not in ("legal", "play", "score"):
            return f"error unknown request {command[:40]!r}: expected state, legal, play, score"
        if self.position is None:
            return "error no position: send 'state PILES' first"
        try:
            if command == "legal":
                return " ".join(map(str, self.position.legal_moves()))
            if command == "score":
                red, black = self.position.sums()
                return f"R={red} B={black}"
            if not argument.isdigit() or not argument.isascii():
                return f"error the move must be a pile number, not {argument[:40]!r}"
            outcome = self.position.outcome(int(argument))
        except (IllegalMoveError, BattleNotOverError) as error:
            return f"error {error}"
        self.position = outcome.position
        flag = "true" if outcome.extra_move else "false"
        return "/".join(outcome.position.piles) + f" extra={flag}"


def answer_lines(adapter: Adapter, lines: Iterable[str], out: IO[str]) -> bool:
    """Answers ``lines``; ``False`` once ``quit`` came."""
    for line in lines:
        answer = adapter.answer(line)
        if answer is None:
            return False
        out.write(answer + "\n")
    return True


def serve(adapter: Adapter, fd: int, out: IO[str]) -> None:
    """Reads ``fd`` in chunks and answers each complete line, flushing once a chunk."""
    partial = b""
    while True:
        data = os.read(fd, 1 << 16)
        if not data:
            break
        *complete, partial = (partial + data).split(b"\n")
        text = [line.decode("utf-8", errors="replace") for line in complete]
        going = answer_lines(adapter, text, out)
        out.flush()
        if not going:
            return
    if partial.strip():
        answer_lines(adapter, [partial.decode("utf-8", errors="replace")], out)
        out.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m buttonup.conformance.adapter",
        description="Speak the conformance kit's line protocol (docs/conformance.md).",
    )
    parser.add_argument("--reference", action="store_true", help="the pure-Python reference engine")
    args = parser.parse_args(argv)
    engine: Any = None
    if args.reference:
        import buttonup.reference

        engine = buttonup.reference

    def body() -> int:
        serve(Adapter(engine), sys.stdin.fileno(), sys.stdout)
        return 0

    return run_command(body, "adapter", closed_pipe=0)


if __name__ == "__main__":
    sys.exit(main())
