"""benches/big_ai.py --to-the-end: how soon level 9 within a time plays exactly, timed
in worker processes; on small games every search reaches the end at once."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import processes
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benches" / "big_ai.py"


def test_every_position_is_timed_to_the_end() -> None:
    if not SCRIPT.exists():
        pytest.skip("benches/ is not beside tests/ here")
    done = processes.run(
        [
            sys.executable,
            str(SCRIPT),
            "--to-the-end",
            "--sizes",
            "3,4",
            "--seeds",
            "3",
            "--plies",
            "2",
            "--budgets",
            "5000",
            "--variant",
            "one:BIG_AI_THREADS=1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    table = done.stdout.split("| buttons of each colour | build |", 1)[1]
    row = r"^\| (\d+) \| (\w+) \| (\d+) \| [\d.]+ s \| [\d.]+ ms \| (.*) \|$"
    rows = re.findall(row, table, re.M)
    # Each size, each build (this one on every core, and on one thread): 3 seeds, 2 plies.
    assert [(size, build, count) for size, build, count, _ in rows] == [
        ("3", "now", "6"),
        ("3", "one", "6"),
        ("4", "now", "6"),
        ("4", "one", "6"),
    ]
    for _, _, _, finished in rows:
        # A game of 3 or 4 of each colour is solved in well under 5 s, set-up and all.
        assert finished == "100% within 5000 ms"
