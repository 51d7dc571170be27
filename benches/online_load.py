"""Online matches under load: the figures of docs/online.md.

    python benches/online_load.py [--db sqlite|postgres|URL] [--matches 100] [--seconds 20]
                                  [--think MS[,MS...]]

Starts ``buttonup serve`` on a free loopback port with its own database (``sqlite``: a
file in a temporary folder; ``postgres``: a throwaway PostgreSQL cluster started here,
as the ``postgres`` user when run as root; or any ``--db`` URL), then plays
``--matches`` matches at once, two players each, for ``--seconds``: each player holds
the match's event stream open (both open before the match's first move) and moves (a
random legal move, or the tie rule's choice) as soon as the stream or his own answer
says it is his turn (with ``--think MS``, after a pause drawn at random around MS
milliseconds, as a person thinks: a load offered rather than the most the machine
holds). A finished match is replaced by a new one. Prints the accepted actions per
second held, the latency of a move's answer, the latency from one player sending his
move to the other player's stream delivering it (p50/p99), and the time a stream takes
to open (asked for to its first event). Then the cost of one commit (``Store.commit``, a
move's whole transaction, synced) on the same database, alone, over ``--commits`` moves.
All clients run in this one process (each pair of players on a keep-alive connection of
its own, a raw HTTP/1.1 client: see :class:`Connection`): on a small machine they share
its cores with the server, and say so. ``--against FOLDER --rounds N`` alternates loads
of this build's server and of another build's (its ``python/`` folder), each on a fresh
database, for figures before and after a change in one run; ``--think 0,20,50`` makes a
load of each build at each pause, from the quickest.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from bench_tools import end, free_port, popen, run
from buttonup import Match
from buttonup.web.store import MatchRow, open_store


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
def serving(db: str, build: str | None = None) -> Iterator[tuple[str, int]]:
    """``buttonup serve`` on a free port; ``build``: the folder whose ``buttonup``
    package it runs (put first on ``PYTHONPATH``), else this one's."""
    port = free_port()
    command = [sys.executable, "-m", "buttonup", "serve", "--port", str(port), "--db", db]
    env = dict(os.environ)
    if build is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [build, env.get("PYTHONPATH")]))
    server = popen(command, stdout=subprocess.DEVNULL, env=env)
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


