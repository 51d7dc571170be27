"""What the web app's answers are made of: the searches' lanes and their limits, and the
matches of the page with their AI (``buttonup.ai.bot``); the JSON is in
:mod:`buttonup.web.views`.

Every answer comes from the library: the rules engine (moves with their outcome,
scoring), the AI, the search, the match state machine and the match odds. Searches run
off the event loop in small pools of threads (the GIL is released), each capped in time.
Cheap requests (positions of at most :data:`CHEAP_BUTTONS` buttons, which the engine
solves in well under a millisecond) have a lane of their own, so heavy ones cannot
starve them; when too many wait in a lane, the answer is 503. When the server stops,
every request still waiting is answered 503 at once.

The page's matches live in the database (:mod:`buttonup.web.store`): each change is
committed before it is answered, and a match not in memory is read back from there;
memory holds the last :data:`CACHED_MATCHES` used, as a cache only.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from buttonup._core import Match, Position, Session, analysis_view
from buttonup.ai import Bot, Limits, bot
from buttonup.player import Player
from buttonup.players import BotFactory
from buttonup.web.store import EXPIRE_SECONDS, AiMatchRow, AsyncStore, Full, Stale

T = TypeVar("T")

#: Positions of at most this many buttons go to the cheap lane (the standard game has 9).
CHEAP_BUTTONS = 12
#: The page's matches kept in memory (those left alone longest leave it first; they stay
#: in the database, read back when asked for).
CACHED_MATCHES = 1_000
#: Seconds between two sweeps of the page's expired matches.
SWEEP_SECONDS = 3600.0


class Busy(Exception):
    """Too many searches are waiting in a lane."""


class Stopping(Exception):
    """The server is stopping: the request's work will not be waited for."""


class Conflict(Exception):
    """Another request on the same match is being answered."""


class NotFound(LookupError):
    """No such match."""


class TooMany(Exception):
    """429: this client has made as many of something as one address may: matches
    against the AI unfinished, online matches waiting for their second player, players
    in no match, event streams open."""


#: Unfinished matches against the AI (or pass and play) made from one client address
#: that the store keeps at once (a school's network behind one address, a few dozen
#: each); one more is answered 429. They expire like the online matches.
AI_MATCHES_PER_CLIENT = 1_000


def maker_of(client: str) -> str:
    """Who made a stored row: a digest of the client's address (the address itself is
    not stored)."""
    return hashlib.sha256(f"maker {client}".encode()).hexdigest()


def buttons(position: Position) -> int:
    return sum(len(pile) for pile in position.piles)


@dataclass
class Entry:
    """One match of the page: the core's session of it (the match, who sits at its
    screen, the chart; the offline page keeps the same), the AI facing the person, the
    client that made it, and the lock every request that changes it holds."""

    session: Session
    level: int
    ai: Bot
    client: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    used: float = field(default_factory=time.monotonic)
    seed: int | None = None
    """The AI's seed (kept with the match, so that a match read back has the same AI)."""
    created: float = field(default_factory=time.time)
    version: int = 0
    """The stored version this copy was read at or last saved as (0: never saved)."""
    opponent: str | None = None
    """The server's extra opponent the human faces, by name (``None``: the AI at
    ``level``)."""

    @property
    def match(self) -> Match:
        """The match (a copy: every change goes through :attr:`session`)."""
        return self.session.match

    @property
    def human(self) -> Player:
        return Player.of(self.session.human)

    @property
    def players(self) -> int:
        """2: pass and play, both sides people at one screen (the AI is never asked)."""
        return self.session.players

    @property
    def ai_name(self) -> str:
        """Who the human plays: ``buttonup level N``, or the extra opponent's name."""
        return self.opponent if self.opponent is not None else f"buttonup level {self.level}"

    def battle(self, number: int, ply: int | None = None) -> tuple[Position, tuple[int, ...]]:
        """Battle ``number``'s start and its moves so far (or its first ``ply``); a
        battle the match does not have, or more moves than it has, is a 404 in the
        core's words."""
        try:
            start, moves = self.session.battle(number, ply)
        except ValueError as refused:
            raise NotFound(str(refused)) from None
        return start, tuple(moves)


