"""The suite's promises about processes (docs/reliability.md): it passes when started
with SIGINT ignored (``nohup``, a background job of a script), and a run that leaves a
process behind fails, naming it (the ``no_process_left`` fixture of tests/conftest.py)."""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

import pytest
from processes import run

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="SIGINT dispositions and /proc are Linux's"
)

#: One Ctrl-C test of each kind of child: a Python call, a Python command, the Python
#: engine and the native engine.
CTRL_C_TESTS = [
    "tests/doors/test_interrupts.py::test_ctrl_c_stops_a_long_call[solve]",
    "tests/terminal/test_cli_reliability.py::test_ctrl_c_ends_a_command_with_one_line[args2]",
    "tests/doors/test_engine.py::test_ctrl_c_ends_the_engine_with_130_and_one_line",
]


def test_a_child_started_with_sigint_ignored_really_ignores_it() -> None:
    # The premise of the test below: what sigint=SIG_IGN starts is as nohup starts it.
    show = [sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT))"]
    ignored = run(show, capture_output=True, text=True, timeout=60, sigint=signal.SIG_IGN)
    assert ignored.stdout.strip() in ("1", "Handlers.SIG_IGN")  # the number, or its name
    default = run(show, capture_output=True, text=True, timeout=60)
    assert default.stdout.strip() == "<built-in function default_int_handler>"


def test_the_ctrl_c_tests_pass_when_the_suite_starts_with_sigint_ignored() -> None:
    # Used to fail: the children inherited the ignored SIGINT, and a Python child that
    # starts so installs no KeyboardInterrupt handler.
    done = run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CTRL_C_TESTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        sigint=signal.SIG_IGN,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # The native engine's test skips where it is not built (an installed package's run).
    assert re.search(r"\b(4 passed|3 passed, 1 skipped)\b", done.stdout), done.stdout[-3000:]


def test_a_process_left_behind_fails_the_run_and_is_ended(tmp_path: Path) -> None:
    # The fixture of tests/conftest.py, in a run of two tests of its own: one leaves its
    # child running, the other a daemon that has left its parent (found by its mark).
    (tmp_path / "conftest.py").write_text(
        "import importlib.util, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "spec = importlib.util.spec_from_file_location(\n"
        f"    'suite_conftest', {str(ROOT / 'tests' / 'conftest.py')!r})\n"
        "suite = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(suite)\n"
        "no_process_left = suite.no_process_left\n"
    )
    (tmp_path / "test_leaks.py").write_text(
        "import subprocess\n"
        "def test_a_child():\n"
        "    subprocess.Popen(['sleep', '61'])\n"
        "def test_a_daemon():\n"
        "    subprocess.run(['bash', '-c', 'sleep 62 >/dev/null 2>&1 &'], check=True)\n"
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    try:
        done = run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_leaks.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        # ... and ended: none of them is still running.
        left = run(["pgrep", "-f", "^sleep 6[12]$"], capture_output=True, text=True)
    finally:
        # Whatever the run did, the two sleeps it was given end here (the daemon has left
        # every process group this test could kill).
        run(["pkill", "-f", "^sleep 6[12]$"], capture_output=True)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "2 passed, 1 error" in out, out
    assert "processes left running by the tests:" in out
    assert "sleep 61" in out and "sleep 62" in out, out
    assert left.stdout == "", left.stdout
