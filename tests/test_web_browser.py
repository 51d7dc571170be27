"""The page in a real headless Chromium (Debian's chromium and chromium-driver, driven by
Selenium): a whole battle against level 1 by clicking, the final score the page shows
against the engine's, hint, undo and the analysis board. Screenshots go to
``BUTTONUP_SCREENSHOTS`` (a temporary folder by default)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

if os.environ.get("BUTTONUP_REQUIRE_WEB"):
    import httpx
    from selenium import webdriver
else:
    httpx = pytest.importorskip("httpx")
    webdriver = pytest.importorskip("selenium.webdriver")
    pytest.importorskip("fastapi")
    if not shutil.which("chromedriver"):
        pytest.skip("chromium-driver is not installed", allow_module_level=True)

from buttonup import Position
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "buttonup", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(url + "/")
            break
        except httpx.TransportError:
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,900"):
        options.add_argument(flag)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots() -> Path:
    folder = Path(os.environ.get("BUTTONUP_SCREENSHOTS", "/tmp/buttonup-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait_for(browser: webdriver.Chrome, check: object, timeout: float = 20) -> object:
    return WebDriverWait(browser, timeout, poll_frequency=0.05).until(check)  # type: ignore[arg-type]


def click_a_legal_pile(browser: webdriver.Chrome) -> bool:
    """Clicks the first liftable pile once the board offers one (the board is redrawn
    during animations, so a pile found may be gone by the click: look again)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if browser.find_elements(By.ID, "battle-result"):
            return False
        try:
            piles = browser.find_elements(By.CSS_SELECTOR, "#board .pile.legal")
            if piles:
                piles[0].click()
                return True
        except StaleElementReferenceException:
            pass
        time.sleep(0.05)
    raise AssertionError("no pile to lift")


def test_a_whole_battle_by_clicking(server: str, browser: webdriver.Chrome, shots: Path) -> None:
    browser.get(server + "/")
    browser.find_element(By.CSS_SELECTOR, "#level option[value='1']").click()
    browser.find_element(By.ID, "new").click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#board .pile.legal"))
    browser.save_screenshot(str(shots / "start.png"))
    # Hint: every legal move gets a value.
    browser.find_element(By.ID, "hint").click()
    table = wait_for(browser, lambda b: b.find_elements(By.ID, "hint-table"))
    assert table
    # Undo after one move brings the start back.
    before = browser.execute_script("return document.querySelectorAll('#board .pile').length")
    assert click_a_legal_pile(browser)
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#board .pile.legal"))
    time.sleep(0.3)
    browser.find_element(By.ID, "undo").click()
    wait_for(
        browser,
        lambda b: (
            b.execute_script("return document.querySelectorAll('#board .pile').length") == before
        ),
    )
    # Play until the first battle is scored.
    clicks = 0
    while click_a_legal_pile(browser):
        clicks += 1
        time.sleep(0.2)
    assert 1 <= clicks <= 8
    result = browser.find_element(By.ID, "battle-result").text
    browser.save_screenshot(str(shots / "battle-over.png"))
    red_line = browser.find_element(By.ID, "sum-red").text
    black_line = browser.find_element(By.ID, "sum-black").text
    # The page's sums are the engine's scoring of the final pile it shows.
    tower = "".join(
        cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "#scoring tr td:nth-child(2)")
    )[::-1]
    scoring = Position(f"{tower} r").scoring()
    assert red_line.endswith(f"= {scoring.red}") and black_line.endswith(f"= {scoring.black}")
    assert ("nobody" in result) == (scoring.winner is None)
    red_points = scoring.points if scoring.winner and scoring.winner.letter == "r" else 0
    black_points = scoring.points if scoring.winner and scoring.winner.letter == "b" else 0
    wait_for(
        browser,
        lambda b: f"Red {red_points} - Black {black_points}" in b.find_element(By.ID, "score").text,
    )


def test_the_analysis_board(server: str, browser: webdriver.Chrome, shots: Path) -> None:
    browser.get(server + "/")
    field = browser.find_element(By.ID, "analyze-input")
    field.clear()
    field.send_keys("W/R/B/W/B/R/R/W/B r")
    browser.find_element(By.CSS_SELECTOR, "#analyze-form button").click()
    value = wait_for(browser, lambda b: b.find_elements(By.ID, "analysis-value"))
    assert "value +1 (exact)" in value[0].text  # type: ignore[index]
    assert browser.find_element(By.ID, "analysis-pv").text == "Best line: 3 0 0 1 3 3 2 0"
    browser.save_screenshot(str(shots / "analysis.png"))
    field.clear()
    field.send_keys("W/R/X r")
    browser.find_element(By.CSS_SELECTOR, "#analyze-form button").click()
    error = wait_for(browser, lambda b: b.find_element(By.ID, "error").is_displayed())
    assert error
    assert "unknown button 'X'" in browser.find_element(By.ID, "error").text


def test_phone_width(server: str, browser: webdriver.Chrome, shots: Path) -> None:
    browser.set_window_size(390, 844)
    browser.get(server + "/")
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 400
    browser.save_screenshot(str(shots / "phone.png"))
    browser.set_window_size(1100, 900)
