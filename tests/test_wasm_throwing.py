"""Throwing caller objects at the WebAssembly package (issue 34): tests/js/
wasm_throwing.test.js makes 100,000 calls whose arguments throw while the engine reads
them (getters, Proxy traps, a revoked Proxy), then uses the module and the match that
was being read. The package is found or built as tests/wasm_package.py says."""

from __future__ import annotations

from pathlib import Path

from wasm_package import node_test

SCRIPT = Path(__file__).resolve().parent / "js" / "wasm_throwing.test.js"


def test_throwing_caller_objects_leave_the_module_usable() -> None:
    assert node_test(SCRIPT) == 2
