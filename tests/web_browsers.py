"""What the browser tests share (tests/web/test_web_browser.py, test_web_offline.py,
test_web_online.py): a headless Chromium (Debian's chromium and chromium-driver, through
Selenium), a `buttonup serve` on a free loopback port, and the page's usual waits.

A test module imports this once it has made sure Selenium and chromedriver are there (or
skipped); importing it starts nothing."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from processes import end, free_port, popen, run

# (pytest also imports this file for its doctests: without Selenium it is skipped.)
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

if TYPE_CHECKING:
    from buttonup import Position, Scoring

Browser = Any  # selenium's Chrome driver


@contextmanager
def serving(*arguments: str, port: int | None = None) -> Iterator[str]:
    """`buttonup serve` on ``port`` (a free loopback one by default, with
    ``arguments``), its base URL once it answers; stopped at the end."""
    import httpx  # the pages' tests need it; the offline page's does not

    port = port or free_port()
    process = popen(
        [sys.executable, "-m", "buttonup", "serve", "--port", str(port), *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60  # a loaded machine starts Python slowly
    try:
        while True:
            try:
                httpx.get(url + "/")
                break
            except httpx.TransportError:
                assert process.poll() is None, "the server stopped"
                assert time.monotonic() < deadline, "the server did not answer within 60 s"
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        end(process)  # its group, on every outcome


@functools.cache
def _scratch() -> str:
    folder = tempfile.mkdtemp(prefix="bu-chromium-", dir="/tmp")  # short: socket paths
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def chrome(downloads: Path | None = None, logs: bool = False) -> Browser:
    """A headless Chromium at 1200x900 whose system asks for less motion (the pages
    then scroll at once: a click is never aimed at a page still scrolling); downloads
    go to ``downloads``; ``logs``: the console kept for ``get_log("browser")``."""
    options = webdriver.ChromeOptions()
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1200,900",
        "--force-prefers-reduced-motion",
    ):
        options.add_argument(flag)
    if logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if downloads is not None:
        options.add_experimental_option(
            "prefs",
            {"download.default_directory": str(downloads), "download.prompt_for_download": False},
        )
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    # Chromium's singleton socket folders in a folder of the run's (it leaves them in /tmp
    # when chromedriver ends it), removed at exit with the rest.
    service = webdriver.ChromeService(
        executable_path=shutil.which("chromedriver"), env={**os.environ, "TMPDIR": _scratch()}
    )
    driver = webdriver.Chrome(options=options, service=service)
    if downloads is not None:
        driver.execute_cdp_cmd(
            "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
        )
    return driver


def viewport(browser: Browser, width: int, height: int) -> None:
    """The page's viewport exactly ``width`` x ``height`` CSS pixels (a phone's is
    emulated as one: touch and the viewport meta tag), whatever the window's frame."""
    browser.set_window_size(width, height + 200)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def wait_for(browser: Browser, check: Any, timeout: float = 60) -> Any:
    return WebDriverWait(browser, timeout, poll_frequency=0.05).until(check)


def text_of(browser: Browser, element_id: str) -> str:
    """The text shown by the element with ``element_id`` now, or "" when there is none
    or the page replaced it while it was read (a render swaps whole parts of a page)."""
    try:
        return " ".join(found.text for found in browser.find_elements(By.ID, element_id))
    except StaleElementReferenceException:
        return ""


def js(browser: Browser, script: str, *args: Any) -> Any:
    return browser.execute_script(script, *args)


def ready(browser: Browser) -> bool:
    return bool(js(browser, "return document.body.dataset.ready"))


def settled(browser: Browser) -> bool:
    """The page has a match and is neither making nor showing a move."""
    return bool(js(browser, "const s = window.buttonup.state; return !!s.match && !s.busy;"))


def shown_position(browser: Browser) -> str:
    return str(browser.find_element(By.ID, "board").get_attribute("data-position"))


def listed_moves(browser: Browser) -> list[str]:
    buttons = browser.find_elements(By.CSS_SELECTOR, "#moves button.move")
    return [b.text for b in buttons if b.get_attribute("data-ply") != "0"]


def lift(browser: Browser, pile: int | None = None, timeout: float = 60) -> bool:
    """Clicks pile ``pile`` (or the first one) once the board offers it; False when the
    battle is over first (the end-of-battle panel shown)."""
    selector = "#board .pile.playable" + ("" if pile is None else f"[data-pile='{pile}']")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if browser.find_element(By.ID, "battle-panel").is_displayed():
            return False
        try:
            found = browser.find_elements(By.CSS_SELECTOR, selector)
            if found and settled(browser):
                found[0].click()
                return True
        except StaleElementReferenceException:
            pass
        time.sleep(0.05)
    raise AssertionError(f"no pile to lift ({selector})")


def page_match(browser: Browser) -> dict[str, Any]:
    return dict(js(browser, "return window.buttonup.state.match;"))


def showing(browser: Browser, position: str) -> None:
    """Waits until the page's match is at ``position``, done showing it."""
    wait_for(browser, lambda b: settled(b) and page_match(b)["position"] == position)


