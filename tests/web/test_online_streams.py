"""The event streams of online matches: a change is read from the store once however
many streams the match has (presence needs no read at all); streams are capped per seat,
spectators per match and per client address, and all of them below a share of the
server's connections, the players' own never refused for spectators (429 past a cap, a
closed stream's place free again); a stream ends after its time, and a seat is only
shown online by a stream opened with its key. The app runs on uvicorn in a thread of the
test, so that the store's reads can be counted."""

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
from buttonup.web import online as online_module
from buttonup.web.app import create_app
from buttonup.web.online import (
    SPECTATORS_PER_MATCH,
    STREAMS_PER_CLIENT,
    STREAMS_PER_SEAT,
    Online,
)
from buttonup.web.store.sql import SqlStore
from online_helpers import Player, events, in_a_thread

#: Seconds any one wait of these tests may take before it is a failure.
PATIENCE = 30.0


@contextlib.contextmanager
def serving(path: Path, **options: Any) -> Iterator[tuple[str, Online]]:
    """The app on a SQLite file, on uvicorn in a thread: its URL and its online matches."""
    app = create_app(db=f"sqlite://{path}", **options)
    online: Online = app.state.online
    with in_a_thread(app, patience=PATIENCE) as port:
        try:
            yield f"http://127.0.0.1:{port}", online
        finally:
            online.close()  # the streams end, so that uvicorn need not wait for them


class Stream:
    """One event stream read in a thread (ended by the server's end): its events in
    :attr:`heard`, ``None`` once it ends."""

    def __init__(self, url: str, match_id: str, seat: str = "", key: str | None = None):
        asked = f"?seat={seat}&key={key}" if seat else ""
        self.path = f"{url}/api/online/{match_id}/events{asked}"
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


def keys(host: Player, guest: Player, match_id: str) -> dict[str, str]:
    """Each seat's stream key, as its player's state tells it (and nobody else's)."""
    found = {}
    for player in (host, guest):
        state = player.get(f"/api/online/{match_id}").json()
        found[state["you"]] = state["stream_key"]
    return found


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
        host, guest, match_id = begun(url)
        key = keys(host, guest, match_id)
        streams = [
            Stream(url, match_id, *(("rb"[n % 2], key["rb"[n % 2]]) if n < 4 else ()))
            for n in range(12)
        ]
        for stream in streams:
            assert stream.next("state")["data"]["version"] == 1
        settle(streams)
        reads.clear()

        # who is online: the broker knows it; the new stream's own read is the only one
        watcher = Stream(url, match_id, "b", key["b"])
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
        host, guest, match_id = begun(url, clock={"per_move": 2})
        key = keys(host, guest, match_id)
        streams = [
            Stream(url, match_id, *(("rb"[n % 2], key["rb"[n % 2]]) if n < 4 else ()))
            for n in range(10)
        ]
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


def opened(
    url: str, match_id: str, address: str = "127.0.0.1", asked: str = "?seat=b"
) -> tuple[socket.socket, int, str]:
    """A stream of ``match_id`` asked for from ``address`` on a socket of its own (to
    be closed by the caller; by default a spectator's claiming a seat without its key):
    the socket, the status, and a refusal's error."""
    port = int(url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), PATIENCE, source_address=(address, 0))
    path = f"/api/online/{match_id}/events{asked}"
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
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


