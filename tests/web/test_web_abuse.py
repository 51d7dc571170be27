"""The web server under abuse: bodies past the limit whatever their framing,
capped work, per-match serialisation, one error shape, strict integers, fair lanes,
matches per client, the ``Host`` allow-list, the request deadline, the cap on connections
and the stop on Ctrl-C.

Every check here goes by events and order, not by the clock."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
import httpx
from buttonup import Player, Position
from buttonup.web.app import create_app
from buttonup.web.guard import FILE_MARGIN, LOOPBACK_HOSTS, connection_cap
from buttonup.web.models import SERVER_MAX_TARGET
from buttonup.web.online import IDLE_PLAYERS_PER_CLIENT, WAITING_PER_CLIENT
from buttonup.web.server import (
    MAX_HEAD,
    DeadlineProtocol,
    allowed_hosts,
    http_protocol,
)
from buttonup.web.service import AI_MATCHES_PER_CLIENT
from fastapi.testclient import TestClient
from online_helpers import Player as Person
from online_helpers import database, in_a_thread, postgres_server  # noqa: F401
from processes import end, free_port, started
from source_scripts import load

serve = load("benches/http_load.py").serve

START = "W/R/B/W/B/R/R/W/B r"
#: The head of a request with its body still to come (its framing header follows).
POST = b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
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
    keys = [mine.post("/api/matches", json={}).json()["id"] for _ in range(AI_MATCHES_PER_CLIENT)]
    assert other.get(f"/api/matches/{theirs}").status_code == 200
    assert mine.get(f"/api/matches/{keys[-1]}").status_code == 200
    # nothing is dropped for being many: the client's own first match is there too
    assert mine.get(f"/api/matches/{keys[0]}").status_code == 200
    assert len(keys[0]) >= 20  # unguessable


#: The server's HTTP protocols: on h11 and, where installed, on httptools (what
#: ``buttonup serve`` runs then); each test of the deadline and the cap runs on both.
PROTOCOLS = sorted({DeadlineProtocol, http_protocol()}, key=lambda kind: kind.__name__)


@pytest.fixture(params=PROTOCOLS, ids=lambda kind: kind.__name__)
def protocol(request: pytest.FixtureRequest) -> type[Any]:
    class Quick(request.param):  # type: ignore[misc, name-defined]
        request_seconds = 0.3

    return Quick


@contextlib.contextmanager
def in_thread(protocol: type[Any], app: Any = None, **options: Any) -> Iterator[int]:
    """The app (by default a new one) on uvicorn in a thread, with ``protocol`` (a
    short deadline) and ``options`` for uvicorn: its port."""
    app = create_app() if app is None else app
    with in_a_thread(app, patience=20, http=protocol, **options) as port:
        yield port


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # nothing at all
        b"GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # half a head
        POST + b"content-length: 100\r\n\r\n",  # a head, no body
        POST + b"content-length: 100\r\n\r\n" + b'{"position": ',  # part of it
        POST + b"transfer-encoding: chunked\r\n\r\n",  # chunked, no chunk
        POST + b'transfer-encoding: chunked\r\n\r\n5\r\n{"pos\r\n',  # never the end
    ],
)
def test_a_request_not_delivered_in_time_is_cut_off(sent: bytes, protocol: type[Any]) -> None:
    """Request bodies have a deadline, as heads do."""
    with in_thread(protocol) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as slow:
            slow.sendall(sent)
            assert slow.recv(100) == b""  # closed by the server, not by the timeout
        answer = httpx.get(f"http://127.0.0.1:{port}/api/openapi.json")
        assert answer.status_code == 200


def test_the_deadline_is_on_the_request_not_on_the_answer(protocol: type[Any]) -> None:
    """A request delivered in time is answered however long its answer takes, and a
    connection kept alive gets a new deadline for each request."""
    with in_thread(protocol, create_app(search_seconds=1.0)) as port:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as session:
            slow = session.post("/api/analyze", json={"position": BIG})
            assert slow.status_code == 200, slow.text  # a second, past the 0.3 s
            time.sleep(0.2)
            again = session.post("/api/play", json={"position": START, "move": 3})
            assert again.status_code == 200


def refused(port: int) -> bytes:
    """What a new connection is sent, before it sends anything, until it is closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as extra:
        answer = b""
        while data := extra.recv(65536):
            answer += data
        return answer


