"""benches/solve_all_facts.py, the check of a published solve-all file: the standard
game's facts from a table made the plain way, and a damaged file refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import processes
import pytest
from test_solve_all_classes import brute_force_csv

SCRIPT = Path(__file__).resolve().parents[2] / "benches" / "solve_all_facts.py"


def facts(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip("benches/ is not beside tests/ here")
    return processes.run(
        [sys.executable, str(SCRIPT), str(path), "--per-colour", "3", *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def table() -> str:
    return brute_force_csv(3)


def test_the_standard_games_facts(tmp_path: Path, table: str) -> None:
    target = tmp_path / "three.csv"
    target.write_text(table)
    done = facts(target, "--check", "3360")  # every row solved again
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    # The figures docs/ai.md gives for the standard game (benches/ai_facts.py).
    assert "rows: 3,360 (expected 3,360)" in lines
    assert "start orders with both sides: 1,680" in lines
    assert "first player's average edge: +0.8536 points per battle" in lines
    assert "first player wins / draws / loses: 57.0% / 17.7% / 25.4%" in lines
    assert "values from -6 to +9" in lines
    assert "each value as often with Red as with Black first: True" in lines
    assert "| +0 | 594 (17.7%) |" in lines
    assert "3360 random rows solved again one by one: 0 differ" in done.stdout


def test_a_wrong_value_is_found(tmp_path: Path, table: str) -> None:
    rows = table.splitlines(keepends=True)
    order, side, value = rows[1000].rstrip("\n").split(",")
    rows[1000] = f"{order},{side},{int(value) + 1}\n"
    target = tmp_path / "three.csv"
    target.write_text("".join(rows))
    done = facts(target, "--check", "3360")
    assert done.returncode == 1
    assert f"MISMATCH {order} {side}: file {int(value) + 1:+d}, solved again {int(value):+d}" in (
        done.stdout
    )
    assert "3360 random rows solved again one by one: 1 differ" in done.stdout


def test_a_missing_row_is_found(tmp_path: Path, table: str) -> None:
    rows = table.splitlines(keepends=True)
    target = tmp_path / "three.csv"
    target.write_text("".join(rows[:500] + rows[501:]))
    done = facts(target, "--check", "0")
    assert done.returncode == 1
    assert "rows: 3,359 (expected 3,360)" in done.stdout.splitlines()
    assert "start orders with both sides: 1,679" in done.stdout.splitlines()


def test_not_a_solve_all_file(tmp_path: Path) -> None:
    target = tmp_path / "other.csv"
    target.write_text("a,b,c\n")
    done = facts(target)
    assert done.returncode == 1 and "the header is wrong" in done.stderr
