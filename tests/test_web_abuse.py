"""The web server under abuse (issue 23): bodies past the limit whatever their framing,
capped work, per-match serialisation, one error shape, strict integers, fair lanes,
matches per client, the ``Host`` allow-list, the header timeout and the stop on Ctrl-C.

Every check here goes by events and order, not by the clock."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import threading
import time
from typing import Any

import pytest

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
import httpx
import uvicorn
from buttonup import Player, Position
from buttonup.testing.processes import end
from buttonup.web.app import create_app
from buttonup.web.guard import LOOPBACK_HOSTS
from buttonup.web.models import SERVER_MAX_TARGET
from buttonup.web.server import HeaderTimeoutProtocol, allowed_hosts
from fastapi.testclient import TestClient

from benches.http_load import serve

START = "W/R/B/W/B/R/R/W/B r"
#: A start the capped search cannot finish: 8 buttons of each colour.
BIG = str(Position.random(seed=5, per_colour=8))


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@pytest.fixture(scope="module")
def live() -> Any:
    server, url = serve()
    try:
        yield url
    finally:
        end(server)


def raw(url: str, request: bytes, chunks: list[bytes] = ()) -> bytes:  # type: ignore[assignment]
    """Sends ``request`` and ``chunks`` (chunked framing) on one socket; the answer."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(request)
        try:
            for chunk in chunks:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server answered and closed before the whole body was sent
        answer = b""
        while data := sock.recv(65536):  # the server closes (connection: close)
            answer += data
        return answer


def test_the_body_limit_holds_for_chunked_bodies(live: str) -> None:
    head = (
        b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\nconnection: close\r\n\r\n"
    )
    body = b'{"position": "W/R/B/W/B/R/R/W/B r", "move": 3}'
    small = raw(live, head, [body])
    assert small.startswith(b"HTTP/1.1 200"), small[:200]
    padded = raw(live, head, [body[:-1]] + [b" " * 4096] * 64 + [b"}"])
    assert padded.startswith(b"HTTP/1.1 413"), padded[:200]
    assert b"larger than 16384 bytes" in padded


