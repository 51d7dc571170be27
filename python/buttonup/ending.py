"""How a command ends when its user stops it: Ctrl-C is one line and status 130, a closed
output pipe (``... | head``) a quiet end. Shared by every command of buttonup."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


def quiet_stdout() -> None:
    """Points standard output at nothing.

    Nobody reads any more, and the flush at exit must not complain either.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def run_command(body: Callable[[], int], name: str, *, closed_pipe: int = 141) -> int:
    """Runs a command's ``body`` and returns its exit status.

    Args:
        body: the command, returning its status.
        name: the command's name, for the line printed on Ctrl-C.
        closed_pipe: the status when the reader of standard output has gone.

    Returns:
        ``body()``'s status, or 130 with the one line ``NAME: interrupted`` on Ctrl-C,
        or ``closed_pipe`` (quietly) when the reader of standard output has gone.
    """
    try:
        code = body()
        sys.stdout.flush()
    except KeyboardInterrupt:
        print(f"\n{name}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        quiet_stdout()
        return closed_pipe
    return code
