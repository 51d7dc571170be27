"""The documentation site as a reader gets it: ``mkdocs build --strict`` (mkdocs.yml,
the ``docs`` extra) builds it with no warning (no broken link or anchor, no public name
without a docstring), its API reference shows every name of ``buttonup.__all__`` with its
docstring, and a real headless Chromium opens its front page and the ``Position``
reference.

The build needs the ``docs`` extra; the browser part, Chromium and chromium-driver (as
the page's tests: skipped naming what is missing, except in CI, where
``BUTTONUP_REQUIRE_WEB`` is set)."""

from __future__ import annotations

import functools
import html
import http.server
import inspect
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import buttonup
import pytest
from processes import run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("needs the source tree (mkdocs.yml, docs/)")
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    folder = tmp_path_factory.mktemp("site")
    made = run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert made.returncode == 0, made.stderr[-4000:]
    assert "WARNING" not in made.stderr, made.stderr[-4000:]
    return folder


def text_of(page: Path) -> str:
    """A built page's text, tags dropped and entities read, blanks folded."""
    raw = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))
    return " ".join(html.unescape(raw).split())


def first_sentence(name: str) -> str:
    doc = inspect.getdoc(getattr(buttonup, name)) or ""
    if name.isupper():  # a constant: its docstring is the stubs' own
        return ""
    line = doc.split("\n\n")[0].split(". ")[0]
    return " ".join(line.split())


def test_the_reference_shows_every_public_name_with_its_docstring(site: Path) -> None:
    page = site / "reference" / "buttonup" / "index.html"
    built = page.read_text(encoding="utf-8")
    shown = text_of(page)
    for name in buttonup.__all__:
        assert f'id="buttonup.{name}"' in built, f"no entry for buttonup.{name}"
        sentence = first_sentence(name)
        # Markdown turns `x` (and a Sphinx role, :func:`x`) into code: compare the words.
        words = re.sub(r":\w+:`~?([^`]+)`", r"\1", sentence).replace("`", "")
        # (Tags became blanks, inline ones too: compare without blanks.)
        assert "".join(words.split()) in "".join(shown.split()), (
            f"buttonup.{name}: its docstring is not shown ({words!r})"
        )


def test_the_guides_and_the_reference_are_all_built(site: Path) -> None:
    for page in (
        "index.html",
        "getting-started/index.html",
        "ai/index.html",
        "reference/index.html",
        "reference/ai/index.html",
        "reference/envs/index.html",
        "benchmarks/index.html",
        "changelog/index.html",
    ):
        assert (site / page).is_file(), page
    assert "Keep a Changelog" in text_of(site / "changelog" / "index.html")


class StaticFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(StaticFiles, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
        from web_needs import skip_without

        skip_without()
    from web_browsers import chrome

    driver = chrome(logs=True)
    yield driver
    driver.quit()


def screenshot(browser: Any, name: str) -> None:
    folder = Path(os.environ.get("BUTTONUP_SCREENSHOTS", "/tmp/buttonup-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(folder / name))


def test_a_browser_opens_the_front_page_and_the_position_reference(
    served: str, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(served + "/")
    assert browser.title.startswith("buttonup")
    heading = browser.find_element(By.CSS_SELECTOR, "article h1")
    assert heading.text.strip() == "buttonup" and heading.is_displayed()
    links = {
        link.get_attribute("href")
        for link in browser.find_elements(By.CSS_SELECTOR, "nav.md-nav--primary a")
    }
    reference = served + "/reference/buttonup/"
    assert served + "/getting-started/" in links and reference in links
    screenshot(browser, "docs-front-page.png")

    browser.get(reference + "#buttonup.Position")
    entry = browser.find_element(By.ID, "buttonup.Position")
    assert entry.is_displayed()
    assert "Position" in entry.text
    body = browser.find_element(By.CSS_SELECTOR, "article").text
    assert "A Button Up! position: the circle of piles and the player to move." in body
    assert "legal_moves" in body and "play" in body
    screenshot(browser, "docs-position-reference.png")
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors
