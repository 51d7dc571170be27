"""The conformance kit on correct implementations, and as a command (docs/conformance.md).

The broken implementations are test_conformance_broken.py's, the UGI check
test_conformance_ugi.py's, the corpus test_conformance_corpus.py's (in this folder).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from buttonup.cli.main import main
from buttonup.conformance.checker import judge
from buttonup.conformance.oracle import Question
from buttonup.conformance.properties import require_hypothesis
from processes import run, started

ROOT = Path(__file__).resolve().parents[2]
BUTTONS = Path(__file__).resolve().parent / "broken" / "buttons.py"
ADAPTER = [sys.executable, "-m", "buttonup.conformance.adapter"]
KIT = [sys.executable, "-m", "buttonup", "conformance"]
#: The standard game's sweep: every position reachable from the
#: 1,680 start orders, every legal move of each, every final pile.
STANDARD = {"positions": 56_380, "moves": 130_180, "scores": 1_460}
KINDS = ["legal", "piles", "extra", "score", "error", "crash", "timeout", "malformed"]


def kit(tmp_path: Path, *options: str) -> tuple[int, dict[str, Any]]:
    """``buttonup conformance OPTIONS`` run in this process; its status and JSON report."""
    report = tmp_path / "report.json"
    status = main(["conformance", "--json", str(report), *options])
    return status, json.loads(report.read_text(encoding="utf-8"))


def test_our_adapter_passes_the_whole_standard_sweep(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = run(
        [*KIT, "--examples", "300", "--json", str(report), "--", *ADAPTER],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every answer agrees with buttonup" in done.stdout
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["parts"]["standard"] == STANDARD
    assert data["parts"]["variants"]["positions"] > 100
    assert list(data["disagreements"]) == KINDS
    assert set(data["disagreements"].values()) == {0}
    assert data["skipped"] == 0 and data["examples"] == [] and data["agrees"] is True
    assert set(data["checked"]) == {"positions", "moves", "scores"}


def test_the_reference_adapter_agrees_with_the_rust_oracle(tmp_path: Path) -> None:
    # Up to four piles here (24,580 positions); docs/conformance.md gives the full run.
    status, data = kit(
        tmp_path, "--limit", "24580", "--examples", "200", "--", *ADAPTER, "--reference"
    )
    assert status == 0
    assert data["parts"]["standard"]["positions"] == 24_580
    assert data["agrees"] is True


JAVASCRIPT = ROOT / "examples" / "conformance" / "buttonup.js"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.skipif(not JAVASCRIPT.exists(), reason="examples/ is not beside tests/ here")
def test_the_javascript_example_passes(tmp_path: Path) -> None:
    example = JAVASCRIPT
    status, data = kit(tmp_path, "--examples", "300", "--", "node", str(example))
    assert status == 0
    assert data["parts"]["standard"] == STANDARD
    assert data["agrees"] is True


def test_an_independent_python_implementation_passes(tmp_path: Path) -> None:
    command = [sys.executable, str(BUTTONS), "none"]
    status, data = kit(tmp_path, "--limit", "13940", "--examples", "300", "--", *command)
    assert (status, data["agrees"], data["skipped"]) == (0, True, 0)


def test_an_implementation_of_the_standard_game_only_is_skipped_elsewhere(tmp_path: Path) -> None:
    command = [sys.executable, str(BUTTONS), "standard-only"]
    status, data = kit(tmp_path, "--limit", "3000", "--examples", "300", "--", *command)
    assert status == 0 and data["agrees"] is True
    assert data["skipped"] > 50  # the variants' positions: refused, never disagreements
    assert data["parts"]["standard"]["positions"] == 3000


def test_answers_are_judged_by_kind() -> None:
    legal = Question("W/R/W", "legal", "0 2")
    assert judge(legal, "0 2") is None
    assert judge(legal, "0") == "legal"
    assert judge(legal, "2 0") == "malformed"  # not ascending
    assert judge(legal, "0,2") == "malformed"
    assert judge(legal, "error no") == "error"
    play = Question("RW/B/W", "play 0", "BR/WW extra=true", 0)
    assert judge(play, "BR/WW extra=true") is None
    assert judge(play, "BR/WW extra=false") == "extra"
    assert judge(play, "RB/WW extra=true") == "piles"
    assert judge(play, "BR/WW") == "malformed"
    last = Question("RW/B", "play 0", "BRW extra=false", 0, ends=True)
    assert judge(last, "BRW extra=true") is None  # the battle's last move: either flag
    illegal = Question("R/W", "play 0", "error", 0)
    assert judge(illegal, "error pile 0 has no white") is None
    assert judge(illegal, "WR extra=false") == "legal"
    score = Question("RBW", "score", "R=1 B=2")
    assert judge(score, "R=2 B=3") == "score"
    assert judge(score, "1 2") == "malformed"


def test_a_command_that_cannot_start_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "--", "/nonexistent/implementation"]) == 2
    assert capsys.readouterr().err.strip() == (
        "buttonup: error: cannot start '/nonexistent/implementation': No such file or directory"
    )
    assert main(["conformance", "--", sys.executable, "-c", "import sys; sys.exit(3)"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("buttonup: error: cannot start") and "exit status 3" in err


def test_an_implementation_that_never_answers_is_one_timeout(tmp_path: Path) -> None:
    silent = [sys.executable, "-c", "import sys; sys.stdin.read()"]  # answers at the end
    status, data = kit(tmp_path, "--timeout", "1", "--", *silent)
    assert status == 1 and data["disagreements"]["timeout"] == 1
    assert data["checked"] == {} and "flush" in data["notes"][0]


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--timeout", "0", "--", "true"],
        ["--limit", "0", "--", "true"],
        ["--examples", "-1", "--", "true"],
        ["--export", "x", "--", "true"],
        ["--ugi", "--battles", "0", "--", "true"],
        ["--json", "/nonexistent/folder/report.json", "--", "true"],
    ],
)
def test_bad_options_are_status_2(options: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("buttonup: error:") and err.count("\n") == 1


def test_without_hypothesis_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # import hypothesis now fails
    with pytest.raises(ValueError, match=r"pip install hypothesis.*--examples 0"):
        require_hypothesis()


def test_ctrl_c_ends_the_kit_with_one_line_and_its_implementation() -> None:
    token = f"ctrl-c-test-{os.getpid()}"  # an argument buttons.py ignores, to find it by
    command = [*KIT, "--timeout", "60", "--", sys.executable, str(BUTTONS), "hang", token]
    # The kit (and so its implementation) in a group of its own, killed at the end: the
    # check below is the kit's own ending of its implementation, not this cleanup.
    with started(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        time.sleep(3)  # in the sweep by now, or in the hang (the final piles come first)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        lingering = run(["pgrep", "-f", token], capture_output=True, text=True, check=False)
    assert process.returncode == 130
    assert err.strip() == "buttonup: interrupted"
    assert lingering.stdout == ""


def test_a_closed_pipe_ends_the_kit_quietly() -> None:
    command = " ".join([*KIT, "--limit", "100", "--examples", "0", "--", *ADAPTER])
    done = run(["bash", "-c", f"{command} | head -n 1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("checked ") and done.stdout.count("\n") == 1
