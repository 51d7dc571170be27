"""The online matches through real `buttonup serve` processes: server-sent
events reach a listener as the moves are made; a restart keeps the matches; Ctrl-C stops
a server with open event streams; two processes sharing one PostgreSQL database serve
the same matches, and a move made through one reaches a listener on the other; two
writers at the same version never both win, and players expire, on either database."""

from __future__ import annotations

import asyncio
import os
import queue
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
import httpx
import processes
from buttonup.web.store import AsyncStore, Change, MatchRow, Stale, open_store
from online_helpers import (  # noqa: F401
    Player,
    Server,
    database,
    events,
    new_database,
    postgres_server,
)


def listen(
    url: str, match_id: str, seat: str = "", key: str | None = None
) -> tuple[Any, threading.Thread]:
    """The events of a match's stream (the player of ``seat``'s, with his ``key``),
    read in a thread into a queue (``None`` once the stream ends)."""
    received: queue.Queue[dict[str, Any] | None] = queue.Queue()

    def read() -> None:
        try:
            asked = f"?seat={seat}&key={key}" if seat else ""
            path = f"{url}/api/online/{match_id}/events{asked}"
            with httpx.stream("GET", path, timeout=httpx.Timeout(60, read=60)) as answer:
                assert answer.headers["content-type"].startswith("text/event-stream")
                for event in events(answer.iter_lines()):
                    received.put(event)
        except httpx.HTTPError:
            pass
        received.put(None)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return received, thread


def next_state(received: Any, version: int) -> dict[str, Any]:
    """The first ``state`` event at ``version`` (presence events skipped)."""
    while True:
        event = received.get(timeout=30)
        assert event is not None, "the stream ended"
        if event["event"] == "state":
            assert int(event["id"]) <= version
            if int(event["id"]) == version:
                return dict(event["data"])


def begin(url: str, **settings: Any) -> tuple[Player, Player, str]:
    client = httpx.Client(base_url=url, timeout=30)
    host, guest = Player(client), Player(client)
    made = host.post("/api/online", settings).json()
    assert (
        guest.post(f"/api/online/{made['id']}/join", {"invite": made["invite"]}).status_code == 200
    )
    return host, guest, made["id"]


def moves_reach_the_stream(writer: str, reader: str) -> None:
    """Moves made through ``writer`` reach an event stream opened on ``reader``."""
    host, guest, match_id = begin(writer, seed=11)
    key = guest.get(f"/api/online/{match_id}").json()["stream_key"]
    received, _ = listen(reader, match_id, "b", key)
    first = next_state(received, 1)
    assert first["begun"] and first["you"] is None
    version = 1
    for _ in range(6):
        state = host.get(f"/api/online/{match_id}").json()
        if state["chooser"] is not None or state["ended"] is not None:
            break
        mover = host if state["to_move"] == "r" else guest
        move = state["legal_moves"][-1]
        answer = mover.post(f"/api/online/{match_id}/play", {"move": move, "version": version})
        assert answer.status_code == 200, answer.text
        version += 1
        pushed = next_state(received, version)
        assert pushed["played"]["move"] == move
        assert pushed["moves"] == answer.json()["moves"]
        assert pushed["position"] == answer.json()["position"]


def test_events_reach_a_listener_and_a_restart_keeps_the_match(tmp_path: Path) -> None:
    db = f"sqlite://{tmp_path / 'm.sqlite3'}"
    server = Server(db)
    try:
        moves_reach_the_stream(server.url, server.url)
        host, _, match_id = begin(server.url, seed=5)
        key = host.get(f"/api/online/{match_id}").json()["stream_key"]
        received, reader = listen(server.url, match_id, "r", key)
        assert next_state(received, 1)["seats"]["r"]["online"]
        before = host.get(f"/api/online/{match_id}").json()
        started = time.monotonic()
        assert server.stop() == 130  # Ctrl-C with a stream open
        print(f"stopped in {time.monotonic() - started:.2f} s with an event stream open")
        reader.join(timeout=10)
        assert not reader.is_alive()
        server.start()
        again = httpx.get(f"{server.url}/api/online/{match_id}", headers=host.headers).json()
        assert {**again, "seats": None} == {**before, "seats": None}
        assert again["you"] == "r"
    finally:
        server.stop()


