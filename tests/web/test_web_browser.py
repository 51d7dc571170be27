"""The page as a player sees it, in a real headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium): a whole battle by clicking, checked against the
library (the move list replays to the position shown, the end-of-battle panel's sums
are the engine's scoring, the review's losses are the engine's values), the extra-move
notice still there 3 s after the move, a slow hint that never lands on a later
position, undo, a downloaded record that reloads to the same match, the analysis
board, and screenshots at 1200x900 and 390x844 (to ``BUTTONUP_SCREENSHOTS``, a
temporary folder by default). tests/web/test_web_layout.py checks the board's drawing."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_needs import skip_without

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    skip_without("httpx", "fastapi")


from buttonup import RATINGS, Match, Player, Position, analyze
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from web_browsers import (
    Browser,
    chrome,
    click_to_the_end,
    js,
    lift,
    listed_moves,
    reviews_as_the_engine,
    serving,
    settled,
    shown_position,
    shows_the_scoring,
    text_of,
    viewport,
    wait_for,
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving() as url:
        yield url


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads: Path) -> Iterator[Browser]:
    driver = chrome(downloads)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots() -> Path:
    folder = Path(os.environ.get("BUTTONUP_SCREENSHOTS", "/tmp/buttonup-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def state(browser: Browser) -> dict[str, Any]:
    return dict(js(browser, "return window.buttonup.state.match;"))


def open_page(browser: Browser, server: str, query: str = "speed=fast") -> None:
    viewport(browser, 1200, 900)
    browser.get(f"{server}/?{query}")
    wait_for(browser, lambda b: b.execute_script("return document.body.dataset.ready"))


def start(browser: Browser, level: int = 1) -> None:
    option = browser.find_element(By.CSS_SELECTOR, f"#level option[value='{level}']")
    # Each level is offered with its rating (the core's, through /api/ratings).
    assert option.text.startswith(f"{level} · rating {round(RATINGS[level - 1])} · ")
    option.click()
    browser.find_element(By.ID, "new").click()
    wait_for(browser, settled)


def script_errors(browser: Browser) -> list[str]:
    """The page's uncaught errors and console errors since the last look."""
    return [e["message"] for e in browser.get_log("browser") if e["source"] == "javascript"]


def answers_late(browser: Browser, url_pattern: str) -> None:
    """From now on every answer to a request whose URL matches ``url_pattern`` (a
    JavaScript regular expression) reaches the page 1.5 s late."""
    js(
        browser,
        """const real = window.fetch;
        const slow = new RegExp(arguments[0]);
        window.fetch = async (url, options) => {
          const answer = await real(url, options);
          if (slow.test(String(url))) await new Promise((r) => setTimeout(r, 1500));
          return answer;
        };""",
        url_pattern,
    )


