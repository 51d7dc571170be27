"""A server killed in a flood of moves loses no answered move.

Several client threads, one per match, each send moves (and the tie rule's choices) one
after the other as fast as the server answers; the server is killed with SIGKILL in the
middle, then started again on the same database. Each client has at most one request in
flight, so for each match, if ``answered`` are the actions that got a 200 (in order)
and ``lost`` the one whose answer never came (if any), the stored actions after the
join are exactly ``answered``, or ``answered`` followed by ``lost`` (it was committed
but its answer was cut off). Nothing else: no answered move missing, none out of order,
no action that no client sent. Run on SQLite, and on PostgreSQL where it can start."""

from __future__ import annotations

import os
import random
import threading
import time
from typing import Any

import pytest

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
import httpx
from buttonup import Match
from buttonup.web.store import open_store
from online_helpers import Player, Server, database, postgres_server  # noqa: F401

MATCHES = 4
#: Answered actions (all matches together) before the kill.
BEFORE_KILL = 80

Step = tuple[int, str, str]  # the version it makes, the kind, the value


class Flood(threading.Thread):
    """One client flooding one match: both players' moves, one request at a time."""

    def __init__(self, url: str, match_id: str, seats: dict[str, Player], seed: int) -> None:
        super().__init__(daemon=True)
        self.url, self.match_id, self.seats = url, match_id, seats
        self.rng = random.Random(seed)
        self.answered: list[Step] = []
        self.lost: Step | None = None
        self.refused: list[str] = []

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=30) as client:
            state = client.get(f"/api/online/{self.match_id}").json()
            while state["ended"] is None:
                version = state["version"]
                if state["chooser"] is not None:
                    side, path = state["chooser"], "choose"
                    step: Step = (version + 1, "choose", self.rng.choice("rb"))
                    body: dict[str, Any] = {"starter": step[2], "version": version}
                else:
                    side, path = state["to_move"], "play"
                    move = self.rng.choice(state["legal_moves"])
                    step, body = (
                        (version + 1, "play", str(move)),
                        {"move": move, "version": version},
                    )
                self.lost = step
                try:
                    answer = client.post(
                        f"/api/online/{self.match_id}/{path}",
                        json=body,
                        headers=self.seats[side].headers,
                    )
                except httpx.HTTPError:
                    return  # the server is gone: `lost` may or may not be stored
                if answer.status_code != 200:
                    self.refused.append(answer.text)
                    return
                self.lost = None
                self.answered.append(step)
                state = answer.json()


def flood_and_kill(db: str) -> None:
    server = Server(db)
    try:
        floods_then_kill(server, db)
    finally:
        server.stop()  # a second stop does nothing: ended on every outcome


def floods_then_kill(server: Server, db: str) -> None:
    floods: list[Flood] = []
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for number in range(MATCHES):
            host, guest = Player(client), Player(client)
            made = host.post("/api/online", {"target": 30, "seed": number}).json()
            assert (
                guest.post(
                    f"/api/online/{made['id']}/join", {"invite": made["invite"], "seed": number}
                ).status_code
                == 200
            )
            floods.append(Flood(server.url, made["id"], {"r": host, "b": guest}, number))
    for flood in floods:
        flood.start()
    deadline = time.monotonic() + 120
    while sum(len(f.answered) for f in floods) < BEFORE_KILL and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # mid-flood: every client has a request in flight or about to be
    for flood in floods:
        flood.join(timeout=60)
    assert all(not f.refused for f in floods), [f.refused for f in floods]
    assert sum(len(f.answered) for f in floods) >= BEFORE_KILL
    server.start()  # the same database
    try:
        store = open_store(db)
        lost_stored = 0
        for flood in floods:
            stored = [(a.version, a.kind, a.value) for a in store.actions(flood.match_id)]
            assert stored[0][:2] == (1, "join")
            after_join = stored[1:]
            if flood.lost is not None and after_join == [*flood.answered, flood.lost]:
                lost_stored += 1
            else:
                assert after_join == flood.answered, (flood.match_id, flood.lost)
            # the match as the server serves it is those actions, replayed by the library
            mirror = Match("r", target=30, seed=floods.index(flood))
            for _, kind, value in after_join:
                if kind == "choose":
                    mirror.choose_starter(value)
                else:
                    mirror.play(int(value))
            with httpx.Client(base_url=server.url, timeout=30) as client:
                state = client.get(f"/api/online/{flood.match_id}").json()
                assert state["version"] == len(stored)
                assert state["moves"] == list(mirror.moves) and state["scores"] == {
                    "r": mirror.scores[0],
                    "b": mirror.scores[1],
                }
                if state["ended"] is None and state["chooser"] is None:  # play goes on
                    side = state["to_move"]
                    answer = client.post(
                        f"/api/online/{flood.match_id}/play",
                        json={"move": state["legal_moves"][0], "version": state["version"]},
                        headers=flood.seats[side].headers,
                    )
                    assert answer.status_code == 200, answer.text
        store.close()
        print(f"lost answers whose action was stored: {lost_stored} of {MATCHES}")
    finally:
        assert server.stop() == 130


def test_sigkill_in_a_flood_loses_no_answered_move(database: str) -> None:  # noqa: F811
    flood_and_kill(database)
