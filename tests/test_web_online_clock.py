"""The clock of an online match on the page, in a real headless Chromium against a real
`buttonup serve` (its matches in a temporary SQLite file): the spectator's page shows
both players' time, Red's counting down while Black's stands, and then, with nobody
acting, the loss on time in the status line (the server's own check ends the match).

Needs Chromium and chromium-driver (as tests/test_web_online.py); skips naming what is
missing, except in CI (``BUTTONUP_REQUIRE_WEB``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from web_needs import skip_without

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    skip_without("httpx", "fastapi")

import httpx
from online_helpers import Player
from selenium.webdriver.common.by import By
from web_browsers import chrome, ready, serving, viewport, wait_for

LIMIT = 6  # seconds a move: time for the page to load, then it runs out


def test_the_page_shows_the_clocks_and_the_loss_on_time(tmp_path: Path) -> None:
    with serving("--db", f"sqlite:///{tmp_path / 'm.sqlite3'}") as url:
        client = httpx.Client(base_url=url, timeout=30)
        host, guest = Player(client), Player(client)
        made = host.post("/api/online", {"clock": {"per_move": LIMIT}}).json()
        browser = chrome()
        try:
            viewport(browser, 1200, 900)
            browser.get(f"{url}/online/{made['id']}?watch")
            wait_for(browser, ready)
            line = browser.find_element(By.ID, "clock")
            wait_for(browser, lambda _: line.is_displayed())
            full = f"0:{LIMIT:02d}"
            assert line.text == f"Clock ({full} a move): Red {full} · Black {full}"
            joined = guest.post(f"/api/online/{made['id']}/join", {"invite": made["invite"]})
            assert joined.status_code == 200
            wait_for(browser, lambda _: line.get_attribute("data-running") == "r", timeout=30)
            first = line.text
            time.sleep(1.5)
            second = line.text
            assert first != second and second.endswith(f"Black {full}")  # Red's runs
            assert "▾" in second.split("·")[0]
            status = browser.find_element(By.ID, "status")
            wait_for(browser, lambda _: "time ran out" in status.text, timeout=30)
            assert status.text.startswith("Red's time ran out")
            assert line.text.startswith(f"Clock ({full} a move): Red 0:00 ·")
            state = client.get(f"/api/online/{made['id']}").json()
            assert state["ended"] == "time" and state["winner"] == "b"
        finally:
            browser.quit()