def test_spectators_of_one_match_are_capped_never_its_players(tmp_path: Path) -> None:
    with serving(tmp_path / "matches.sqlite3") as (url, online), contextlib.ExitStack() as socks:
        host, guest, match_id = begun(url)
        key = keys(host, guest, match_id)
        held = []
        for n in range(SPECTATORS_PER_MATCH):  # from as many addresses
            sock, status, _ = opened(url, match_id, f"127.0.1.{n + 1}")
            socks.callback(sock.close)
            assert status == 200
            held.append(sock)
        sock, status, error = opened(url, match_id, "127.0.2.1")
        socks.callback(sock.close)
        assert status == 429
        assert error == f"{SPECTATORS_PER_MATCH} spectators' event streams of this match " + (
            "are open: try again later"
        )
        # The players' own streams, as many as a seat may have: they used to get 429.
        for seat in "rb":
            for _ in range(STREAMS_PER_SEAT):
                sock, status, error = opened(url, match_id, asked=f"?seat={seat}&key={key[seat]}")
                socks.callback(sock.close)
                assert status == 200, error
        sock, status, error = opened(url, match_id, asked=f"?seat=r&key={key['r']}")
        socks.callback(sock.close)
        assert status == 429
        assert error == f"{STREAMS_PER_SEAT} event streams of your seat are open: close one first"
        # A wrong key is a spectator's stream: refused here, and nobody's presence.
        sock, status, _ = opened(url, match_id, "127.0.2.2", asked=f"?seat=r&key={key['b']}")
        socks.callback(sock.close)
        assert status == 429
        _, _, other = begun(url)  # other matches are not held up
        sock, status, _ = opened(url, other)
        socks.callback(sock.close)
        assert status == 200
        count = SPECTATORS_PER_MATCH + 2 * STREAMS_PER_SEAT
        closed(held.pop(), online, match_id, count - 1)
        sock, status, _ = opened(url, match_id)
        socks.callback(sock.close)
        assert status == 200


def test_streams_keep_a_share_of_the_connections_and_the_players_theirs(
    tmp_path: Path,
) -> None:
    most = 8
    spectators = int(most * online_module.SPECTATORS_SHARE)
    served = serving(tmp_path / "matches.sqlite3", most_streams=most)
    with served as (url, _), contextlib.ExitStack() as socks:
        matches = [begun(url) for _ in range(3)]
        for n in range(spectators):
            sock, status, _ = opened(url, matches[n % 3][2], f"127.0.3.{n + 1}")
            socks.callback(sock.close)
            assert status == 200
        sock, status, error = opened(url, matches[0][2], "127.0.3.99")
        socks.callback(sock.close)
        assert status == 429
        assert error == "the server's event streams for spectators are all open: try again shortly"
        opened_by_players = 0
        for host, guest, match_id in matches:
            for seat, secret in keys(host, guest, match_id).items():
                sock, status, error = opened(url, match_id, asked=f"?seat={seat}&key={secret}")
                socks.callback(sock.close)
                if opened_by_players < most - spectators:
                    assert status == 200, error
                    opened_by_players += 1
                else:
                    assert status == 429
                    assert error == "the server's event streams are all open: try again shortly"
        # Requests are still answered: the streams hold at most their share.
        assert httpx.get(f"{url}/api/online/{matches[0][2]}", timeout=PATIENCE).is_success


def test_a_stream_ends_after_its_time_and_its_place_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(online_module, "STREAM_SECONDS", 0.5)
    with serving(tmp_path / "matches.sqlite3") as (url, online):
        _, _, match_id = begun(url)
        stream = Stream(url, match_id)
        assert stream.next("state")["data"]["version"] == 1
        assert stream.heard.get(timeout=PATIENCE) is None  # ended by the server
        deadline = time.monotonic() + PATIENCE
        while online.broker.streams.get(match_id):
            assert time.monotonic() < deadline, "the ended stream is still counted"
            time.sleep(0.02)


def test_streams_from_one_address_are_capped_and_a_closed_one_frees_its_place(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "matches.sqlite3") as (url, online), contextlib.ExitStack() as socks:
        ids = [begun(url)[2] for _ in range(4)]
        held = []
        for n in range(STREAMS_PER_CLIENT):  # over three matches, within their caps
            sock, status, _ = opened(url, ids[n % 3], "127.0.0.2")
            socks.callback(sock.close)
            assert status == 200
            held.append(sock)
        sock, status, error = opened(url, ids[3], "127.0.0.2")
        socks.callback(sock.close)
        assert status == 429
        assert error == f"{STREAMS_PER_CLIENT} event streams are open from your address: " + (
            "close one first"
        )
        assert online.broker.streams.get(ids[3]) is None  # the refused one holds nothing
        sock, status, _ = opened(url, ids[3], "127.0.0.3")  # another address may
        socks.callback(sock.close)
        assert status == 200
        on_second = sum(n % 3 == 1 for n in range(STREAMS_PER_CLIENT))
        closed(held.pop(), online, ids[(STREAMS_PER_CLIENT - 1) % 3], on_second - 1)
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