def test_a_whole_battle_by_clicking(server: str, browser: Browser, shots: Path) -> None:
    open_page(browser, server, "speed=fast&seed=11")
    script_errors(browser)
    start(browser)
    browser.save_screenshot(str(shots / "start-1200.png"))
    match = state(browser)
    start_position = Position(match["battle"]["start"])
    # The move list replays, through the library, to the position the board shows.
    labels, position = click_to_the_end(browser, start_position)
    # The panel's sums are the engine's scoring of that final pile.
    scoring = shows_the_scoring(browser, position)
    result = browser.find_element(By.ID, "battle-result").text
    assert ("nobody" in result) == (scoring.winner is None)
    if scoring.winner:
        assert f"{scoring.points} victory point" in result
    won = {p.letter: scoring.points if scoring.winner is p else 0 for p in Player}
    if not state(browser)["winner"]:
        score = browser.find_element(By.ID, "panel-score").text
        assert f"Red {won['r']} - Black {won['b']}" in score
    browser.save_screenshot(str(shots / "battle-over-1200.png"))
    viewport(browser, 1280, 800)
    time.sleep(0.3)
    # The final tower is drawn large enough to read its numbers (it was 128 px wide).
    tower = js(browser, "return document.querySelector('.tower-svg').getBoundingClientRect().width")
    assert tower >= 200, tower
    viewport(browser, 390, 844)
    time.sleep(0.3)
    assert js(browser, "return document.documentElement.scrollWidth") <= 392
    browser.save_screenshot(str(shots / "battle-over-390.png"))
    viewport(browser, 1200, 900)
    # Each move of the list shows the position after it.
    position = start_position
    for ply, label in enumerate(["start", *labels]):
        if ply:
            position = position.play(int(label.rstrip("+")))
        browser.find_element(By.CSS_SELECTOR, f"#moves button[data-ply='{ply}']").click()
        wait_for(browser, lambda b, p=str(position): shown_position(b) == p)
    # The review: each move's loss is the engine's (the mover's best value minus the
    # value of the move played).
    rows = reviews_as_the_engine(browser, start_position, labels)
    # A point of the chart shows the position after that move.
    browser.find_elements(By.CSS_SELECTOR, "#chart .chart-hit")[1].click()
    after_first = str(start_position.play(int(labels[0].rstrip("+"))))
    wait_for(browser, lambda b: shown_position(b) == after_first)
    # A move's best line opens on the analysis board, from the position before it.
    rows[-1].find_element(By.CSS_SELECTOR, "button.line").click()
    before_last = start_position
    for label in labels[:-1]:
        before_last = before_last.play(int(label.rstrip("+")))
    wait_for(
        browser,
        lambda b: (
            b.find_element(By.ID, "analysis-board").get_attribute("data-position")
            == str(before_last)
            and b.find_elements(By.ID, "analysis-pv")
        ),
    )
    browser.find_element(By.ID, "an-step").click()
    best = max(analyze(before_last).items(), key=lambda item: item[1])[1]
    wait_for(browser, lambda b: b.find_element(By.ID, "an-back").is_enabled())
    stepped = Position(
        str(browser.find_element(By.ID, "analysis-board").get_attribute("data-position"))
    )
    assert any(
        before_last.play(move) == stepped
        for move, value in analyze(before_last).items()
        if value == best
    )
    # The next deal waits for the player; then the panel goes and the board is live.
    if state(browser)["winner"]:
        return
    assert browser.find_element(By.ID, "battle-panel").is_displayed()
    assert shown_position(browser) != state(browser)["position"]  # dealt, not shown yet
    browser.find_element(By.ID, "next-battle").click()
    wait_for(browser, lambda b: not b.find_element(By.ID, "battle-panel").is_displayed())
    wait_for(browser, settled)
    assert shown_position(browser) == state(browser)["position"]
    assert script_errors(browser) == []


def extra_move_start() -> tuple[int, int]:
    """A seed whose first deal gives Red (who starts) an extra move, and that move."""
    for seed in range(100):
        position = Match("r", seed=seed).position
        extra = [m for m in position.legal_moves() if position.gives_extra_move(m)]
        if extra:
            return seed, extra[0]
    raise AssertionError("no start with an extra move")


def test_the_extra_move_notice_stays_until_the_next_move(server: str, browser: Browser) -> None:
    seed, move = extra_move_start()
    open_page(browser, server, f"seed={seed}")  # the animation at its normal speed
    start(browser)
    assert lift(browser, move)
    clicked = time.monotonic()
    # While the buttons are sown the status line says so, never "Your move".
    seen = []
    hidden_are_dropped = []
    while not settled(browser):
        # Read together: the status line while a move is being made, and whether the
        # buttons not sown yet are ones the drawing marks as dropped by this move.
        busy, text, dropped = js(
            browser,
            "return [window.buttonup.state.busy, document.getElementById('status').textContent,"
            " [...document.querySelectorAll('#board .button.unsown')]"
            ".every((b) => b.classList.contains('dropped'))];",
        )
        if busy:
            seen.append(text)
        hidden_are_dropped.append(dropped)
        time.sleep(0.05)
    assert all(hidden_are_dropped)
    assert any("lifts pile" in text or "sows pile" in text for text in seen), seen
    assert not any(text.startswith("Your move") for text in seen), seen
    time.sleep(max(0.0, 3.0 - (time.monotonic() - clicked)))
    notice = browser.find_element(By.ID, "notice")
    assert notice.is_displayed() and "Extra move" in notice.text and "You move again" in notice.text
    assert browser.find_element(By.ID, "status").text.startswith("Your move")
    assert lift(browser)
    wait_for(browser, lambda b: "You move again" not in b.find_element(By.ID, "notice").text)


