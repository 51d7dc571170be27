"""The online matches' API in process: every refusal leaves the match as it
was (wrong token, no token, out of turn, stale version, spectators, a match not begun or
over, bad and oversized bodies), a whole match between two players with the tie rule's
choice, checked move by move against the library's own match, the record, a player's
matches, a restart on the same database, and expiry by age (never by count)."""

from __future__ import annotations

import os
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
from buttonup import Match, svg
from buttonup.web.app import create_app
from buttonup.web.store import open_store
from buttonup.web.store.schema import MIGRATIONS
from fastapi.testclient import TestClient
from online_helpers import Player


def app_on(path: Path, **options: Any) -> TestClient:
    return TestClient(create_app(db=f"sqlite://{path}", **options))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "matches.sqlite3"


def begun(client: TestClient, **settings: Any) -> tuple[Player, Player, str]:
    """A match made by a host (Red) and joined by a guest (Black)."""
    host, guest = Player(client), Player(client)
    made = host.post("/api/online", {"host": "r", **settings})
    assert made.status_code == 200, made.text
    data = made.json()
    assert data["seat"] == "r" and data["state"]["version"] == 0
    assert data["links"]["invite"] == f"/online/{data['id']}#join={data['invite']}"
    agreed = {"seed": settings["seed"]} if "seed" in settings else {}
    joined = guest.post(f"/api/online/{data['id']}/join", {"invite": data["invite"], **agreed})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == "b" and joined.json()["state"]["begun"]
    return host, guest, data["id"]


def snapshot(client: TestClient, match_id: str) -> dict[str, Any]:
    return client.get(f"/api/online/{match_id}").json()


def tie_seed() -> int:
    """The first seed whose match at target 3, played by ``random.Random(seed)``'s
    choices, has a tie (the library's own match says so)."""
    for seed in range(1000):
        rng, match = random.Random(seed), Match("r", target=3, seed=seed)
        while not match.is_over:
            if match.chooser is not None:
                return seed
            match.play(rng.choice(match.legal_moves()))
    raise AssertionError("no tie in 1000 seeds")


def test_a_whole_match_with_the_tie_rule_as_the_library_plays_it(db: Path) -> None:
    client = app_on(db)
    seed = tie_seed()
    host, guest, match_id = begun(client, target=3, seed=seed)
    seat = {"r": host, "b": guest}
    rng, mirror = random.Random(seed), Match("r", target=3, seed=seed)
    version, choices = 1, 0
    while not mirror.is_over:
        if mirror.chooser is not None:
            chooser = mirror.chooser.letter
            other = guest if chooser == "r" else host
            refused = other.post(
                f"/api/online/{match_id}/choose", {"starter": "b", "version": version}
            )
            assert refused.status_code == 403, refused.text  # not his choice
            answer = seat[chooser].post(
                f"/api/online/{match_id}/choose", {"starter": "b", "version": version}
            )
            mirror.choose_starter("b")
            choices += 1
        else:
            move = rng.choice(mirror.legal_moves())
            mover = mirror.to_move.letter
            answer = seat[mover].post(
                f"/api/online/{match_id}/play", {"move": move, "version": version}
            )
            outcome = mirror.play(move)
            assert answer.status_code == 200, answer.text
            assert answer.json()["played"]["move"] == move
            assert answer.json()["played"]["extra_move"] == outcome.extra_move
        assert answer.status_code == 200, answer.text
        version += 1
        state = answer.json()
        assert state["version"] == version
        assert state["moves"] == list(mirror.moves)
        assert state["position"] == str(mirror.position)
        assert state["scores"] == {"r": mirror.scores[0], "b": mirror.scores[1]}
        assert state["chooser"] == (mirror.chooser.letter if mirror.chooser else None)
    assert choices >= 1
    final = snapshot(client, match_id)
    # The scored battles are listed without their towers; each battle's route has it,
    # drawn by the library from the battle's final pile.
    assert final["battles"] and all("tower" not in battle for battle in final["battles"])
    for number, scored in enumerate(mirror.battles, 1):
        battle = client.get(f"/api/online/{match_id}/battles/{number}").json()
        assert battle["tower"] == str(svg.tower(scored.final_position, size=300)), number
    assert final["ended"] == "won" and final["winner"] == mirror.winner.letter
    assert final["is_over"] and final["legal_moves"] == []
    record = client.get(f"/api/online/{match_id}/record")
    assert record.status_code == 200
    again = Match.from_record(record.text)
    assert again.scores == mirror.scores and again.winner == mirror.winner
    assert '[Event "buttonup online"]' in record.text and '[Red "Red player"]' in record.text
    mine = host.get("/api/players/me/matches").json()["matches"]
    assert [(m["id"], m["seat"], m["finished"], m["winner"]) for m in mine] == [
        (match_id, "r", True, mirror.winner.letter)
    ]
    assert mine[0]["record"] == f"/api/online/{match_id}/record"
    # the store holds every action, in order, under one version each
    store = open_store(f"sqlite://{db}")
    actions = store.actions(match_id)
    store.close()
    assert [a.version for a in actions] == list(range(1, version + 1))
    assert actions[0].kind == "join"
    assert sum(a.kind == "choose" for a in actions) == choices