def test_connections_past_the_cap_are_refused_at_once(protocol: type[Any]) -> None:
    """Pending sockets past the open-file limit once left the server unable to accept
    anyone; now a connection past the cap is answered 503 (JSON) and closed."""
    with in_thread(protocol, limit_concurrency=8) as port:
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(7)]
        try:
            for sock in held:
                sock.sendall(POST + b"content-length: 100\r\n\r\n")
            answer = refused(port)
            assert answer.startswith(b"HTTP/1.1 503"), answer
            assert json.loads(answer.split(b"\r\n\r\n", 1)[1]) == {
                "error": "too many connections: try again shortly"
            }
            for sock in held:  # each cut at its deadline: the server serves again
                assert sock.recv(100) == b""
        finally:
            for sock in held:
                sock.close()
        assert httpx.get(f"http://127.0.0.1:{port}/api/levels").status_code == 200


def answered(port: int, request: bytes) -> tuple[int, dict[str, Any]]:
    """The status and JSON body of the answer to ``request`` sent on a new connection
    (which the server then closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        with contextlib.suppress(OSError):  # refused and closed before it was all sent
            sock.sendall(request)
        answer = b""
        while data := sock.recv(65536):
            answer += data
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), answer[:300]
    return int(head.split()[1]), json.loads(body)


def test_a_head_too_large_is_431(protocol: type[Any]) -> None:
    # A 16 MB header was answered 200, and eight 100 MB heads took the server to 495 MB.
    with in_thread(protocol) as port:
        huge = b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\nx-pad: " + b"a" * (1 << 24)
        status, body = answered(port, huge + b"\r\n\r\n")
        assert status == 431
        assert body == {"error": f"the request's head is larger than {MAX_HEAD} bytes"}
        # Many headers that add up past it, each small.
        many = b"".join(b"x-%d: %s\r\n" % (n, b"b" * 100) for n in range(200))
        status, _ = answered(port, b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n" + many)
        assert status == 431
        # A head under it is served, and so are the next ones on the connection.
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as session:
            for _ in range(3):
                got = session.get("/api/levels", headers={"x-pad": "c" * (MAX_HEAD // 2)})
                assert got.status_code == 200


def test_what_the_http_parser_refuses_is_a_json_400(protocol: type[Any]) -> None:
    # It was a plain-text 400 ("Invalid HTTP request received.").
    with in_thread(protocol) as port:
        twice = POST + b"content-length: 2\r\ncontent-length: 3\r\n\r\n{}"
        assert answered(port, twice) == (400, {"error": "the request is not valid HTTP"})
        assert answered(port, b"NOT HTTP AT ALL\r\n\r\n")[0] == 400
        assert httpx.get(f"http://127.0.0.1:{port}/api/levels").status_code == 200


def test_a_failure_of_the_server_is_a_json_500(monkeypatch: pytest.MonkeyPatch) -> None:
    # A full disk gave a plain-text 500.
    app = create_app()

    async def full(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(app.state.service, "save", full)
    client = TestClient(app, raise_server_exceptions=False)
    answer = client.post("/api/matches", json={"level": 1})
    assert answer.status_code == 500
    assert answer.json() == {"error": "the server failed to answer (OSError)"}
    assert client.get("/api/levels").status_code == 200


def test_the_cap_is_below_the_open_file_limit() -> None:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert connection_cap() == max(8, soft - FILE_MARGIN) and FILE_MARGIN >= 32


def test_pending_sockets_past_the_file_limit_leave_the_server_answering() -> None:
    """With a 1,024-file limit, 1,100 sockets with a pending body must not leave
    `buttonup serve` unable to accept anyone (`accept(): Too many open files`)."""
    limit = 160
    port = free_port()
    code = (
        "import resource, sys; "
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, {limit})); "
        "from buttonup.cli.main import main; "
        f"sys.exit(main(['serve', '--port', '{port}']))"
    )
    held: list[socket.socket] = []
    with started([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) as server:
        assert server.stdout is not None and "serving on" in server.stdout.readline()
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:  # the line comes before uvicorn listens
            try:
                assert httpx.get(f"{url}/api/levels").status_code == 200
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        try:
            for _ in range(limit + 40):
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                held.append(sock)
                sock.sendall(POST + b"content-length: 100\r\n\r\n")
            # Answered at once (503, the cap), not left in the backlog unaccepted.
            answer = refused(port)
            assert answer.startswith(b"HTTP/1.1 503") and b"too many connections" in answer
        finally:
            for sock in held:
                sock.close()
        deadline = time.monotonic() + 30
        while (answer := httpx.get(f"{url}/api/levels", timeout=5)).status_code == 503:
            assert time.monotonic() < deadline  # the closed sockets are seen gone
            time.sleep(0.05)
        assert answer.status_code == 200


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
    assert process.returncode == 130 and err.strip() == "buttonup: interrupted", err
    # Every request waiting for a search was answered at once, not after its search.
    assert [status for status, _ in answers] == [503] * 4, answers
    assert all("the server is stopping" in text for _, text in answers)


def holding(port: int) -> list[socket.socket]:
    """Sockets that hold a server the ways a careless or hostile client does: a head
    with its body never sent, half a head, a chunked body never ended, nothing at all,
    and a request answered and kept alive."""
    held = []
    for sent in (
        POST + b"content-length: 100\r\n\r\n",
        b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        POST + b'transfer-encoding: chunked\r\n\r\n5\r\n{"pos\r\n',
        b"",
        b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    ):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(sent)
        held.append(sock)
    assert held[-1].recv(65536).startswith(b"HTTP/1.1 200")  # every socket is in
    return held


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_stops_the_server_whatever_its_sockets_hold(presses: int) -> None:
    """A head with `Content-Length: 100` and no body once held the first Ctrl-C
    for over a minute, and the second exited with a 94-line `CancelledError` traceback.
    Now the first stops the server within a second, the second at once, and either way
    the status is 130 with one line."""
    process, url = serve(stderr=subprocess.PIPE)
    held: list[socket.socket] = []
    try:
        held = holding(int(url.rsplit(":", 1)[1]))
        sent = time.monotonic()
        for press in range(presses):
            if press:
                time.sleep(0.05)  # the second while the first is being answered
            process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        end(process)
        for sock in held:
            sock.close()
    assert process.returncode == 130 and err.strip() == "buttonup: interrupted", err
    assert took < 2.0, took  # within a second, and the start of the interpreter's exit


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        (None, 200),  # not a browser: curl, a script
        ("http://127.0.0.1:8000", 200),  # the server's own page
        ("https://friend.example", 200),  # a --cors-origin page
        ("https://evil.example", 403),  # any other site's page
        ("http://127.0.0.1:9999", 403),  # another server on the same machine
        ("null", 403),  # a sandboxed or local page
    ],
)
def test_players_are_made_only_from_this_servers_pages(origin: str | None, status: int) -> None:
    """`POST /api/players` needs no token, and any web site's page could call it on its
    visitor's server (a simple request: no preflight): only this server's pages may."""
    app = create_app(cors_origins=("https://friend.example",))
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    answer = client.post("/api/players", headers={"origin": origin} if origin else {})
    assert answer.status_code == status, answer.text
    if status == 403:
        assert answer.json() == {
            "error": f"players are made from this server's own pages, not from {origin!r}"
        }
    else:
        assert set(answer.json()) == {"token", "matches_page"}


def test_a_cors_origin_may_send_the_player_token_and_refusals_are_json() -> None:
    """With `--cors-origin` the preflight allows `Authorization` (online play from a page
    served elsewhere), and its refusals are JSON, not plain text."""
    client = TestClient(create_app(cors_origins=("https://friend.example",)))
    asked = {
        "origin": "https://friend.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
    }
    allowed = client.options("/api/online", headers=asked)
    assert allowed.status_code == 200, allowed.text
    assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
    assert allowed.headers["access-control-allow-origin"] == "https://friend.example"
    refused = client.options("/api/online", headers={**asked, "origin": "https://evil.example"})
    assert refused.status_code == 400
    assert refused.json() == {"error": "this cross-origin request is not allowed here (its origin)"}
    header = client.options(
        "/api/online", headers={**asked, "access-control-request-headers": "x-evil"}
    )
    assert header.status_code == 400 and "its headers" in header.json()["error"]


def test_the_board_is_drawn_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """`/api/board` once drew its SVG on the event loop (eight clients posting
    29-move boards pushed `GET /api/levels` to 184-468 ms). A drawing held here until
    `/api/levels` is answered must not hold that answer back."""
    from buttonup.web import views

    entered, released = threading.Event(), threading.Event()
    waited: list[bool] = []
    drawn = views.line_view  # the core's drawing of the line, with its walk

    def held(*args: Any) -> Any:
        entered.set()
        waited.append(released.wait(5))  # False: nothing else was answered meanwhile
        return drawn(*args)

    monkeypatch.setattr(views, "line_view", held)
    app = create_app()

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as session:
            board = asyncio.ensure_future(
                session.post("/api/board", json={"position": START, "moves": [3]})
            )
            for _ in range(1000):  # the drawing has begun (on the loop, it has ended)
                if entered.is_set():
                    break
                await asyncio.sleep(0.01)
            levels = await session.get("/api/levels")
            released.set()
            assert levels.status_code == 200 and (await board).status_code == 200

    asyncio.run(main())
    assert waited == [True]


def filled(make: Callable[[], Any], cap: int, refusal: str) -> list[Any]:
    """``cap`` answers of ``make``, all 200, after which one more is the JSON 429
    ``refusal``."""
    made = [make() for _ in range(cap)]
    assert {answer.status_code for answer in made} == {200}
    refused = make()
    assert refused.status_code == 429
    assert refused.json() == {"error": refusal}
    return made


def test_one_address_cannot_fill_the_store_with_waiting_online_matches() -> None:
    """One client once made 2,000 unjoined online matches in 8.6 s, kept 30 days;
    now 50 may wait for their second player per address, and one more is a JSON 429."""
    app = create_app()
    mine = TestClient(app, client=("10.0.0.1", 5000))
    host = Person(mine)
    made = filled(
        lambda: host.post("/api/online"),
        WAITING_PER_CLIENT,
        f"{WAITING_PER_CLIENT} matches made from your address wait for their "
        "second player: send their invites, or wait for them to expire",
    )
    other = Person(TestClient(app, client=("10.0.0.2", 5000)))
    assert other.post("/api/online").status_code == 200  # another address is not held
    # A match joined waits no more: its maker may make one again.
    first = made[0].json()
    joined = other.post(f"/api/online/{first['id']}/join", {"invite": first["invite"]})
    assert joined.status_code == 200, joined.text
    assert host.post("/api/online").status_code == 200
    assert host.post("/api/online").status_code == 429


def test_the_waiting_cap_holds_across_processes(database: str) -> None:  # noqa: F811
    """The cap once counted per process (two processes let one address keep twice
    as many); it is counted in the store now, SQLite and PostgreSQL, and a match joined
    through either process waits no more."""
    here, there = create_app(db=database), create_app(db=database)  # two processes
    host_here = Person(TestClient(here, client=("10.0.0.1", 5000)))
    host_there = Person(TestClient(there, client=("10.0.0.1", 5000)))  # another token
    made = [host_here.post("/api/online").json() for _ in range(WAITING_PER_CLIENT - 10)]
    made += [host_there.post("/api/online").json() for _ in range(10)]
    assert all("id" in answer for answer in made)
    assert host_here.post("/api/online").status_code == 429
    assert host_there.post("/api/online").status_code == 429
    friend = Person(TestClient(there, client=("10.0.0.2", 5000)))
    joined = friend.post(f"/api/online/{made[7]['id']}/join", {"invite": made[7]["invite"]})
    assert joined.status_code == 200, joined.text
    assert host_here.post("/api/online").status_code == 200
    assert host_there.post("/api/online").status_code == 429


def test_one_address_cannot_fill_the_store_with_players() -> None:
    """`POST /api/players` once made rows without bound; now 100 players in no match
    may come from one address, one more is a JSON 429, and a seated one frees a place."""
    app = create_app()
    mine = TestClient(app, client=("10.0.0.1", 5000))
    made = filled(
        lambda: mine.post("/api/players"),
        IDLE_PLAYERS_PER_CLIENT,
        f"{IDLE_PLAYERS_PER_CLIENT} players made from your address are in no "
        "match yet: use one of their tokens, or wait for them to expire",
    )
    other = TestClient(app, client=("10.0.0.2", 5000))
    assert other.post("/api/players").status_code == 200  # another address is not held
    # One of them makes a match: he is in one now, and his address may make a player.
    token = made[0].json()["token"]
    created = mine.post("/api/online", json={}, headers={"Authorization": f"Bearer {token}"})
    assert created.status_code == 200, created.text
    assert mine.post("/api/players").status_code == 200
    assert mine.post("/api/players").status_code == 429
