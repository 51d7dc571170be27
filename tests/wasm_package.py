"""Where the tests find the WebAssembly package (docs/wasm.md): ``BUTTONUP_WASM_PKG``, or
target/wasm-pkg when it is newer than the sources, or built now by scripts/build-wasm.sh
(installing nothing). Without a toolchain the tests skip, naming why, unless
``BUTTONUP_REQUIRE_WASM`` is set (CI), where they fail."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from processes import run

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = bool(os.environ.get("BUTTONUP_REQUIRE_WASM"))


def unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"BUTTONUP_REQUIRE_WASM is set, but {reason}")
    pytest.skip(reason)


def newest_source() -> float:
    sources = [*ROOT.glob("src/**/*.rs"), *ROOT.glob("wasm/src/*.rs"), ROOT / "wasm/Cargo.toml"]
    return max(path.stat().st_mtime for path in sources)


def wasm_package() -> Path:
    """The package folder: given, found up to date, or built now."""
    given = os.environ.get("BUTTONUP_WASM_PKG")
    if given:
        return Path(given)
    pkg = ROOT / "target" / "wasm-pkg"
    wasm = pkg / "buttonup_wasm_bg.wasm"
    if wasm.exists() and wasm.stat().st_mtime >= newest_source():
        return pkg
    if not (ROOT / "scripts" / "build-wasm.sh").exists():
        unavailable("scripts/build-wasm.sh is absent (not a source checkout)")
    build = run(
        ["bash", str(ROOT / "scripts" / "build-wasm.sh"), "--no-install"],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if build.returncode == 3:  # no toolchain here: the script said which
        unavailable("no WebAssembly toolchain: " + build.stderr.strip().splitlines()[-1])
    assert build.returncode == 0, build.stderr[-4000:]
    return pkg


def node_and_package() -> tuple[str, Path]:
    """Node and the package, for a test that drives the package from a script: skips
    (or, with ``BUTTONUP_REQUIRE_WASM``, fails) where either is missing."""
    node = shutil.which("node")
    if node is None:
        unavailable("node is not installed")
    assert node is not None
    return node, wasm_package()


def node_test(script: Path, **env: str) -> int:
    """Runs ``script`` with ``node --test`` on the package (``BUTTONUP_WASM_PKG``, and
    ``env``), asserts that it passed, and returns how many of its tests passed."""
    node, pkg = node_and_package()
    done = run(
        [node, "--test", str(script)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "BUTTONUP_WASM_PKG": str(pkg), **env},
    )
    report = str(done.stdout) + str(done.stderr)
    assert done.returncode == 0, report[-6000:]
    passed = re.search(r"^# pass (\d+)$", report, re.MULTILINE)
    failed = re.search(r"^# fail (\d+)$", report, re.MULTILINE)
    assert passed and failed and failed.group(1) == "0", report[-2000:]
    return int(passed.group(1))
