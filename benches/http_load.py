"""Latency and throughput of ``buttonup serve``: the figures of docs/http.md.

    python benches/http_load.py [--seconds 30] [--clients 1,8,64]

Starts ``buttonup serve`` on a free loopback port, then for each number of concurrent
clients and each request (``bestmove`` at level 10 on the standard start, ``analyze`` of
a start) sends requests as fast as the clients can for ``--seconds`` (async httpx
clients in one process) and prints p50, p99, requests per second held, and the answers
that were not 200 (503 when the search pool is full).
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import time

import httpx
from bench_tools import end, free_port, popen
from buttonup import Position

REQUESTS = {
    "bestmove level 10": ("/api/bestmove", {"position": "W/R/B/W/B/R/R/W/B r", "level": 10}),
    "analyze": ("/api/analyze", {"position": "W/R/B/W/B/R/R/W/B r"}),
}


async def load(url: str, path: str, body: dict[str, object], clients: int, seconds: float):
    latencies: list[float] = []
    refused = 0
    deadline = time.perf_counter() + seconds
    starts = [str(Position.random(seed=i)) for i in range(64)]

    async def client(index: int) -> None:
        nonlocal refused
        async with httpx.AsyncClient(base_url=url, timeout=30) as session:
            i = index
            while time.perf_counter() < deadline:
                payload = dict(body, position=starts[i % len(starts)])
                i += clients
                sent = time.perf_counter()
                answer = await session.post(path, json=payload)
                if answer.status_code == 200:
                    latencies.append(time.perf_counter() - sent)
                else:
                    refused += 1

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    return latencies, refused, time.perf_counter() - started


def serve(stderr: int | None = None) -> tuple[subprocess.Popen[str], str]:
    """``buttonup serve`` on a free loopback port, once it listens: the server
    (its output piped, as text, and its errors to ``stderr``; in a session of its own,
    SIGINT at its default: its caller ends it with ``end`` in a ``finally``) and its
    URL."""
    port = free_port()
    server = popen(
        [sys.executable, "-m", "buttonup", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        assert server.stdout is not None
        assert f"serving on {url}" in server.stdout.readline()
        deadline = time.monotonic() + 30
        while True:  # the line comes before uvicorn listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.02)
    except BaseException:
        end(server)
        raise
    return server, url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", default="1,8,64")
    args = parser.parse_args()
    server, url = serve()
    try:
        print("| request | clients | p50 | p99 | requests/s | not 200 |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, (path, body) in REQUESTS.items():
            for clients in map(int, args.clients.split(",")):
                latencies, refused, elapsed = asyncio.run(
                    load(url, path, body, clients, args.seconds)
                )
                cuts = statistics.quantiles(latencies, n=100)
                print(
                    f"| {name} | {clients} | {cuts[49] * 1000:.1f} ms | {cuts[98] * 1000:.1f} ms "
                    f"| {len(latencies) / elapsed:,.0f} | {refused} |"
                )
    finally:
        end(server)


if __name__ == "__main__":
    main()
