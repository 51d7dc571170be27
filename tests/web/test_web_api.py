"""The JSON API of ``buttonup serve`` through the framework's test client: every route,
every kind of bad input, the limits."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

if os.environ.get("BUTTONUP_REQUIRE_WEB"):
    from fastapi.testclient import TestClient
else:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

from buttonup import Player, Position, Standing, solve, win_probability
from buttonup.web.app import create_app
from processes import end, run
from source_scripts import load

serve = load("benches/http_load.py").serve

START = "W/R/B/W/B/R/R/W/B r"
RED, BLACK = Player.RED, Player.BLACK


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(cors_origins=("https://example.org",)))


def test_analyze(client: TestClient) -> None:
    answer = client.post("/api/analyze", json={"position": START})
    assert answer.status_code == 200
    data = answer.json()
    assert data["value"] == solve(Position(START)) == 1
    assert data["moves"] == {"0": -1, "3": 1, "7": 0}
    assert data["pv"] == [3, 0, 0, 1, 3, 3, 2, 0] and data["exact"]
    over = client.post("/api/analyze", json={"position": "RBWWBRWBR b"}).json()
    assert over["is_over"] and over["scoring"]["red_strengths"] == [1, 6, 9]


def test_bestmove(client: TestClient) -> None:
    assert client.post("/api/bestmove", json={"position": START, "level": 10}).json()["move"] == 3
    data = client.post("/api/bestmove", json={"position": START, "movetime": 50}).json()
    assert data["move"] in (0, 3, 7)
    for level in range(1, 10):
        move = client.post("/api/bestmove", json={"position": START, "level": level}).json()
        assert move["move"] in (0, 3, 7)


def test_play(client: TestClient) -> None:
    data = client.post("/api/play", json={"position": "RW/B/W/B/R/R/W/B r", "move": 0}).json()
    assert data["position"] == "BR/WW/B/R/R/W/B r" and data["extra_move"]
    assert data["drops"] == [1, 2] and not data["is_over"] and data["to_move"] == "r"
    last = client.post("/api/play", json={"position": "BRWBR/RBWW r", "move": 0}).json()
    assert last["is_over"] and last["scoring"]["red"] == 16 and last["scoring"]["winner"] == "r"


@pytest.mark.parametrize(
    ("body", "standing"),
    [
        ({"red_points": 3, "black_points": 5, "last_loser": "r"}, Standing(3, 5, last_loser=RED)),
        ({"red_points": 0, "black_points": 0, "starter": "b"}, Standing(0, 0, starter=BLACK)),
        (
            {"red_points": 2, "black_points": 2, "target": 5, "last_loser": "b", "starter": "r"},
            Standing(2, 2, target=5, last_loser=BLACK, starter=RED),
        ),
        # The tie rule's choice still due: valued at the chooser's better choice.
        ({"red_points": 4, "black_points": 4, "last_loser": "b"}, Standing(4, 4, last_loser=BLACK)),
    ],
)
def test_win_probability(client: TestClient, body: dict[str, object], standing: Standing) -> None:
    answer = client.post("/api/win-probability", json=body)
    assert answer.status_code == 200, answer.json()
    chances = win_probability(standing)
    assert answer.json() == {"red": chances.red, "black": chances.black}
    assert answer.json()["red"] + answer.json()["black"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    "path, body, status, message",
    [
        ("/api/analyze", {"position": "W/R/X r"}, 400, "unknown button 'X' at index 4"),
        ("/api/play", {"position": START, "move": 1}, 400, "pile 1 (R) has no white button"),
        ("/api/play", {"position": START, "move": 99}, 400, "there is no pile 99"),
        (
            "/api/bestmove",
            {"position": START, "level": 11},
            400,
            "level must be an int from 1 to 10, not 11",
        ),
        (
            "/api/bestmove",
            {"position": START, "level": 0},
            400,
            "level must be an int from 1 to 10, not 0",
        ),
        ("/api/bestmove", {"position": "RBWWBRWBR b"}, 400, "the battle is over"),
        ("/api/analyze", {"position": 3}, 422, "position: Input should be a valid string"),
        ("/api/analyze", {}, 422, "position: Field required"),
        (
            "/api/win-probability",
            {"red_points": 3, "black_points": 5, "last_loser": "r", "starter": "b"},
            400,
            "Red is behind and so starts the next battle, not Black",
        ),
        (
            "/api/win-probability",
            {"red_points": -1, "black_points": 0},
            422,
            "red_points: Input should be greater than or equal to 0",
        ),
        (
            "/api/win-probability",
            {"red_points": 0, "black_points": 0, "starter": "x"},
            422,
            "starter: Input should be 'r' or 'b'",
        ),
        ("/api/matches/nope/play", {"move": 0}, 404, "no match 'nope'"),
    ],
)
def test_bad_input_is_a_json_error(
    client: TestClient, path: str, body: object, status: int, message: str
) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == status
    assert message in answer.json()["error"]


def test_malformed_json_and_oversized_bodies(client: TestClient) -> None:
    answer = client.post(
        "/api/analyze", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert answer.status_code == 422 and "JSON" in answer.json()["error"]
    huge = client.post("/api/analyze", json={"position": "W" * 100_000 + " r"})
    assert huge.status_code == 413 and "larger than 16384 bytes" in huge.json()["error"]
    # The server keeps serving.
    assert client.post("/api/analyze", json={"position": START}).status_code == 200


def test_cors_and_schema(client: TestClient) -> None:
    answer = client.options(
        "/api/analyze",
        headers={"origin": "https://example.org", "access-control-request-method": "POST"},
    )
    assert answer.headers["access-control-allow-origin"] == "https://example.org"
    schema = client.get("/api/openapi.json").json()
    assert {"/api/analyze", "/api/bestmove", "/api/play", "/api/win-probability"} <= set(
        schema["paths"]
    )
    assert client.get("/").status_code == 200 and "Button Up!" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200


def test_a_flood_gets_503() -> None:
    app = create_app(max_pending=0)
    answer = TestClient(app).post("/api/analyze", json={"position": START})
    assert answer.status_code == 503 and "try again" in answer.json()["error"]


def test_a_match_through_the_api(client: TestClient) -> None:
    data = client.post("/api/matches", json={"human": "r", "level": 1, "seed": 3}).json()
    key = data["id"]
    assert data["to_move"] == "r" and data["scores"] == {"r": 0, "b": 0}
    # Undo with nothing to take back, a move out of turn, and the AI out of turn.
    assert client.post(f"/api/matches/{key}/undo").status_code == 400
    assert client.post(f"/api/matches/{key}/ai").status_code == 400
    hint = client.post(f"/api/matches/{key}/hint").json()
    assert set(hint["moves"]) == {str(m) for m in data["legal_moves"]}
    assert 0 < hint["match_win_probability"] < 1
    battles = 0
    while battles == 0:
        if data["to_move"] == "r" and not data["chooser"]:
            data = client.post(
                f"/api/matches/{key}/play", json={"move": data["legal_moves"][0]}
            ).json()
        else:
            data = client.post(f"/api/matches/{key}/ai").json()
        battles = len(data["battles"])
    battle = data["battles"][0]
    scoring = Position(battle["position"]).scoring()
    assert battle["scoring"]["red"] == scoring.red and battle["scoring"]["black"] == scoring.black


def test_serve_refuses_a_taken_port() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run(
            [sys.executable, "-m", "buttonup", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert done.returncode == 2
    assert done.stderr.startswith(f"buttonup: error: cannot listen on 127.0.0.1:{port}: ")


def test_ctrl_c_stops_the_server_cleanly() -> None:
    process, _ = serve(stderr=subprocess.PIPE)
    try:
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        end(process)
    assert process.returncode == 130 and err.strip() == "buttonup: interrupted", err


def test_serve_open_says_when_no_browser_can_be_opened(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`serve --open` on a machine with no browser says so instead of doing nothing."""
    import webbrowser

    from buttonup.web.server import open_page

    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    assert open_page("http://127.0.0.1:8000/") is False
    assert capsys.readouterr().err == (
        "buttonup: no browser could be opened here: open http://127.0.0.1:8000/ yourself\n"
    )
    monkeypatch.setattr(webbrowser, "open", lambda url: True)
    assert open_page("http://127.0.0.1:8000/") is True
    assert capsys.readouterr().err == ""
