"""The kit catches real mistakes: each deliberately broken implementation of
tests/conformance/broken/buttons.py (a small program of its own, importing nothing of
buttonup) is reported with its mistake's kind and a small example, and one that
crashes, hangs, prints garbage or closes its output is reported as such, restarted, and
checked on."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from buttonup.cli.main import main

BUTTONS = Path(__file__).resolve().parent / "broken" / "buttons.py"
#: The standard positions of up to three piles come first in the sweep: 13,940 of them.
UP_TO_THREE_PILES = "13940"

#: Each mistake of the rules, the kind it must be reported as, and an example the report
#: may give (written by hand from docs/rules.md: the smallest case showing the mistake).
RULE_MISTAKES = {
    # Three buttons onto two piles: an overflow, which never gives an extra move.
    "overflow-extra": ("extra", "WRB/R/B", 0, "RW/BRB extra=true"),
    # Two buttons, one other pile: the red bottom button first, then the white.
    "top-first": ("piles", "RW/R", 0, "RWR extra=false"),
    # Three buttons onto two piles go round: the third on the first pile again.
    "wrap-around": ("piles", "WRR/R/R", 0, "RWR/RR extra=false"),
    # The white lands on a white (on top of a red): an extra move.
    "wrong-button": ("extra", "W/RW/R", 0, "RWW/R extra=false"),
    # One pile: red at the bottom is worth 1.
    "score-off-by-one": ("score", "RW", None, "R=0 B=0"),
}


def broken(tmp_path: Path, mistake: str, *options: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "report.json"
    command = [sys.executable, str(BUTTONS), mistake]
    status = main(["conformance", "--json", str(report), *options, "--", *command])
    return status, json.loads(report.read_text(encoding="utf-8"))


def piles_of(position: str) -> int:
    return position.count("/") + 1


def size(position: str) -> tuple[int, int]:
    return len(position.replace("/", "")), piles_of(position)


@pytest.mark.parametrize("mistake", list(RULE_MISTAKES))
def test_each_mistake_of_the_rules_is_its_kind_with_a_small_example(
    mistake: str, tmp_path: Path
) -> None:
    kind, position, move, got = RULE_MISTAKES[mistake]
    status, data = broken(tmp_path, mistake, "--limit", UP_TO_THREE_PILES, "--examples", "200")
    assert status == 1
    found = {name for name, count in data["disagreements"].items() if count}
    assert found == {kind}
    (example,) = data["examples"]
    assert example["kind"] == kind and example["rule"].startswith("rule ")
    assert piles_of(example["position"]) <= 4
    # The one written above is a smallest case (fewest buttons, then piles): the kit's is
    # as small, and the same but for the order of the piles and their colours.
    assert size(example["position"]) == size(position)
    if example["position"] == position:
        assert (example["move"], example["got"]) == (move, got)


def test_a_crash_is_reported_and_the_check_goes_on(tmp_path: Path) -> None:
    # It dies lifting RRRW from four piles: 8 times among the positions of up to four.
    status, data = broken(tmp_path, "crash", "--limit", "24580", "--examples", "0")
    assert status == 1
    assert data["disagreements"]["crash"] == 8 == data["restarts"]
    assert data["parts"]["standard"]["positions"] == 24_580  # all checked, restarts and all
    (example,) = data["examples"]
    assert example["position"].startswith("RRRW/") and piles_of(example["position"]) == 4
    assert "exit status 1" in example["got"] and "cannot lift RRRW" in example["got"]


def test_a_hang_is_a_timeout_and_the_check_goes_on(tmp_path: Path) -> None:
    # It never scores BBBRRRWWW, the first final pile of the sweep.
    options = ("--timeout", "1", "--limit", "2000", "--examples", "0")
    status, data = broken(tmp_path, "hang", *options)
    assert status == 1
    assert data["disagreements"]["timeout"] == 1 and data["restarts"] == 1
    assert data["examples"][0]["position"] == "BBBRRRWWW"
    assert data["parts"]["standard"]["positions"] == 2000


def test_garbage_is_malformed_and_keeps_no_step(tmp_path: Path) -> None:
    # It writes 'legal moves: 0,1' for every position of two piles.
    status, data = broken(tmp_path, "garbage", "--limit", "6180", "--examples", "0")
    assert status == 1
    assert data["disagreements"]["malformed"] == 6180 - 1460  # the two-pile ones
    assert data["restarts"] == 0  # a bad answer, still one a request: no restart needed
    assert data["examples"][0]["got"].startswith("legal moves: ")


def test_a_closed_output_is_a_crash_and_the_check_goes_on(tmp_path: Path) -> None:
    # It closes its output at its 40,000th line, again after each restart.
    status, data = broken(tmp_path, "close", "--limit", "24580", "--examples", "0")
    assert status == 1
    assert data["disagreements"]["crash"] == data["restarts"] >= 2
    assert "closed its output" in data["examples"][0]["got"]
    checked = data["parts"]["standard"]
    assert checked["positions"] + checked["moves"] + checked["scores"] > 50_000


def test_an_implementation_that_keeps_crashing_is_given_up(tmp_path: Path) -> None:
    options = ("--max-restarts", "2", "--limit", "24580", "--examples", "0")
    status, data = broken(tmp_path, "crash", *options)
    assert status == 1 and data["restarts"] == 3
    assert data["notes"] == ["gave up after 2 restarts: the rest was not checked"]
