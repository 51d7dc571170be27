"""The clocks of online matches. Through the API in process: per move and per match, a
move in time accepted, a move after the deadline refused (409) with the match over on
time and the other side the winner (nothing else changed), a read after the deadline
showing the loss, time counted only for the running side, the record saying so, the
loss still there after a restart on the same database, and bad clocks refused. On the
page, in a real headless Chromium against a real `buttonup serve` (its matches in a
temporary SQLite file): the spectator's page shows both players' time, Red's counting
down while Black's stands, and then, with nobody acting, the loss on time in the status
line (the server's own check ends the match); it needs Chromium and chromium-driver and
skips naming what is missing, except in CI (``BUTTONUP_REQUIRE_WEB``).

Limits are 1-6 s; no test asserts that anything took less than a few seconds."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
from buttonup.web.app import create_app
from buttonup.web.store import server_time
from fastapi.testclient import TestClient
from online_helpers import Player


def browser_tools() -> tuple[Any, Any, Any]:
    """httpx, selenium's ``By`` and tests/web_browsers.py, or the skip naming what is
    missing."""
    if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
        from web_needs import skip_without

        skip_without()
    import httpx
    import web_browsers
    from selenium.webdriver.common.by import By

    return httpx, By, web_browsers


def app_on(path: Path) -> TestClient:
    return TestClient(create_app(db=f"sqlite://{path}"))


def begun(client: TestClient, clock: dict[str, int]) -> tuple[Player, Player, str]:
    host, guest = Player(client), Player(client)
    made = host.post("/api/online", {"host": "r", "starter": "r", "clock": clock})
    assert made.status_code == 200, made.text
    data = made.json()
    kind = next(iter(clock))
    assert data["state"]["clock"] == {
        kind: clock[kind],
        "left": {"r": clock[kind], "b": clock[kind]},
        "running": None,  # not begun: no time runs
    }
    joined = guest.post(f"/api/online/{data['id']}/join", {"invite": data["invite"]})
    assert joined.status_code == 200, joined.text
    return host, guest, data["id"]


def state(player: Player, match_id: str) -> dict[str, Any]:
    answer = player.get(f"/api/online/{match_id}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def play_first(player: Player, match_id: str) -> dict[str, Any]:
    now = state(player, match_id)
    answer = player.post(
        f"/api/online/{match_id}/play",
        {"move": now["legal_moves"][0], "version": now["version"]},
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def wait_past(player: Player, match_id: str, side: str) -> None:
    """Sleeps until the clock's own figure says ``side`` has no time left, plus a margin."""
    left = state(player, match_id)["clock"]["left"][side]
    time.sleep(left + 0.3)


def test_per_move_in_time_then_late(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    with app_on(db) as client:
        host, guest, match_id = begun(client, {"per_move": 2})
        now = state(host, match_id)
        assert now["clock"]["running"] == "r" and now["clock"]["left"]["b"] == 2
        assert 0 < now["clock"]["left"]["r"] <= 2
        after = play_first(host, match_id)  # in time
        mover = after["to_move"]
        assert after["clock"]["running"] == mover
        other = "b" if mover == "r" else "r"
        assert after["clock"]["left"][other] == 2  # a new move: the full limit again
        player = guest if mover == "b" else host
        wait_past(player, match_id, mover)
        before_rows = client.get(f"/api/online/{match_id}/battles/1").json()
        late = player.post(
            f"/api/online/{match_id}/play",
            {"move": after["legal_moves"][0], "version": after["version"]},
        )
        assert late.status_code == 409 and late.json()["error"] == "your time ran out"
        over = state(host, match_id)
        assert over["ended"] == "time" and over["winner"] == other
        assert over["version"] == after["version"] + 1 and over["legal_moves"] == []
        assert over["clock"]["running"] is None and over["clock"]["left"][mover] == 0
        # the match otherwise as it was: the same position, the same battle
        assert over["position"] == after["position"] and over["moves"] == after["moves"]
        assert client.get(f"/api/online/{match_id}/battles/1").json() == before_rows
        record = client.get(f"/api/online/{match_id}/record").text
        loser = "Red" if mover == "r" else "Black"
        assert f'[Termination "{loser} lost on time"]' in record
    with app_on(db) as client:  # a restart on the same database: still lost on time
        again = client.get(f"/api/online/{match_id}").json()
        assert again["ended"] == "time" and again["winner"] == other
        assert again["version"] == over["version"]


@pytest.mark.parametrize("jump", [2 * 3600.0, 31 * 86400.0, -2 * 3600.0])
def test_a_restart_under_a_jumped_clock_charges_nobody_and_ages_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jump: float
) -> None:
    # Restarted under a clock 2 h ahead, both clocked matches were lost on time for
    # good; 31 days ahead, the unfinished matches were deleted; 2 h behind, a running
    # clock stood still.
    db = tmp_path / "m.sqlite3"
    with app_on(db) as client:
        host, guest, clocked = begun(client, {"per_match": 60})
        moved = play_first(host, clocked)
        _, _, waiting = begun(client, {"per_move": 60})
        page = client.post("/api/matches", json={"level": 1}).json()["id"]
    running = moved["clock"]["running"]
    real = server_time.wall
    monkeypatch.setattr(server_time, "wall", lambda: real() + jump)
    with app_on(db) as client:
        host.client = guest.client = client
        after = state(host, clocked)
        assert after["ended"] is None and after["clock"]["running"] == running
        assert 50 < after["clock"]["left"][running] <= moved["clock"]["left"][running]
        assert state(host, waiting)["ended"] is None
        assert client.get(f"/api/matches/{page}").status_code == 200
        time.sleep(1.0)  # and the clock runs on
        later = state(host, clocked)["clock"]["left"][running]
        assert after["clock"]["left"][running] - later >= 0.5


