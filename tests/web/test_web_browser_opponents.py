"""The page's menu of the server's extra opponents (``buttonup serve --opponent
NAME=SPEC``), in a real headless Chromium: listed under the levels with what each is,
a match started against one, and its moves are the policy's."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from web_needs import skip_without

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    skip_without("httpx", "fastapi")

from buttonup import Position
from selenium.webdriver.common.by import By
from web_browsers import Browser, chrome, lift, page_match, serving, settled, text_of, wait_for


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    driver = chrome()
    yield driver
    driver.quit()


def test_the_servers_players_are_in_the_menu_and_play(browser: Browser) -> None:
    with serving("--opponent", "first=buttonup.players:first_legal") as url:
        browser.get(f"{url}/?speed=fast&seed=3")
        wait_for(browser, lambda b: b.execute_script("return document.body.dataset.ready"))
        option = wait_for(
            browser,
            lambda b: b.find_elements(By.CSS_SELECTOR, "#level option[value='opponent:first']"),
        )[0]
        assert option.text == "first · a trained policy"
        group = browser.find_element(By.CSS_SELECTOR, "#level optgroup")
        assert group.get_attribute("label") == "This server's players"
        option.click()
        assert text_of(browser, "level-desc") == "first: a trained policy that this server offers."
        browser.find_element(By.ID, "new").click()
        wait_for(browser, settled)
        match = page_match(browser)
        assert match["opponent"] == "first" and "first" in text_of(browser, "name-ai")
        human = match["human"]
        # The human lifts piles until the first battle is over; then its plies, as the
        # server keeps them, show the policy's moves.
        for _ in range(20):
            if not lift(browser):
                break
        wait_for(browser, lambda b: b.find_element(By.ID, "battle-panel").is_displayed())
        import httpx

        plies = httpx.get(f"{url}/api/matches/{match['id']}/battles/1", timeout=30).json()["plies"]
        theirs = [ply for ply in plies if ply["mover"] != human]
        assert theirs, plies
        for ply in theirs:  # the policy lifts the first legal pile each time
            assert ply["move"] == Position(ply["from"]).legal_moves()[0]
