"""The C drivers of the parity suites (tests/c/*.c): compiled with the system's ``cc``
against the built C library, as a C author would. Where the compiler or the library is
missing they skip, naming why, unless ``BUTTONUP_REQUIRE_NATIVE=1`` (CI) makes that a
failure."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import processes
import pytest

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "target" / "release"


def need(condition: bool, reason: str, required: str = "BUTTONUP_REQUIRE_NATIVE") -> None:
    """Skips with ``reason`` unless ``condition``; fails instead when ``required`` is set."""
    if not condition:
        if os.environ.get(required):
            pytest.fail(f"{required} is set, but {reason}")
        pytest.skip(reason)


def compiled(name: str, folder: Path, extra: tuple[str, ...] = ()) -> Path:
    """tests/c/NAME.c compiled into ``folder`` (with the ``extra`` flags of the compiler),
    linked to the C library: its path."""
    need(shutil.which("cc") is not None, "no C compiler (cc)")
    need(
        (LIBRARY / "libbuttonup_c.so").is_file(),
        "libbuttonup_c.so is not built (cargo build --release -p buttonup-c)",
    )
    driver = folder / name
    source, include = ROOT / "tests" / "c" / f"{name}.c", ROOT / "capi" / "include"
    flags = ["cc", "-O2", "-Wall", "-Wextra", "-Werror", *extra, "-o", str(driver), str(source)]
    link = ["-I", str(include), f"-L{LIBRARY}", "-lbuttonup_c", f"-Wl,-rpath,{LIBRARY}"]
    built = processes.run([*flags, *link], capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    return driver
