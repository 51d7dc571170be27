"""Hostile callers at the WebAssembly package: tests/js/wasm_fuzz.test.js calls every
exported function, class and method with numbers past every limit, NaN, BigInt, bad
notation and bad option objects, and fails on any Rust panic; tests/js/
wasm_throwing.test.js makes 100,000 calls whose arguments throw while the engine reads
them (getters, Proxy traps, a revoked Proxy), then uses the module and the match that
was being read. The package is found or built as tests/wasm_package.py says; without
Node or a WebAssembly toolchain this skips, naming why (CI requires it with
``BUTTONUP_REQUIRE_WASM``)."""

from __future__ import annotations

from pathlib import Path

from wasm_package import node_test

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "js"


def test_no_argument_makes_the_package_panic() -> None:
    assert node_test(SCRIPTS / "wasm_fuzz.test.js") == 1


def test_throwing_caller_objects_leave_the_module_usable() -> None:
    assert node_test(SCRIPTS / "wasm_throwing.test.js") == 2
