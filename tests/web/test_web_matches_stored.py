"""The page's matches (against the AI, and pass and play) kept in the database: a match
played, the app opened again on the same file, the match goes on where it was; other
clients' matches never push one out; unfinished matches expire by age only."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("BUTTONUP_REQUIRE_WEB"):
    from fastapi.testclient import TestClient
else:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

from buttonup import Match
from buttonup.web import service as service_module
from buttonup.web.app import create_app
from buttonup.web.store import AiMatchRow, MatchRow, Stale, open_store
from buttonup.web.store.schema import AI_COLUMNS, COLUMNS, MIGRATIONS
from buttonup.web.store.sql import FROM_COLUMN
from online_helpers import database, postgres_server  # noqa: F401


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def ok(answer: Any) -> dict[str, Any]:
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_a_match_against_the_ai_goes_on_after_a_restart(database: str) -> None:  # noqa: F811
    first = TestClient(create_app(db=database))
    data = ok(first.post("/api/matches", json={"human": "r", "level": 2, "seed": 7}))
    key = data["id"]
    for _ in range(2):  # the human's move and the AI's answers, twice
        data = ok(first.post(f"/api/matches/{key}/play", json={"move": data["legal_moves"][0]}))
        while data["to_move"] == "b" and not data["battles"]:
            data = ok(first.post(f"/api/matches/{key}/ai"))
    assert not data["battles"] and len(data["moves"]) >= 3
    before = ok(first.get(f"/api/matches/{key}"))
    record = first.get(f"/api/matches/{key}/record").text

    again = TestClient(create_app(db=database))  # a new process's app: nothing in memory
    after = ok(again.get(f"/api/matches/{key}"))
    assert after == before
    assert again.get(f"/api/matches/{key}/record").text == record
    # the library reads the same match back from the record
    assert str(Match.from_record(record).position) == after["position"]
    # it goes on: the human's move(s), then the AI answers
    while after["to_move"] == "r" and not after["battles"]:
        move = after["legal_moves"][0]
        after = ok(again.post(f"/api/matches/{key}/play", json={"move": move}))
    assert after["to_move"] == "b"
    answered = ok(again.post(f"/api/matches/{key}/ai"))
    assert answered["position"] != after["position"]
    assert len(answered["moves"]) == len(after["moves"]) + 1 or answered["battles"]


def test_pass_and_play_and_an_import_are_kept(tmp_path: Path) -> None:
    db = url(tmp_path / "m.sqlite3")
    first = TestClient(create_app(db=db))
    data = ok(first.post("/api/matches", json={"players": 2}))
    key = data["id"]
    data = ok(first.post(f"/api/matches/{key}/play", json={"move": data["legal_moves"][0]}))
    data = ok(first.post(f"/api/matches/{key}/play", json={"move": data["legal_moves"][0]}))
    data = ok(first.get(f"/api/matches/{key}"))
    record = first.get(f"/api/matches/{key}/record").text
    imported = ok(first.post("/api/matches/import", json={"record": record, "human": "b"}))

    again = TestClient(create_app(db=db))
    assert ok(again.get(f"/api/matches/{key}")) == data
    assert ok(again.get(f"/api/matches/{key}"))["players"] == 2
    assert ok(again.get(f"/api/matches/{imported['id']}")) == imported
    # undo, committed too
    ok(again.post(f"/api/matches/{key}/undo"))
    undone = ok(again.get(f"/api/matches/{key}"))
    assert len(undone["moves"]) == len(data["moves"]) - 1
    third = TestClient(create_app(db=db))
    assert ok(third.get(f"/api/matches/{key}")) == undone


def test_many_matches_of_others_remove_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "CACHED_MATCHES", 5)  # memory is a small cache
    app = create_app(db=url(tmp_path / "m.sqlite3"))
    mine = TestClient(app, client=("10.0.0.1", 5000))
    key = ok(mine.post("/api/matches", json={"level": 1}))["id"]
    mine_state = ok(mine.get(f"/api/matches/{key}"))
    others = TestClient(app, client=("10.0.0.2", 5000))
    theirs = [ok(others.post("/api/matches", json={"level": 1}))["id"] for _ in range(40)]
    assert len(app.state.service.matches) <= 5
    assert key not in app.state.service.matches  # out of memory, not out of the database
    assert ok(mine.get(f"/api/matches/{key}")) == mine_state
    assert ok(others.get(f"/api/matches/{theirs[0]}"))["id"] == theirs[0]


def test_unfinished_matches_are_capped_per_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 2,000 from one address were all stored.
    monkeypatch.setattr(service_module, "AI_MATCHES_PER_CLIENT", 3)
    app = create_app(db=url(tmp_path / "m.sqlite3"))
    mine = TestClient(app, client=("10.0.0.1", 5000))
    kept = [ok(mine.post("/api/matches", json={"level": 1}))["id"] for _ in range(3)]
    refused = mine.post("/api/matches", json={"level": 1})
    assert refused.status_code == 429
    assert "3 unfinished matches made from your address" in refused.json()["error"]
    record = mine.get(f"/api/matches/{kept[0]}/record").text
    assert mine.post("/api/matches/import", json={"record": record}).status_code == 429
    others = TestClient(app, client=("10.0.0.2", 5000))
    assert ok(others.post("/api/matches", json={"level": 1}))["id"]
    stored = sqlite3.connect(tmp_path / "m.sqlite3").execute("SELECT COUNT(*) FROM ai_matches")
    assert stored.fetchone()[0] == 4
    # The matches kept still take their moves (a change is not a new match).
    state = ok(mine.get(f"/api/matches/{kept[1]}"))
    ok(mine.post(f"/api/matches/{kept[1]}/play", json={"move": state["legal_moves"][0]}))


def test_unfinished_matches_expire_by_age_only(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    first = TestClient(create_app(db=url(path)))
    old = ok(first.post("/api/matches", json={}))["id"]
    fresh = ok(first.post("/api/matches", json={}))["id"]
    with sqlite3.connect(path) as raw:  # left alone for 31 days
        raw.execute(
            "UPDATE ai_matches SET updated = ? WHERE id = ?", (time.time() - 31 * 86400, old)
        )
    again = TestClient(create_app(db=url(path), expire_seconds=30 * 86400.0))
    assert again.get(f"/api/matches/{old}").status_code == 404
    assert ok(again.get(f"/api/matches/{fresh}"))["id"] == fresh
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT id FROM ai_matches").fetchall() == [(fresh,)]


def test_the_store_keeps_a_finished_match_past_its_age(tmp_path: Path) -> None:
    store = open_store(url(tmp_path / "m.sqlite3"))
    try:
        assert store.schema_version() == len(MIGRATIONS)
        state = Match("r", seed=1).__getstate__()
        for id_, finished in (("done", True), ("open", False)):
            store.save_ai_match(AiMatchRow(id_, state, "r", 3, 1, 2**64 - 1, finished, 1.0, 1.0))
        assert store.expire_ai_matches(time.time()) == 1
        kept = store.load_ai_match("done")
        assert kept is not None and kept.seed == 2**64 - 1 and kept.finished
        assert store.load_ai_match("open") is None
    finally:
        store.close()


def test_two_processes_go_on_where_the_last_answer_left_a_match(
    database: str,  # noqa: F811
) -> None:
    first_app, second_app = create_app(db=database), create_app(db=database)
    first, second = TestClient(first_app), TestClient(second_app)
    data = ok(first.post("/api/matches", json={"human": "r", "players": 2, "seed": 3}))
    key = data["id"]
    ok(second.get(f"/api/matches/{key}"))  # the second process caches it
    moved = ok(first.post(f"/api/matches/{key}/play", json={"move": data["legal_moves"][0]}))
    # the second reads the newer version, and its move goes on from the first's
    seen = ok(second.get(f"/api/matches/{key}"))
    assert seen["moves"] == moved["moves"]
    after = ok(second.post(f"/api/matches/{key}/play", json={"move": seen["legal_moves"][0]}))
    assert after["moves"][: len(moved["moves"])] == moved["moves"]
    assert len(after["moves"]) == len(moved["moves"]) + 1
    assert ok(first.get(f"/api/matches/{key}"))["moves"] == after["moves"]

    # a write from a copy read before another process's move is refused, nothing lost
    service = first_app.state.service
    stale = service.matches[key]
    ok(second.post(f"/api/matches/{key}/play", json={"move": after["legal_moves"][0]}))
    committed = ok(second.get(f"/api/matches/{key}"))["moves"]
    stale.match.play(stale.match.legal_moves()[-1])
    with pytest.raises(service_module.Conflict):
        asyncio.run(service.save(key, stale))
    assert ok(first.get(f"/api/matches/{key}"))["moves"] == committed
    assert ok(second.get(f"/api/matches/{key}"))["moves"] == committed


def test_the_store_refuses_a_stale_save_of_a_page_match(tmp_path: Path) -> None:
    store = open_store(url(tmp_path / "m.sqlite3"))
    try:
        state = Match("r", seed=1).__getstate__()
        row = AiMatchRow("m", state, "r", 3, 1, None, False, 1.0, 1.0)
        store.save_ai_match(row)
        later = Match("r", seed=1)
        later.play(later.legal_moves()[0])
        store.save_ai_match(replace(row, state=later.__getstate__(), version=2), 1)
        with pytest.raises(Stale):
            store.save_ai_match(replace(row, version=2), 1)
        with pytest.raises(Stale):
            store.save_ai_match(row)  # a second new match of that id
        kept = store.load_ai_match("m")
        assert kept is not None and kept.version == 2 and kept.state == later.__getstate__()
    finally:
        store.close()


def test_a_match_against_an_extra_opponent_is_played_and_kept(tmp_path: Path) -> None:
    """``POST /api/matches`` with ``opponent``: one of the server's extra opponents
    (``buttonup serve --opponent NAME=SPEC``) plays the AI's side, the state and the
    record name it, and the app opened again on the same file plays it still."""
    from buttonup import Position
    from buttonup.players import bot_factory

    def app() -> TestClient:
        first = bot_factory("first=buttonup.players:first_legal")
        return TestClient(create_app(db=url(tmp_path / "m.db"), opponents={"first": first}))

    client = app()
    refused = client.post("/api/matches", json={"human": "r", "opponent": "nobody"})
    assert refused.status_code == 400
    assert "no opponent 'nobody' here (known: first)" in refused.json()["error"]
    data = ok(client.post("/api/matches", json={"human": "b", "starter": "r", "opponent": "first"}))
    key = data["id"]
    assert data["opponent"] == "first" and data["level_name"] == "first"
    ai_moves = 0
    for client_now in (client, app(), app()):  # a new process's app: read back, same AI
        for _ in range(3):
            if data["battles"] or data["chooser"]:
                break
            if data["to_move"] == "r":
                before = Position(data["position"])
                data = ok(client_now.post(f"/api/matches/{key}/ai"))
                # The policy lifts the first legal pile, whatever the level would.
                assert data["played"]["move"] == before.legal_moves()[0]
                ai_moves += 1
            else:
                move = data["legal_moves"][-1]
                data = ok(client_now.post(f"/api/matches/{key}/play", json={"move": move}))
        assert ok(client_now.get(f"/api/matches/{key}"))["opponent"] == "first"
    assert ai_moves >= 2
    record = client.get(f"/api/matches/{key}/record").text
    assert '[Red "first"]' in record and '[Black "You"]' in record


@pytest.mark.parametrize(("row", "columns"), [(MatchRow, COLUMNS), (AiMatchRow, AI_COLUMNS)])
def test_the_columns_read_are_the_fields_of_the_row_in_order(row: type, columns: str) -> None:
    # A row is made from its columns by position, each converted by its field's type.
    assert [field.name for field in fields(row)] == columns.split(", ")
    assert all(str(field.type) in FROM_COLUMN for field in fields(row))
