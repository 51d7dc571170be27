"""The implementation under test, as a process spoken to line by line.

Its output is read by a thread of its own, so that the kit can send many requests
before reading their answers (pipelining) without either side blocking; every answer is
awaited at most ``timeout`` seconds, and no read outlasts the run's ``deadline``. A
process that exits, closes its output or stays silent raises :class:`Failure`, and
:meth:`Process.restart` starts it again.

Everything read is bounded: at most ``MAX_UNREAD_LINES`` lines (``MAX_UNREAD_BYTES``)
read and not yet asked for, past which the process is flooding the kit (a ``malformed``
failure, and the process is ended); of its standard error the last ``STDERR_TAIL``
bytes, line ends or not. The process runs in a session and process group of its own,
which is killed whenever the process is ended, even after it exited by itself: what it
started is ended with it. What left the group (``setsid``, a daemon) is found by the
mark every process it started inherits in its environment (``RUNS``) and killed too
(Linux); only a process that also cleared its environment escapes.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import count
from pathlib import Path
from typing import IO


def carrying(variable: str, mark: str) -> list[int]:
    """The processes whose environment has ``mark`` among the words of ``variable``:
    what a run started and marked so (every process inherits its parent's environment),
    found even after it left its parent's group and session (``setsid``, a daemon).
    Linux only (``/proc``; elsewhere none); zombies and other users' processes are not
    listed. The environment read is the one each process started with."""
    found = []
    prefix = variable.encode() + b"="
    for entry in Path("/proc").iterdir() if Path("/proc/self/environ").exists() else []:
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # ended meanwhile, or another user's
        if state == "Z":
            continue
        for setting in environ.split(b"\0"):
            if setting.startswith(prefix):
                if mark in setting[len(prefix) :].decode(errors="replace").split():
                    found.append(int(entry.name))
                break
    return found


#: A line longer than this is cut (and is no answer of the protocol).
MAX_LINE = 1 << 20
#: Lines read from the process and not yet asked for, at most (the kit never has more
#: than 512 answer lines in flight), and their bytes.
MAX_UNREAD_LINES = 1 << 16
MAX_UNREAD_BYTES = 16 << 20
#: The end of the process's standard error that is kept, and shown with a crash.
STDERR_TAIL = 4 * 1024
#: The variable that marks every process an implementation started (words: one mark
#: for each kit's process whose descendant it is).
RUNS = "BUTTONUP_CONFORMANCE_RUNS"
_MARKS = count()


class Failure(Exception):
    """The process crashed (``kind`` ``crash``), stayed silent (``timeout``) or wrote
    far more than it was asked for (``malformed``)."""

    def __init__(self, kind: str, detail: str, *, flood: bool = False) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.flood = flood
        """The process wrote more than the bounds (``kind`` is then ``malformed``)."""


class StartError(Exception):
    """The command cannot be started at all."""


class DeadlineError(Exception):
    """The run's overall deadline passed: nothing more is asked."""


class Output:
    """The lines a reader thread has read and the kit has not yet asked for."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._lines: deque[str] = deque()
        self._bytes = 0
        self.closed = False
        """The process's output ended (or could not be read)."""
        self.flooded: str | None = None
        """Set, to the last line read, when the process wrote more than the bounds."""

    def put(self, lines: list[str]) -> bool:
        """Queues ``lines``; ``False`` when that is more than the bounds allow (the
        reader then stops)."""
        with self._ready:
            self._lines.extend(lines)
            self._bytes += sum(len(line) for line in lines)
            if len(self._lines) > MAX_UNREAD_LINES or self._bytes > MAX_UNREAD_BYTES:
                self.flooded = lines[-1][:80] if lines else ""
                self._lines.clear()
                self._bytes = 0
            self._ready.notify()
            return self.flooded is None

    def close(self) -> None:
        with self._ready:
            self.closed = True
            self._ready.notify()

    def get(self, wait: float) -> str | None:
        """The next line, waiting at most ``wait`` seconds; ``None`` if none came (the
        caller then looks at ``closed`` and ``flooded``)."""
        with self._ready:
            if not self._lines and not self.closed and self.flooded is None:
                self._ready.wait_for(
                    lambda: self._lines or self.closed or self.flooded is not None,
                    timeout=max(wait, 0.0),
                )
            if self.flooded is not None or not self._lines:
                return None
            line = self._lines.popleft()
            self._bytes -= len(line)
            return line


class Tail:
    """The last ``STDERR_TAIL`` bytes a process wrote on its standard error."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data = bytearray()
        self._cut = False

    def add(self, data: bytes) -> None:
        with self._lock:
            self._data += data
            if len(self._data) > 2 * STDERR_TAIL:
                del self._data[:-STDERR_TAIL]
                self._cut = True

    def lines(self) -> list[str]:
        """The kept end, as lines without blank ones; a first line cut short begins
        with ``...``."""
        with self._lock:
            data, cut = bytes(self._data), self._cut
        if len(data) > STDERR_TAIL:
            data, cut = data[-STDERR_TAIL:], True
        lines = [_text(line).rstrip() for line in data.split(b"\n")]
        if cut and lines:
            lines[0] = "..." + lines[0]
        return [line for line in lines if line.strip()]


class Process:
    """One implementation process at a time, restarted on demand."""

    def __init__(
        self, command: Sequence[str], timeout: float, deadline: float | None = None
    ) -> None:
        if not command:
            raise ValueError("no command given: buttonup conformance [options] -- COMMAND")
        self.command = list(command)
        self.timeout = timeout
        self.deadline = deadline
        """When the run must end (``time.monotonic()``), or ``None``."""
        self.name = shlex.join(self.command)
        self.mark = f"kit-{os.getpid()}-{next(_MARKS)}"
        self.lines_read = 0
        self._popen: subprocess.Popen[bytes] | None = None
        self._output = Output()
        self._stderr = Tail()
        self._stderr_reader: threading.Thread | None = None
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
                env={**os.environ, RUNS: f"{os.environ.get(RUNS, '')} {self.mark}".strip()},
            )
        except OSError as error:
            raise StartError(f"cannot start '{self.name}': {error.strerror}") from None
        assert popen.stdout is not None and popen.stderr is not None
        self._popen = popen
        # Each start has its own output and tail: a reader of an earlier process that
        # is still reading (a pipe kept open by what it started) writes to its own.
        self._output = Output()
        self._stderr = Tail()
        threading.Thread(target=_pump, args=(popen.stdout, self._output), daemon=True).start()
        self._stderr_reader = threading.Thread(
            target=_drain, args=(popen.stderr, self._stderr), daemon=True
        )
        self._stderr_reader.start()

    @property
    def stderr_tail(self) -> list[str]:
        """The end of the process's standard error, as lines."""
        return self._stderr.lines()

    def left(self) -> float | None:
        """Seconds left before the deadline (``None`` without one); past it
        :class:`DeadlineError`."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise DeadlineError
        return left

    def send(self, data: bytes) -> None:
        """Writes ``data``; a process that stopped reading is a crash."""
        assert self._popen is not None and self._popen.stdin is not None
        self.left()
        try:
            self._popen.stdin.write(data)
        except (BrokenPipeError, OSError, ValueError):
            raise Failure("crash", self._death("stopped reading its input")) from None

    def read(self, timeout: float | None = None) -> str:
        """The next answer line (without its line end)."""
        wait = self.timeout if timeout is None else timeout
        left = self.left()
        limited = left is not None and left < wait  # the deadline comes first
        output = self._output
        line = output.get(left if limited and left is not None else wait)
        if line is None:
            if output.flooded is not None:
                self.kill()
                raise Failure(
                    "malformed",
                    f"wrote over {MAX_UNREAD_LINES:,} lines (or {MAX_UNREAD_BYTES >> 20} MiB) "
                    f"more than it was asked for, the last '{output.flooded}': the kit "
                    "stopped reading it and ended it",
                    flood=True,
                )
            if output.closed:
                raise Failure("crash", self._death("closed its output"))
            if limited:
                raise DeadlineError
            raise Failure("timeout", f"no answer within {wait:g} s")
        self.lines_read += 1
        return line

    def _death(self, what: str) -> str:
        """How the process ended, with the end of its standard error."""
        assert self._popen is not None
        status = _status(self._popen, 1.0)
        if status is None:
            text = f"{what}, still running"
        elif status < 0:
            try:
                text = f"{what}: killed by {signal.Signals(-status).name}"
            except ValueError:
                text = f"{what}: killed by signal {-status}"
        else:
            text = f"{what}: exit status {status}"
        if status is not None and self._stderr_reader is not None:
            # Its standard error ends with it, unless what it started keeps it open.
            self._stderr_reader.join(timeout=0.5)
        tail = self.stderr_tail
        if tail:
            text += "; its standard error ends:\n" + "\n".join(tail)
        return text

    def restart(self) -> None:
        self.kill()
        self.start()

    def kill(self) -> None:
        """Kills the process's group, whether the process is still running or not,
        and waits for the process. Its output's readers end by themselves when the
        pipes close (each closes its own)."""
        popen = self._popen
        if popen is None:
            return
        _kill_group(popen)
        for pid in carrying(RUNS, self.mark):  # what left the group
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        popen.wait()
        try:
            if popen.stdin is not None:
                popen.stdin.close()
        except OSError:
            pass

    def close(self) -> None:
        """Sends ``quit``, and kills the process (and its group) if it has not exited
        within a second; the group is killed in any case."""
        popen = self._popen
        if popen is None:
            return
        try:
            if popen.stdin is not None and _status(popen, 0.0) is None:
                popen.stdin.write(b"quit\n")
                popen.stdin.close()
        except (OSError, ValueError):
            pass
        _status(popen, 1.0)
        self.kill()
        self._popen = None


def _status(popen: subprocess.Popen[bytes], wait: float) -> int | None:
    """The process's exit status as ``Popen.returncode`` gives it (``-N`` for a signal),
    waiting at most ``wait`` seconds; ``None`` while it runs. It is not reaped: its
    process ID, which is its group's, stays its own until :func:`_kill_group`."""
    if not hasattr(os, "waitid"):  # macOS: reaped (see _kill_group)
        if popen.poll() is None:
            try:
                return popen.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                return None
        return popen.returncode
    until = time.monotonic() + wait
    while True:
        if popen.returncode is not None:
            return popen.returncode
        try:
            found = os.waitid(os.P_PID, popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped elsewhere
            return popen.poll()
        if found is not None and found.si_pid == popen.pid:
            if found.si_code == os.CLD_EXITED:
                return found.si_status
            return -found.si_status
        if time.monotonic() >= until:
            return None
        time.sleep(0.01)


def _kill_group(popen: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the process's group (its own, from ``start_new_session``). Once the
    process is reaped its ID could in principle be another's: the group is then killed
    only where :func:`_status` could not wait without reaping (a group that still has
    members keeps its ID from reuse)."""
    if popen.returncode is None or not hasattr(os, "waitid"):
        try:
            os.killpg(popen.pid, signal.SIGKILL)
            return
        except (ProcessLookupError, PermissionError):
            pass
    if popen.poll() is None:
        popen.kill()


def _pump(stream: IO[bytes], output: Output) -> None:
    """Reads the process's output in chunks and queues its lines, until the end of the
    output or a flood; then closes the stream. Never raises."""
    try:
        partial = b""
        for data in _chunks(stream):
            partial += data
            if b"\n" not in partial:
                if len(partial) > MAX_LINE:
                    if not output.put([_text(partial[:200]) + "... (a line over 1 MiB, cut)"]):
                        return
                    partial = b""
                continue
            *complete, partial = partial.split(b"\n")
            if not output.put([_text(line) for line in complete]):
                return
        if partial:
            output.put([_text(partial)])
    except Exception:  # a reader thread ends quietly, whatever happened
        pass
    finally:
        output.close()
        _close(stream)


def _chunks(stream: IO[bytes]) -> Iterator[bytes]:
    """What a stream gives, as it comes, until it ends or fails."""
    fd = stream.fileno()
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except OSError:
            return
        if not data:
            return
        yield data


def _text(line: bytes) -> str:
    """A line as text; a CR before the line end is allowed; bytes that are not UTF-8
    are kept visible as escapes (and so are never a well-formed answer)."""
    if line.endswith(b"\r"):
        line = line[:-1]
    return line.decode("utf-8", errors="backslashreplace")


def _drain(stream: IO[bytes], tail: Tail) -> None:
    """Keeps the end of the process's standard error, in chunks (line ends or not),
    until it ends; then closes the stream. Never raises."""
    try:
        for data in _chunks(stream):
            tail.add(data)
    except Exception:  # a reader thread ends quietly, whatever happened
        pass
    finally:
        _close(stream)


def _close(stream: IO[bytes]) -> None:
    try:
        stream.close()
    except Exception:  # closed already, or never opened
        pass
