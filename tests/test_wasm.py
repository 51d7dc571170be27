"""The WebAssembly package (docs/wasm.md) against the Python engines: the Python side
writes its answers to a file (tests/wasm_cases.py), then ``node --test`` checks the
package on them (tests/js/wasm.test.js).

The package is taken from ``BUTTONUP_WASM_PKG``, or target/wasm-pkg when it is newer
than the sources, or built by scripts/build-wasm.sh (without installing anything). The
test skips, naming why, when Node or a WebAssembly toolchain is missing; CI installs
them and sets ``BUTTONUP_REQUIRE_WASM``, so that nothing here is skipped there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from wasm_cases import all_cases

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
    build = subprocess.run(
        ["bash", str(ROOT / "scripts" / "build-wasm.sh"), "--no-install"],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if build.returncode == 3:  # no toolchain here: the script said which
        unavailable("no WebAssembly toolchain: " + build.stderr.strip().splitlines()[-1])
    assert build.returncode == 0, build.stderr[-4000:]
    return pkg


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        unavailable("node is not installed")
    assert found is not None
    version = subprocess.run([found, "--version"], capture_output=True, text=True).stdout
    if int(version.strip().lstrip("v").split(".")[0]) < 18:
        unavailable(f"node {version.strip()} is older than 18 (no node --test)")
    return found


def test_the_wasm_engine_agrees_with_the_python_engines(node: str, tmp_path: Path) -> None:
    pkg = wasm_package()
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(all_cases()))
    run = subprocess.run(
        [node, "--test", str(ROOT / "tests" / "js" / "wasm.test.js")],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "BUTTONUP_WASM_PKG": str(pkg), "BUTTONUP_WASM_CASES": str(cases)},
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-6000:]
    passed = re.search(r"^# pass (\d+)$", report, re.MULTILINE)
    failed = re.search(r"^# fail (\d+)$", report, re.MULTILINE)
    assert passed and failed, report[-2000:]
    assert int(passed.group(1)) >= 12 and int(failed.group(1)) == 0, report[-2000:]


def test_the_package_ships_its_typescript_declarations() -> None:
    pkg = wasm_package()
    manifest = json.loads((pkg / "package.json").read_text())
    for name in (manifest["main"], manifest["types"], "buttonup_wasm_bg.wasm"):
        assert (pkg / name).is_file(), name
    declarations = (pkg / manifest["types"]).read_text()
    for declared in (
        "export class Position",
        "legalMoves(): number[]",
        "play(pile: number): MoveOutcome",
        "export function solve(position: Position): number",
        "export function bestMove(",
        "export function winProbability(",
        "export class Match",
        "export interface MoveOutcome",
    ):
        assert declared in declarations, declared
    assert (pkg / "web" / "buttonup_wasm.js").is_file()
