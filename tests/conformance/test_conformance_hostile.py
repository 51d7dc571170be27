"""The kit against implementations that attack it (tests/conformance/broken/hostile.py,
and ``ugi_engine.py info-flood``): its memory, its time and the processes it starts stay
bounded, its report stays readable, and a crash is charged to the request that causes
it."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from buttonup.cli.main import main
from buttonup.conformance.process import STDERR_TAIL, Failure, Process
from processes import run

BROKEN = Path(__file__).resolve().parent / "broken"
HOSTILE = [sys.executable, str(BROKEN / "hostile.py")]
BUTTONS = [sys.executable, str(BROKEN / "buttons.py")]
UGI_ENGINE = [sys.executable, str(BROKEN / "ugi_engine.py")]
KIT = [sys.executable, "-m", "buttonup", "conformance"]


def kit(tmp_path: Path, *options: str) -> tuple[int, dict[str, Any]]:
    """``buttonup conformance OPTIONS`` run in this process; its status and JSON report."""
    report = tmp_path / "report.json"
    status = main(["conformance", "--json", str(report), *options])
    return status, json.loads(report.read_text(encoding="utf-8"))


def kit_apart(
    tmp_path: Path, options: list[str], *, timeout: float, memory_kib: int | None = None
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any], float]:
    """The kit in a process of its own (with at most ``memory_kib`` of address space):
    its outcome, its JSON report and how long it took."""
    report = tmp_path / "report.json"
    command = shlex.join([*KIT, "--json", str(report), *options])
    if memory_kib is not None:
        command = f"ulimit -v {memory_kib} && exec {command}"
    began = time.monotonic()
    done = run(["bash", "-c", command], capture_output=True, text=True, timeout=timeout)
    took = time.monotonic() - began
    assert report.exists(), done.stdout + done.stderr
    return done, json.loads(report.read_text(encoding="utf-8")), took


def test_an_endless_flood_of_answers_is_stopped_and_reported(tmp_path: Path) -> None:
    # 'ok' lines as fast as it can write them: the kit's buffer of lines it has read but
    # not asked for yet stays small (1 GiB of address space is far more than it needs),
    # and the implementation is reported, and ended, rather than read forever.
    options = ["--limit", "20000", "--examples", "0", "--max-restarts", "2"]
    done, data, _ = kit_apart(
        tmp_path, [*options, "--", *HOSTILE, "flood"], timeout=120, memory_kib=1 << 20
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert data["disagreements"]["malformed"] >= 1
    (flood,) = [note for note in data["notes"] if "stopped reading it" in note]
    assert flood.startswith("wrote over 65,536 lines (or 16 MiB) more than it was asked for")
    assert data["notes"][-1] == "gave up after 2 restarts: the rest was not checked"


def test_an_info_flood_cannot_hold_a_ugi_request_past_its_time_out(tmp_path: Path) -> None:
    # It answers 'go movetime' with 'info' lines forever: each request has a deadline,
    # which no line but the one asked for ends.
    options = ["--ugi", "--battles", "2", "--timeout", "1", "--", *UGI_ENGINE, "info-flood"]
    done, data, took = kit_apart(tmp_path, options, timeout=90)
    assert done.returncode == 1, done.stderr
    assert data["disagreements"]["timeout"] >= 1 and data["restarts"] >= 1
    example = next(example for example in data["examples"] if example["kind"] == "timeout")
    assert "bestmove" in example["got"] and "other lines" in example["got"]
    assert took < 60


def test_a_run_has_an_overall_deadline(tmp_path: Path) -> None:
    # Correct, 20 ms an answer: each answer in time, the whole run far too slow.
    began = time.monotonic()
    options = ["--deadline", "2", "--limit", "5000", "--examples", "0"]
    status, data = kit(tmp_path, *options, "--", *HOSTILE, "slow")
    took = time.monotonic() - began
    assert status == 1 and data["agrees"] is False and data["complete"] is False
    assert set(data["disagreements"].values()) == {0}
    assert any("deadline of 2 s" in note for note in data["notes"])
    assert took < 15
    assert 0 < data["checked"]["positions"] < 5000


def test_a_ugi_run_has_the_deadline_too(tmp_path: Path) -> None:
    # Half a second a move, 40 battles to play: stopped after 3 s.
    began = time.monotonic()
    options = ["--ugi", "--deadline", "3", "--battles", "40", "--tolerance", "1000"]
    status, data = kit(tmp_path, *options, "--", *UGI_ENGINE, "slow")
    assert time.monotonic() - began < 15
    assert status == 1 and data["complete"] is False and data["agrees"] is False
    assert data["notes"] == ["stopped at the deadline of 3 s: the rest was not played"]
    assert data["checked"].get("battles", 0) < 40


def test_the_deadline_has_a_default_and_must_be_positive(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["conformance", "--deadline", "0", "--", "true"]) == 2
    assert "--deadline" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["conformance", "--help"])
    assert "--deadline S" in capsys.readouterr().out


def test_reader_threads_end_quietly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # It writes standard error all the time and dies at its third line: each restart
    # ends it while the kit's readers are in the middle of reading.
    raised: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", raised.append)
    options = ["--limit", "50", "--examples", "0", "--max-restarts", "8"]
    status, data = kit(tmp_path, *options, "--", *HOSTILE, "stderr-spew")
    assert status == 1 and data["restarts"] == 9
    time.sleep(0.5)  # the last readers see the end of their pipes
    assert [f"{hook.exc_type.__name__}: {hook.exc_value}" for hook in raised] == []


def test_standard_error_without_line_ends_is_kept_bounded_to_its_end() -> None:
    # 16 MiB without a line end, then END-OF-STDERR, then it exits: the kit keeps the
    # last STDERR_TAIL bytes, and shows them.
    process = Process([*HOSTILE, "stderr-flood"], timeout=30)
    try:
        process.send(b"state W\n")
        with pytest.raises(Failure) as failure:
            process.read()
    finally:
        process.close()
    detail = failure.value.detail
    assert failure.value.kind == "crash" and "exit status 3" in detail
    assert detail.endswith("END-OF-STDERR") and len(detail) < STDERR_TAIL + 200


def test_a_crash_report_shows_the_whole_end_of_standard_error(tmp_path: Path) -> None:
    status, data = kit(tmp_path, "--limit", "24580", "--examples", "0", "--", *BUTTONS, "crash")
    assert status == 1
    (example,) = data["examples"]
    got = example["got"]  # the whole traceback, not its last line only
    assert "Traceback (most recent call last):" in got
    assert got.endswith("RuntimeError: cannot lift RRRW from four piles")


def lingering(token: str) -> list[str]:
    found = run(["pgrep", "-f", token], capture_output=True, text=True, check=False)
    return found.stdout.split()


@contextmanager
def none_outlive(token: str) -> Iterator[None]:
    """Asserts that no process with ``token`` in its command line is left once the block
    is done, and kills any that is, whatever the outcome."""
    try:
        yield
        for _ in range(50):  # SIGKILL is prompt; its delivery is not instant
            if not lingering(token):
                break
            time.sleep(0.1)
        assert lingering(token) == []
    finally:
        for pid in lingering(token):
            run(["kill", "-9", pid], check=False)


def test_what_the_implementation_started_in_its_group_ends_with_the_run(tmp_path: Path) -> None:
    token = f"grandchild-of-the-kit-{time.monotonic_ns()}"
    with none_outlive(token):
        status, data = kit(
            tmp_path, "--limit", "20", "--examples", "0", "--", *HOSTILE, "grandchild", token
        )
        assert status == 0 and data["agrees"] is True


def test_what_left_the_group_ends_with_the_run_too(tmp_path: Path) -> None:
    """A grandchild started with setsid (a session and group of its
    own) outlived the run; it carries the kit's mark and is ended by it."""
    token = f"setsid-grandchild-of-the-kit-{time.monotonic_ns()}"
    with none_outlive(token):
        status, data = kit(
            tmp_path, "--limit", "20", "--examples", "0", "--", *HOSTILE, "setsid-grandchild", token
        )
        assert status == 0 and data["agrees"] is True


