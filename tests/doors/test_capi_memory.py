"""The C library's memory under careless calls: tests/c/careless_calls.c passes
NULL for every pointer, asks counts only, gives too little room, numbers at their limits
and cut records to every entry point, checks each status and that a failed call wrote
nothing, then uses the library normally. It runs plain, under valgrind (no error, no
leak: the Rust side is checked there too) and built with AddressSanitizer and
UndefinedBehaviorSanitizer (the caller's side, LeakSanitizer over every allocation).

Skips, naming why, where the library, ``cc``, valgrind or the sanitizers' runtimes are
missing, unless ``BUTTONUP_REQUIRE_NATIVE=1`` (CI) makes that a failure."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import processes
from c_driver import compiled, need

SANITIZERS = ("-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all")


def test_every_careless_call_is_answered_and_writes_nothing(tmp_path: Path) -> None:
    driver = compiled("careless_calls", tmp_path)
    done = processes.run([str(driver), "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    checks = re.fullmatch(r"ok (\d+)\n", done.stdout)
    assert checks and int(checks.group(1)) > 500, done.stdout


def leaks(driver: Path, rounds: int) -> dict[str, int]:
    """valgrind's run of ``rounds`` rounds (failing on any error or definite leak): the
    bytes of each kind of leak it lists."""
    done = processes.run(
        [
            "valgrind",
            "--error-exitcode=99",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
            str(driver),
            str(rounds),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "ERROR SUMMARY: 0 errors" in done.stderr, done.stderr[-4000:]
    found = re.findall(r"(definitely|indirectly|possibly) lost: ([\d,]+) bytes", done.stderr)
    if "All heap blocks were freed" in done.stderr:
        return {}
    return {kind: int(count.replace(",", "")) for kind, count in found}


def test_careless_calls_run_clean_under_valgrind(tmp_path: Path) -> None:
    need(shutil.which("valgrind") is not None, "valgrind is not installed")
    driver = compiled("careless_calls", tmp_path, ("-g",))
    once, thrice = leaks(driver, 1), leaks(driver, 3)
    assert once.get("definitely", 0) == once.get("indirectly", 0) == 0
    # What valgrind calls possibly lost is the process's one table of match odds (held by
    # interior pointers until exit); it must not grow with the calls.
    assert once == thrice, (once, thrice)


def test_careless_calls_run_clean_under_address_and_undefined_behaviour_sanitizers(
    tmp_path: Path,
) -> None:
    need(shutil.which("cc") is not None, "no C compiler (cc)")
    probe = tmp_path / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    built = processes.run(
        ["cc", *SANITIZERS, "-o", str(tmp_path / "probe"), str(probe)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    need(built.returncode == 0, f"cc cannot build with the sanitizers: {built.stderr[-300:]}")
    driver = compiled("careless_calls", tmp_path, SANITIZERS)
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1", "UBSAN_OPTIONS": "print_stacktrace=1"}
    done = processes.run([str(driver), "3"], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.startswith("ok "), done.stdout
    assert "Sanitizer" not in done.stderr, done.stderr[-4000:]
