"""``buttonup engine``: the UGI protocol on standard input and output.

The protocol is the core's (``buttonup._core.UgiEngine``, Rust's ``buttonup::ugi``), the
same one the native ``buttonup-engine`` speaks (docs/protocol.md): this door only reads
lines and hands them over. Searches run on a thread of the core, so ``isready``,
``stop`` and ``quit`` are answered at once; bad input never stops the engine: it
answers ``info string error: ...`` and reads the next line.
"""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO

from buttonup._core import UGI_MAX_LINE, UgiEngine


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


def main(stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> int:
    """Runs the engine until ``quit`` or the end of input (a finite search answers
    first). Its answers go to ``stdout`` when given, else straight to standard output,
    whose closing ends the process quietly (status 141)."""
    engine = UgiEngine("buttonup", stdout.write if stdout is not None else None)
    source = stdin or sys.stdin.buffer
    try:
        while engine.running:
            line, too_long = read_line(source)
            if line is None:
                engine.end_of_input()
                break
            if too_long:
                engine.line_too_long()
            else:
                engine.handle(line)
    except KeyboardInterrupt:
        # The search thread must not be inside the core when the interpreter ends: it
        # is stopped and waited for, with nothing more written, before the interruption
        # ends the command.
        engine.interrupt()
        raise
    engine.finish()
    return 0
