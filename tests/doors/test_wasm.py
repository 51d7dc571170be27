"""The WebAssembly package (docs/wasm.md) against the Python engines: the Python side
writes its answers to a file (tests/wasm_cases.py), then ``node --test`` checks the
package on them (tests/js/wasm.test.js).

The package is found or built as tests/wasm_package.py says. The tests skip, naming
why, when Node or a WebAssembly toolchain is missing; CI installs them and sets
``BUTTONUP_REQUIRE_WASM``, so that nothing here is skipped there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import processes
import pytest
from buttonup import Match
from wasm_cases import all_cases
from wasm_package import unavailable, wasm_package

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        unavailable("node is not installed")
    assert found is not None
    version = processes.run([found, "--version"], capture_output=True, text=True).stdout
    if int(version.strip().lstrip("v").split(".")[0]) < 18:
        unavailable(f"node {version.strip()} is older than 18 (no node --test)")
    return found


def test_the_wasm_engine_agrees_with_the_python_engines(node: str, tmp_path: Path) -> None:
    pkg = wasm_package()
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(all_cases()))
    run = processes.run(
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


def test_the_pages_local_engine_plays_whole_matches(node: str, tmp_path: Path) -> None:
    """The page's LocalEngine in Node (tests/js/local_engine.test.mjs): a whole match
    against every level; each match's record, read back by the Python library, has the
    scores and the winner the LocalEngine reported."""
    pkg = wasm_package()
    static = ROOT / "python" / "buttonup" / "web" / "static"
    modules = tmp_path / "static"
    modules.mkdir()
    for name in ("engine.js", "local_engine.js"):
        shutil.copyfile(static / name, modules / name)
    (modules / "package.json").write_text('{"type": "module"}')
    records = tmp_path / "records.json"
    run = processes.run(
        [node, "--test", str(ROOT / "tests" / "js" / "local_engine.test.mjs")],
        capture_output=True,
        text=True,
        timeout=600,
        env={
            **os.environ,
            "BUTTONUP_WASM_PKG": str(pkg),
            "BUTTONUP_LOCAL_ENGINE": str(modules),
            "BUTTONUP_LOCAL_RECORDS": str(records),
        },
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-6000:]
    assert re.search(r"^# fail 0$", report, re.MULTILINE), report[-2000:]
    played = json.loads(records.read_text())
    assert [m["level"] for m in played] == list(range(1, 11))
    for game in played:
        match = Match.from_record(game["record"])
        red, black = match.scores
        assert {"r": red, "b": black} == game["scores"], game["level"]
        assert match.winner is not None and match.winner.letter == game["winner"]
        assert max(red, black) >= game["target"]


def test_the_typescript_declarations_type_check(tmp_path: Path) -> None:
    """tests/js/types_check.ts against the package's ``.d.ts`` with ``tsc --strict``
    (Debian's node-typescript; its TypeScript 4.8 predates ``Symbol.dispose``, which the
    declarations use, hence ``--skipLibCheck``: the program's uses are still checked)."""
    tsc = shutil.which("tsc")
    if tsc is None:
        unavailable("tsc is not installed (Debian's node-typescript)")
    assert tsc is not None
    pkg = wasm_package()
    shutil.copyfile(pkg / "buttonup_wasm.d.ts", tmp_path / "buttonup_wasm.d.ts")
    shutil.copyfile(ROOT / "tests" / "js" / "types_check.ts", tmp_path / "types_check.ts")
    flags = ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2020"]
    flags += ["--moduleResolution", "node", "--lib", "es2020,dom"]
    run = processes.run(
        [tsc, *flags, "types_check.ts"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout + run.stderr