def test_per_match_counts_only_the_running_side_and_a_read_ends_it(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    with app_on(db) as client:
        host, guest, match_id = begun(client, {"per_match": 2})
        time.sleep(0.5)
        first = state(guest, match_id)["clock"]
        assert first["running"] == "r" and first["left"]["b"] == 2  # Black's time stands
        assert first["left"]["r"] < 2
        after = play_first(host, match_id)
        used_by_red = 2 - after["clock"]["left"]["r"]
        assert used_by_red >= 0.5  # what Red used stays used
        mover = after["to_move"]
        time.sleep(0.5)
        later = state(host, match_id)["clock"]
        assert later["running"] == mover
        if mover == "b":
            assert later["left"]["r"] == after["clock"]["left"]["r"]  # Red's stands still
            assert later["left"]["b"] < 2
        else:  # an extra move: Red plays on and his time runs on
            assert later["left"]["r"] < after["clock"]["left"]["r"]
            assert later["left"]["b"] == 2
        waiter = host if mover == "b" else guest
        wait_past(waiter, match_id, mover)
        # no action by the flagged player: the other side's read ends the match
        over = state(waiter, match_id)
        other = "b" if mover == "r" else "r"
        assert over["ended"] == "time" and over["winner"] == other
        assert over["version"] == after["version"] + 1
        mine = waiter.get("/api/players/me/matches").json()["matches"][0]
        assert mine["finished"] and mine["ended"] == "time" and mine["winner"] == other
        # the winner acting is refused too: the match is over
        refused = waiter.post(f"/api/online/{match_id}/resign", {"version": over["version"]})
        assert refused.status_code == 409
    with app_on(db) as client:
        again = client.get(f"/api/online/{match_id}").json()
        assert again["ended"] == "time" and again["winner"] == other


def test_a_match_without_clock_has_none(tmp_path: Path) -> None:
    with app_on(tmp_path / "m.sqlite3") as client:
        made = Player(client).post("/api/online", {"clock": None})
        assert made.status_code == 200 and made.json()["state"]["clock"] is None


@pytest.mark.parametrize(
    "clock",
    [
        {"per_move": 0},
        {"per_match": 7 * 86_400 + 1},
        {"per_move": 1.5},
        {"per_move": "10"},
        {},
        {"per_move": 10, "per_match": 10},
        {"fischer": 10},
    ],
)
def test_bad_clocks_are_refused(tmp_path: Path, clock: dict[str, Any]) -> None:
    with app_on(tmp_path / "m.sqlite3") as client:
        made = Player(client).post("/api/online", {"clock": clock})
        assert made.status_code == 422, made.text
        assert "clock" in made.text


def test_an_event_stream_hears_the_loss_on_time_with_nobody_acting(tmp_path: Path) -> None:
    """`buttonup serve`: the stream's own check at the deadline ends the match and sends
    it, with no request from either player; a restart of the server keeps the loss."""
    pytest.importorskip("httpx")
    import httpx
    from online_helpers import Server, events

    server = Server(f"sqlite://{tmp_path / 'm.sqlite3'}")
    try:
        client = httpx.Client(base_url=server.url, timeout=30)
        host, guest = Player(client), Player(client)
        made = host.post("/api/online", {"clock": {"per_move": 1}}).json()
        match_id = made["id"]
        path = f"{server.url}/api/online/{match_id}/events?seat=b"
        seen: list[dict[str, Any]] = []
        with httpx.stream("GET", path, timeout=httpx.Timeout(30, read=30)) as answer:
            for event in events(answer.iter_lines()):
                seen.append(event["data"])
                if event["data"]["version"] == 0 and event["event"] == "state":
                    joined = guest.post(f"/api/online/{match_id}/join", {"invite": made["invite"]})
                    assert joined.status_code == 200
                if event["data"]["ended"] is not None:
                    break
        last = seen[-1]
        assert last["ended"] == "time" and last["winner"] == "b" and last["version"] == 2
        assert last["clock"] == {"per_move": 1, "left": {"r": 0, "b": 1}, "running": None}
        assert any(s["clock"]["running"] == "r" for s in seen if s["version"] == 1)
        server.stop()
        server.start()
        again = httpx.get(f"{server.url}/api/online/{match_id}").json()
        assert again["ended"] == "time" and again["winner"] == "b" and again["version"] == 2
    finally:
        server.stop()


# --- on the page --------------------------------------------------------------------

PAGE_LIMIT = 6  # seconds a move: time for the page to load, then it runs out


def test_the_page_shows_the_clocks_and_the_loss_on_time(tmp_path: Path) -> None:
    httpx, By, browsers = browser_tools()
    chrome, ready, viewport, wait_for = (
        browsers.chrome,
        browsers.ready,
        browsers.viewport,
        browsers.wait_for,
    )
    with browsers.serving("--db", f"sqlite:///{tmp_path / 'm.sqlite3'}") as url:
        client = httpx.Client(base_url=url, timeout=30)
        host, guest = Player(client), Player(client)
        made = host.post("/api/online", {"clock": {"per_move": PAGE_LIMIT}}).json()
        browser = chrome()
        try:
            viewport(browser, 1200, 900)
            browser.get(f"{url}/online/{made['id']}?watch")
            wait_for(browser, ready)
            line = browser.find_element(By.ID, "clock")
            wait_for(browser, lambda _: line.is_displayed())
            full = f"0:{PAGE_LIMIT:02d}"
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
