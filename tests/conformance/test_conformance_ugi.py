"""``buttonup conformance --ugi``: our engine passes, and each mistake of the small
broken engine of tests/conformance/broken/ugi_engine.py (importing nothing of buttonup)
is reported as its kind."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from buttonup.cli.main import main

ENGINE = Path(__file__).resolve().parent / "broken" / "ugi_engine.py"
KINDS = ["legal", "turn", "gameover", "result", "isready", "movetime"]
KINDS += ["error", "crash", "timeout", "malformed"]


def check(tmp_path: Path, *options_and_command: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "report.json"
    status = main(["conformance", "--ugi", "--json", str(report), *options_and_command])
    return status, json.loads(report.read_text(encoding="utf-8"))


def test_buttonup_engine_passes(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "buttonup", "engine"]
    status, data = check(tmp_path, "--battles", "4", "--", *command)
    assert status == 0 and data["agrees"] is True
    assert data["mode"] == "ugi" and list(data["disagreements"]) == KINDS
    assert data["checked"]["battles"] == 4
    # Every move is followed by three queries but the last of each battle by two (no
    # p1turn once the battle is over); the engine plays about half of the 32 moves.
    assert data["checked"]["queries"] == 4 * (8 * 3 - 1)
    assert 8 <= data["checked"]["moves"] <= 24


def test_the_broken_engine_without_its_mistake_passes(tmp_path: Path) -> None:
    status, data = check(tmp_path, "--battles", "2", "--", sys.executable, str(ENGINE), "none")
    assert status == 0 and data["agrees"] is True


@pytest.mark.parametrize(
    ("mistake", "kind"),
    [
        ("illegal-bestmove", "legal"),  # a pile without white, when there is one
        ("turn-ignores-extra", "turn"),  # the turn passes after every move
        ("result-flipped", "result"),  # Red's sum taken for Black's
        ("slow", "movetime"),  # five times the time given
        ("deaf", "isready"),  # reads nothing for 1.5 s after 'go infinite'
    ],
)
def test_each_mistake_is_its_kind(mistake: str, kind: str, tmp_path: Path) -> None:
    command = [sys.executable, str(ENGINE), mistake]
    status, data = check(tmp_path, "--battles", "2", "--timeout", "1", "--", *command)
    assert status == 1
    found = {name for name, count in data["disagreements"].items() if count}
    assert found == {kind}
    assert data["restarts"] == 0  # a wrong answer is no reason to restart
    assert data["examples"][0]["kind"] == kind


def test_an_engine_that_cannot_start_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "--ugi", "--", "/nonexistent/engine"]) == 2
    assert "cannot start '/nonexistent/engine'" in capsys.readouterr().err
