"""Throwing caller objects at the WebAssembly package (issue 34): tests/js/
wasm_throwing.test.js makes 100,000 calls whose arguments throw while the engine reads
them (getters, Proxy traps, a revoked Proxy), then uses the module and the match that
was being read. The package is found or built as tests/wasm_package.py says."""

from __future__ import annotations

import os
import re
from pathlib import Path

from buttonup.testing.processes import run
from wasm_package import node_and_package

SCRIPT = Path(__file__).resolve().parent / "js" / "wasm_throwing.test.js"


def test_throwing_caller_objects_leave_the_module_usable() -> None:
    node, pkg = node_and_package()
    done = run(
        [node, "--test", str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "BUTTONUP_WASM_PKG": str(pkg)},
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-6000:]
    assert re.search(r"^# pass 2$", report, re.MULTILINE), report[-2000:]
