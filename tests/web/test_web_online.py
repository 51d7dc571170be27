"""Playing a friend, in real headless Chromiums against a real `buttonup serve` on
loopback (its online matches in a temporary SQLite file, ``--db``): two browsers (two
drivers, so two localStorages and two player tokens) play a whole match through the
invite link, a third one watches through the spectator link, and the match is checked
against the library (the same seed and moves through ``buttonup.Match``): every move,
the extra moves, the tie rule's choice asked of the right player only, the moves reaching
the other browser and the spectator's, the board never playable out of turn, a move
forced out of turn (and one from the spectator) refused with a banner and the match
unchanged, one player's tab closed and the invite link opened again in a new one, the
record and "My matches"; both pages coming back by themselves when the server restarts;
and pass and play on one screen through a whole battle.

Needs Chromium and chromium-driver (as tests/web/test_web_browser.py); skips naming what is
missing, except in CI (``BUTTONUP_REQUIRE_WEB``)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_needs import skip_without

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    skip_without("httpx", "fastapi")

import httpx
from buttonup import Match
from processes import free_port
from selenium.webdriver.common.by import By
from web_browsers import (
    Browser,
    chrome,
    js,
    lift,
    play_a_battle_on_one_screen,
    ready,
    serving,
    settled,
    viewport,
    wait_for,
)

TARGET = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("online") / "matches.sqlite3"
    with serving("--db", f"sqlite:///{db}") as url:
        yield url


@pytest.fixture(scope="module")
def shots() -> Path:
    folder = Path(os.environ.get("BUTTONUP_SCREENSHOTS", "/tmp/buttonup-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browsers() -> Iterator[dict[str, Browser]]:
    """The host, his friend and a spectator: three browsers, each its own profile."""
    made: dict[str, Browser] = {}
    try:
        for name in ("host", "friend", "watcher"):
            made[name] = chrome()
            viewport(made[name], 1200, 900)
        yield made
    finally:
        for driver in made.values():
            driver.quit()


Action = tuple[str, str, int | str]  # ("move", mover, pile) or ("choose", chooser, starter)


def planned_match(seed: int) -> tuple[list[Action], Match] | None:
    """The moves of a whole match of target TARGET dealt with ``seed`` (random moves,
    an extra move taken half the time there is one; the chooser starts), if it has an
    extra move, the tie rule's choice and at most 40 moves; the library's match after
    them."""
    match, rng = Match("r", target=TARGET, seed=seed), random.Random(seed)
    actions: list[Action] = []
    while not match.is_over:
        if match.chooser is not None:
            chooser = match.chooser.letter
            actions.append(("choose", chooser, chooser))
            match.choose_starter(match.chooser)
            continue
        legal = match.legal_moves()
        extra = [m for m in legal if match.position.gives_extra_move(m)]
        move = rng.choice(extra) if extra and rng.random() < 0.5 else rng.choice(legal)
        actions.append(("move", match.to_move.letter, move))
        match.play(move)
    moves = [a for a in actions if a[0] == "move"]
    has_extra = any(mover == after[1] for (_, mover, _), after in zip(moves, moves[1:]))
    if any(a[0] == "choose" for a in actions) and has_extra and len(moves) <= 40:
        return actions, match
    return None


def plan() -> tuple[int, list[Action], Match]:
    for seed in range(500):
        found = planned_match(seed)
        if found:
            return seed, *found
    raise AssertionError("no seed gives a short match with the tie rule's choice")


def version(browser: Browser) -> int:
    return int(js(browser, "return Number(document.body.dataset.version || -1);"))


def page_state(browser: Browser) -> dict[str, Any]:
    return dict(js(browser, "return window.buttonup.state.match;"))


def playable(browser: Browser) -> list[Any]:
    return list(browser.find_elements(By.CSS_SELECTOR, "#board .pile.playable"))


def synced(pages: list[Browser], at: int) -> None:
    """Every page shows version ``at`` of the match, and is done showing it."""
    for page in pages:
        wait_for(page, lambda b: version(b) >= at and settled(b), timeout=20)
        assert version(page) == at


def next_battle(pages: list[Browser]) -> None:
    for page in pages:
        button = wait_for(page, lambda b: b.find_elements(By.ID, "next-battle"), timeout=20)[0]
        seated = "watch" not in page.current_url
        # A spectator moves nothing on: his button only closes the panel.
        assert button.text == ("Next battle" if seated else "Back to the board"), button.text
        if not seated:
            assert "Next battle when" not in page.find_element(By.ID, "status").text
        # the tower's drawing, which the state leaves out, read from the battle's route
        assert page.find_elements(By.CSS_SELECTOR, "#battle-panel svg.tower-svg")
        button.click()
        wait_for(page, lambda b: not b.find_element(By.ID, "battle-panel").is_displayed())


def refused_on(page: Browser, server: str, match_id: str, pile: int) -> None:
    """The page sends ``pile`` although it may not: a banner, the match unchanged."""
    before = httpx.get(f"{server}/api/online/{match_id}").json()
    shown = page.find_element(By.ID, "board").get_attribute("data-position")
    js(page, "window.buttonup.send(arguments[0]);", pile)
    banner = wait_for(page, lambda b: b.find_element(By.ID, "error").is_displayed(), timeout=10)
    assert banner
    text = page.find_element(By.ID, "error-text").text
    assert "turn" in text or "seat" in text, text
    after = httpx.get(f"{server}/api/online/{match_id}").json()
    assert (after["version"], after["position"]) == (before["version"], before["position"])
    wait_for(page, settled)
    assert page.find_element(By.ID, "board").get_attribute("data-position") == shown
    page.find_element(By.ID, "error-close").click()


def test_two_browsers_play_a_whole_match_through_the_link(
    server: str, browsers: dict[str, Browser], shots: Path
) -> None:
    seed, actions, expected = plan()
    host, friend, watcher = browsers["host"], browsers["friend"], browsers["watcher"]
    # The host invites: the main page, "A friend, online", 3 points to win.
    host.get(f"{server}/?speed=fast&seed={seed}")
    wait_for(host, ready)
    # A token this server never issued (another server's): replaced by a new one.
    js(host, "localStorage.setItem('buttonup.player', 'NeverIssuedByThisServer_0123456789');")
    host.find_element(By.CSS_SELECTOR, "#opponent option[value='friend']").click()
    target = host.find_element(By.ID, "target")
    target.clear()
    target.send_keys(str(TARGET))
    host.find_element(By.ID, "new").click()
    wait_for(host, lambda b: "/online/" in b.current_url and ready(b))
    wait_for(host, lambda b: b.find_element(By.ID, "invite-card").is_displayed())
    invite = host.find_element(By.ID, "invite-link").get_attribute("value")
    spectate = host.find_element(By.ID, "watch-link").get_attribute("value")
    match_id = host.current_url.rsplit("/", 1)[1].split("?")[0].split("#")[0]
    token = js(host, "return localStorage.getItem('buttonup.player');")
    assert token and token != "NeverIssuedByThisServer_0123456789"
    assert f"/online/{match_id}#join=" in invite and spectate.endswith(f"/online/{match_id}?watch")
    assert "Waiting for your friend" in host.find_element(By.ID, "status").text
    assert not playable(host)  # nobody to play yet
    host.save_screenshot(str(shots / "online-invite-1200.png"))
    # The friend opens the link; the spectator the other one.
    friend.get(invite.replace("#", f"?speed=fast&seed={seed}#"))  # the seed agreed
    wait_for(friend, ready)
    assert "join=" not in friend.current_url  # the match link from now on
    # A third browser on the invite link: the seat is taken, it watches.
    watcher.get(invite)
    wait_for(watcher, ready)
    assert "this seat is taken" in watcher.find_element(By.ID, "error-text").text
    assert js(watcher, "return window.buttonup.state.seat;") is None
    watcher.get(spectate + "&speed=fast")
    wait_for(watcher, ready)
    pages = [host, friend, watcher]
    at = 1  # the join was the first accepted change
    synced(pages, at)
    assert host.find_element(By.ID, "invite-card").is_displayed() is False
    seats = {"r": host, "b": friend}
    library = Match("r", target=TARGET, seed=seed)
    assert page_state(watcher)["position"] == str(library.position)
    reopened = away = refused = extra_seen = False
    for index, (kind, who, value) in enumerate(actions):
        if away:
            # The invite link again, in a new tab of the same browser: his seat, and
            # the move made while he was away.
            friend.get(invite.replace("#", f"?speed=fast&seed={seed}#"))  # the seed agreed
            wait_for(friend, ready)
            pages = [host, friend, watcher]
            synced(pages, at)
            assert js(friend, "return window.buttonup.state.seat;") == "b"
            assert page_state(friend)["position"] == str(library.position)
            wait_for(host, lambda b: "here" in b.find_element(By.ID, "link-them").text, timeout=20)
            away = False
        page, other = seats[who], seats["b" if who == "r" else "r"]
        if kind == "choose":
            # Asked of the chooser only.
            wait_for(page, lambda b: b.find_element(By.ID, "choice").is_displayed(), timeout=20)
            assert not other.find_element(By.ID, "choice").is_displayed()
            assert not watcher.find_element(By.ID, "choice").is_displayed()
            assert "chooses who starts" in other.find_element(By.ID, "status").text
            page.save_screenshot(str(shots / f"online-choice-{who}-1200.png"))
            page.find_element(By.ID, "me-first" if value == who else "them-first").click()
            library.choose_starter(library.chooser)  # type: ignore[arg-type]
        else:
            assert isinstance(value, int)
            assert not playable(other) and not playable(watcher)  # out of turn: nothing to click
            if not refused and index > 2:
                refused_on(other, server, match_id, value)  # the other player's page
                refused_on(watcher, server, match_id, value)  # a browser without a seat
                refused = True
            assert lift(page, value, timeout=20)
            extra_seen = extra_seen or library.position.gives_extra_move(value)
            library.play(value)
        at += 1
        synced(pages, at)
        for shown in pages:
            assert page_state(shown)["position"] == str(library.position)
        if kind == "move" and not library.moves and not library.is_over:
            next_battle(pages)  # a battle ended: each page's panel until "Next battle"
        calm = library.chooser is None and len(library.position.piles) >= 3
        if not reopened and library.battles and calm and library.to_move.letter == "r":
            # The friend's tab closed; the host's next move cannot end the battle (it
            # empties one pile of three or more).
            friend.execute_script("window.open('about:blank', '_blank');")
            old = friend.current_window_handle
            friend.close()
            friend.switch_to.window(next(h for h in friend.window_handles if h != old))
            wait_for(host, lambda b: "away" in b.find_element(By.ID, "link-them").text, timeout=20)
            pages = [host, watcher]
            reopened = away = True
    assert reopened and refused and extra_seen
    assert library.is_over and library.winner == expected.winner
    # The end on every page, from each one's side.
    winner = expected.winner.letter  # type: ignore[union-attr]
    for page, side in ((host, "r"), (friend, "b")):
        status = page.find_element(By.ID, "status").text
        assert ("You win the match" if side == winner else "Your friend wins the match") in status
    host.save_screenshot(str(shots / "online-1200.png"))
    # At phone width, one column and nothing wider than the screen.
    viewport(friend, 390, 844)
    assert js(friend, "return document.documentElement.scrollWidth;") <= 390
    friend.save_screenshot(str(shots / "online-390.png"))
    # The record: the library's match, move for move.
    record = httpx.get(f"{server}/api/online/{match_id}/record").text
    again = Match.from_record(record)
    assert [b.moves for b in again.battles] == [b.moves for b in expected.battles]
    assert again.scores == expected.scores
    # My matches: the host's list has it, finished, with its record.
    host.get(f"{server}/online/mine")
    wait_for(host, ready)
    row = host.find_element(By.CSS_SELECTOR, f"#matches tr[data-id='{match_id}']")
    assert row.get_attribute("data-finished") == "true"
    link = row.find_element(By.CSS_SELECTOR, "a.record").get_attribute("href")
    assert httpx.get(link).text == record
    # Its link on another device (here the spectator's browser) takes the token there.
    own = host.find_element(By.ID, "own-link").get_attribute("value")
    assert own.endswith(f"/online/mine#p={token}")
    watcher.get(own)
    wait_for(watcher, ready)
    assert js(watcher, "return localStorage.getItem('buttonup.player');") == token
    assert "#p=" not in watcher.current_url
    assert watcher.find_elements(By.CSS_SELECTOR, f"#matches tr[data-id='{match_id}']")


def test_pass_and_play_on_the_server(server: str, browsers: dict[str, Browser]) -> None:
    """Two players on one screen, on the server's match routes: a whole battle."""
    page = browsers["host"]
    page.get(f"{server}/?speed=fast&seed=4")
    wait_for(page, ready)
    play_a_battle_on_one_screen(page)


