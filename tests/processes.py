"""Child processes for the tests and the benchmarks: started as a terminal would start
them, ended with all they started on every outcome.

A test that sends a child Ctrl-C needs the child to start with SIGINT at its default
disposition. A shell that ignores SIGINT (``nohup``, a background job ``&`` of a script)
hands that on to everything it starts, through pytest to its children: a Python child
then installs no ``KeyboardInterrupt`` handler, and a native program may never see the
signal. :func:`started` and :func:`run` put SIGINT back at its default in the child,
before it runs its program, when it is ignored here (Python's ``restore_signals`` resets
only SIGPIPE and SIGXFSZ), and start the child in a session (and process group) of its
own, which they kill with SIGKILL at the end, whatever happened: nothing the child
started is left behind, unless it left the group itself. "Whatever happened" includes a
SIGTERM to this process (``timeout``, a CI runner's cancel): where SIGTERM is at its
default, the first child started from the main thread makes it raise ``SystemExit(143)``
there, so that the ``finally`` blocks that end the children run.

>>> import sys
>>> hello = [sys.executable, "-c", "print('hi')"]
>>> with started(hello, stdout=subprocess.PIPE, text=True) as child:
...     child.communicate(timeout=60)[0]
'hi\\n'
>>> run([sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT))"],
...     capture_output=True, text=True, timeout=60).stdout
'<built-in function default_int_handler>\\n'
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Union

__all__ = ["end", "free_port", "popen", "run", "started"]

Command = Union[str, Sequence[str]]

#: The disposition SIGINT gets in a child: its default, as a terminal gives it.
DEFAULT: Any = signal.SIG_DFL


def _set_sigint(disposition: Any) -> Any:
    """The ``preexec_fn`` that sets SIGINT to ``disposition`` in the child, or None
    where the child gets that disposition anyway. A caught signal is reset to its
    default by exec, an ignored one stays ignored; ``preexec_fn`` is not safe in a
    process with threads, so it is used only where it is needed."""
    here = signal.getsignal(signal.SIGINT)
    if disposition == signal.SIG_DFL and here not in (signal.SIG_IGN, None):
        return None
    if disposition == signal.SIG_IGN and here == signal.SIG_IGN:
        return None

    def preexec() -> None:
        signal.signal(signal.SIGINT, disposition)

    return preexec


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _end_children_on_sigterm() -> None:
    """SIGTERM, at its default, raises ``SystemExit`` instead of ending this process
    at once (its children, in sessions of their own, would outlive it)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _exit_on_sigterm)


def popen(command: Command, *, sigint: Any = DEFAULT, **options: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(command, **options)`` in a session of its own, SIGINT at its
    default in the child (``sigint=signal.SIG_IGN``: ignored, as ``nohup`` starts a
    program). Its caller ends it with :func:`end`, in a ``finally``."""
    if "preexec_fn" in options or "start_new_session" in options:
        raise TypeError("popen chooses preexec_fn and start_new_session itself")
    _end_children_on_sigterm()
    return subprocess.Popen(
        command, start_new_session=True, preexec_fn=_set_sigint(sigint), **options
    )


def end(process: subprocess.Popen[Any], timeout: float = 30) -> None:
    """Kills the process group of ``process`` (a child of :func:`popen`: the group is
    its own) with SIGKILL, whether the child is still running or not (what it started
    may be), waits for the child and closes its pipes. Safe to call twice."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone (or its last members are another user's)
    try:
        process.wait(timeout=timeout)
    finally:
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:
                    pass  # a write that the child never read (a broken pipe)


@contextmanager
def started(
    command: Command, *, sigint: Any = DEFAULT, **options: Any
) -> Iterator[subprocess.Popen[Any]]:
    """:func:`popen`, and :func:`end` when the block ends, on every outcome."""
    process = popen(command, sigint=sigint, **options)
    try:
        yield process
    finally:
        end(process)


def run(
    command: Command,
    *,
    input: Any = None,
    timeout: float | None = None,
    check: bool = False,
    capture_output: bool = False,
    sigint: Any = DEFAULT,
    **options: Any,
) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run`` with :func:`started`: the child in a session of its own, SIGINT
    at its default, and its group killed when it is done, timed out or interrupted."""
    if capture_output:
        options.setdefault("stdout", subprocess.PIPE)
        options.setdefault("stderr", subprocess.PIPE)
    if input is not None:
        options.setdefault("stdin", subprocess.PIPE)
    with started(command, sigint=sigint, **options) as process:
        out, err = process.communicate(input, timeout=timeout)
        returncode = process.wait()
    done = subprocess.CompletedProcess(process.args, returncode, out, err)
    if check:
        done.check_returncode()
    return done


def free_port() -> int:
    """A loopback TCP port that is free now, for a child server to listen on (another
    program may take it before the child does: rare, and the child then fails to start
    rather than serving the wrong thing)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