def test_the_body_limit_holds_in_process(client: TestClient) -> None:
    def body() -> Any:
        yield b'{"position": "W/R/B/W/B/R/R/W/B r", '
        for _ in range(10):
            yield b" " * 4096
        yield b'"move": 3}'

    answer = client.post("/api/play", content=body(), headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "larger than" in answer.json()["error"]


@pytest.mark.parametrize("path", ["/api/win-probability", "/api/matches"])
def test_targets_past_the_servers_cap_are_refused(client: TestClient, path: str) -> None:
    body = {"red_points": 0, "black_points": 0, "starter": "r", "target": SERVER_MAX_TARGET + 10}
    if path == "/api/matches":
        body = {"target": SERVER_MAX_TARGET + 10}
    answer = client.post(path, json=body)
    assert answer.status_code == 422
    assert (
        f"target: Input should be less than or equal to {SERVER_MAX_TARGET}"
        in answer.json()["error"]
    )
    at_cap = dict(body, target=SERVER_MAX_TARGET)
    assert client.post(path, json=at_cap).status_code == 200


def test_concurrent_ai_requests_never_move_for_the_human() -> None:
    app = create_app()

    async def trial(session: httpx.AsyncClient) -> tuple[list[int], str]:
        made = await session.post("/api/matches", json={"human": "b", "level": 9, "seed": 1})
        key = made.json()["id"]
        answers = await asyncio.gather(*(session.post(f"/api/matches/{key}/ai") for _ in range(4)))
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses[0] == 200 and set(statuses) <= {200, 400, 409}, statuses
        for answer in answers:
            if answer.status_code == 409:
                assert "another request on this match" in answer.json()["error"]
        return [a.status_code for a in answers], key

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as session:
            for _ in range(10):
                _, key = await trial(session)
                match = app.state.service.entry(key).match
                assert set(match.movers()) <= {Player.RED}, match.moves

    asyncio.run(main())


def test_every_status_is_in_the_schema_with_one_error_shape(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    assert schema["components"]["schemas"]["ErrorOut"]["required"] == ["error"]
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            statuses = set(operation["responses"])
            assert {"200", "400", "404", "409", "413", "422", "503"} <= statuses, path
            ref = operation["responses"]["422"]["content"]["application/json"]["schema"]
            assert ref == {"$ref": "#/components/schemas/ErrorOut"}


@pytest.mark.parametrize(
    ("method", "path", "content", "status", "message"),
    [
        ("post", "/api/matches/nope/play", b'{"move": 0}', 404, "no match 'nope'"),
        ("get", "/api/matches/nope", b"", 404, "no match 'nope'"),
        ("get", "/api/nothing", b"", 404, "Not Found"),
        ("post", "/api/analyze", b'{"position": "\xff\xfe"}', 422, "not valid JSON"),
        ("post", "/api/analyze", b"[" * 10_000 + b"]" * 10_000, 413, "larger than"),
        ("post", "/api/analyze", b"[" * 5000 + b"]" * 5000, 422, "body"),
    ],
)
def test_errors_have_one_shape(
    client: TestClient, method: str, path: str, content: bytes, status: int, message: str
) -> None:
    answer = client.request(
        method, path, content=content, headers={"content-type": "application/json"}
    )
    assert answer.status_code == status, answer.text
    assert set(answer.json()) == {"error"} and message in answer.json()["error"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/play", {"position": START, "move": False}, "move"),
        ("/api/play", {"position": START, "move": "3"}, "move"),
        ("/api/play", {"position": START, "move": 3.0}, "move"),
        ("/api/bestmove", {"position": START, "level": True}, "level"),
        ("/api/bestmove", {"position": START, "movetime": "50"}, "movetime"),
        ("/api/win-probability", {"red_points": 1.0, "black_points": 0}, "red_points"),
        ("/api/matches", {"seed": "7"}, "seed"),
        ("/api/matches", {"level": 2.0}, "level"),
    ],
)
def test_integer_fields_are_strict(
    client: TestClient, path: str, body: dict[str, object], field: str
) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 422, answer.json()
    assert answer.json()["error"].startswith(f"{field}: Input should be a valid integer")


def test_the_host_allow_list() -> None:
    guarded = TestClient(create_app(allowed_hosts=LOOPBACK_HOSTS), base_url="http://127.0.0.1")
    assert guarded.post("/api/play", json={"position": START, "move": 3}).status_code == 200
    for host in ("localhost:8000", "[::1]:8000", "127.0.0.1"):
        assert guarded.get("/api/openapi.json", headers={"host": host}).status_code == 200
    evil = guarded.get("/api/openapi.json", headers={"host": "rebound.example:8000"})
    assert evil.status_code == 400 and "rebound.example" in evil.json()["error"]
    assert allowed_hosts("127.0.0.1") == allowed_hosts("localhost") == LOOPBACK_HOSTS
    assert allowed_hosts("0.0.0.0") is None and allowed_hosts("10.1.2.3") == ("10.1.2.3",)


def test_cheap_requests_are_not_starved_by_heavy_ones() -> None:
    app = create_app(search_seconds=1.0, max_pending=3)

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as session:
            finished: list[tuple[str, int]] = []

            async def heavy() -> None:
                answer = await session.post("/api/analyze", json={"position": BIG})
                finished.append(("heavy", answer.status_code))

            async def cheap() -> None:
                await asyncio.sleep(0.05)  # the heavy ones are in first
                answer = await session.post("/api/bestmove", json={"position": START})
                finished.append(("cheap", answer.status_code))

            await asyncio.gather(*(heavy() for _ in range(6)), cheap())
            answered = [kind for kind, status in finished if status == 200]
            # Three heavy searches wait at most (two run): the others get 503 at once;
            # the cheap one is answered before any heavy one ends.
            assert ("heavy", 503) in finished and answered[0] == "cheap", finished

    asyncio.run(main())


def test_one_client_cannot_evict_anothers_matches() -> None:
    app = create_app()
    other = TestClient(app, client=("10.0.0.2", 5000))
    theirs = other.post("/api/matches", json={}).json()["id"]
    mine = TestClient(app, client=("10.0.0.1", 5000))
    keys = [mine.post("/api/matches", json={}).json()["id"] for _ in range(1001)]
    assert other.get(f"/api/matches/{theirs}").status_code == 200
    assert mine.get(f"/api/matches/{keys[-1]}").status_code == 200
    # nothing is dropped for being many: the client's own first match is there too
    assert mine.get(f"/api/matches/{keys[0]}").status_code == 200
    assert len(keys[0]) >= 20  # unguessable


def test_a_slow_request_head_is_cut_off() -> None:
    class Quick(HeaderTimeoutProtocol):
        header_seconds = 0.3

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(), port=port, log_level="warning", http=Quick)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=20) as slow:
            slow.sendall(b"GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            assert slow.recv(100) == b""  # closed by the server, not by the timeout
        with socket.create_connection(("127.0.0.1", port), timeout=20) as idle:
            assert idle.recv(100) == b""
        answer = httpx.get(f"http://127.0.0.1:{port}/api/openapi.json")
        assert answer.status_code == 200
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def test_ctrl_c_answers_waiting_requests_and_stops() -> None:
    process, url = serve(stderr=subprocess.PIPE)
    answers: list[tuple[int, str]] = []

    def ask() -> None:
        try:
            answer = httpx.post(f"{url}/api/analyze", json={"position": BIG}, timeout=30)
            answers.append((answer.status_code, answer.text))
        except httpx.HTTPError as error:
            answers.append((0, repr(error)))

    askers = [threading.Thread(target=ask) for _ in range(4)]
    for asker in askers:
        asker.start()
    try:
        time.sleep(0.5)  # the requests reach the server
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        end(process)
        for asker in askers:
            asker.join()
    assert process.returncode == 0 and "Traceback" not in err, err
    # Every request waiting for a search was answered at once, not after its search.
    assert [status for status, _ in answers] == [503] * 4, answers
    assert all("the server is stopping" in text for _, text in answers)
