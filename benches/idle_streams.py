"""Idle event streams of online matches: what holding them open costs
the server, in CPU and memory, and what it does to a standard ``bestmove``; the figures
of docs/reliability.md.

    python -m benches.idle_streams [--streams 250,500,1000] [--per-match 16] [--idle 5]

For each count K: starts ``buttonup serve`` on a SQLite file of its own (the helpers of
benches/online_load.py), makes K / ``--per-match`` matches (both seats taken), then
opens K event streams on raw sockets, ``--per-match`` of each match, each naming a seat
(``?seat=r`` or ``b`` in turn: every opening and closing is a presence change), 32 from
each client address (127.0.0.2, .3, ...: the server's cap per address). Measured from
/proc/<pid>: the server's CPU time and resident memory before, once every stream has
its first event and the server is quiet again ("opening"), after ``--idle`` seconds
with all of them open ("idle"), and once all are closed and the server quiet again
("closing"); and ``--bestmoves`` standard ``bestmove`` requests (level 10, one at a
time) while the streams are open. Linear means the CPU per stream stays about the same
as K doubles. Streams the server refuses (429, past its caps) are counted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from online_load import cpu_seconds, serving  # benches/, beside this script

#: The streams one client address may hold open at once (the server's cap).
PER_ADDRESS = 32
START = "W/R/B/W/B/R/R/W/B r"


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` (Linux's /proc), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def quiet(pid: int, step: float = 1.0, most: float = 900.0) -> float:
    """Waits until the server has used under 2% of a core for ``step`` seconds (its
    backlog done; the streams are read meanwhile, so that it never waits for them);
    its CPU time then."""
    deadline = time.monotonic() + most
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        await asyncio.sleep(step)
        now = cpu_seconds(pid)
        if now - before < 0.02 * step:
            return now
        before = now
    raise RuntimeError(f"the server was still busy after {most:.0f} s")


def matches(url: str, count: int) -> list[str]:
    """``count`` matches, both seats taken: their ids."""
    with httpx.Client(base_url=url, timeout=60) as client:
        host, guest = (
            {"authorization": f"Bearer {client.post('/api/players').json()['token']}"}
            for _ in range(2)
        )
        ids = []
        for _ in range(count):
            made = client.post("/api/online", json={}, headers=host).json()
            joined = client.post(
                f"/api/online/{made['id']}/join", json={"invite": made["invite"]}, headers=guest
            )
            assert joined.status_code == 200, joined.text
            ids.append(made["id"])
        return ids


class Streams:
    """The open streams: their sockets, and how many the server refused."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.writers: list[asyncio.StreamWriter] = []
        self.readers: list[asyncio.Task[None]] = []
        self.refused: dict[int, int] = {}

    async def open(self, match_id: str, seat: str, address: str) -> None:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", self.port, local_addr=(address, 0)
        )
        path = f"/api/online/{match_id}/events?seat={seat}"
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split()[1])
        if status != 200:
            self.refused[status] = self.refused.get(status, 0) + 1
            writer.close()
            return
        await reader.readuntil(b"\n\n")  # the first event: the state
        self.writers.append(writer)
        self.readers.append(asyncio.create_task(self.drain(reader)))

    @staticmethod
    async def drain(reader: asyncio.StreamReader) -> None:
        """Reads what the server sends (presence, keep-alives) so that it never waits."""
        while await reader.read(65536):
            pass

    async def open_all(self, ids: list[str], count: int, per_match: int) -> None:
        gate = asyncio.Semaphore(32)

        async def one(number: int) -> None:
            async with gate:
                address = f"127.0.0.{2 + number // PER_ADDRESS}"
                await self.open(ids[number // per_match], "rb"[number % 2], address)

        await asyncio.gather(*(one(n) for n in range(count)))

    async def close_all(self) -> None:
        for writer in self.writers:
            writer.close()
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)


def bestmoves(url: str, count: int) -> list[float]:
    """Seconds of each of ``count`` standard ``bestmove`` requests, one at a time."""
    took = []
    with httpx.Client(base_url=url, timeout=60) as client:
        for _ in range(count):
            start = time.perf_counter()
            answer = client.post("/api/bestmove", json={"position": START, "level": 10})
            took.append(time.perf_counter() - start)
            assert answer.status_code == 200, answer.text
    return took


def run(count: int, per_match: int, idle: float, requests: int) -> dict[str, float]:
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(f"sqlite://{folder}/b.sqlite3") as (
            url,
            pid,
        ),
    ):
        ids = matches(url, -(-count // per_match))
        return asyncio.run(held(url, pid, ids, count, per_match, idle, requests))


async def held(
    url: str, pid: int, ids: list[str], count: int, per_match: int, idle: float, requests: int
) -> dict[str, float]:
    """The measures of one count, the streams read all along."""
    cpu, rss = await quiet(pid), rss_mb(pid)
    streams = Streams(int(url.rsplit(":", 1)[1]))
    started = time.perf_counter()
    opening = True
    meanwhile: list[float] = []

    async def probe() -> None:
        """A bestmove every 0.25 s while the streams open and the server settles."""
        while opening:
            meanwhile.extend(await asyncio.to_thread(bestmoves, url, 1))
            await asyncio.sleep(0.25)

    prober = asyncio.create_task(probe())
    await streams.open_all(ids, count, per_match)
    opened_in = time.perf_counter() - started
    opened_cpu, opened_rss = await quiet(pid), rss_mb(pid)
    settled_in = time.perf_counter() - started - 1.0  # less the quiet second
    opening = False
    await prober
    await asyncio.sleep(idle)
    idle_cpu, idle_rss = cpu_seconds(pid), rss_mb(pid)
    took = await asyncio.to_thread(bestmoves, url, requests)
    await streams.close_all()
    closed_cpu = await quiet(pid)
    return {
        "streams": count,
        "open": len(streams.writers),
        "refused": sum(streams.refused.values()),
        "opened_s": opened_in,
        "settled_s": settled_in,
        "opening_bestmove_max": max(meanwhile),
        "open_cpu": opened_cpu - cpu,
        "idle_cpu": idle_cpu - opened_cpu,
        "close_cpu": closed_cpu - idle_cpu,
        "rss_before": rss,
        "rss_open": opened_rss,
        "rss_idle": idle_rss,
        "bestmove_p50": statistics.median(took),
        "bestmove_max": max(took),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", default="250,500,1000", help="the counts K, with commas")
    parser.add_argument("--per-match", type=int, default=16, help="streams of each match")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds held open, idle")
    parser.add_argument("--bestmoves", type=int, default=20)
    args = parser.parse_args()
    print(
        "| streams asked (open / refused) | opened, settled | opening CPU, per stream | "
        f"idle CPU ({args.idle:.0f} s) | closing CPU | RSS before / open / idle | bestmove "
        "while opening, max | bestmove while idle, p50 / max |"
    )
    print("|---|---|---|---:|---:|---|---:|---|")
    for count in (int(k) for k in args.streams.split(",")):
        r = run(count, args.per_match, args.idle, args.bestmoves)
        print(
            f"| {count} ({r['open']:.0f} / {r['refused']:.0f}) | {r['opened_s']:.1f} s, "
            f"{r['settled_s']:.1f} s | {r['open_cpu']:.2f} s, "
            f"{r['open_cpu'] / count * 1000:.2f} ms | "
            f"{r['idle_cpu']:.2f} s | {r['close_cpu']:.2f} s | {r['rss_before']:.0f} / "
            f"{r['rss_open']:.0f} / {r['rss_idle']:.0f} MB | "
            f"{r['opening_bestmove_max'] * 1000:.0f} ms | "
            f"{r['bestmove_p50'] * 1000:.1f} / {r['bestmove_max'] * 1000:.1f} ms |",
            flush=True,
        )


if __name__ == "__main__":
    main()