class Connection:
    """One keep-alive HTTP/1.1 connection to the server, as little as the load needs
    (requests with a JSON body; answers with a length or chunked; an event stream's
    chunks): a general client (httpx) spends more CPU per request than the server,
    and the clients share the machine's cores with it."""

    def __init__(self, url: str, source: str | None = None) -> None:
        self.host, _, port = url.removeprefix("http://").partition(":")
        self.port = int(port)
        self.source = source  # the address it connects from (None: the system's choice)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> Connection:
        local = None if self.source is None else (self.source, 0)
        self.reader, self.writer = await asyncio.open_connection(
            self.host, self.port, local_addr=local
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.writer is not None:
            self.writer.close()

    def send(self, method: str, path: str, body: Any = None, token: str | None = None) -> None:
        assert self.writer is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n"
        if token is not None:
            head += f"authorization: Bearer {token}\r\n"
        if body is not None:
            head += "content-type: application/json\r\n"
        head += f"content-length: {len(data)}\r\n\r\n"
        self.writer.write(head.encode() + data)

    async def head(self) -> tuple[int, dict[str, str]]:
        assert self.reader is not None
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        return int(lines[0].split()[1]), fields

    async def chunk(self) -> bytes:
        """The next chunk of a chunked body (empty: the last)."""
        assert self.reader is not None
        size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
        return (await self.reader.readexactly(size + 2))[:-2]

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        """The status and the JSON of the answer to one request."""
        assert self.reader is not None
        self.send(method, path, body, token)
        status, fields = await self.head()
        if "content-length" in fields:
            data = await self.reader.readexactly(int(fields["content-length"]))
        else:
            parts = []
            while part := await self.chunk():
                parts.append(part)
            data = b"".join(parts)
        return status, json.loads(data) if data else None

    async def events(self) -> AsyncIterator[bytes]:
        """The ``data`` of each event of the stream whose head has been read."""
        pending = b""
        while part := await self.chunk():
            pending += part
            *done, pending = pending.split(b"\n\n")
            for event in done:
                for line in event.split(b"\n"):
                    if line.startswith(b"data: "):
                        yield line[6:]


#: A state's version, found without reading the whole state (the clients share the
#: machine with the server: each state is read once, by the first stream or answer).
VERSION = re.compile(rb'"version": ?(\d+)')


class Load:
    def __init__(self, url: str, seconds: float, think: float = 0.0) -> None:
        self.url, self.seconds = url, seconds
        self.think = think  # a player's mean pause before an action, in seconds
        # match -> {version a move makes: (its mover, when it was sent)}, until the
        # other player's stream has that version or a later one
        self.sent: dict[str, dict[int, tuple[str, float]]] = {}
        self.heard: list[float] = []  # move sent -> the other's stream has it
        self.answered: list[float] = []  # move sent -> its answer
        self.opening: list[float] = []  # a stream asked for -> its first event
        self.actions = 0
        self.refused: dict[int, int] = {}
        self.deadline = 0.0

    async def stream(
        self,
        number: int,
        match_id: str,
        seat: str,
        latest: dict[str, Any],
        turn: asyncio.Event,
        opened: asyncio.Event,
    ) -> None:
        """``seat``'s event stream: the latency of each of the other player's moves.
        ``opened`` is set once its first event (the state) is in, or it is refused."""
        path = f"/api/online/{match_id}/events?seat={seat}"
        asked = time.perf_counter()
        try:
            async with Connection(self.url, address(number)) as connection:
                connection.send("GET", path)
                status, _ = await connection.head()
                if status != 200:  # counted: a load whose streams are refused measures less
                    self.refused[status] = self.refused.get(status, 0) + 1
                    return
                async for data in connection.events():
                    now = time.perf_counter()
                    if not opened.is_set():
                        self.opening.append(now - asked)
                        opened.set()
                    # A stream sends the latest state when it wakes, so it may skip
                    # versions: each of the other's moves it has not seen yet is heard
                    # with this one.
                    pending = self.sent.get(match_id, {})
                    found = VERSION.search(data)
                    version = int(found[1]) if found else 0
                    for move in [v for v in pending if v <= version]:
                        mover, sent = pending[move]
                        if mover != seat:
                            del pending[move]
                            self.heard.append(now - sent)
                    state = json.loads(data)
                    if state["version"] > latest["state"]["version"]:
                        latest["state"] = state
                        turn.set()
                    if state["ended"] is not None:
                        return
        finally:
            opened.set()

    @staticmethod
    async def player(client: Connection) -> str:
        """A new player's token (one address may have 100 players in no match yet)."""
        while True:
            status, answer = await client.request("POST", "/api/players")
            if status != 429:
                token: str = answer["token"]
                return token
            await asyncio.sleep(0.05)

    async def match(self, client: Connection, number: int) -> None:
        host = await self.player(client)
        guest: str | None = None
        rng = random.Random(number)
        while time.perf_counter() < self.deadline:
            # One address may have 50 matches waiting for their second player at once.
            while (made := await client.request("POST", "/api/online", {}, host))[0] == 429:
                await asyncio.sleep(0.05)
            if guest is None:
                # Made once the host sits in a match: players in none are capped per
                # address, and all the pairs waiting for both tokens would never start.
                guest = await self.player(client)
            match_id = made[1]["id"]
            _, joined = await client.request(
                "POST", f"/api/online/{match_id}/join", {"invite": made[1]["invite"]}, guest
            )
            turn = asyncio.Event()
            latest: dict[str, Any] = {"state": joined["state"]}
            seats = {"r": host, "b": guest}

            opened = {seat: asyncio.Event() for seat in "rb"}
            listeners = [
                asyncio.create_task(self.stream(number, match_id, seat, latest, turn, opened[seat]))
                for seat in "rb"
            ]
            try:
                # Both players' streams open before the first move, as on the page (a
                # move made before the other's stream is open would time his opening).
                for event in opened.values():
                    await event.wait()
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
                    if self.think:
                        # Exponential: people's pauses vary, and so do the arrivals.
                        await asyncio.sleep(rng.expovariate(1.0 / self.think))
                    sent = time.perf_counter()
                    if path == "play":
                        self.sent.setdefault(match_id, {})[version + 1] = (seat, sent)
                    status, new = await client.request(
                        "POST", f"/api/online/{match_id}/{path}", body, seats[seat]
                    )
                    if status != 200:
                        self.refused[status] = self.refused.get(status, 0) + 1
                        turn.clear()
                        await turn.wait()
                        continue
                    self.answered.append(time.perf_counter() - sent)
                    self.actions += 1
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
        """One pair of players, with a connection of its own for their requests (and
        one for each of their event streams)."""
        async with Connection(self.url, address(number)) as client:
            await self.match(client, number)


def address(number: int) -> str | None:
    """The loopback address pair ``number`` connects from, one a pair, as two people at
    home would (the server caps the event streams and the players of one address); the
    system's choice off Linux, where only 127.0.0.1 may be on the loopback."""
    if not sys.platform.startswith("linux"):
        return None
    return f"127.0.{(number + 2) // 256}.{(number + 2) % 256}"


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


def one_load(
    db: str, matches: int, seconds: float, build: str | None, think: float = 0.0
) -> dict[str, Any]:
    """One load on a server of ``build`` (``None``: this one), each player pausing
    ``think`` seconds on average before an action: its figures."""
    with serving(db, build) as (url, pid):
        load = Load(url, seconds, think)
        cpu = cpu_seconds(pid)
        own = cpu_seconds(os.getpid())
        elapsed = asyncio.run(load.run(matches))
        cpu = cpu_seconds(pid) - cpu
        own = cpu_seconds(os.getpid()) - own
    ms = 1000.0
    return {
        "actions": load.actions,
        "elapsed": elapsed,
        "per_second": load.actions / elapsed,
        "server_cpu": cpu,
        "server_cpu_per_action": cpu / max(1, load.actions) * ms,
        "clients_cpu": own,
        "refused": load.refused,
        "answered": (percentile(load.answered, 0.5) * ms, percentile(load.answered, 0.99) * ms),
        "heard": (percentile(load.heard, 0.5) * ms, percentile(load.heard, 0.99) * ms),
        "heard_count": len(load.heard),
        "opening": (percentile(load.opening, 0.5) * ms, percentile(load.opening, 0.99) * ms),
        "opening_count": len(load.opening),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite", help="sqlite, postgres or a --db URL")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument(
        "--against",
        metavar="FOLDER",
        help="also serve the buttonup package in FOLDER (another build's python/ folder, "
        "its extension module built), alternated with this one, a fresh database each",
    )
    parser.add_argument("--rounds", type=int, default=1, help="loads of each build, alternated")
    parser.add_argument(
        "--think",
        default="0",
        metavar="MS[,MS...]",
        help="a player's mean pause before each action, in ms (0: at once); several: a load "
        "at each",
    )
    args = parser.parse_args()
    thinks = [float(ms) / 1000.0 for ms in args.think.split(",")]
    builds: list[str | None] = [None] if args.against is None else [args.against, None]
    rows: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            for pause, think in enumerate(thinks):
                for number, build in enumerate(builds):
                    place = f"{folder}/{round_}-{pause}-{number}"
                    os.mkdir(place)
                    name = (build or "this build") + (
                        f", pausing {think * 1000:g} ms" if len(thinks) > 1 or think else ""
                    )
                    with contextmanager_for(args.db, place) as db:
                        row = one_load(db, args.matches, args.seconds, build, think)
                    rows.append((name, row))
        with contextmanager_for(args.db, folder) as db:
            took = commit_cost(db, args.commits)
    ms = 1000.0
    print(
        f"database: {args.db}; {args.matches} matches of two players, {args.seconds:.0f} s a load"
    )
    for name, row in rows:
        print(f"{name}:")
        print(
            f"  actions accepted: {row['actions']} in {row['elapsed']:.1f} s = "
            f"{row['per_second']:.0f}/s"
        )
        print(
            f"  server process CPU: {row['server_cpu']:.1f} s of {row['elapsed']:.1f} s "
            f"({row['server_cpu'] / row['elapsed']:.0%} of a core), "
            f"{row['server_cpu_per_action']:.2f} ms an action"
        )
        print(f"  clients' process CPU: {row['clients_cpu']:.1f} s")
        print(
            f"  refused (should be none but 409 races of a stream and an answer): {row['refused']}"
        )
        print(f"  move answered: p50 {row['answered'][0]:.1f} ms, p99 {row['answered'][1]:.1f} ms")
        print(
            f"  move to the other player's stream: p50 {row['heard'][0]:.1f} ms, "
            f"p99 {row['heard'][1]:.1f} ms ({row['heard_count']} moves)"
        )
        print(
            f"  a stream asked for to its first event: p50 {row['opening'][0]:.1f} ms, "
            f"p99 {row['opening'][1]:.1f} ms ({row['opening_count']} streams)"
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
