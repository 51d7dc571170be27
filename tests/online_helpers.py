"""What the online tests share (tests/test_online_*.py): a player of the JSON API, a
`buttonup serve` subprocess on a free loopback port with a database of its own, an app
on uvicorn in a thread of the test, and a
throwaway PostgreSQL cluster (Debian's postgresql, started as the ``postgres`` user when
the tests run as root), skipped with a one-line reason where it cannot start, unless
``BUTTONUP_REQUIRE_POSTGRES`` (CI) makes that a failure."""

from __future__ import annotations

import contextlib
import glob
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from processes import end, free_port, popen, run


@contextlib.contextmanager
def in_a_thread(app: Any, *, patience: float, **options: Any) -> Iterator[int]:
    """``app`` on uvicorn (with ``options`` for its config) in a thread of the test, on a
    free loopback port: its port once it listens. Told to exit at the end, whatever the
    outcome; each wait, its start and its end, is ``patience`` seconds at the most."""
    import uvicorn  # the web extra: test_policies imports this module without it

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning", **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + patience
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=patience)


class Server:
    """`buttonup serve --db DB` on a free loopback port, started and answering (in a
    session of its own, SIGINT at its default); its user ends it with ``stop`` (or
    ``kill``) in a ``finally``."""

    def __init__(self, db: str, *arguments: str) -> None:
        self.db = db
        self.arguments = arguments
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        command = [sys.executable, "-m", "buttonup", "serve", "--port", str(self.port)]
        self.process = popen(
            [*command, "--db", self.db, *self.arguments],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60  # a loaded machine starts Python slowly
        try:
            while True:
                try:
                    if httpx.get(f"{self.url}/api/levels", timeout=2).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if self.process.poll() is not None:
                    raise RuntimeError(f"buttonup serve ended: {self.process.stderr.read()!r}")  # type: ignore[union-attr]
                if time.monotonic() > deadline:
                    raise RuntimeError("buttonup serve did not answer within 60 s")
                time.sleep(0.05)
        except BaseException:
            end(self.process)
            raise

    def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed or closed."""
        assert self.process is not None
        end(self.process)

    def stop(self) -> int:
        """Ctrl-C (SIGINT), 30 s to end, then its group killed: its exit status."""
        assert self.process is not None
        try:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)
                self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        finally:
            end(self.process)
        return int(self.process.returncode)


class Player:
    """One person of the online API: his token (from ``POST /api/players``), his calls."""

    def __init__(self, client: Any) -> None:
        self.client = client  # an httpx.Client, or the app's TestClient
        answer = client.post("/api/players")
        assert answer.status_code == 200, answer.text
        self.token = answer.json()["token"]
        self.headers = {"authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body if body is not None else {}, headers=self.headers)

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)


def events(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The server-sent events of a stream's lines: each ``{"id", "event", "data"}``."""
    current: dict[str, Any] = {}
    for line in lines:
        if line == "":
            if "data" in current:
                current["data"] = json.loads(current["data"])
                yield current
            current = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            current[name] = value


# --- PostgreSQL ---------------------------------------------------------------------


def _no_postgres(reason: str) -> None:
    if os.environ.get("BUTTONUP_REQUIRE_POSTGRES"):
        pytest.fail(f"BUTTONUP_REQUIRE_POSTGRES is set, but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[tuple[str, int, list[str]]]:
    """A throwaway PostgreSQL cluster in a temporary folder, listening on a unix socket
    there (and no TCP address): its socket folder, port and the prefix that runs its
    tools as the cluster's owner."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _no_postgres("psycopg is not installed (in a clone: pip install '.[postgres]')")
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb")) or [shutil.which("initdb") or ""]
    initdb = found[-1]
    if not initdb:
        _no_postgres("PostgreSQL's initdb was not found (apt-get install postgresql)")
    bin_dir = Path(initdb).parent
    as_owner: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="buttonup-pg-"))
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        as_owner = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    port = free_port()
    data = folder / "data"
    try:
        run(
            [*as_owner, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        options = f"-k {folder} -p {port} -c listen_addresses='' -c max_connections=200"
        run(
            [
                *as_owner,
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(folder / "log"),
                "-w",
                "start",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    except (OSError, subprocess.SubprocessError) as error:
        shutil.rmtree(folder, ignore_errors=True)
        _no_postgres(f"a throwaway PostgreSQL cluster could not start ({error})")
    try:
        yield str(folder), port, [*as_owner, str(bin_dir)]
    finally:
        run(
            [*as_owner, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=120,
        )
        shutil.rmtree(folder, ignore_errors=True)


def new_database(server: tuple[str, int, list[str]], name: str) -> str:
    """A new empty database on the throwaway cluster; its URL."""
    folder, port, tools = server
    *as_owner, bin_dir = tools
    run(
        [*as_owner, f"{bin_dir}/createdb", "-h", folder, "-p", str(port), "-U", "postgres", name],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return f"postgresql://postgres@/{name}?host={folder}&port={port}"


_database_numbers = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new empty database: a SQLite file, then (a second run) a database on
    the throwaway PostgreSQL cluster of ``postgres_server``, which a module that uses
    this fixture imports too."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'matches.sqlite3'}"
    server = request.getfixturevalue("postgres_server")
    return new_database(server, f"test{next(_database_numbers)}")
