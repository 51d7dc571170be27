"""What a person sees in a terminal: commands run in a real tmux pane and read off the
screen."""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import processes
import pytest

# CI installs tmux and sets BUTTONUP_REQUIRE_TMUX, so that these tests cannot be skipped there.
pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("BUTTONUP_REQUIRE_TMUX"),
    reason="tmux is not installed",
)


def screen(session: str) -> str:
    done = processes.run(
        ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
    )
    return done.stdout


def wait_for(session: str, text: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        shown = screen(session)
        if text in shown:
            return shown
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never shown; the screen:\n{screen(session)}")


def test_solve_all_shows_its_progress_then_the_table(tmp_path: Path) -> None:
    session = f"buttonup-test-{os.getpid()}"
    target = tmp_path / "four.csv"
    command = (
        f"'{sys.executable}' -m buttonup solve-all --per-colour 4 --threads 1 --no-color "
        f"--csv '{target}'; sleep 60"
    )
    processes.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command],
        check=True,
    )
    try:
        # The bar counts the classes of starts solved (2,896 for 69,300 positions).
        bar = wait_for(session, "/2896 classes", 120)
        assert "solving" in bar  # the bar: its label, classes done of all, times
        table = wait_for(session, "First player's average edge", 600)
        assert "/2896" not in table  # the bar is gone once the work is done
        # The table counts positions: every start order with either side to move.
        assert "Perfect-play value of 69,300 start positions" in table
        assert "34,650 start orders, either side to move" in table
    finally:
        processes.run(["tmux", "kill-session", "-t", session], capture_output=True)
    assert len(target.read_text().splitlines()) == 1 + 69_300
