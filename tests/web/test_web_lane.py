"""The online routes' short way through the framework (:mod:`buttonup.web.lane`): the
same scripted requests answered with the lane and without it (the framework's own
routing, validation and error handling) give the same statuses, types and bodies, and
the lane is taken for the requests a match being played makes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
from buttonup.web.app import create_app
from buttonup.web.lane import Lanes
from fastapi.testclient import TestClient
from online_helpers import Player


def transcript(db: Path) -> tuple[list[tuple[int, str, str]], int]:
    """A match played with refusals on the way, every answer as (status, content
    type, body with the match's id and secrets named, not given); and how many
    requests the lane took."""
    taken = 0
    find = Lanes.find

    def counting(self: Lanes, method: str, path: str) -> Any:
        nonlocal taken
        found = find(self, method, path)
        taken += found is not None
        return found

    client = TestClient(create_app(db=f"sqlite://{db}"))
    host, guest, spectator = Player(client), Player(client), Player(client)
    made = host.post("/api/online", {"host": "r", "seed": 7, "target": 3}).json()
    match_id, invite = made["id"], made["invite"]
    guest.post(f"/api/online/{match_id}/join", {"invite": invite, "seed": 7})
    names = {match_id: "<id>", invite: "<invite>", host.token: "<host>", guest.token: "<guest>"}
    for player, name in ((host, "<host's stream key>"), (guest, "<guest's stream key>")):
        names[player.get(f"/api/online/{match_id}").json()["stream_key"]] = name
    answers: list[tuple[int, str, str]] = []

    def note(answer: Any) -> dict[str, Any]:
        text = answer.text
        for secret, name in names.items():
            text = text.replace(secret, name)
        answers.append((answer.status_code, answer.headers.get("content-type", ""), text))
        found: dict[str, Any] = answer.json()
        return found

    Lanes.find = counting  # type: ignore[method-assign]
    try:
        path = f"/api/online/{match_id}"
        state = note(host.get(path))
        note(spectator.get(path))
        note(client.get(path))
        note(client.get("/api/online/no-such-match"))
        note(guest.post(f"{path}/play", {"move": state["legal_moves"][0], "version": 1}))
        note(host.post(f"{path}/play", {"move": state["legal_moves"][0], "version": 0}))
        note(host.post(f"{path}/play", {"move": "1", "version": 1}))
        note(host.post(f"{path}/play", {"version": 1}))
        note(host.post(f"{path}/play", {"move": 99, "version": 1}))
        note(spectator.post(f"{path}/play", {"move": state["legal_moves"][0], "version": 1}))
        note(client.post(f"{path}/play", json={"move": 1, "version": 1}))
        note(client.post(f"{path}/play", content=b"{not json", headers=host.headers))
        note(client.post(f"{path}/play", content=b'{"move": 1}', headers={**host.headers,
             "content-type": "text/plain"}))  # fmt: skip
        note(client.put(f"{path}/play", json={"move": 1, "version": 1}))
        note(host.post(f"{path}/choose", {"starter": "r", "version": 1}))
        for _ in range(6):
            state = note(host.get(path))
            mover = host if state["to_move"] == "r" else guest
            body = {"move": state["legal_moves"][-1], "version": state["version"]}
            note(mover.post(f"{path}/play", body))
        note(guest.post(f"{path}/resign", {"version": state["version"] + 1}))
        note(guest.post(f"{path}/resign", {"version": "x"}))
    finally:
        Lanes.find = find  # type: ignore[method-assign]
    return answers, taken


def test_the_lane_answers_as_the_framework_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_lane, taken = transcript(tmp_path / "lane.sqlite3")
    monkeypatch.setattr(Lanes, "find", lambda self, method, path: None)
    without, _ = transcript(tmp_path / "framework.sqlite3")
    assert with_lane == without
    statuses = [status for status, _, _ in with_lane]
    assert {200, 401, 403, 404, 405, 409, 422} <= set(statuses), statuses
    # every request but the PUT (a method the route has not) went the lane's way
    assert taken == len(with_lane) - 1, (taken, len(with_lane))


def test_the_lane_takes_only_routes_that_answer_a_response() -> None:
    async def listed() -> dict[str, Any]:
        return {}

    with pytest.raises(TypeError, match="answer a Response"):
        Lanes().add("GET", "/api/x", listed)
