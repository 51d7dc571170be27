"""Where the online matches live: one small storage layer over SQLite (the default, the
standard library's ``sqlite3``) and PostgreSQL (the ``postgres`` extra, psycopg 3).

One row per match (its seats' token hashes, the invite's hash, its settings, the match
itself as the engine's record, its version, how it ended) and an append-only table of
actions, unique on (match, version): two writers can never both win the same version.
Every write is one transaction, committed before the call returns. The schema is
versioned (:mod:`buttonup.web.store.schema`). Calls are blocking: the server runs them
in the store's own threads (:class:`AsyncStore`), never on the event loop.
"""

from __future__ import annotations

import asyncio
import os
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from buttonup.web.store.base import (
    EXPIRE_SECONDS,
    Action,
    AiMatchRow,
    Change,
    Full,
    MatchRow,
    Stale,
    Store,
)
from buttonup.web.store.server_time import ALIVE_EVERY, ServerTime

T = TypeVar("T")

__all__ = [
    "EXPIRE_SECONDS",
    "Action",
    "AiMatchRow",
    "AsyncStore",
    "Change",
    "Full",
    "MatchRow",
    "Stale",
    "Store",
    "default_path",
    "default_url",
    "open_store",
]


def default_path() -> Path:
    """``$XDG_DATA_HOME/buttonup/matches.sqlite3`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "buttonup" / "matches.sqlite3"


def default_url() -> str:
    return f"sqlite:///{default_path()}"


def open_store(url: str) -> Store:
    """The store of ``url``: ``sqlite:///path`` (``sqlite://:memory:`` for one in
    memory) or ``postgresql://...``; its schema brought up to date."""
    if url.startswith("sqlite://"):
        from buttonup.web.store.sqlite import SqliteStore

        return SqliteStore(url.removeprefix("sqlite://") or ":memory:")
    if url.startswith(("postgresql://", "postgres://")):
        try:
            from buttonup.web.store.postgres import PostgresStore
        except ImportError as error:
            raise ValueError(
                f"a PostgreSQL database needs the postgres extra: pip install "
                f"'psycopg[binary]' (the postgres extra) ({error.name})"
            ) from None
        return PostgresStore(url)
    raise ValueError(f"--db: {url[:80]!r} is neither sqlite:///path nor postgresql://...")


def keep_alive(store: weakref.ref[AsyncStore], closed: threading.Event) -> None:
    """Notes every :data:`ALIVE_EVERY` seconds that the process serves, until the store
    is closed or gone (only a weak reference: a store nobody uses is let go)."""
    while not closed.wait(ALIVE_EVERY):
        serving = store()
        if serving is None:
            return
        try:
            serving.note_alive()
        except RuntimeError:  # its threads are shut down
            return
        del serving


def settle(done: asyncio.Future[None], outcome: BaseException | None) -> None:
    """Ends a waiter of a group commit (unless it gave up waiting: a cancelled request)."""
    if done.done():
        return
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)


@dataclass
class AsyncStore:
    """A store whose calls run in threads of its own, off the event loop; it is opened
    on first use (so that a server that never sees an online match writes nothing)."""

    url: str
    threads: int = 1
    _store: Store | None = None
    _pool: ThreadPoolExecutor = field(init=False)
    _opening: threading.Lock = field(default_factory=threading.Lock)
    _grouping: threading.Lock = field(default_factory=threading.Lock)
    _waiting: list[tuple[Change, asyncio.Future[None]]] = field(default_factory=list)
    _flushing: bool = False
    _time: ServerTime | None = None
    _closed: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="store")

    def store(self) -> Store:
        """The store, opened (and its schema migrated) on first call; from then on, a
        thread of its own notes every :data:`ALIVE_EVERY` seconds that it serves."""
        with self._opening:
            if self._store is None:
                store = open_store(self.url)
                self._time = ServerTime(store.alive())
                store.note_alive(self._time.now())
                self._store = store
                threading.Thread(
                    target=keep_alive,
                    args=(weakref.ref(self), self._closed),
                    name="store-alive",
                    daemon=True,
                ).start()
            return self._store

    async def opened(self) -> None:
        """Opens the store, if it is not yet, in its own thread (not on the loop)."""
        if self._store is None:
            await self.call(lambda store: store)

    def now(self) -> float:
        """Server time now (:class:`ServerTime`: what every stored time is in), the
        store opened if it was not."""
        if self._time is None:
            self.store()
        assert self._time is not None
        return self._time.now()

    def note_alive(self) -> None:
        """Notes in the store that this process serves (in the store's thread)."""
        self._pool.submit(lambda: self.store().note_alive(self.now()))

    async def call(self, work: Callable[[Store], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: work(self.store()))

    async def commit(self, change: Change) -> None:
        """:meth:`Store.commit` of ``change``, in a group commit with the changes that
        wait at the same moment (:meth:`Store.commit_many`: one transaction and one
        sync for all, each change refused alone): under load, the moves of many
        matches share a sync and a trip to the store's thread. Returns once the
        change is durable; raises its refusal (:class:`Stale`) or the store's error."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self._grouping:
            self._waiting.append((change, done))
            start = not self._flushing
            self._flushing = True
        if start:
            loop.run_in_executor(self._pool, self._flush)
        await done

    def _flush(self) -> None:
        """Commits the waiting changes, group after group, until none waits (in the
        store's thread); tells each waiter, on its own loop, how its change went."""
        while True:
            with self._grouping:
                group, self._waiting = self._waiting, []
                if not group:
                    self._flushing = False  # with the lock held: a new waiter flushes
                    return
            try:
                outcomes: list[BaseException | None] = list(
                    self.store().commit_many([change for change, _ in group])
                )
            except Exception as error:  # the transaction failed: nothing is written
                outcomes = [error] * len(group)
            for (_, done), outcome in zip(group, outcomes):
                try:
                    done.get_loop().call_soon_threadsafe(settle, done, outcome)
                except RuntimeError:  # its loop is closed: nobody waits any more
                    pass

    def close(self) -> None:
        self._closed.set()
        self._pool.shutdown(wait=False)
        if self._store is not None:
            self._store.close()
