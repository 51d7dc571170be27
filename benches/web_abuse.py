"""The web server under abuse: the abuses it once fell to, and the figures of
docs/reliability.md, against a ``buttonup serve`` of its own on a loopback port.

    python -m benches.web_abuse [--slow-sockets 200] [--trials 30]

Bounded in time (about a minute) and count, loopback only. Each probe prints one line:
what was sent, what came back, and the server's resident memory where it matters.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial

import httpx
from bench_tools import end
from buttonup import Position

from benches.http_load import serve

START = "W/R/B/W/B/R/R/W/B r"
BIG = str(Position.random(seed=5, per_colour=8))


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def chunked(url: str, megabytes: int) -> str:
    """A body of ``megabytes`` MB, chunked, to /api/play: the status line."""
    host, port = url.removeprefix("http://").split(":")
    head = (
        b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\nconnection: close\r\n\r\n"
    )
    piece = b" " * 65536
    with socket.create_connection((host, int(port)), timeout=60) as sock:
        sock.sendall(head)
        try:
            first = b'{"position": "%s", "move": 3' % START.encode()
            sock.sendall(b"%x\r\n%s\r\n" % (len(first), first))
            for _ in range(megabytes * 16):
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
            sock.sendall(b"1\r\n}\r\n0\r\n\r\n")
        except OSError:
            pass
        answer = b""
        try:
            while data := sock.recv(65536):
                answer += data
        except OSError:
            pass
    return answer.split(b"\r\n", 1)[0].decode() or "(reset)"


async def ai_race(url: str, trials: int) -> int:
    """Trials in which one of four concurrent /ai requests moved for the human (Black:
    a move played from a position where Black was to move)."""
    bad = 0
    async with httpx.AsyncClient(base_url=url, timeout=30) as session:
        for _ in range(trials):
            made = await session.post("/api/matches", json={"human": "b", "level": 9})
            key = made.json()["id"]
            answers = await asyncio.gather(
                *(session.post(f"/api/matches/{key}/ai") for _ in range(4))
            )
            played = [a.json()["played"] for a in answers if a.status_code == 200]
            if not played:
                continue
            # Replay the match's moves from its start: who made each.
            position, movers = Position(played[0]["from"]), []
            for move in (await session.get(f"/api/matches/{key}")).json()["moves"]:
                movers.append(position.to_move.letter)
                position = position.play(move)
            bad += "b" in movers
    return bad


async def heavy_flood(url: str, heavy: int) -> tuple[int, float, int]:
    """``heavy`` big analyses at once and then a cheap bestmove: the cheap one's status
    and latency, and the heavy ones refused."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as session:
        tasks = [
            asyncio.create_task(session.post("/api/analyze", json={"position": BIG}))
            for _ in range(heavy)
        ]
        await asyncio.sleep(0.3)
        sent = time.perf_counter()
        cheap = await session.post("/api/bestmove", json={"position": START})
        latency = time.perf_counter() - sent
        answers = await asyncio.gather(*tasks)
    return cheap.status_code, latency, sum(a.status_code == 503 for a in answers)


def slow_sockets(url: str, count: int, wait: float) -> int:
    """Sockets sending a request head slowly: how many the server still holds after
    ``wait`` seconds."""
    host, port = url.removeprefix("http://").split(":")
    sockets = []
    for _ in range(count):
        sock = socket.create_connection((host, int(port)), timeout=5)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sockets.append(sock)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for sock in sockets:
            try:
                sock.sendall(b"X-a: b\r\n")
            except OSError:
                pass
        time.sleep(1)
    open_ = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            open_ += sock.recv(1) != b""
        except BlockingIOError:
            open_ += 1
        except OSError:
            pass
        sock.close()
    return open_


def answer(call: Callable[[], httpx.Response]) -> str:
    """The status of a request and its time, or why there was none."""
    sent = time.perf_counter()
    try:
        response = call()
    except httpx.HTTPError as error:
        return f"no answer ({type(error).__name__} after {time.perf_counter() - sent:.1f} s)"
    return f"{response.status_code} in {(time.perf_counter() - sent) * 1000:.0f} ms"


def stop_time(server: subprocess.Popen[str], limit: float = 60) -> str:
    """SIGINT, then how long the server takes to exit (killed past ``limit``)."""
    sent = time.perf_counter()
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        server.kill()
        return f"still running after {limit:.0f} s"
    return f"exits in {(time.perf_counter() - sent) * 1000:.0f} ms (status {server.returncode})"


def probes(args: argparse.Namespace) -> Iterator[str]:
    server, url = serve()
    try:
        before = rss_mb(server.pid)
        status = chunked(url, 50)
        after = rss_mb(server.pid)
        yield f"chunked 50 MB body to /api/play: {status}; RSS {before:.0f} -> {after:.0f} MB"
        bad = asyncio.run(ai_race(url, args.trials))
        yield f"4 concurrent /ai, {args.trials} trials: {bad} with a move on the human's turn"
        strict = [
            httpx.post(f"{url}/api/play", json={"position": START, "move": value}).status_code
            for value in (False, "3", 3.0)
        ]
        yield f'/api/play with move false, "3", 3.0: {strict}'
        unknown = httpx.get(f"{url}/api/matches/nope")
        yield f"unknown match id: {unknown.status_code} {unknown.text[:60]}"
        missing = httpx.get(f"{url}/api/nothing")
        yield f"unknown route: {missing.status_code} {missing.text[:60]}"
        evil = httpx.get(f"{url}/api/openapi.json", headers={"host": "rebound.example"})
        yield f"Host: rebound.example: {evil.status_code}"
        schema = httpx.get(f"{url}/api/openapi.json").json()
        statuses = sorted(set(schema["paths"]["/api/play"]["post"]["responses"]))
        yield f"statuses in the schema for /api/play: {statuses}"
        status, latency, refused = asyncio.run(heavy_flood(url, 40))
        yield (
            f"40 heavy analyses, then a cheap bestmove: {status} in {latency * 1000:.0f} ms"
            f" ({refused} heavy refused)"
        )
        held = slow_sockets(url, args.slow_sockets, 12)
        yield f"{args.slow_sockets} slow request heads: {held} still open after 12 s"
        for _ in range(6):  # heavy requests in flight, their clients gone
            threading.Thread(target=answer, args=(heavy_call(url, 2.0),), daemon=True).start()
        time.sleep(0.5)
        yield f"SIGINT with 6 heavy analyses in flight: the server {stop_time(server)}"
    finally:
        end(server)
    server, url = serve()
    try:
        odds = {"red_points": 0, "black_points": 0, "starter": "r", "target": 1000}
        for _ in range(2):  # two of them, their clients gone after 3 s
            call = partial(httpx.post, f"{url}/api/win-probability", json=odds, timeout=3)
            yield f"win-probability target 1000: {answer(call)}"
        cheap = partial(httpx.post, f"{url}/api/bestmove", json={"position": START}, timeout=10)
        yield f"then a standard bestmove: {answer(cheap)}"
        yield f"then SIGINT: the server {stop_time(server)}"
    finally:
        end(server)


def heavy_call(url: str, timeout: float) -> Callable[[], httpx.Response]:
    return partial(httpx.post, f"{url}/api/analyze", json={"position": BIG}, timeout=timeout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow-sockets", type=int, default=200)
    parser.add_argument("--trials", type=int, default=30)
    args = parser.parse_args()
    for line in probes(args):
        print(line, flush=True)


if __name__ == "__main__":
    main()
