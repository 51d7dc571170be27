"""tests/processes.py, which every test and bench starts its processes with:
what a child started leaves behind when the starter is ended from outside."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import processes
from processes import started

# A starter that starts a long child (in its own session, as the helper does) and
# prints its pid, then waits: the test ends it with SIGTERM, as `timeout` would.
STARTER = textwrap.dedent(
    f"""
    import sys, time
    sys.path.insert(0, {str(Path(processes.__file__).parent)!r})
    from processes import started
    with started([sys.executable, "-c", "import time; time.sleep(120)"]) as child:
        print(child.pid, flush=True)
        time.sleep(120)
    """
)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_sigterm_to_the_starter_ends_its_children() -> None:
    """benches/online_load.py under `timeout 300` left its server running (the server
    is in a session of its own, and SIGTERM ended the bench before its `finally`)."""
    with started([sys.executable, "-c", STARTER], stdout=subprocess.PIPE, text=True) as starter:
        assert starter.stdout is not None
        child = int(starter.stdout.readline())
        assert alive(child)
        starter.send_signal(signal.SIGTERM)
        assert starter.wait(timeout=30) == 143
        deadline = time.monotonic() + 10
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child)