def test_the_deals_are_the_servers_unless_both_players_give_the_seed(db: Path) -> None:
    client = app_on(db)
    foretold = str(Match("r", seed=12345).position)
    starts = []
    for agreed in ({}, {"seed": 12344}, {"seed": 12345}):
        host, guest = Player(client), Player(client)
        made = host.post("/api/online", {"host": "r", "seed": 12345}).json()
        joined = guest.post(
            f"/api/online/{made['id']}/join", {"invite": made["invite"], **agreed}
        ).json()
        starts.append(joined["state"]["position"])
        record = client.get(f"/api/online/{made['id']}/record").text
        assert "12345" not in record  # the seed is told once the match is over
    # The host alone, or a guest who gives another seed: the server's own draw (two
    # draws of the 1,680 standard starts may meet, so the seed is read, not the deal).
    assert starts[2] == foretold
    stored = sqlite3.connect(db).execute("SELECT state FROM matches ORDER BY created").fetchall()
    seeds = [Match.__new__(Match) for _ in stored]
    for match, (state,) in zip(seeds, stored):
        match.__setstate__(state)
    assert ['[Seed "12345"]' in match.record() for match in seeds] == [False, False, True]


def test_every_refusal_leaves_the_match_unchanged(db: Path) -> None:
    client = app_on(db)
    host, guest, match_id = begun(client, seed=7)
    stranger = Player(client)
    before = snapshot(client, match_id)
    move = before["legal_moves"][0]
    url = f"/api/online/{match_id}/play"
    cases = [
        (guest.post(url, {"move": move, "version": 1}), 409, "not your turn"),
        (host.post(url, {"move": move, "version": 0}), 409, "version"),
        (host.post(url, {"move": move, "version": 5}), 409, "version"),
        (stranger.post(url, {"move": move, "version": 1}), 403, "no seat"),
        (client.post(url, json={"move": move, "version": 1}), 401, "token"),
        (
            client.post(
                url, json={"move": move, "version": 1}, headers={"authorization": "Bearer x" * 3}
            ),
            403,
            "no seat",
        ),
        (host.post(url, {"move": 99, "version": 1}), 400, ""),
        (host.post(url, {"move": "1", "version": 1}), 422, "move"),
        (host.post(url, {"move": move, "version": True}), 422, "version"),
        (host.post(url, {"move": move}), 422, "version"),
        (
            host.post(f"/api/online/{match_id}/choose", {"starter": "r", "version": 1}),
            409,
            "no choice",
        ),
        (host.post(f"/api/online/{match_id}/resign", {"version": 0}), 409, "version"),
        (stranger.post(f"/api/online/{match_id}/resign", {"version": 1}), 403, "no seat"),
        (
            client.post(
                url,
                content=b"{not json",
                headers={**host.headers, "content-type": "application/json"},
            ),
            422,
            "json",
        ),
        (
            client.post(
                url,
                content=b'{"move": 1, "version": 1, "pad": "' + b"x" * 20_000 + b'"}',
                headers=host.headers,
            ),
            413,
            "larger",
        ),
        (
            host.post("/api/online/nosuchmatch/play", {"move": move, "version": 1}),
            404,
            "no online match",
        ),
    ]
    for answer, status, words in cases:
        assert answer.status_code == status, (status, answer.text)
        assert words.lower() in answer.json()["error"].lower(), answer.text
        assert snapshot(client, match_id) == before
    # a third player cannot take a seat, and the host cannot take both
    invite_free = client.post(f"/api/online/{match_id}/join", json={"invite": "x" * 22})
    assert invite_free.status_code == 401
    made = host.post("/api/online", {}).json()
    assert (
        host.post(f"/api/online/{made['id']}/join", {"invite": made["invite"]}).status_code == 403
    )
    assert guest.post(f"/api/online/{made['id']}/join", {"invite": "y" * 22}).status_code == 403
    assert (
        guest.post(f"/api/online/{made['id']}/join", {"invite": made["invite"]}).status_code == 200
    )
    again = guest.post(f"/api/online/{made['id']}/join", {"invite": made["invite"]})
    assert again.status_code == 200 and again.json()["seat"] == "b"
    assert again.json()["state"]["version"] == 1  # joining again writes nothing
    taken = stranger.post(f"/api/online/{made['id']}/join", {"invite": made["invite"]})
    assert taken.status_code == 403 and "taken" in taken.json()["error"]
    # a match not begun refuses moves; an unknown token is refused before anything
    lonely = host.post("/api/online", {}).json()
    refused = host.post(f"/api/online/{lonely['id']}/play", {"move": move, "version": 0})
    assert refused.status_code == 409 and "not begun" in refused.json()["error"]
    unknown = client.post("/api/online", json={}, headers={"authorization": "Bearer " + "z" * 43})
    assert unknown.status_code == 401 and "unknown player token" in unknown.json()["error"]
    # spectators read, with no seat
    watched = client.get(f"/api/online/{match_id}").json()
    assert watched["you"] is None and host.get(f"/api/online/{match_id}").json()["you"] == "r"
    # the host moves, then resigns; a finished match refuses everything
    played = host.post(url, {"move": move, "version": 1}).json()
    resigned = guest.post(f"/api/online/{match_id}/resign", {"version": played["version"]})
    assert resigned.status_code == 200
    assert resigned.json()["ended"] == "resigned" and resigned.json()["winner"] == "r"
    over = snapshot(client, match_id)
    late = host.post(url, {"move": over["position"] and 0, "version": over["version"]})
    assert late.status_code == 409 and "over" in late.json()["error"]
    assert snapshot(client, match_id) == over
    assert '[Termination "Black resigned"]' in client.get(f"/api/online/{match_id}/record").text


