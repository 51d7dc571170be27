"""``buttonup export-site DIR`` with no ``--wasm``, as a user of an installed package runs
it: from a folder that is no clone, the page's WebAssembly build comes from the package
itself (a wheel or sdist built after scripts/build-wasm.sh ships a copy of it in
``buttonup/web/wasm``; .ci/test-installed requires one)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import buttonup
import pytest
from buttonup.web.export import checkout_at
from processes import run

SHIPPED = Path(buttonup.__file__).resolve().parent / "web" / "wasm"


def test_export_site_uses_the_package_s_own_webassembly_build(tmp_path: Path) -> None:
    if not (SHIPPED / "buttonup_wasm_bg.wasm").is_file():
        if os.environ.get("BUTTONUP_REQUIRE_SHIPPED_WASM"):
            pytest.fail(f"BUTTONUP_REQUIRE_SHIPPED_WASM is set, but {SHIPPED} has no build")
        pytest.skip("this installation ships no WebAssembly build (scripts/build-wasm.sh not run)")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "BUTTONUP_WASM_PKG"}
    made = run(
        [sys.executable, "-m", "buttonup", "export-site", "site"],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    copied = outside / "site" / "static" / "wasm" / "buttonup_wasm_bg.wasm"
    assert copied.read_bytes() == (SHIPPED / "buttonup_wasm_bg.wasm").read_bytes()
    assert (outside / "site" / "index.html").is_file()


def test_a_clone_is_recognised_from_any_folder_inside_it(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    (clone / "scripts").mkdir(parents=True)
    (clone / "wasm").mkdir()
    (clone / "scripts" / "build-wasm.sh").write_text("", encoding="utf-8")
    (clone / "wasm" / "Cargo.toml").write_text("", encoding="utf-8")
    (clone / "docs" / "deep").mkdir(parents=True)
    assert checkout_at(clone / "docs" / "deep") == clone
    assert checkout_at(tmp_path) is None
