"""The ``buttonup`` command."""

from __future__ import annotations

import subprocess
import sys

import pytest
from buttonup.cli import main


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "W/R/B/W/B/R/R/W/B r"]) == 0
    out = capsys.readouterr().out
    assert "Red to move. Legal moves: 0 3 7" in out
    assert " W  R  B  W  B  R  R  W  B" in out
    assert " ^        ^           ^" in out


def test_show_finished_battle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "RBWWBRWBR b"]) == 0
    out = capsys.readouterr().out
    assert "Red: 1 + 6 + 9 = 16" in out
    assert "Black: 2 + 5 + 8 = 15" in out
    assert "Red gains 1 victory point" in out


def test_show_bad_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "W/X r"]) == 2
    assert "unknown button 'X' at index 2" in capsys.readouterr().err


def test_demo_is_reproducible_and_scored(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "5"]) == 0
    first = capsys.readouterr().out
    assert main(["demo", "--seed", "5"]) == 0
    assert capsys.readouterr().out == first
    lines = first.splitlines()
    moves = [line for line in lines if line[:2].rstrip(".").isdigit() and " lifts pile " in line]
    assert len(moves) == 8
    assert any(line.startswith("Red: ") for line in lines)
    assert any(line.startswith("Black: ") for line in lines)
    # The scoring agrees with the final pile printed.
    tower = next(line for line in lines if line.startswith("Final pile")).split()[-1]
    red = sum(h for h, b in enumerate(tower, 1) if b == "R")
    assert any(line.startswith("Red: ") and line.endswith(f"= {red}") for line in lines)


def test_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "buttonup", "demo", "--seed", "1", "--per-colour", "4"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.count(" lifts pile ") == 11
