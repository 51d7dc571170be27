"""The terminal game as a person sees it: ``buttonup play`` in a real tmux pane, its
commands typed and the screen read (hint, moves, save, load, the review after a
battle, Ctrl-C)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import processes
import pytest
from buttonup import Match
from test_terminal import screen, wait_for

# CI installs tmux and sets BUTTONUP_REQUIRE_TMUX, so that these tests cannot be skipped there.
pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("BUTTONUP_REQUIRE_TMUX"),
    reason="tmux is not installed",
)

#: docs/rules.md's perfect battle but its last move, in a match to 1 point.
NEARLY_DONE = """\
[Target "1"]

1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+
"""


@pytest.fixture
def pane() -> Iterator[str]:
    session = f"buttonup-play-{os.getpid()}"
    yield session
    processes.run(["tmux", "kill-session", "-t", session], capture_output=True)


def start(session: str, arguments: str) -> None:
    # The pane's own width, not one the test run's environment may carry (COLUMNS).
    command = (
        f"env -u COLUMNS -u LINES '{sys.executable}' -m buttonup play --no-color {arguments}; "
        'echo "exit status $?"; sleep 60'
    )
    processes.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "130", "-y", "50", command],
        check=True,
    )


def type_line(session: str, text: str) -> None:
    processes.run(["tmux", "send-keys", "-t", session, "-l", text], check=True)
    processes.run(["tmux", "send-keys", "-t", session, "Enter"], check=True)


def clear(session: str) -> None:
    processes.run(["tmux", "clear-history", "-t", session], check=True)
    processes.run(["tmux", "send-keys", "-t", session, "C-l"], check=True)


def test_hint_moves_save_load_and_ctrl_c(pane: str, tmp_path: Path) -> None:
    start(pane, "--seed 2 --level 3")
    wait_for(pane, "Red to move>", 30)
    shown = screen(pane)
    assert "A 0:" in shown  # the places' letters, A at the top
    type_line(pane, "hint")
    shown = wait_for(pane, "Your chance of winning the match now", 30)
    assert "extra move" in shown
    assert "match " in shown and "%" in shown
    type_line(pane, "moves")
    order = "".join(Match(seed=2).position.piles)
    wait_for(pane, f"1. {order} r", 10)
    saved = tmp_path / "game.txt"
    type_line(pane, f"save {saved}")
    wait_for(pane, "Saved the match to", 10)
    assert Match.from_record(saved.read_text()).position == Match(seed=2).position
    type_line(pane, f"load {saved}")
    wait_for(pane, f"Loaded {saved}: battle 1", 10)
    processes.run(["tmux", "send-keys", "-t", pane, "C-c"], check=True)
    shown = wait_for(pane, "exit status 130", 10)
    assert "buttonup: interrupted" in shown
    assert "Traceback" not in shown
    assert "Bye." not in shown


def test_a_battle_ends_with_its_review(pane: str, tmp_path: Path) -> None:
    record = tmp_path / "nearly.txt"
    record.write_text(NEARLY_DONE)
    start(pane, "--seed 1 --level 1")
    wait_for(pane, "Red to move>", 30)
    type_line(pane, f"load {record}")
    shown = wait_for(pane, "Loaded", 10)
    assert "x" in shown  # the last lift's place is marked
    clear(pane)
    type_line(pane, "0")
    shown = wait_for(pane, "exit status 0", 30)
    assert "Review of battle 1:" in shown
    assert "You (Red): 6 moves, 0 mistakes, 0 points given up." in shown
    assert "You win the match" in shown
