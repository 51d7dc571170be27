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
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: Unfinished matches left without a move this long are deleted (never by count).
EXPIRE_SECONDS = 30 * 24 * 3600.0


@dataclass(frozen=True)
class MatchRow:
    """One stored match. ``red`` and ``black`` are the SHA-256 (hex) of the tokens of
    the players seated there (``None``: free), ``invite`` that of the invite code;
    ``state`` is the engine's record of the match (``Match.__getstate__``)."""

    id: str
    red: str | None
    black: str | None
    invite: str
    host: str
    settings: dict[str, Any]
    state: str
    version: int
    ended: str | None  # "won", "resigned", "time"
    winner: str | None
    created: float
    updated: float

    def seat(self, letter: str) -> str | None:
        return self.red if letter == "r" else self.black


@dataclass(frozen=True)
class Action:
    """One accepted change of a match: its version after it, what it was, when."""

    match: str
    version: int
    kind: str
    value: str
    at: float


@dataclass(frozen=True)
class AiMatchRow:
    """One stored match of the page against the AI (or pass and play, ``players``
    2): the match as the engine's record (``Match.__getstate__``), the human's side,
    the AI's level and seed (``None``: none)."""

    id: str
    state: str
    human: str
    level: int
    players: int
    seed: int | None
    finished: bool
    created: float
    updated: float


class Stale(Exception):
    """The match is no longer at the version the write started from."""


class Store(ABC):
    """The storage of online matches (blocking calls; one transaction each)."""

    #: Whether changes made through other processes are announced (:meth:`listen`).
    announces = False

    @abstractmethod
    def add_player(self, token_hash: str, now: float) -> None: ...

    @abstractmethod
    def has_player(self, token_hash: str) -> bool: ...

    @abstractmethod
    def add_match(self, row: MatchRow) -> None: ...

    @abstractmethod
    def load(self, match_id: str) -> MatchRow | None: ...

    @abstractmethod
    def commit(self, row: MatchRow, before: int, kind: str, value: str) -> None:
        """Writes ``row`` (at version ``before + 1``) and its action, in one
        transaction; :class:`Stale` (nothing written) if the match is no longer at
        version ``before``."""

    @abstractmethod
    def actions(self, match_id: str) -> list[Action]: ...

    @abstractmethod
    def action(self, match_id: str, version: int) -> Action | None:
        """The change that brought the match to ``version``."""

    @abstractmethod
    def mine(self, token_hash: str, limit: int) -> list[MatchRow]:
        """The matches where ``token_hash`` holds a seat, the latest changed first."""

    @abstractmethod
    def expire(self, before: float) -> int:
        """Deletes the unfinished matches not changed since ``before``; how many."""

    @abstractmethod
    def schema_version(self) -> int: ...

    @abstractmethod
    def save_ai_match(self, row: AiMatchRow) -> None:
        """Writes the page's match ``row`` (new, or over the one of that id)."""

    @abstractmethod
    def load_ai_match(self, match_id: str) -> AiMatchRow | None: ...

    @abstractmethod
    def expire_ai_matches(self, before: float) -> int:
        """Deletes the page's unfinished matches not changed since ``before``; how many."""

    def listen(self, deliver: Callable[[str, int], None], stop: threading.Event) -> None:
        """Calls ``deliver(match, version)`` for every change committed by any process
        until ``stop`` is set (only where :attr:`announces`)."""
        return None

    @abstractmethod
    def close(self) -> None: ...


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
                f"'buttonup[postgres]' ({error.name})"
            ) from None
        return PostgresStore(url)
    raise ValueError(f"--db: {url[:80]!r} is neither sqlite:///path nor postgresql://...")


@dataclass
class AsyncStore:
    """A store whose calls run in threads of its own, off the event loop; it is opened
    on first use (so that a server that never sees an online match writes nothing)."""

    url: str
    threads: int = 1
    _store: Store | None = None
    _pool: ThreadPoolExecutor = field(init=False)
    _opening: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="store")

    def store(self) -> Store:
        """The store, opened (and its schema migrated) on first call."""
        with self._opening:
            if self._store is None:
                self._store = open_store(self.url)
            return self._store

    async def call(self, work: Callable[[Store], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: work(self.store()))

    def close(self) -> None:
        self._pool.shutdown(wait=False)
        if self._store is not None:
            self._store.close()
