"""What a browser test module needs before it imports Selenium (tests/web_browsers.py):
Selenium, chromium-driver and the modules it names. Outside CI a module calls
``skip_without`` first, which skips it, naming what is missing; in CI
(``BUTTONUP_REQUIRE_WEB``) it does not call it, and what is missing fails."""

from __future__ import annotations

import shutil

import pytest


def skip_without(*modules: str) -> None:
    """Skips the calling test module unless ``selenium.webdriver``, ``modules`` and
    chromedriver are all there."""
    for module in ("selenium.webdriver", *modules):
        pytest.importorskip(module)
    if not shutil.which("chromedriver"):
        pytest.skip("chromium-driver is not installed", allow_module_level=True)
