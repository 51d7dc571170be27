"""Random arguments at the WebAssembly package (issue 22): tests/js/wasm_fuzz.test.js
calls every exported function, class and method with numbers past every limit, NaN,
BigInt, bad notation and bad option objects, and fails on any Rust panic. The package
is found or built as tests/wasm_package.py says; without Node or a WebAssembly
toolchain this skips, naming why (CI requires it with ``BUTTONUP_REQUIRE_WASM``)."""

from __future__ import annotations

from pathlib import Path

from wasm_package import node_test

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "js" / "wasm_fuzz.test.js"


def test_no_argument_makes_the_package_panic() -> None:
    assert node_test(SCRIPT) == 1
