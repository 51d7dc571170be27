"""Shared fixtures. ``each_engine`` runs a test on both engines (the harness is
tests/harness.py: ``agree`` for "both engines answer the same"); ``no_process_left``
fails the run when a process it started outlives it."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from buttonup.conformance.process import carrying
from harness import ENGINES
from hypothesis import HealthCheck, settings
from ugi_engines import NAMES as UGI_NAMES
from ugi_engines import command as ugi_engine_command

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The web app keeps its matches in the user's data folder when given no --db: the tests'
# apps and servers (and the processes they start) use a folder of the run's own instead.
_DATA_HOME = tempfile.mkdtemp(prefix="buttonup-tests-data-")
os.environ["XDG_DATA_HOME"] = _DATA_HOME
atexit.register(shutil.rmtree, _DATA_HOME, ignore_errors=True)
# Stable-Baselines3 makes a log folder in /tmp for every learn() it is not given a logger
# for; the tests' (and the examples' they run) go to one folder of the run's, removed with it.
os.environ.setdefault("SB3_LOGDIR", os.path.join(_DATA_HOME, "sb3"))


@pytest.fixture(params=list(ENGINES))
def each_engine(request: pytest.FixtureRequest) -> ModuleType:
    """The Rust-backed ``buttonup``, then the pure-Python ``buttonup.reference``."""
    return ENGINES[request.param]


@pytest.fixture(params=UGI_NAMES)
def ugi_command(request: pytest.FixtureRequest) -> list[str]:
    """The command line of each UGI engine: ``buttonup engine``, then the native
    ``buttonup-engine`` (tests/ugi_engines.py)."""
    return ugi_engine_command(request.param)


# --- no process left behind --------------------------------------------------------
#: Every process the run starts inherits this variable, with this run's mark in it (a
#: run inside a run adds its own), so that one that left its parent is still found.
RUNS = "BUTTONUP_TEST_RUNS"
MARK = f"pytest-{os.getpid()}"
os.environ[RUNS] = f"{os.environ.get(RUNS, '')} {MARK}".strip()


def _processes() -> dict[int, tuple[int, str, str]]:
    """Every process that can be seen in /proc: its parent, state and command line."""
    found: dict[int, tuple[int, str, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended meanwhile
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        found[int(entry.name)] = (int(parent), state, command.strip() or stat.split(" ", 2)[1])
    return found


#: Helpers of the interpreter itself that live as long as it does, ended with it.
INTERPRETERS_OWN = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def left_behind() -> dict[int, str]:
    """The live processes this run started and that still run: the descendants of this
    process, and those that left it (a daemon, an orphan) but carry its mark. Zombies
    (ended, only not yet reaped) are not counted."""
    processes = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    marked = set(carrying(RUNS, MARK))
    descendants: set[int] = set()
    todo = [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in descendants:
                descendants.add(child)
                todo.append(child)
    return {
        pid: command
        for pid, (_, state, command) in processes.items()
        if pid != os.getpid()
        and state != "Z"
        and (pid in descendants or pid in marked)
        and not any(own in command for own in INTERPRETERS_OWN)
    }


@pytest.fixture(scope="session", autouse=True)
def no_process_left() -> Iterator[None]:
    """At the end of the run, once every other fixture is finished (this one is set up
    first, so it is torn down last), no process the run started may still run: an
    error naming each one, which is then killed. A few seconds' grace for processes
    that are ending (a tmux server after its last session)."""
    yield
    if not sys.platform.startswith("linux"):
        return  # /proc
    deadline = time.monotonic() + 5
    while (left := left_behind()) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    assert not left, "processes left running by the tests:\n" + "\n".join(
        f"  {pid}: {command[:200]}" for pid, command in sorted(left.items())
    )
