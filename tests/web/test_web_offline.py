"""The page as static files (``buttonup export-site``), in a real headless Chromium,
served by a plain static file server that answers every ``/api`` request 500 and
records it: the page plays a whole battle against level 5 by clicking, with a hint and
an undo, and the analysis board, on the engine in the browser (WebAssembly), and never
asks ``/api``. The final sums are checked against the Python library's scoring.

Needs Chromium and chromium-driver (as tests/web/test_web_browser.py) and the WebAssembly
package (tests/wasm_package.py); skips naming what is missing, except in CI, where
``BUTTONUP_REQUIRE_WEB`` and ``BUTTONUP_REQUIRE_WASM`` are set."""

from __future__ import annotations

import functools
import http.server
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from wasm_package import wasm_package
from web_needs import skip_without

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    skip_without()

from buttonup import RATINGS, Position
from processes import run
from selenium.webdriver.common.by import By
from web_browsers import (
    Browser,
    chrome,
    click_to_the_end,
    dump_dom,
    js,
    lift,
    listed_moves,
    play_a_battle_on_one_screen,
    reviews_as_the_engine,
    settled,
    shown_position,
    shows_the_scoring,
    wait_for,
)


class StaticFiles(http.server.SimpleHTTPRequestHandler):
    """A plain static file server of one folder; every request is listed in ``seen``,
    and one for ``/api`` is answered 500."""

    seen: list[str]

    def answer(self) -> None:
        self.seen.append(f"{self.command} {self.path}")
        if self.path.startswith("/api"):
            self.send_error(500, "no API here: the page must play offline")
            return
        super().do_GET()

    do_GET = answer
    do_POST = answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    package = wasm_package()
    folder = tmp_path_factory.mktemp("site")
    made = run(
        [sys.executable, "-m", "buttonup", "export-site", str(folder), "--wasm", str(package)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    assert (folder / "index.html").is_file()
    assert (folder / "static" / "wasm" / "buttonup_wasm_bg.wasm").is_file()
    # The online matches' pages need a server: not in the offline site.
    exported = {path.name for path in (folder / "static").iterdir()}
    assert "app.js" in exported and "online_engine.js" in exported
    assert not exported & {"online.html", "online.js", "mine.html", "mine.js"}
    return folder


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []
    handler = type("Handler", (StaticFiles,), {"seen": seen})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    driver = chrome(logs=True)
    yield driver
    driver.quit()


def open_offline(browser: Browser, url: str, query: str) -> None:
    browser.get(f"{url}/?{query}")
    wait_for(browser, lambda b: b.execute_script("return document.body.dataset.ready"))
    assert js(browser, "return window.buttonup.engine.name") == "local"


def errors_logged(browser: Browser) -> list[str]:
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def test_a_whole_battle_offline_against_level_5(
    served: tuple[str, list[str]], browser: Browser
) -> None:
    url, seen = served
    open_offline(browser, url, "speed=fast&seed=11")
    option = browser.find_element(By.CSS_SELECTOR, "#level option[value='5']")
    # The ratings come from the engine in the browser, as the server's do from the core.
    assert option.text.startswith(f"5 · rating {round(RATINGS[4])} · ")
    option.click()
    browser.find_element(By.ID, "new").click()
    wait_for(browser, settled)
    match = js(browser, "return window.buttonup.state.match;")
    assert match["level"] == 5
    start = Position(match["battle"]["start"])
    first = shown_position(browser)
    # A hint: a row for each legal move of the position on the board.
    assert match["to_move"] == match["human"]  # Red, who starts
    browser.find_element(By.ID, "hint").click()
    table = wait_for(browser, lambda b: b.find_elements(By.ID, "hint-table"))[0]
    piles = [row.text.split()[0] for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert sorted(map(int, piles)) == Position(first).legal_moves()
    # A move, then undo: back to the position before it.
    assert lift(browser)
    wait_for(browser, lambda b: settled(b) and b.find_element(By.ID, "undo").is_enabled())
    browser.find_element(By.ID, "undo").click()
    wait_for(browser, lambda b: settled(b) and shown_position(b) == first)
    assert listed_moves(browser) == []
    # The whole battle by clicking.
    labels, position = click_to_the_end(browser, start)
    shows_the_scoring(browser, position)
    # The review's losses are the library's values.
    reviews_as_the_engine(browser, start, labels)
    assert not [hit for hit in seen if "/api" in hit], seen
    assert not errors_logged(browser)


def test_the_analysis_board_offline(served: tuple[str, list[str]], browser: Browser) -> None:
    url, seen = served
    open_offline(browser, url, "speed=fast")
    field = browser.find_element(By.ID, "analyze-input")
    field.clear()
    field.send_keys("W/R/B/W/B/R/R/W/B r")
    browser.find_element(By.CSS_SELECTOR, "#analyze-form button").click()
    value = wait_for(browser, lambda b: b.find_elements(By.ID, "analysis-value"))[0]
    assert "value +1 (exact)" in value.text
    pv = browser.find_element(By.ID, "analysis-pv").text.removeprefix("Best line: ").split()
    position = Position("W/R/B/W/B/R/R/W/B r")
    for label in pv:
        assert label.endswith("+") == position.gives_extra_move(int(label.rstrip("+")))
        position = position.play(int(label.rstrip("+")))
    assert position.is_over
    field.clear()
    field.send_keys("W/R/X r")
    browser.find_element(By.CSS_SELECTOR, "#analyze-form button").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "error").is_displayed())
    assert "unknown button 'X'" in browser.find_element(By.ID, "error").text
    assert not [hit for hit in seen if "/api" in hit], seen


def test_pass_and_play_offline(served: tuple[str, list[str]], browser: Browser) -> None:
    """Two players on one screen on the engine in the browser: a whole battle."""
    url, seen = served
    open_offline(browser, url, "speed=fast&seed=3")
    assert not browser.find_elements(By.CSS_SELECTOR, "#opponent option[value='friend']")
    play_a_battle_on_one_screen(browser)
    assert not [hit for hit in seen if "/api" in hit], seen
    assert not errors_logged(browser)


def test_opened_from_a_file_the_page_says_it_must_be_served(site: Path) -> None:
    # Browsers run no module script from file://: the page must say so, not sit silent.
    dom = dump_dom((site / "index.html").as_uri())
    # The script's own text holds these words too: look at the elements it made.
    notice = re.search(r'<div id="served-only"[^>]*>(.*?)</div>', dom, re.S)
    assert notice is not None, dom[-3000:]
    assert "<code>python3 -m http.server 8000</code>" in notice.group(1)
    assert re.search(r'<p id="status"[^>]*>Serve this folder over HTTP to play', dom)
    assert re.search(r'<button id="new"[^>]*disabled[^>]*>Start the match', dom)


def test_export_site_says_how_to_serve_it(tmp_path: Path) -> None:
    made = run(
        [
            sys.executable,
            "-m",
            "buttonup",
            "export-site",
            str(tmp_path / "s"),
            "--wasm",
            str(wasm_package()),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    assert "python3 -m http.server" in made.stdout and "open index.html" not in made.stdout