def test_a_slow_hint_never_lands_on_a_later_position(server: str, browser: Browser) -> None:
    open_page(browser, server, "speed=fast&seed=5")
    start(browser)
    answers_late(browser, "/hint")  # every hint answer reaches the page 1.5 s late
    before = state(browser)["position"]
    browser.find_element(By.ID, "hint").click()
    assert lift(browser)
    wait_for(browser, lambda b: settled(b) and state(b)["position"] != before)
    time.sleep(2.0)  # the late answer has come by now
    for table in browser.find_elements(By.ID, "hint-table"):
        assert table.get_attribute("data-position") == state(browser)["position"]
    assert not browser.find_elements(By.ID, "hint-table")
    # A hint for the position on the board does land, with a row for each legal move.
    if browser.find_element(By.ID, "hint").is_enabled():
        browser.find_element(By.ID, "hint").click()
        table = wait_for(browser, lambda b: b.find_elements(By.ID, "hint-table"))[0]
        assert table.get_attribute("data-position") == state(browser)["position"]
        piles = [row.text.split()[0] for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
        assert sorted(map(int, piles)) == state(browser)["legal_moves"]
        # The best moves by the engine are the piles marked on the board.
        values = analyze(Position(state(browser)["position"]))
        best = {str(m) for m, v in values.items() if v == max(values.values())}
        marked = browser.find_elements(By.CSS_SELECTOR, "#board .pile.hinted")
        assert {str(p.get_attribute("data-pile")) for p in marked} == best


def test_undo_takes_back_the_move_and_the_replies(server: str, browser: Browser) -> None:
    open_page(browser, server, "speed=fast&seed=7")
    start(browser)
    first = shown_position(browser)
    assert lift(browser)
    wait_for(browser, lambda b: settled(b) and b.find_element(By.ID, "undo").is_enabled())
    browser.find_element(By.ID, "undo").click()
    wait_for(browser, lambda b: shown_position(b) == first)
    assert listed_moves(browser) == []


def test_the_keyboard_alone_plays(server: str, browser: Browser) -> None:
    open_page(browser, server, "speed=fast&seed=13")
    start(browser)
    before = state(browser)
    first, *_ = before["legal_moves"]
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(str(first))  # a pile's number lifts it
    wait_for(browser, lambda b: settled(b) and listed_moves(b))
    assert listed_moves(browser)[0].rstrip("+") == str(first)
    # Back to the player, the focus is on a liftable pile; Enter lifts it.
    assert state(browser)["to_move"] == "r" and not state(browser)["battles"]
    focused = browser.switch_to.active_element
    assert "playable" in str(focused.get_attribute("class"))
    pile = str(focused.get_attribute("data-pile"))
    count = len(listed_moves(browser))
    focused.send_keys("\ue007")  # Enter
    wait_for(browser, lambda b: settled(b) and len(listed_moves(b)) > count)
    assert listed_moves(browser)[count].rstrip("+") == pile


def test_less_motion_scrolls_at_once(server: str, browser: Browser) -> None:
    """Where the system asks for less motion (the test browser does), "New match…"
    brings the setup into view at once, not by a smooth scroll still under way when the
    next click comes (that click once missed "Start" in a full run)."""
    open_page(browser, server, "speed=fast&seed=3")
    start(browser)
    assert js(browser, "return matchMedia('(prefers-reduced-motion: reduce)').matches")
    js(browser, "window.scrollTo(0, document.body.scrollHeight)")
    bottom = js(browser, "return window.scrollY")
    browser.find_element(By.ID, "show-setup").click()
    top = "return document.getElementById('setup').getBoundingClientRect().top"
    at_once = js(browser, top)
    time.sleep(1.0)  # a smooth scroll would still be moving the setup here
    assert js(browser, top) == at_once
    assert 0 <= at_once < js(browser, "return window.innerHeight")
    assert js(browser, "return window.scrollY") != bottom


def test_a_new_match_while_the_ai_moves_leaves_the_old_one(server: str, browser: Browser) -> None:
    open_page(browser, server, "speed=fast&seed=15")
    answers_late(browser, "/ai$")  # every answer of the AI reaches the page 1.5 s late
    start(browser)
    first = state(browser)["id"]
    position = Position(state(browser)["position"])
    quiet = next(m for m in position.legal_moves() if not position.gives_extra_move(m))
    assert lift(browser, quiet)  # then the AI's answer is on its way, late
    wait_for(browser, lambda b: "The AI is thinking" in b.find_element(By.ID, "status").text)
    browser.find_element(By.ID, "show-setup").click()
    browser.find_element(By.ID, "new").click()
    wait_for(browser, lambda b: settled(b) and state(b)["id"] != first)
    time.sleep(2.5)  # the old match's AI move has come back by now
    now = state(browser)
    assert now["id"] != first and now["moves"] == []
    assert shown_position(browser) == now["position"] and listed_moves(browser) == []
    assert browser.find_elements(By.CSS_SELECTOR, "#board .pile.playable")
    assert not browser.find_element(By.ID, "error").is_displayed()


def test_a_downloaded_record_reloads_to_the_same_match(
    server: str, browser: Browser, downloads: Path
) -> None:
    open_page(browser, server, "speed=fast&seed=9")
    start(browser)
    while lift(browser):
        pass
    if not state(browser)["winner"]:  # and a move of the next battle
        browser.find_element(By.ID, "next-battle").click()
        wait_for(browser, settled)
        assert lift(browser)
        wait_for(browser, settled)
    before = state(browser)
    assert before["battles"]  # an earlier battle can be looked at again, then the game
    Select(browser.find_element(By.ID, "battle-pick")).select_by_value("1")
    final = before["battles"][0]["position"]
    wait_for(browser, lambda b: shown_position(b) == final)
    assert listed_moves(browser) == before["battles"][0]["labels"]
    Select(browser.find_element(By.ID, "battle-pick")).select_by_value("2")
    wait_for(browser, lambda b: shown_position(b) == before["position"])
    assert browser.find_elements(By.CSS_SELECTOR, "#board .pile.playable")
    for old in downloads.glob("*"):
        old.unlink()
    browser.find_element(By.ID, "download").click()
    saved = wait_for(browser, lambda b: [p for p in downloads.glob("*.txt")], timeout=10)[0]
    text = saved.read_text(encoding="utf-8")
    assert Match.from_record(text).moves == tuple(before["moves"])
    open_page(browser, server)
    browser.find_element(By.CSS_SELECTOR, ".import summary").click()
    browser.find_element(By.ID, "upload").send_keys(str(saved))
    wait_for(browser, lambda b: settled(b) and state(b)["id"] != before["id"])
    after = state(browser)
    for field in ("position", "moves", "scores", "target", "starter", "battles"):
        if field == "battles":
            assert [b["moves"] for b in after[field]] == [b["moves"] for b in before[field]]
        else:
            assert after[field] == before[field], field
    assert shown_position(browser) == before["position"]
    assert listed_moves(browser) == [p["label"] for p in before["battle"]["plies"]]


def a_match_at_the_tie_rule() -> Match:
    """A match whose scores are level after a decided battle: its loser chooses."""
    for seed in range(1000):
        match, rng = Match("r", seed=seed), random.Random(seed)
        while not match.is_over and match.chooser is None:
            match.play(rng.choice(match.legal_moves()))
        if match.chooser is not None:
            return match
    raise AssertionError("no match reached the tie rule")


def test_the_tie_rules_choice_is_the_players(server: str, browser: Browser, tmp_path: Path) -> None:
    match = a_match_at_the_tie_rule()
    chooser = match.chooser
    assert chooser is not None
    saved = tmp_path / "level.txt"
    saved.write_text(match.record(), encoding="utf-8")
    open_page(browser, server)
    browser.find_element(By.CSS_SELECTOR, f"input[name=colour][value='{chooser.letter}']").click()
    browser.find_element(By.CSS_SELECTOR, ".import summary").click()
    browser.find_element(By.ID, "upload").send_keys(str(saved))
    choice = wait_for(browser, lambda b: b.find_element(By.ID, "choice").is_displayed())
    assert choice and "choose" in browser.find_element(By.ID, "status").text
    browser.find_element(By.ID, "me-first").click()
    wait_for(browser, lambda b: settled(b) and not state(b)["chooser"])
    after = state(browser)
    assert after["starter"] == chooser.letter and after["to_move"] == chooser.letter
    assert browser.find_elements(By.CSS_SELECTOR, "#board .pile.playable")


def test_the_analysis_board(server: str, browser: Browser, shots: Path) -> None:
    open_page(browser, server)
    field = browser.find_element(By.ID, "analyze-input")
    field.clear()
    field.send_keys("W/R/B/W/B/R/R/W/B r")
    browser.find_element(By.CSS_SELECTOR, "#analyze-form button").click()
    # Read afresh each time: a render replaces the whole analysis, so an element found
    # before it is stale after it.
    value = wait_for(browser, lambda b: "(exact)" in (t := text_of(b, "analysis-value")) and t)
    assert "value +1 (exact)" in value
    # The best line with + marks where the engine says a move gives an extra move.
    line = wait_for(browser, lambda b: text_of(b, "analysis-pv"))
    pv = line.removeprefix("Best line: ").split()
    position = Position("W/R/B/W/B/R/R/W/B r")
    for label in pv:
        assert label.endswith("+") == position.gives_extra_move(int(label.rstrip("+")))
        position = position.play(int(label.rstrip("+")))
    assert position.is_over
    # Step through it, then play a move by clicking its pile.
    browser.find_element(By.ID, "an-step").click()
    expected = str(Position("W/R/B/W/B/R/R/W/B r").play(int(pv[0].rstrip("+"))))
    wait_for(
        browser,
        lambda b: (
            b.find_element(By.ID, "analysis-board").get_attribute("data-position") == expected
            and b.find_elements(By.ID, "analysis-table")
        ),
    )
    pile = browser.find_elements(By.CSS_SELECTOR, "#analysis-board .pile.playable")[0]
    number = int(str(pile.get_attribute("data-pile")))
    js(browser, "arguments[0].scrollIntoView({block: 'center'})", pile)
    pile.click()
    expected = str(Position(expected).play(number))
    wait_for(
        browser,
        lambda b: (
            b.find_element(By.ID, "analysis-board").get_attribute("data-position") == expected
        ),
    )
    browser.save_screenshot(str(shots / "analysis-1200.png"))
    field.clear()
    field.send_keys("W/R/X r")
    browser.find_element(By.CSS_SELECTOR, "#analyze-form button").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "error").is_displayed())
    assert "unknown button 'X'" in browser.find_element(By.ID, "error").text


def test_phone_width(server: str, browser: Browser, shots: Path) -> None:
    viewport(browser, 390, 844)
    browser.get(server + "/?speed=fast&seed=3")
    wait_for(browser, lambda b: b.execute_script("return document.body.dataset.ready"))
    start(browser)
    assert js(browser, "return document.documentElement.scrollWidth") <= 392
    board = browser.find_element(By.ID, "board").rect
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390
    browser.save_screenshot(str(shots / "start-390.png"))
    # The theme: automatic, then light, then dark, kept for the next visit.
    browser.find_element(By.ID, "theme").click()
    browser.find_element(By.ID, "theme").click()
    assert js(browser, "return document.documentElement.dataset.theme") == "dark"
    browser.refresh()
    wait_for(browser, lambda b: b.execute_script("return document.body.dataset.ready"))
    assert js(browser, "return document.documentElement.dataset.theme") == "dark"
    browser.save_screenshot(str(shots / "dark-390.png"))
    js(browser, "localStorage.removeItem('buttonup-theme')")
    viewport(browser, 1200, 900)
