"""The training examples, smoke-sized: each trains, says how far it is, and prints its
``evaluate`` row."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from processes import run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(autouse=True)
def needs_sb3() -> None:
    if not os.environ.get("BUTTONUP_REQUIRE_RL"):
        pytest.importorskip("sb3_contrib")


def test_the_sb3_self_play_example_trains_against_copies_of_itself() -> None:
    command = [sys.executable, str(EXAMPLES / "sb3_selfplay.py"), "--steps", "8192"]
    done = run(
        [*command, "--refresh", "2048", "--episodes", "20"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("trained 8,192 steps in") and "5 copies of the model" in lines[0]
    assert lines[1].startswith("| MaskablePPO self-play, seed 1, 8,192 steps | ")


def test_the_baseline_trainer_says_how_far_it_is(tmp_path: Path) -> None:
    # It used to print nothing for the four minutes of its default run.
    command = [sys.executable, str(EXAMPLES / "train_baseline.py"), "--steps", "8192"]
    done = run(
        [*command, "--episodes", "20", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    progress = [line for line in done.stderr.splitlines() if " of 8,192 steps (" in line]
    assert len(progress) >= 5, done.stderr
    assert progress[-1].startswith("8,192 of 8,192 steps (100%), ")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("trained 8,192 steps in")
    assert any(line.startswith("evaluating ") for line in lines)
    assert lines[-1].startswith("| MaskablePPO baseline, seed 1, 8,192 steps | ")
    assert (tmp_path / "maskable_ppo_seed1.zip").is_file()