def test_two_writers_at_one_version_never_both_win(database: str) -> None:  # noqa: F811
    race(database)


def test_players_expire_on_either_database(database: str) -> None:  # noqa: F811
    """A player seated in no match and unseen since the cut goes with
    the sweep; a seated one, or one seen since (a check with the time), stays."""
    store = open_store(database)
    month, now = 31 * 24 * 3600.0, time.time()
    for name in ("idle", "seated", "back", "stale"):
        store.add_player(name, now - month)
    store.add_player("new", now)
    store.add_match(MatchRow("m", "seated", None, "i", "r", {}, "s", 0, None, None, now, now))
    old = MatchRow("o", "stale", None, "i", "r", {}, "s", 0, None, None, now - month, now - month)
    store.add_match(old)
    assert store.has_player("back", now) and store.has_player("idle")  # only "back" seen
    assert store.expire(now - month / 2) == 1  # the stale match, then its player
    assert {
        name: store.has_player(name) for name in ("idle", "seated", "back", "stale", "new")
    } == {
        "idle": False,
        "seated": True,
        "back": True,
        "stale": False,
        "new": True,
    }
    store.close()


def changed(match_id: str, version: int, state: str) -> Change:
    """``match_id`` (seated by ``a`` and ``b``) brought from ``version - 1`` to
    ``version``, its state ``state``."""
    row = MatchRow(match_id, "a", "b", "i", "r", {}, state, version, None, None, 0.0, 1.0)
    return Change(row, version - 1, "play", state)


def test_a_group_commit_refuses_a_stale_change_alone(database: str) -> None:  # noqa: F811
    """Changes committed together (one transaction, one sync) are written in order,
    each refused alone: a change at a version another one of the group took first is
    stale and nothing of it is written, the rest are."""
    store = open_store(database)
    for match_id in ("m", "n", "t"):
        store.add_match(MatchRow(match_id, "a", "b", "i", "r", {}, "s0", 0, None, None, 0.0, 0.0))
    group = [changed("m", 1, "m1"), changed("n", 1, "n1"), changed("m", 1, "m1 again")]
    outcomes = store.commit_many([*group, changed("m", 2, "m2")])
    assert [type(outcome) for outcome in outcomes] == [type(None), type(None), Stale, type(None)]
    # a match whose next action is stored already (its row and actions out of step):
    # the database refuses the action's statement, that change alone is undone
    with store.transaction() as cursor:  # type: ignore[attr-defined]
        store.run(  # type: ignore[attr-defined]
            cursor,
            "INSERT INTO actions (match_id, version, kind, value, at) VALUES (?, ?, ?, ?, ?)",
            ("t", 1, "play", "planted", 0.0),
        )
    outcomes = store.commit_many([changed("t", 1, "t1"), changed("n", 2, "n2")])
    assert isinstance(outcomes[0], Stale) and outcomes[1] is None
    found = {match_id: store.load(match_id) for match_id in ("m", "n", "t")}
    assert {k: (row.version, row.state) for k, row in found.items() if row} == {
        "m": (2, "m2"),
        "n": (2, "n2"),
        "t": (0, "s0"),
    }
    assert [(a.version, a.value) for a in store.actions("m")] == [(1, "m1"), (2, "m2")]
    store.close()


