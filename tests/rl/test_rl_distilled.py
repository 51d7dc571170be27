"""The near-perfect learner (examples/train_distilled.py, docs/rl.md "A near-perfect
learner"): its recipe runs end to end in a small configuration, and the shipped policy
gives away less than 0.1 points a move and wins, against level 9, what perfect play
wins, the expectation computed by solving every start, not by the code under test."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from buttonup import Player, Position, solve, start_orders

if not os.environ.get("BUTTONUP_REQUIRE_RL"):
    pytest.importorskip("numpy")  # the script and the RL package need it

from buttonup.envs import evaluate
from buttonup.players import load_policy
from processes import run

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "train_distilled.py"
SHIPPED = ROOT / "examples" / "distilled" / "distilled_3_seed1.onnx"


def script(*arguments: str) -> str:
    done = run(
        [sys.executable, str(SCRIPT), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return str(done.stdout)


def perfect_share() -> float:
    """The share of ``evaluate``'s battles that perfect play wins against perfect play:
    over every start order with either starter, the policy Red or Black equally often,
    it wins exactly the starts whose value is not 0 for one of the two colours."""
    sides = (Player.RED, Player.BLACK)
    values = [solve(Position.start(o, to_move=s)) for o in start_orders(3) for s in sides]
    return sum(1 for v in values if v != 0) / (2 * len(values))


def test_the_recipe_runs_end_to_end_in_its_smoke_configuration(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    out = script("--smoke", "--seed", "3", "--out", str(tmp_path))
    written = tmp_path / "distilled_3_seed3.onnx"
    assert written.is_file() and f"wrote {written}" in out
    assert re.search(r"^\| distilled, 3 a colour, seed 3 \| [0-9.]+ \(", out, re.M)
    bot = load_policy(str(written))
    for seed in range(20):
        position = Position.random(seed)
        assert bot.choose(position) in position.legal_moves()


def test_the_exact_share_it_prints_is_that_of_every_start_solved() -> None:
    out = script("--exact-share")
    printed = re.search(r"perfect play wins ([0-9.]+) of", out)
    assert printed is not None, out
    assert float(printed.group(1)) == pytest.approx(perfect_share(), abs=5e-5)


def test_the_shipped_policy_is_near_perfect() -> None:
    pytest.importorskip("onnxruntime")
    assert SHIPPED.stat().st_size < 400 << 10
    report = evaluate(str(SHIPPED), episodes=200, opponents=[1, 5, 9], seed=7)
    assert report.regret.mean < 0.1
    exact = perfect_share()
    wins = report.win_rate["level 9"]
    assert wins.low <= exact <= wins.high


def test_against_level_9_it_wins_what_perfect_play_wins_from_the_same_starts() -> None:
    pytest.importorskip("onnxruntime")
    starts = [
        Position.random(seed, to_move=(Player.RED, Player.BLACK)[seed % 2]) for seed in range(100)
    ]
    # Each start twice: the policy Red in the even battles, Black in the odd ones. Against
    # level 9, which gives nothing away, a side wins exactly the starts whose value is
    # positive for it, and never more: one of the two sides unless the value is 0.
    perfect = sum(1 for start in starts if solve(start) != 0)
    report = evaluate(
        str(SHIPPED), episodes=200, opponents=[9], starts=[s for s in starts for _ in "rb"]
    )
    won = round(report.win_rate["level 9"].mean * 200)
    assert won <= perfect
    assert won >= perfect - 2  # at most two winnable battles given away
