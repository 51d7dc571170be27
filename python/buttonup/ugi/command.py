"""``buttonup engine``: the UGI protocol on standard input and output.

The protocol is the core's (``buttonup._core.UgiEngine``, Rust's ``buttonup::ugi``), the
same one the native ``buttonup-engine`` speaks (docs/protocol.md): this door only reads
lines and hands them over. The core carries them out in order on a thread of its own,
so the door reads on whatever waits: ``isready`` and ``stop`` are answered at once; bad
input never stops the engine: it answers ``info string error: ...`` and reads the next
line.

With ``policy`` (``buttonup engine --policy SPEC``, a bot or policy of
:func:`buttonup.players.bot_factory`: ``module:attribute``, ``PATH.zip``, ``PATH.onnx``), the
door answers each ``go`` itself, at once and whatever its limits (``go infinite``
included): ``info string policy NAME`` and the policy's ``bestmove`` for the engine's
position; a ``go`` without a position, or on a finished battle, goes to the engine, which
answers its error and ``bestmove (none)``. Every other command is the engine's.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import BinaryIO, TextIO

from buttonup._core import UGI_MAX_LINE, UgiEngine
from buttonup.ai import Bot
from buttonup.players import bot_factory


def read_line(stream: BinaryIO) -> tuple[bytes | None, bool]:
    """One line of input and whether it was too long (its rest is skipped). ``None`` at
    the end of input."""
    raw = stream.readline(UGI_MAX_LINE)
    if not raw:
        return None, False
    if len(raw) >= UGI_MAX_LINE and not raw.endswith(b"\n"):
        while True:
            rest = stream.readline(UGI_MAX_LINE)
            if not rest or rest.endswith(b"\n"):
                return raw, True
    return raw, False


def _is_go(line: bytes) -> bool:
    words = line.split()
    return bool(words) and words[0].lower() == b"go"


class _Policy:
    """Answers ``go`` with a bot's move where the engine has a position to play."""

    def __init__(self, player: Bot, engine: UgiEngine, write: Callable[[str], object]) -> None:
        self.player = player
        self.engine = engine
        self.write = write

    def go(self, line: bytes) -> bool:
        """Whether it answered ``line`` (a ``go`` on a position with a move)."""
        if not _is_go(line):
            return False
        position = self.engine.position
        if position is None or position.is_over:
            return False
        self.write(f"info string policy {self.player.name}\n")
        try:
            move = str(self.player.choose(position))
        except ValueError as error:  # a policy's bad move: the protocol's error line
            self.write(f"info string error: {' '.join(str(error).split())}\n")
            move = "(none)"
        self.write(f"bestmove {move}\n")
        return True


def _flushed(stream: TextIO) -> Callable[[str], object]:
    def write(text: str) -> None:
        stream.write(text)
        stream.flush()

    return write


def main(
    stdin: BinaryIO | None = None, stdout: TextIO | None = None, *, policy: str | None = None
) -> int:
    """Runs the engine until ``quit`` or the end of input (a finite search answers
    first). Its answers go to ``stdout`` when given, else straight to standard output,
    whose closing ends the process quietly (status 141). With ``policy``, that bot
    answers every ``go`` (see above)."""
    player = bot_factory(policy)(0) if policy is not None else None
    write: Callable[[str], object] | None = stdout.write if stdout is not None else None
    if player is not None and write is None:
        write = _flushed(sys.stdout)  # the door's lines and the engine's in one stream
    engine = UgiEngine("buttonup", write)
    answer = _Policy(player, engine, write) if player is not None and write else None
    source = stdin or sys.stdin.buffer
    try:
        while engine.running:
            line, too_long = read_line(source)
            if line is None:
                engine.end_of_input()
                break
            if too_long:
                engine.line_too_long()
            elif answer is None or not answer.go(line):
                engine.handle(line)
    except KeyboardInterrupt:
        # The search thread must not be inside the core when the interpreter ends: it
        # is stopped and waited for, with nothing more written, before the interruption
        # ends the command.
        engine.interrupt()
        raise
    engine.finish()
    return 0