def click_to_the_end(browser: Browser, start: Position) -> tuple[list[str], Position]:
    """Plays the battle on by clicking (the first pile each time) until the end-of-battle
    panel shows, then checks that the move list replays, through the library, from
    ``start`` to the position the board shows: the moves listed and that position."""
    while lift(browser):
        pass
    wait_for(browser, lambda b: b.find_element(By.ID, "battle-panel").is_displayed())
    labels = listed_moves(browser)
    position = start
    for label in labels:
        move = int(label.rstrip("+"))
        assert label.endswith("+") == position.gives_extra_move(move), label
        position = position.play(move)
    assert position.is_over and shown_position(browser) == str(position)
    return labels, position


def shows_the_scoring(browser: Browser, final: Position) -> Scoring:
    """Checks that the end-of-battle panel's sums are the engine's scoring of the final
    pile ``final``, and returns that scoring."""
    scoring = final.scoring()
    assert browser.find_element(By.ID, "sum-red").text.endswith(f"= {scoring.red}")
    assert browser.find_element(By.ID, "sum-black").text.endswith(f"= {scoring.black}")
    return scoring


def reviews_as_the_engine(browser: Browser, start: Position, labels: list[str]) -> list[Any]:
    """Opens the review of the finished battle from ``start`` whose moves are ``labels``
    and checks that each move's loss is the engine's (the mover's best value minus the
    value of the move played); the review's rows, a move each."""
    from buttonup import analyze

    browser.find_element(By.ID, "review-battle").click()
    rows = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#review-table tbody tr"))
    assert len(rows) == len(labels)
    position = start
    for row, label in zip(rows, labels):
        move = int(label.rstrip("+"))
        values = analyze(position)
        loss = max(values.values()) - values[move]
        verdict = row.find_elements(By.TAG_NAME, "td")[3].text
        assert verdict == (f"mistake: loses {loss}" if loss else "best"), (label, verdict)
        position = position.play(move)
    return list(rows)


def play_a_battle_on_one_screen(browser: Browser, seed: int = 5) -> None:
    """Pass and play on the page open in ``browser`` (the main page, ready): "Two
    players on this screen", then a whole battle, both sides clicking on the one board
    (random legal moves), checked move by move against the library; on the way a hint
    for Black (the values of the side to move) and an undo of one move."""
    import random

    from buttonup import Player, Position, analyze

    browser.find_element(By.CSS_SELECTOR, "#opponent option[value='two']").click()
    assert not browser.find_element(By.ID, "level-group").is_displayed()
    browser.find_element(By.ID, "new").click()
    wait_for(browser, settled)
    match = page_match(browser)
    assert match["players"] == 2
    assert browser.find_element(By.ID, "name-you").text == "Red player"
    assert browser.find_element(By.ID, "name-ai").text == "Black player"
    position = Position(match["battle"]["start"])
    rng = random.Random(seed)
    movers: set[str] = set()
    hinted = undone = False
    while not position.is_over:
        assert page_match(browser)["position"] == str(position)
        if not hinted and position.to_move is Player.BLACK:
            browser.find_element(By.ID, "hint").click()
            table = wait_for(browser, lambda b: b.find_elements(By.ID, "hint-table"))[0]
            header = table.find_elements(By.CSS_SELECTOR, "thead th")[1].text
            assert header == "black's margin", header  # whose, on one screen
            values = analyze(position)
            for row in table.find_elements(By.CSS_SELECTOR, "tbody tr"):
                pile, margin = row.find_elements(By.TAG_NAME, "td")[:2]
                assert int(margin.text) == values[int(pile.text)], (pile.text, margin.text)
            hinted = True
        move = rng.choice(position.legal_moves())
        movers.add(position.to_move.letter)
        after = position.play(move)
        assert lift(browser, move)
        if after.is_over:
            break
        showing(browser, str(after))
        if not undone and len(after.piles) >= 3 and hinted:
            browser.find_element(By.ID, "undo").click()  # one move back, whoever made it
            showing(browser, str(position))
            assert shown_position(browser) == str(position)
            undone = True
            continue
        position = after
    wait_for(browser, lambda b: b.find_element(By.ID, "battle-panel").is_displayed())
    assert hinted and undone and movers == {"r", "b"}
    final = position.play(move)
    assert shown_position(browser) == str(final)
    scoring = shows_the_scoring(browser, final)
    result = browser.find_element(By.ID, "battle-result").text
    if scoring.winner is None:
        assert result.startswith("Equal sums")
    else:
        colour = scoring.winner.name.title()
        # On one screen the name is the colour: no "Red wins the battle (Red)".
        assert result.startswith(f"{colour} wins the battle and"), result


def dump_dom(url: str, *flags: str) -> str:
    """The DOM of ``url`` after its scripts ran, as Chromium's ``--dump-dom`` prints it
    (headless, a throwaway profile, ``flags`` added)."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    assert binary is not None, "chromium is needed here (web_needs checked for it)"
    with tempfile.TemporaryDirectory() as profile:
        dumped = run(
            [
                binary,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                f"--user-data-dir={profile}",
                *flags,
                "--dump-dom",
                url,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    return str(dumped.stdout)
