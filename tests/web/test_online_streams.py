"""The event streams of online matches (issue 34 item 7): a change is read from the
store once however many streams the match has (presence needs no read at all), and
streams are capped per match and per client address (429 past the cap, a closed
stream's place free again). The app runs on uvicorn in a thread of the test, so that
the store's reads can be counted."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
import httpx
from buttonup._core import Match
from buttonup.web.app import create_app
from buttonup.web.online import STREAMS_PER_CLIENT, STREAMS_PER_MATCH, Online
from buttonup.web.store.sql import SqlStore
from online_helpers import Player, events, in_a_thread

#: Seconds any one wait of these tests may take before it is a failure.
PATIENCE = 30.0


@contextlib.contextmanager
def serving(path: Path) -> Iterator[tuple[str, Online]]:
    """The app on a SQLite file, on uvicorn in a thread: its URL and its online matches."""
    app = create_app(db=f"sqlite://{path}")
    online: Online = app.state.online
    with in_a_thread(app, patience=PATIENCE) as port:
        try:
            yield f"http://127.0.0.1:{port}", online
        finally:
            online.close()  # the streams end, so that uvicorn need not wait for them


class Stream:
    """One event stream read in a thread (ended by the server's end): its events in
    :attr:`heard`, ``None`` once it ends."""

    def __init__(self, url: str, match_id: str, seat: str = ""):
        self.path = f"{url}/api/online/{match_id}/events" + (f"?seat={seat}" if seat else "")
        self.heard: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.status = 0
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()
        assert self.opened.wait(PATIENCE) and self.status == 200, self.status

    def read(self) -> None:
        try:
            with httpx.stream("GET", self.path, timeout=PATIENCE) as answer:
                self.status = answer.status_code
                self.opened.set()
                if answer.status_code == 200:
                    for event in events(answer.iter_lines()):
                        self.heard.put(event)
        finally:
            self.opened.set()
            self.heard.put(None)

    def next(self, kind: str | None = None) -> dict[str, Any]:
        """The next event (of ``kind``, others skipped)."""
        while True:
            event = self.heard.get(timeout=PATIENCE)
            assert event is not None, "the stream ended"
            if kind is None or event["event"] == kind:
                return event

    def drain(self) -> None:
        """Forgets the events heard so far."""
        with contextlib.suppress(queue.Empty):
            while True:
                self.heard.get_nowait()


def settle(streams: list[Stream]) -> None:
    """Waits for the events under way (presence of the streams just opened) to arrive,
    then forgets them."""
    time.sleep(0.5)
    for stream in streams:
        stream.drain()


def begun(url: str, **settings: Any) -> tuple[Player, Player, str]:
    client = httpx.Client(base_url=url, timeout=PATIENCE)
    host, guest = Player(client), Player(client)
    made = host.post("/api/online", {"host": "r", **settings}).json()
    assert guest.post(f"/api/online/{made['id']}/join", {"invite": made["invite"]}).is_success
    return host, guest, made["id"]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> collections.Counter[str]:
    """The store's calls of a match (its reads ``load``, ``action``, ``actions``, and
    its transactions of changes, ``commit``: one group commit of any number), counted
    by name."""
    counted: collections.Counter[str] = collections.Counter()
    for name in ("load", "action", "actions", "commit_many"):
        original = getattr(SqlStore, name)

        def counting(
            self: SqlStore, *args: Any, _o: Any = original, _n: str = name.split("_")[0]
        ) -> Any:
            counted[_n] += 1
            return _o(self, *args)

        monkeypatch.setattr(SqlStore, name, counting)
    return counted


def test_one_read_per_change_however_many_streams(
    tmp_path: Path, reads: collections.Counter[str]
) -> None:
    with serving(tmp_path / "matches.sqlite3") as (url, online):
        host, _, match_id = begun(url)
        streams = [Stream(url, match_id, "rb"[n % 2] if n < 4 else "") for n in range(12)]
        for stream in streams:
            assert stream.next("state")["data"]["version"] == 1
        settle(streams)
        reads.clear()

        # who is online: the broker knows it; the new stream's own read is the only one
        watcher = Stream(url, match_id, "b")
        for stream in streams:
            assert stream.next("presence")["data"]["seats"]["b"]["online"]
        watcher.next("state")
        assert reads == {"load": 1}, reads

        # a move made here: the move's own read, none for the streams
        reads.clear()
        move = host.get(f"/api/online/{match_id}").json()["legal_moves"][0]
        assert host.post(f"/api/online/{match_id}/play", {"move": move, "version": 1}).is_success
        reads.clear()  # the move's request itself
        for stream in [*streams, watcher]:
            assert stream.next("state")["data"]["version"] == 2
        assert reads == {}, reads

        # a change another process made (as PostgreSQL announces it): one read in all
        resigned = replace(online.rows[match_id], version=3, ended="resigned", winner="r")
        online.db.store().commit(resigned, 2, "resign", "b")
        online.rows.pop(match_id)  # as if this process never saw it
        reads.clear()
        online.broker.publish(match_id, 3)
        for stream in [*streams, watcher]:
            assert stream.next("state")["data"]["ended"] == "resigned"
        assert reads == {"load": 1, "action": 1}, reads


def test_a_clocked_match_is_read_once_per_change_and_flagged_once(
    tmp_path: Path, reads: collections.Counter[str]
) -> None:
    with serving(tmp_path / "matches.sqlite3") as (url, _):
        host, _, match_id = begun(url, clock={"per_move": 2})
        streams = [Stream(url, match_id, "rb"[n % 2] if n < 4 else "") for n in range(10)]
        for stream in streams:
            assert stream.next("state")["data"]["clock"]["running"] == "r"
        settle(streams)
        reads.clear()
        move = host.get(f"/api/online/{match_id}").json()["legal_moves"][0]
        answer = host.post(f"/api/online/{match_id}/play", {"move": move, "version": 1})
        assert answer.is_success, answer.text
        running = answer.json()["clock"]["running"]
        for stream in streams:
            event = stream.next("state")["data"]
            assert (event["version"], event["clock"]["running"]) == (2, running)
        # the GET's own load (the move is made against the row this process has at
        # the move's version: no load), and the time used after the move (before it,
        # it was known since the streams opened): the streams added none
        assert reads == {"load": 1, "actions": 1, "commit": 1}, reads

        reads.clear()  # the seat to play lets its 2 s run out: every stream sees it lose
        for stream in streams:
            event = stream.next("state")["data"]
            assert (event["ended"], event["winner"]) == ("time", "b" if running == "r" else "r")
        # one commit (not one for each stream), no load (the row is this process's),
        # and the new version's change and time used read once
        assert reads == {"commit": 1, "action": 1, "actions": 1}, reads


def opened(url: str, match_id: str, address: str = "127.0.0.1") -> tuple[socket.socket, int, str]:
    """A stream of ``match_id`` asked for from ``address`` on a socket of its own (to
    be closed by the caller): the socket, the status, and a refusal's error."""
    port = int(url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), PATIENCE, source_address=(address, 0))
    sock.sendall(f"GET /api/online/{match_id}/events?seat=b HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(4096)
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    if status == 200:
        return sock, status, ""
    length = next(
        int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )  # fmt: skip
    while len(body) < length:
        body += sock.recv(4096)
    return sock, status, json.loads(body)["error"]


def closed(sock: socket.socket, online: Online, match_id: str, count: int) -> None:
    """Closes a stream's socket, then waits for the server to have ``count`` streams of
    ``match_id`` left."""
    sock.shutdown(socket.SHUT_RDWR)
    sock.close()
    deadline = time.monotonic() + PATIENCE
    while len(online.broker.streams.get(match_id, [])) != count:
        assert time.monotonic() < deadline, "the closed stream is still counted"
        time.sleep(0.02)


def test_streams_of_one_match_are_capped_and_a_closed_one_frees_its_place(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "matches.sqlite3") as (url, online), contextlib.ExitStack() as socks:
        _, _, match_id = begun(url)
        held = []
        for _ in range(STREAMS_PER_MATCH):
            sock, status, _ = opened(url, match_id)
            socks.callback(sock.close)
            assert status == 200
            held.append(sock)
        sock, status, error = opened(url, match_id)
        socks.callback(sock.close)
        assert status == 429
        assert error == f"{STREAMS_PER_MATCH} event streams of this match are open: " + (
            "close one, or try again later"
        )
        _, _, other = begun(url)  # other matches are not held up
        sock, status, _ = opened(url, other)
        socks.callback(sock.close)
        assert status == 200
        closed(held.pop(), online, match_id, STREAMS_PER_MATCH - 1)
        sock, status, _ = opened(url, match_id)
        socks.callback(sock.close)
        assert status == 200


def test_streams_from_one_address_are_capped_and_a_closed_one_frees_its_place(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "matches.sqlite3") as (url, online), contextlib.ExitStack() as socks:
        ids = [begun(url)[2] for _ in range(3)]
        held = []
        for n in range(STREAMS_PER_CLIENT):
            sock, status, _ = opened(url, ids[n % 2], "127.0.0.2")
            socks.callback(sock.close)
            assert status == 200
            held.append(sock)
        sock, status, error = opened(url, ids[2], "127.0.0.2")
        socks.callback(sock.close)
        assert status == 429
        assert error == f"{STREAMS_PER_CLIENT} event streams are open from your address: " + (
            "close one first"
        )
        assert online.broker.streams.get(ids[2]) is None  # the refused one holds nothing
        sock, status, _ = opened(url, ids[2], "127.0.0.3")  # another address may
        socks.callback(sock.close)
        assert status == 200
        closed(held.pop(), online, ids[1], STREAMS_PER_CLIENT // 2 - 1)
        sock, status, _ = opened(url, ids[2], "127.0.0.2")
        socks.callback(sock.close)
        assert status == 200


def test_an_action_is_made_against_the_row_known_or_the_stores_newer_one(
    tmp_path: Path, reads: collections.Counter[str]
) -> None:
    """A move made against the row this process knows reads nothing; where another
    process changed the match (this process's row older), a move at the newer version
    reads the store's row and is accepted, and one at the older version is refused
    (409) with nothing changed."""
    with serving(tmp_path / "db.sqlite3") as (url, online):
        host, guest, match_id = begun(url)
        state = host.get(f"/api/online/{match_id}").json()
        reads.clear()
        answer = host.post(
            f"/api/online/{match_id}/play", {"move": state["legal_moves"][0], "version": 1}
        )
        assert answer.is_success, answer.text
        assert reads == {"commit": 1}, reads  # no load: this process's row

        # another process moves for Black (version 3), unannounced: this row is older
        after = answer.json()
        other = Match.__new__(Match)
        other.__setstate__(online.rows[match_id].state)
        mover = host if after["to_move"] == "r" else guest
        other.play(after["legal_moves"][0])
        online.db.store().commit(
            replace(online.rows[match_id], state=other.__getstate__(), version=3), 2, "play", "0"
        )
        assert online.rows[match_id].version == 2

        stale = mover.post(
            f"/api/online/{match_id}/play", {"move": after["legal_moves"][0], "version": 2}
        )
        assert stale.status_code == 409, stale.text
        assert host.get(f"/api/online/{match_id}").json()["version"] == 3  # unchanged

        now = host.get(f"/api/online/{match_id}").json()
        player = host if now["to_move"] == "r" else guest
        reads.clear()
        moved = player.post(
            f"/api/online/{match_id}/play", {"move": now["legal_moves"][0], "version": 3}
        )
        assert moved.is_success, moved.text
        assert moved.json()["version"] == 4
        assert reads["commit"] == 1
