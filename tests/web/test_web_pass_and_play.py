"""Pass and play on the page's match routes (``"players": 2``): both sides are people at
one screen. Through the framework's test client, against the library's match of the
same seed and moves: either side's move is taken when it is that side's turn, the AI is
never asked (and refuses), undo takes back the battle's last move whoever made it, the
hint is for the side to move, the tie rule's choice is taken from whoever holds it, and
the record names the two players."""

from __future__ import annotations

import os
import random

import pytest

if os.environ.get("BUTTONUP_REQUIRE_WEB"):
    from fastapi.testclient import TestClient
else:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

from buttonup import Match, Position, analyze, match_analyze, win_probability
from buttonup.web.app import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_a_whole_match_by_both_sides(client: TestClient) -> None:
    seed, rng = 62, random.Random(62)  # a match of 3 battles through the tie rule
    data = client.post("/api/matches", json={"players": 2, "target": 3, "seed": seed}).json()
    key, library = data["id"], Match("r", target=3, seed=seed)
    assert data["players"] == 2 and data["position"] == str(library.position)
    movers, chose, undone = set(), 0, False
    while not library.is_over:
        if library.chooser is not None:
            chooser = library.chooser
            other = "b" if chooser.letter == "r" else "r"
            data = client.post(f"/api/matches/{key}/choose", json={"starter": other}).json()
            library.choose_starter(chooser.other)
            chose += 1
        else:
            side = library.to_move
            hint = client.post(f"/api/matches/{key}/hint").json()
            assert hint["moves"] == {str(m): v for m, v in analyze(library.position).items()}
            odds = match_analyze(library)
            assert hint["match_odds"] == pytest.approx({str(m): v for m, v in odds.items()})
            assert hint["match_win_probability"] == pytest.approx(win_probability(library).of(side))
            move = rng.choice(library.legal_moves())
            data = client.post(f"/api/matches/{key}/play", json={"move": move}).json()
            assert data["played"]["mover"] == side.letter and data["played"]["move"] == move
            movers.add(side.letter)
            if not undone and library.moves:
                # One move back (whoever made it), then the same move again.
                back = client.post(f"/api/matches/{key}/undo").json()
                assert back["position"] == str(library.position)
                data = client.post(f"/api/matches/{key}/play", json={"move": move}).json()
                undone = True
            library.play(move)
        assert data["position"] == str(library.position), data
        assert data["scores"] == {"r": library.scores[0], "b": library.scores[1]}
        refused = client.post(f"/api/matches/{key}/ai")
        assert refused.status_code == 400 and "no AI" in refused.json()["error"]
    assert movers == {"r", "b"} and undone
    assert data["winner"] == library.winner.letter  # type: ignore[union-attr]
    record = client.get(f"/api/matches/{key}/record").text
    assert '[Red "Red player"]' in record and '[Black "Black player"]' in record
    again = Match.from_record(record)
    assert [b.moves for b in again.battles] == [b.moves for b in library.battles]
    # The seed reaches the tie rule (so the choice was taken from its holder).
    assert chose, "pick a seed whose match reaches the tie rule"


def test_a_battle_start_has_nothing_to_undo_and_one_player_is_unchanged(
    client: TestClient,
) -> None:
    data = client.post("/api/matches", json={"players": 2, "seed": 1}).json()
    nothing = client.post(f"/api/matches/{data['id']}/undo")
    assert nothing.status_code == 400
    assert nothing.json()["error"] == "there is no move of the current battle to take back"
    single = client.post("/api/matches", json={"human": "r", "level": 1, "seed": 1}).json()
    assert single["players"] == 1
    # Against the AI, Black's move is still the AI's.
    start = Position(single["position"])
    move = next(m for m in start.legal_moves() if not start.gives_extra_move(m))
    after = client.post(f"/api/matches/{single['id']}/play", json={"move": move}).json()
    assert after["to_move"] == "b"
    refused = client.post(
        f"/api/matches/{single['id']}/play", json={"move": after["legal_moves"][0]}
    )
    assert refused.status_code == 400 and "AI's turn" in refused.json()["error"]
    for bad in (0, 3, True, "2"):
        answer = client.post("/api/matches", json={"players": bad})
        assert answer.status_code == 422 and "players" in answer.json()["error"]