def test_the_pages_come_back_after_the_server_restarts(
    tmp_path: Path, browsers: dict[str, Browser]
) -> None:
    """The server stopped and started again on the same port and database while both
    players' pages stay open: the event streams reconnect by themselves, and a move
    made after the restart reaches the other page without a reload; then a resignation."""
    host, friend = browsers["host"], browsers["friend"]
    db, port = f"sqlite:///{tmp_path / 'matches.sqlite3'}", free_port()
    with serving("--db", db, port=port) as url:
        tokens = [httpx.post(f"{url}/api/players").json()["token"] for _ in range(2)]
        auth = [{"authorization": f"Bearer {token}"} for token in tokens]
        made = httpx.post(f"{url}/api/online", json={"seed": 3}, headers=auth[0]).json()
        joined = httpx.post(
            f"{url}/api/online/{made['id']}/join",
            json={"invite": made["invite"], "seed": 3},  # both give it: the deals foretold
            headers=auth[1],
        )
        assert joined.json()["seat"] == "b"
        for page, token in ((host, tokens[0]), (friend, tokens[1])):
            page.get(f"{url}/online/mine")  # this origin's localStorage: the token
            js(page, "localStorage.setItem('buttonup.player', arguments[0]);", token)
            page.get(f"{url}/online/{made['id']}?speed=fast")
            wait_for(page, ready)
        synced([host, friend], 1)
        library = Match("r", seed=3)
        move = next(m for m in library.legal_moves() if not library.position.gives_extra_move(m))
        assert lift(host, move, timeout=20)
        library.play(move)
        synced([host, friend], 2)
    # The server gone: each page says it is reconnecting.
    for page in (host, friend):
        wait_for(page, lambda b: "Reconnecting" in b.find_element(By.ID, "role").text, 20)
    with serving("--db", db, port=port):
        wait_for(host, lambda b: "Reconnecting" not in b.find_element(By.ID, "role").text, 30)
        reply = library.legal_moves()[0]
        assert lift(friend, reply, timeout=30)
        library.play(reply)
        synced([host, friend], 3)
        for page in (host, friend):
            assert page_state(page)["position"] == str(library.position)
        # Resigning takes two clicks; the other side wins, on both pages.
        host.find_element(By.ID, "resign").click()
        assert version(host) == 3 and "confirm" in host.find_element(By.ID, "resign").text
        host.find_element(By.ID, "resign").click()
        synced([host, friend], 4)
        assert "Red resigned: Your friend wins the match" in host.find_element(By.ID, "status").text
        assert "Red resigned: You win the match" in friend.find_element(By.ID, "status").text
        assert not playable(host) and not playable(friend)
        assert not friend.find_element(By.ID, "resign").is_displayed()
