"""The rows of the online store and the interface that every store implements
(:class:`Store`), re-exported by :mod:`buttonup.web.store`; the SQL stores build on it."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: Unfinished matches left without a move this long are deleted (never by count).
EXPIRE_SECONDS = 30 * 24 * 3600.0
#: A player's last sighting is written again once it is this old (a day: far finer
#: than the expiry, and at most one write a day per player).
SEEN_SECONDS = 24 * 3600.0


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
class Change:
    """One change to commit: ``row`` at version ``before + 1``, and its action."""

    row: MatchRow
    before: int
    kind: str
    value: str


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
    version: int = 1
    """1 when first saved, one more at each change."""
    opponent: str | None = None
    """One of the server's extra opponents, by name, instead of the AI at ``level``."""


class Stale(Exception):
    """The match is no longer at the version the write started from."""


class Full(Exception):
    """The maker has as many matches waiting for their second player (or as many
    players in no match, or unfinished matches against the AI) as allowed."""


class Store(ABC):
    """The storage of online matches (blocking calls; one transaction each)."""

    #: Whether changes made through other processes are announced (:meth:`listen`).
    announces = False

    @abstractmethod
    def add_player(
        self, token_hash: str, now: float, maker: str | None = None, cap: int | None = None
    ) -> None:
        """Stores a new player made by ``maker`` (a digest of the client's address);
        with ``cap``, :class:`Full` instead when that many of the maker's players are in
        no match yet (counted and written in one transaction, as :meth:`add_match`)."""

    @abstractmethod
    def has_player(self, token_hash: str, now: float | None = None) -> bool:
        """Whether ``token_hash`` is a player's; with ``now``, he is seen at ``now``
        (written at most once per :data:`SEEN_SECONDS`, so that a check is a read)."""

    @abstractmethod
    def add_match(self, row: MatchRow, maker: str | None = None, cap: int | None = None) -> None:
        """Stores a new match made by ``maker`` (a digest of the client's address);
        with ``cap``, :class:`Full` instead when that many of the maker's matches wait
        for their second player already (counted and written in one transaction, so
        that requests at once, from any process, cannot all pass)."""

    @abstractmethod
    def load(self, match_id: str) -> MatchRow | None: ...

    def commit(self, row: MatchRow, before: int, kind: str, value: str) -> None:
        """Writes ``row`` (at version ``before + 1``) and its action, in one
        transaction; :class:`Stale` (nothing written) if the match is no longer at
        version ``before``."""
        refused = self.commit_many([Change(row, before, kind, value)])[0]
        if refused is not None:
            raise refused

    @abstractmethod
    def commit_many(self, changes: list[Change]) -> list[Exception | None]:
        """Writes the ``changes`` in order, as :meth:`commit` writes one, in one
        transaction synced once (a group commit: what a busy server's concurrent moves
        share): each change's refusal (:class:`Stale`, nothing of it written) in its
        place, ``None`` for one written. An error of the transaction itself (the
        database gone) is raised: none of them is written."""

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
        """Deletes the unfinished matches not changed since ``before``, then the players
        seated in no match and not seen since ``before``; how many matches."""

    @abstractmethod
    def schema_version(self) -> int: ...

    @abstractmethod
    def alive(self) -> float | None:
        """The server time a serving process last noted, or the last change of a match
        if it came later (``None``: neither)."""

    @abstractmethod
    def note_alive(self, at: float) -> None:
        """Notes that a process serves at server time ``at`` (kept if later than the
        one noted)."""

    @abstractmethod
    def save_ai_match(
        self, row: AiMatchRow, before: int = 0, maker: str | None = None, cap: int | None = None
    ) -> None:
        """Writes the page's match ``row`` at version ``before + 1``: new when
        ``before`` is 0, else over the one of that id if it is still at version
        ``before`` (:class:`Stale`, nothing written, if not). A new one from ``maker``
        (a digest of the client's address) is refused (:class:`Full`) when ``cap`` of
        his are unfinished."""

    @abstractmethod
    def load_ai_match(self, match_id: str) -> AiMatchRow | None: ...

    @abstractmethod
    def ai_match_version(self, match_id: str) -> int | None:
        """The stored version of the page's match ``match_id`` (``None``: none)."""

    @abstractmethod
    def expire_ai_matches(self, before: float) -> int:
        """Deletes the page's unfinished matches not changed since ``before``; how many."""

    def listen(self, deliver: Callable[[str, int], None], stop: threading.Event) -> None:
        """Calls ``deliver(match, version)`` for every change committed by any process
        until ``stop`` is set (only where :attr:`announces`)."""
        return None

    @abstractmethod
    def close(self) -> None: ...