def test_the_group_is_ended_even_after_the_implementation_exited() -> None:
    token = f"orphan-of-the-kit-{time.monotonic_ns()}"
    leaves = (
        "import subprocess, sys; "
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)', '{token}'])"
    )
    process = Process([sys.executable, "-c", leaves], timeout=30)
    with none_outlive(token):
        try:
            for _ in range(100):  # until the child has started its own and exited
                if lingering(token):
                    break
                time.sleep(0.05)
            time.sleep(0.3)
        finally:
            process.close()  # ends its group, on every outcome


def test_a_crash_is_charged_to_the_request_that_causes_it(tmp_path: Path) -> None:
    # It answers whole chunks at once and dies lifting RRRW from four piles, losing the
    # answers of its chunk: the unanswered requests are asked again one at a time, and
    # the one that kills it is the example, whose 'try' line does it again.
    status, data = kit(
        tmp_path, "--limit", "24580", "--examples", "0", "--", *HOSTILE, "chunky-crash"
    )
    assert status == 1
    assert data["disagreements"]["crash"] == 8  # as buttons.py crash, one at a time
    assert data["parts"]["standard"]["positions"] == 24_580
    found = {example["kind"]: example for example in data["examples"]}
    assert set(found) == {"crash"}
    crash = found["crash"]
    piles = crash["position"].split("/")
    assert len(piles) == 4 and piles[crash["move"]] == "RRRW"
    again = run(["bash", "-c", crash["try"]], capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "cannot lift RRRW" in again.stderr


def test_a_lone_pile_lifted_cites_rule_5_with_its_expected_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = ("--limit", "2000", "--examples", "0", "--", *BUTTONS, "lone-pile-lifts")
    status, data = kit(tmp_path, *options)
    assert status == 1
    (example,) = data["examples"]
    assert example["kind"] == "legal" and "/" not in example["position"]
    assert example["rule"].startswith("rule 5: ")
    assert example["expected"] == "" and example["got"] == "0"
    assert example["try"] == (
        f"printf 'state {example['position']}\\nlegal\\n' | {shlex.join(options[5:])}"
    )
    text = capsys.readouterr().out
    assert "legal: rule 5: " in text
    (expected,) = [line for line in text.splitlines() if line.startswith("  expected")]
    assert expected == "  expected  (an empty line: no move)"
    assert f"  try       {example['try']}" in text.splitlines()
