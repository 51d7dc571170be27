"""The implementation under test, as a process spoken to line by line.

Its output is read by a thread of its own, so that the kit can send many requests
before reading their answers (pipelining) without either side blocking; every answer is
awaited at most ``timeout`` seconds. A process that exits, closes its output or stays
silent raises :class:`Failure`, and :meth:`Process.restart` starts it again.
"""

from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import IO

#: A line longer than this is cut (and is no answer of the protocol).
MAX_LINE = 1 << 20


class Failure(Exception):
    """The process crashed (``kind`` ``crash``) or stayed silent (``timeout``)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class StartError(Exception):
    """The command cannot be started at all."""


class Process:
    """One implementation process at a time, restarted on demand."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        if not command:
            raise ValueError("no command given: buttonup conformance [options] -- COMMAND")
        self.command = list(command)
        self.timeout = timeout
        self.name = shlex.join(self.command)
        self.stderr_tail: deque[str] = deque(maxlen=5)
        self.lines_read = 0
        self._popen: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[list[str] | None] = queue.Queue()
        self._pending: deque[str] = deque()
        self._closed = False
        self.start()

    def start(self) -> None:
        try:
            popen = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # its own group: killed with its children
            )
        except OSError as error:
            raise StartError(f"cannot start '{self.name}': {error.strerror}") from None
        assert popen.stdout is not None and popen.stderr is not None
        self._popen = popen
        self._lines = queue.Queue()
        self._pending = deque()
        self._closed = False
        threading.Thread(target=_pump, args=(popen.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_drain, args=(popen.stderr, self.stderr_tail), daemon=True).start()

    def send(self, data: bytes) -> None:
        """Writes ``data``; a process that stopped reading is a crash."""
        assert self._popen is not None and self._popen.stdin is not None
        try:
            self._popen.stdin.write(data)
        except (BrokenPipeError, OSError, ValueError):
            raise Failure("crash", self._death("stopped reading its input")) from None

    def read(self, timeout: float | None = None) -> str:
        """The next answer line (without its line end)."""
        if not self._pending:
            if self._closed:
                raise Failure("crash", self._death("closed its output"))
            try:
                chunk = self._lines.get(timeout=self.timeout if timeout is None else timeout)
            except queue.Empty:
                wait = self.timeout if timeout is None else timeout
                raise Failure("timeout", f"no answer within {wait:g} s") from None
            if chunk is None:
                self._closed = True
                raise Failure("crash", self._death("closed its output"))
            self._pending.extend(chunk)
        self.lines_read += 1
        return self._pending.popleft()

    def _death(self, what: str) -> str:
        """How the process ended, with the last line it wrote on standard error."""
        assert self._popen is not None
        try:
            status: int | None = self._popen.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        if status is None:
            text = f"{what}, still running"
        elif status < 0:
            try:
                text = f"{what}: killed by {signal.Signals(-status).name}"
            except ValueError:
                text = f"{what}: killed by signal {-status}"
        else:
            text = f"{what}: exit status {status}"
        # The reader of standard error may still be catching up with a process just gone.
        time.sleep(0.05)
        if self.stderr_tail:
            text += f"; its standard error ends: {self.stderr_tail[-1][:200]}"
        return text

    def restart(self) -> None:
        self.kill()
        self.stderr_tail.clear()
        self.start()

    def kill(self) -> None:
        popen = self._popen
        if popen is None:
            return
        if popen.poll() is None:
            try:
                os.killpg(popen.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                popen.kill()
        popen.wait()
        for stream in (popen.stdin, popen.stdout, popen.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def close(self) -> None:
        """Sends ``quit``, and kills the process if it has not exited within a second."""
        popen = self._popen
        if popen is None:
            return
        try:
            if popen.stdin is not None and popen.poll() is None:
                popen.stdin.write(b"quit\n")
                popen.stdin.close()
            popen.wait(timeout=1.0)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        self.kill()
        self._popen = None


def _pump(stream: IO[bytes], lines: queue.Queue[list[str] | None]) -> None:
    """Reads the process's output in chunks and queues its lines; ``None`` at the end."""
    fd = stream.fileno()
    partial = b""
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except OSError:
            data = b""
        if not data:
            break
        partial += data
        if b"\n" not in partial:
            if len(partial) > MAX_LINE:
                lines.put([_text(partial[:200]) + "... (a line over 1 MiB, cut)"])
                partial = b""
            continue
        *complete, partial = partial.split(b"\n")
        lines.put([_text(line) for line in complete])
    if partial:
        lines.put([_text(partial)])
    lines.put(None)


def _text(line: bytes) -> str:
    """A line as text; a CR before the line end is allowed; bytes that are not UTF-8
    are kept visible as escapes (and so are never a well-formed answer)."""
    if line.endswith(b"\r"):
        line = line[:-1]
    return line.decode("utf-8", errors="backslashreplace")


def _drain(stream: IO[bytes], tail: deque[str]) -> None:
    """Keeps the last lines of the process's standard error."""
    for raw in iter(stream.readline, b""):
        text = _text(raw.rstrip(b"\n")).strip()
        if text:
            tail.append(text)
