"""Online matches under load (issue 24): the figures of docs/http.md, "Playing a friend".

    python benches/online_load.py [--db sqlite|postgres|URL] [--matches 100] [--seconds 20]

Starts ``buttonup serve`` on a free loopback port with its own database (``sqlite``: a
file in a temporary folder; ``postgres``: a throwaway PostgreSQL cluster started here,
as the ``postgres`` user when run as root; or any ``--db`` URL), then plays
``--matches`` matches at once, two players each, for ``--seconds``: each player holds
the match's event stream open and moves (a random legal move, or the tie rule's choice)
as soon as the stream or his own answer says it is his turn. A finished match is
replaced by a new one. Prints the accepted actions per second held, the latency of a
move's answer, and the latency from one player sending his move to the other player's
stream delivering it (p50/p99). Then the cost of one commit (``Store.commit``, a move's
whole transaction, synced) on the same database, alone, over ``--commits`` moves.
All clients run in this one process (async httpx): on a small machine they share its
cores with the server, and say so.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from buttonup import Match
from buttonup.testing.processes import end, popen, run
from buttonup.web.store import MatchRow, open_store


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL cluster in a temporary folder (a unix socket, no TCP); its URL."""
    initdb = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]
    tools = Path(initdb).parent
    folder = Path(tempfile.mkdtemp(prefix="buttonup-pg-"))
    owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if owner:
        shutil.chown(folder, "postgres")
    port, data = free_port(), folder / "data"
    quiet = {"check": True, "capture_output": True}
    run([*owner, initdb, "-D", str(data), "-A", "trust", "-U", "postgres"], **quiet)
    options = f"-k {folder} -p {port} -c listen_addresses='' -c max_connections=200"
    pg_ctl = str(tools / "pg_ctl")
    run([*owner, pg_ctl, "-D", str(data), "-o", options, "-l", str(folder / "log"),
         "-w", "start"], **quiet)  # fmt: skip
    try:
        run([*owner, str(tools / "createdb"), "-h", str(folder), "-p", str(port),
             "-U", "postgres", "bench"], **quiet)  # fmt: skip
        yield f"postgresql://postgres@/bench?host={folder}&port={port}"
    finally:
        run([*owner, pg_ctl, "-D", str(data), "-m", "fast", "stop"], **quiet)
        shutil.rmtree(folder, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def serving(db: str) -> Iterator[tuple[str, int]]:
    port = free_port()
    command = [sys.executable, "-m", "buttonup", "serve", "--port", str(port), "--db", db]
    server = popen(command, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{url}/api/levels").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield url, server.pid
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        end(server)


class Load:
    def __init__(self, url: str, seconds: float) -> None:
        self.url, self.seconds = url, seconds
        self.sent: dict[tuple[str, int], float] = {}  # (match, version) -> when sent
        self.heard: list[float] = []  # move sent -> the other's stream has it
        self.answered: list[float] = []  # move sent -> its answer
        self.actions = 0
        self.refused: dict[int, int] = {}
        self.deadline = 0.0

    async def stream(
        self,
        client: httpx.AsyncClient,
        match_id: str,
        seat: str,
        latest: dict[str, Any],
        turn: asyncio.Event,
    ) -> None:
        """``seat``'s event stream: the latency of each of the other player's moves."""
        path = f"/api/online/{match_id}/events?seat={seat}"
        async with client.stream("GET", path, timeout=None) as answer:
            async for line in answer.aiter_lines():
                if not line.startswith("data: "):
                    continue
                state = json.loads(line[6:])
                mover = (state.get("played") or {}).get("mover")
                if mover is not None and mover != seat:
                    sent = self.sent.pop((match_id, state["version"]), None)
                    if sent is not None:
                        self.heard.append(time.perf_counter() - sent)
                if state["version"] > latest["state"]["version"]:
                    latest["state"] = state
                    turn.set()
                if state["ended"] is not None:
                    return

    @staticmethod
    async def player(client: httpx.AsyncClient) -> str:
        """A new player's token (one address may have 100 players in no match yet)."""
        while (answer := await client.post("/api/players")).status_code == 429:
            await asyncio.sleep(0.05)
        token: str = answer.json()["token"]
        return token

    async def match(self, client: httpx.AsyncClient, number: int) -> None:
        host = {"authorization": f"Bearer {await self.player(client)}"}
        guest: dict[str, str] | None = None
        rng = random.Random(number)
        while time.perf_counter() < self.deadline:
            # One address may have 50 matches waiting for their second player at once.
            while (
                answer := await client.post("/api/online", json={}, headers=host)
            ).status_code == 429:
                await asyncio.sleep(0.05)
            made = answer.json()
            if guest is None:
                # Made once the host sits in a match: players in none are capped per
                # address, and all the pairs waiting for both tokens would never start.
                guest = {"authorization": f"Bearer {await self.player(client)}"}
            match_id = made["id"]
            joined = await client.post(
                f"/api/online/{match_id}/join", json={"invite": made["invite"]}, headers=guest
            )
            turn = asyncio.Event()
            latest: dict[str, Any] = {"state": joined.json()["state"]}
            seats = {"r": host, "b": guest}

            listeners = [
                asyncio.create_task(self.stream(client, match_id, seat, latest, turn))
                for seat in "rb"
            ]
            try:
                while time.perf_counter() < self.deadline:
                    state = latest["state"]
                    if state["ended"] is not None:
                        break
                    version = state["version"]
                    if state["chooser"] is not None:
                        seat, path = state["chooser"], "choose"
                        body: dict[str, Any] = {"starter": rng.choice("rb"), "version": version}
                    else:
                        seat, path = state["to_move"], "play"
                        body = {"move": rng.choice(state["legal_moves"]), "version": version}
                    sent = time.perf_counter()
                    if path == "play":
                        self.sent[(match_id, version + 1)] = sent
                    answer = await client.post(
                        f"/api/online/{match_id}/{path}", json=body, headers=seats[seat]
                    )
                    if answer.status_code != 200:
                        self.refused[answer.status_code] = (
                            self.refused.get(answer.status_code, 0) + 1
                        )
                        turn.clear()
                        await turn.wait()
                        continue
                    self.answered.append(time.perf_counter() - sent)
                    self.actions += 1
                    new = answer.json()
                    if new["version"] > latest["state"]["version"]:
                        latest["state"] = new
            finally:
                for task in listeners:
                    task.cancel()

    async def run(self, matches: int) -> float:
        self.deadline = time.perf_counter() + self.seconds
        started = time.perf_counter()
        await asyncio.gather(*(self.pair(n) for n in range(matches)))
        return time.perf_counter() - started

    async def pair(self, number: int) -> None:
        """One pair of players, with a connection pool of its own (httpx's pool is
        scanned at every request: one for all would cost the clients more than the
        server)."""
        async with httpx.AsyncClient(base_url=self.url, timeout=60) as client:
            await self.match(client, number)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def commit_cost(db: str, commits: int) -> list[float]:
    """Seconds of each ``Store.commit`` of a move on its own (the match's state as a
    real match's record, one move later each time)."""
    store = open_store(db)
    match = Match("r", seed=1)
    row = MatchRow("bench-" + str(time.time_ns()), "a", "b", "i", "r", {}, match.__getstate__(),
                   0, None, None, time.time(), time.time())  # fmt: skip
    store.add_match(row)
    took: list[float] = []
    for version in range(1, commits + 1):
        if match.is_over:
            match = Match("r", seed=version)
        if match.chooser is not None:
            match.choose_starter("r")
        else:
            match.play(match.legal_moves()[0])
        after = MatchRow(row.id, "a", "b", "i", "r", {}, match.__getstate__(), version,
                         None, None, row.created, time.time())  # fmt: skip
        start = time.perf_counter()
        store.commit(after, version - 1, "play", "0")
        took.append(time.perf_counter() - start)
    store.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite", help="sqlite, postgres or a --db URL")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--commits", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, contextmanager_for(args.db, folder) as db:
        with serving(db) as (url, pid):
            load = Load(url, args.seconds)
            cpu = cpu_seconds(pid)
            elapsed = asyncio.run(load.run(args.matches))
            cpu = cpu_seconds(pid) - cpu
            own = cpu_seconds(os.getpid())
        took = commit_cost(db, args.commits)
    ms = 1000.0
    print(f"database: {args.db}; {args.matches} matches of two players, {args.seconds:.0f} s")
    print(f"actions accepted: {load.actions} in {elapsed:.1f} s = {load.actions / elapsed:.0f}/s")
    print(f"server process CPU: {cpu:.1f} s of {elapsed:.1f} s ({cpu / elapsed:.0%} of a core)")
    print(f"clients' process CPU: {own:.1f} s in all")
    print(f"refused (should be none but 409 races of a stream and an answer): {load.refused}")
    print(
        f"move answered: p50 {percentile(load.answered, 0.5) * ms:.1f} ms, "
        f"p99 {percentile(load.answered, 0.99) * ms:.1f} ms"
    )
    print(
        f"move to the other player's stream: p50 {percentile(load.heard, 0.5) * ms:.1f} ms, "
        f"p99 {percentile(load.heard, 0.99) * ms:.1f} ms ({len(load.heard)} moves)"
    )
    print(
        f"one commit alone ({args.commits}): median {statistics.median(took) * ms:.2f} ms, "
        f"p99 {percentile(took, 0.99) * ms:.2f} ms"
    )


@contextmanager
def contextmanager_for(kind: str, folder: str) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite://{folder}/bench.sqlite3"
    elif kind == "postgres":
        with throwaway_postgres() as url:
            yield url
    else:
        yield kind


if __name__ == "__main__":
    main()
