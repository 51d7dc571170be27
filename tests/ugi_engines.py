"""The two UGI engines the engine tests run against: ``buttonup engine`` (Python around
the Rust core) and ``buttonup-engine`` (the native binary of engine/, built by ``cargo
build`` or ``cargo test`` at the root of the tree).

The native binary is looked for in ``BUTTONUP_NATIVE_ENGINE``, then in the tree's
``target/release`` and ``target/debug`` (the newer one). Where it is absent its tests
skip, naming why, unless ``BUTTONUP_REQUIRE_NATIVE=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import processes
import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON_ENGINE = [sys.executable, "-m", "buttonup", "engine"]


def native_engine() -> Path | None:
    """The native engine's binary, if one is built."""
    given = os.environ.get("BUTTONUP_NATIVE_ENGINE")
    if given:
        return Path(given)
    built = [ROOT / "target" / kind / "buttonup-engine" for kind in ("release", "debug")]
    found = [path for path in built if path.is_file()]
    return max(found, key=lambda path: path.stat().st_mtime) if found else None


def command(name: str) -> list[str]:
    """The command line of the engine ``name`` ("python" or "native"); skips (or, with
    ``BUTTONUP_REQUIRE_NATIVE=1``, fails) where the native one is not built."""
    if name == "python":
        return PYTHON_ENGINE
    binary = native_engine()
    if binary is None:
        reason = "the native engine is not built (cargo build --release -p buttonup-engine)"
        if os.environ.get("BUTTONUP_REQUIRE_NATIVE"):
            pytest.fail(reason)
        pytest.skip(reason)
    return [str(binary)]


NAMES = ("python", "native")


@contextmanager
def started(command: list[str]) -> Iterator[subprocess.Popen[str]]:
    """The engine ``command`` running, its three streams piped as text, in a process
    group of its own that is ended when the block ends, on every outcome."""
    with processes.started(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        yield process