def test_concurrent_commits_share_transactions(tmp_path: Path) -> None:
    """The server's commits (``AsyncStore.commit``) that wait at the same moment go to
    the store together: 40 matches' moves at once take fewer transactions than moves,
    every one is written, and the one stale move is refused alone."""
    url = f"sqlite://{tmp_path / 'matches.sqlite3'}"
    db = AsyncStore(url)
    store = db.store()
    for number in range(40):
        row = MatchRow(f"m{number}", "a", "b", "i", "r", {}, "s0", 0, None, None, 0.0, 0.0)
        store.add_match(row)
    groups: list[int] = []
    commit_many = store.commit_many

    def counting(changes: list[Change]) -> list[Exception | None]:
        groups.append(len(changes))
        return commit_many(changes)

    store.commit_many = counting  # type: ignore[method-assign]

    async def play() -> list[BaseException | None]:
        changes = [changed(f"m{n}", 1, f"m{n} 1") for n in range(40)]
        changes.append(changed("m7", 1, "m7 again"))
        found = await asyncio.gather(*(db.commit(c) for c in changes), return_exceptions=True)
        return list(found)

    outcomes = asyncio.run(play())
    db.close()
    assert outcomes[:40] == [None] * 40 and isinstance(outcomes[40], Stale)
    assert sum(groups) == 41 and len(groups) < 41, groups
    check = open_store(url)
    assert all(check.load(f"m{n}").version == 1 for n in range(40))  # type: ignore[union-attr]
    loaded = check.load("m7")
    assert loaded is not None and loaded.state == "m7 1"
    check.close()


def race(db: str) -> None:
    """Threads, each with its own store (as separate processes would be), all commit
    version 1 of one match at once: exactly one commit holds."""
    setup = open_store(db)
    row = MatchRow("m", "a", None, "i", "r", {}, "state 0", 0, None, None, 0.0, 0.0)
    setup.add_match(row)
    stores = [open_store(db) for _ in range(6)]
    barrier = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def write(number: int) -> None:
        barrier.wait()
        after = MatchRow("m", "a", "b", "i", "r", {}, f"state {number}", 1, None, None, 0.0, 1.0)
        try:
            stores[number].commit(after, 0, "join", str(number))
            outcomes.append(f"won {number}")
        except Stale:
            outcomes.append("stale")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [o for o in outcomes if o.startswith("won")]
    assert len(winners) == 1 and outcomes.count("stale") == len(stores) - 1
    number = winners[0].split()[1]
    stored = setup.load("m")
    assert stored is not None and stored.state == f"state {number}" and stored.version == 1
    assert [(a.version, a.value) for a in setup.actions("m")] == [(1, number)]
    for store in [setup, *stores]:
        store.close()


def test_two_processes_share_matches_through_postgres(
    postgres_server: tuple[str, int, list[str]],  # noqa: F811
) -> None:
    db = new_database(postgres_server, "shared")
    one = Server(db)
    try:
        two = Server(db)
        try:
            moves_reach_the_stream(one.url, two.url)  # a move through one, heard on the other
            moves_reach_the_stream(two.url, one.url)
            host, _, match_id = begin(one.url, seed=2)
            seen = httpx.get(f"{two.url}/api/online/{match_id}", headers=host.headers).json()
            assert seen["you"] == "r" and seen["begun"]
        finally:
            two.stop()
    finally:
        one.stop()


def test_a_database_that_cannot_be_opened_is_one_line_before_serving(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all" * 100)
    newer = tmp_path / "newer.sqlite3"
    open_store(f"sqlite://{newer}").close()
    with sqlite3.connect(newer) as raw:
        raw.execute("UPDATE schema_version SET version = 999")
    cases = {
        f"sqlite://{garbage}": "file is not a database",
        f"sqlite://{newer}": "newer than this buttonup's",
        "mysql://somewhere/db": "neither sqlite:///path nor postgresql://",
        f"sqlite://{tmp_path}/a-file/below/it.sqlite3": "cannot open the database",
    }
    (tmp_path / "a-file").write_text("")
    for db, words in cases.items():
        ended = processes.run(
            [sys.executable, "-m", "buttonup", "serve", "--port", "1", "--db", db],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert ended.returncode == 2, ended.stderr
        lines = ended.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], ended.stderr