class Lane:
    """A pool of threads with a cap on the requests waiting for it."""

    def __init__(self, name: str, workers: int, max_pending: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self.max_pending = max_pending
        self.pending = 0  # counted on the event loop only


class Service:
    """The searches' lanes, the limits, and the matches of the page."""

    def __init__(self, workers: int, max_pending: int, search_seconds: float) -> None:
        self.heavy = Lane("search", workers, max_pending)
        self.cheap = Lane("quick", 1, max_pending)
        self.search_seconds = search_seconds
        self.matches: OrderedDict[str, Entry] = OrderedDict()
        self.db: AsyncStore | None = None
        """Where the page's matches are kept (set by the app: the online matches' store)."""
        self.expire_seconds = EXPIRE_SECONDS
        self.opponents: dict[str, BotFactory] = {}
        """The players offered besides the levels, by name (set by the app)."""
        self.swept = -SWEEP_SECONDS
        self._closing: dict[asyncio.AbstractEventLoop, asyncio.Future[None]] = {}
        self._closing_lock = threading.RLock()  # close() may run in a signal handler
        self.closed = False
        self.running = 0

    # --- running work off the loop ---------------------------------------------------
    def lane(self, position: Position | None) -> Lane:
        """The cheap lane for a small position, else the heavy one (match odds too)."""
        if position is not None and buttons(position) <= CHEAP_BUTTONS:
            return self.cheap
        return self.heavy

    async def run(self, work: Callable[[], T], position: Position | None = None) -> T:
        """``work`` in the lane of ``position``; 503 (:class:`Busy`) when the lane is
        full, :class:`Stopping` when the server stops first."""
        lane = self.lane(position)
        if self.closed:
            raise Stopping
        if lane.pending >= lane.max_pending:
            raise Busy
        loop = asyncio.get_running_loop()
        lane.pending += 1
        try:
            future = loop.run_in_executor(lane.pool, self._counted, work)
            closing = self._closing_future(loop)
            either: set[asyncio.Future[Any]] = {future, closing}
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if future.done() and not future.cancelled():
                return future.result()
            future.cancel()  # if not yet started, it never will
            raise Stopping
        finally:
            lane.pending -= 1

    def _closing_future(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[None]:
        with self._closing_lock:
            future = self._closing.get(loop)
            if future is None:
                future = self._closing[loop] = loop.create_future()
                if self.closed:
                    future.set_result(None)
            return future

    def close(self) -> None:
        """Answers every waiting request 503 now (safe from a signal handler and from
        any thread); the work already running is left to end by its time cap."""
        with self._closing_lock:
            self.closed = True
            for loop, future in self._closing.items():
                if not loop.is_closed():
                    loop.call_soon_threadsafe(_finish, future)
        for lane in (self.heavy, self.cheap):
            lane.pool.shutdown(wait=False, cancel_futures=True)

    def _counted(self, work: Callable[[], T]) -> T:
        with self._closing_lock:
            self.running += 1
        try:
            return work()
        finally:
            with self._closing_lock:
                self.running -= 1

    def busy(self) -> bool:
        """Whether a pool thread still runs work."""
        with self._closing_lock:
            return self.running > 0

    # --- searching ------------------------------------------------------------------
    def analysis(self, position: Position) -> dict[str, Any]:
        """Every move's exact value for the side to move and the best line, when the
        engine solves them within the time cap; else the capped search's best line and
        value only (``exact`` false): the core's analysis."""
        return analysis_view(position, self.search_seconds)

    def best_move(self, ai: Bot, position: Position, match: Match | None) -> dict[str, Any]:
        """The AI's move, and how it was chosen (for a level's bot)."""
        move = ai.choose(position, match)
        if getattr(ai, "last_random", False):
            return {"move": move, "random": True}
        searched = getattr(ai, "last_search", None)
        if searched is not None:
            return {"move": move, "value": searched.value, "exact": searched.exact}
        return {"move": move}

    def opponent(self, name: str) -> BotFactory:
        """The extra opponent ``name``; a ``ValueError`` naming those there are."""
        make = self.opponents.get(name)
        if make is None:
            known = ", ".join(sorted(self.opponents)) or "none"
            raise ValueError(f"opponent: no opponent {name!r} here (known: {known})")
        return make

    def limits(self, seconds: float) -> Limits:
        """A search of ``seconds``, within the server's cap."""
        return Limits(time_limit=min(seconds, self.search_seconds))

    # --- matches --------------------------------------------------------------------
    def add(
        self,
        match: Match,
        client: str,
        human: Player,
        level: int,
        seed: int | None,
        players: int = 1,
        opponent: str | None = None,
    ) -> str:
        """Keeps ``match`` of ``client``'s against the AI at ``level`` (or the extra
        opponent named ``opponent``) in memory under a new unguessable key
        (:meth:`save` stores it)."""
        entry = self.entry_of(match, human, level, seed, client, players, opponent)
        key = secrets.token_urlsafe(16)
        self.cache(key, entry)
        return key

    def entry_of(
        self,
        match: Match,
        human: Player,
        level: int,
        seed: int | None,
        client: str,
        players: int,
        opponent: str | None = None,
    ) -> Entry:
        session = Session(match, human, players=players, cap=self.search_seconds)
        if opponent is None:
            ai: Bot = bot(level, seed, limits=Limits(time_limit=session.ai_time))
        else:
            ai = self.opponent(opponent)(seed or 0)
        return Entry(session, level, ai, client, seed=seed, opponent=opponent)

    def cache(self, key: str, entry: Entry) -> Entry:
        """Keeps ``entry`` in memory; past :data:`CACHED_MATCHES` the ones left alone
        longest leave memory (never one a request holds; the database keeps them)."""
        self.matches[key] = entry
        self.matches.move_to_end(key)
        extra = len(self.matches) - CACHED_MATCHES
        for old in [k for k, e in self.matches.items() if not e.lock.locked()][: max(0, extra)]:
            del self.matches[old]
        return entry

    def entry(self, key: str) -> Entry:
        """The match ``key`` if it is in memory (:meth:`fetch` reads the database too)."""
        entry = self.matches.get(key)
        if entry is None:
            raise NotFound(f"no match {key[:64]!r} (or it expired)")
        entry.used = time.monotonic()
        self.matches.move_to_end(key)
        return entry

    async def fetch(self, key: str) -> Entry:
        """The match ``key``: from memory while the database holds no newer version of
        it (another process moved), else read back from there (its chart's points
        rebuilt as for an imported match)."""
        await self.sweep()
        if self.db is None:
            return self.entry(key)
        cached = self.matches.get(key)
        if cached is not None:
            if cached.lock.locked():  # a request of ours holds it: its save checks
                return self.entry(key)
            stored = await self.db.call(lambda store: store.ai_match_version(key[:64]))
            if stored is not None and stored <= cached.version:
                return self.entry(key)
            if self.matches.get(key) is cached:
                del self.matches[key]
        found = await self.db.call(lambda store: store.load_ai_match(key[:64]))
        if key in self.matches:  # read back meanwhile by another request
            return self.entry(key)
        if found is None:
            raise NotFound(f"no match {key[:64]!r} (or it expired)")
        match = Match.__new__(Match)
        match.__setstate__(found.state)
        entry = self.entry_of(
            match,
            Player.of(found.human),
            found.level,
            found.seed,
            "?",
            found.players,
            found.opponent,
        )
        entry.created = found.created
        entry.version = found.version
        await self.run(entry.session.backfill, match.position)
        if key in self.matches:
            return self.entry(key)
        self.cache(key, entry)
        return self.entry(key)

    async def save(self, key: str, entry: Entry) -> None:
        """Commits the match ``key`` as it stands (before its answer), at the next
        version after the one it was read at: :class:`Conflict` (409) if another
        process saved it meanwhile. If the save fails, memory forgets the match, so
        that the next request reads the last one committed."""
        db = self.db
        if db is None:
            return
        await db.opened()
        before = entry.version
        row = AiMatchRow(
            id=key,
            state=entry.match.__getstate__(),
            human=entry.human.letter,
            level=entry.level,
            players=entry.players,
            seed=entry.seed,
            finished=entry.match.is_over,
            created=entry.created,
            updated=db.now(),
            version=before + 1,
            opponent=entry.opponent,
        )
        maker = maker_of(entry.client) if before == 0 else None
        try:
            await db.call(
                lambda store: store.save_ai_match(row, before, maker, AI_MATCHES_PER_CLIENT)
            )
        except BaseException as error:
            if self.matches.get(key) is entry:
                del self.matches[key]
            if isinstance(error, Stale):
                raise Conflict(
                    "another change of this match was accepted first: reload it"
                ) from None
            if isinstance(error, Full):
                raise TooMany(
                    f"{AI_MATCHES_PER_CLIENT} unfinished matches made from your address are "
                    "stored: finish some, or wait for them to expire"
                ) from None
            raise
        entry.version = before + 1
        await self.sweep()

    async def sweep(self) -> None:
        """Deletes the unfinished matches left alone longer than :attr:`expire_seconds`
        (hourly; in memory too), never because there are many."""
        now, db = time.monotonic(), self.db
        if db is None or now - self.swept < SWEEP_SECONDS:
            return
        self.swept = now
        for key in [
            k
            for k, e in self.matches.items()
            if now - e.used > self.expire_seconds and not e.match.is_over and not e.lock.locked()
        ]:
            del self.matches[key]
        await db.opened()
        before = db.now() - self.expire_seconds
        await db.call(lambda store: store.expire_ai_matches(before))


def _finish(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