def test_a_restart_keeps_the_matches_and_the_schema_is_versioned(db: Path) -> None:
    client = app_on(db)
    host, guest, match_id = begun(client, seed=3)
    move = snapshot(client, match_id)["legal_moves"][0]
    assert (
        host.post(f"/api/online/{match_id}/play", {"move": move, "version": 1}).status_code == 200
    )
    before = snapshot(client, match_id)
    again = app_on(db)  # a new server process on the same file
    assert snapshot(again, match_id) == before
    host.client = guest.client = again
    assert host.get(f"/api/online/{match_id}").json()["you"] == "r"
    store = open_store(f"sqlite://{db}")
    assert store.schema_version() == len(MIGRATIONS)
    store.close()
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchall() == [(len(MIGRATIONS),)]


def test_unfinished_matches_expire_by_age_never_by_count(db: Path) -> None:
    client = app_on(db)
    # From three addresses: one may have 50 matches waiting for their second player.
    hosts = [Player(TestClient(client.app, client=(f"10.0.0.{n}", 5000))) for n in range(3)]
    many = [hosts[i % 3].post("/api/online", {}).json()["id"] for i in range(150)]
    _, _, old = begun(client, seed=1)
    done_host, _, done = begun(client, seed=2)
    assert done_host.post(f"/api/online/{done}/resign", {"version": 1}).status_code == 200
    month = 31 * 24 * 3600
    with sqlite3.connect(db) as raw:  # the clock moved on for two of them
        raw.execute(
            "UPDATE matches SET updated = ? WHERE id IN (?, ?)", (time.time() - month, old, done)
        )
    restarted = app_on(db)  # the sweep runs when a server first opens the store
    assert restarted.get(f"/api/online/{old}").status_code == 404
    assert restarted.get(f"/api/online/{done}").status_code == 200  # finished: kept
    assert all(restarted.get(f"/api/online/{key}").status_code == 200 for key in many)
    with sqlite3.connect(db) as raw:
        assert raw.execute(
            "SELECT count(*) FROM actions WHERE match_id = ?", (old,)
        ).fetchone() == (0,)
    longer = app_on(db, expire_seconds=10 * month)
    assert longer.get(f"/api/online/{many[0]}").status_code == 200


def test_players_seated_nowhere_and_unseen_expire(db: Path) -> None:
    """A player row made by `POST /api/players`, seated nowhere and unseen, expires."""
    client = app_on(db)
    idle, back = Player(client), Player(client)
    stale_host, stale_guest, stale = begun(client, seed=1)
    done_host, _, done = begun(client, seed=3)
    assert done_host.post(f"/api/online/{done}/resign", {"version": 1}).status_code == 200
    month = 31 * 24 * 3600
    with sqlite3.connect(db) as raw:  # a month passes, for the players and one match
        raw.execute("UPDATE players SET created = ?, seen = ?", (time.time() - month,) * 2)
        raw.execute("UPDATE matches SET updated = ? WHERE id = ?", (time.time() - month, stale))
    assert back.get("/api/players/me/matches").status_code == 200  # seen again now
    restarted = app_on(db)  # the sweep runs when a server first opens the store
    for player in (idle, back, stale_host, stale_guest, done_host):
        player.client = restarted
    assert idle.get("/api/players/me/matches").status_code == 401  # seated nowhere, unseen
    assert stale_host.get("/api/players/me/matches").status_code == 401  # his match expired
    assert stale_guest.get("/api/players/me/matches").status_code == 401
    assert back.get("/api/players/me/matches").status_code == 200  # seen within the month
    mine = done_host.get("/api/players/me/matches")  # seated in a finished match: kept
    assert mine.status_code == 200 and [m["id"] for m in mine.json()["matches"]] == [done]
