"""The ``buttonup`` command."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import buttonup
import pytest
from buttonup.cli.main import main
from processes import run


@pytest.mark.parametrize(
    ("position", "shown"),
    [
        (
            "W/R/B/W/B/R/R/W/B r",
            [
                "Red to move. Legal moves: 0 3 7",
                " W  R  B  W  B  R  R  W  B",
                " ^        ^           ^",
            ],
        ),
        (
            "RBWWBRWBR b",
            ["Red: 1 + 6 + 9 = 16", "Black: 2 + 5 + 8 = 15", "Red gains 1 victory point"],
        ),
    ],
    ids=["battle", "finished battle"],
)
def test_show(position: str, shown: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", position]) == 0
    out = capsys.readouterr().out
    for line in shown:
        assert line in out


def test_show_without_a_position_shows_a_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show"]) == 0
    out = capsys.readouterr().out
    assert "Position: W/R/B/W/B/R/R/W/B r" in out
    assert "Red to move. Legal moves: 0 3 7" in out


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
    # The scoring agrees with the engine's scoring of the final position printed.
    final = next(line for line in lines if line.startswith("8. ")).split("-> ")[1][:11]
    red = buttonup.Position(final).scoring().red
    assert any(line.startswith("Red: ") and line.endswith(f"= {red}") for line in lines)


def test_console_script_runs() -> None:
    done = run(
        [sys.executable, "-m", "buttonup", "demo", "--seed", "1", "--per-colour", "4"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.count(" lifts pile ") == 11


def test_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "W/R/B/W/B/R/R/W/B r", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "Best line: 3 0 0+ 1+ 3 3 2+ 0" in out
    assert "won by 1 for Red" in out
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == ["3", "7", "0"]


def test_solve_all_writes_every_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "values.csv"
    assert main(["solve-all", "--csv", str(target), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "First player's average edge" in out
    lines = target.read_text().splitlines()
    assert lines[0] == "start,to_move,value" and len(lines) == 1 + 3360
    assert "WRBWBRRWB,r,1" in lines  # the worked example of the rules


def test_tournament_with_threads_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "t.json"
    args = ["tournament", "--bots", "1,9,greedy", "--matches", "6", "--threads", "2"]
    assert main([*args, "--json", str(target), "--no-color"]) == 0
    data = json.loads(target.read_text())
    assert [(p["first"], p["second"]) for p in data["pairings"]] == [
        ("level-1", "level-9"),
        ("level-1", "greedy"),
        ("level-9", "greedy"),
    ]
    assert all(p["matches"] == 6 and 0 <= p["win_rate"] <= 1 for p in data["pairings"])
    single = tmp_path / "single.json"
    assert main([*args[:-2], "--threads", "1", "--json", str(single), "--no-color"]) == 0
    assert json.loads(single.read_text()) == data  # threads change nothing
    assert "level-1 vs" in capsys.readouterr().out
    assert main(["tournament", "--bots", "1,nobody"]) == 2


def test_tournament_rows_do_not_wrap_in_a_pipe() -> None:
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    done = run(
        [sys.executable, "-m", "buttonup", "tournament", "--bots", "1,2", "--matches", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if "level-1 vs" in line]
    assert rows and all("level-2" in row for row in rows), done.stdout
