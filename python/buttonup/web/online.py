"""The online matches between two players (docs/online.md): tokens,
seats, the actions and their refusals, all committed to the store before they are
answered, and the announcements of every change to the event streams.

A player token and an invite code are unguessable (``secrets.token_urlsafe``); only
their SHA-256 is stored, and a token is matched against a seat in constant time. Every
write names the version it was made against; the store accepts it only if the match is
still there (:class:`buttonup.web.store.Stale` otherwise: 409, nothing changed).

The event streams are capped per match and per client address (:class:`Broker`); the
change that wakes them is read from the store once for all the streams of its match
(:meth:`Online.newest`, :meth:`Online.once`), and who is online is the broker's own
count, so that idle streams cost the server linear CPU and memory.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, NamedTuple, TypeVar

from buttonup._core import Match
from buttonup.web import online_clock
from buttonup.web.guard import connection_cap
from buttonup.web.online_views import StateView, battle_encoded, restore, state_view
from buttonup.web.service import Conflict, NotFound, Service, Stopping, TooMany, maker_of
from buttonup.web.store import EXPIRE_SECONDS, AsyncStore, Change, Full, MatchRow, Stale

#: What a player token or an invite code looks like (``secrets.token_urlsafe``).
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")
#: The matches listed on a player's page.
MINE_LIMIT = 200
#: Seconds between two sweeps of the expired matches.
SWEEP_SECONDS = 3600.0
#: Online matches made from one client address that may wait for their second player
#: at once, counted in the store (whatever process made them); one more is answered 429.
WAITING_PER_CLIENT = 50
#: Players made from one client address that may be in no match at once (a browser
#: makes one; a school's network behind one address, a few dozen), counted in the store.
IDLE_PLAYERS_PER_CLIENT = 100
#: Spectators' event streams of one match open at once in this process; one more is
#: answered 429. A player's own streams (opened with the seat's ``stream_key``) are
#: never counted among them.
SPECTATORS_PER_MATCH = 12
#: Event streams of one seat of a match open at once in this process (its player on a
#: device or two, a few tabs); one more is answered 429.
STREAMS_PER_SEAT = 4
#: Spectators' event streams open at once in this process from one client address (two
#: browsers with a few tabs each watching matches); one more is answered 429.
STREAMS_PER_CLIENT = 32
#: The share of the server's connections that event streams may hold at once, and the
#: share of that which spectators may: the other connections always serve moves and
#: states, and the rest of the streams' share the players' own streams.
STREAMS_SHARE = 0.5
SPECTATORS_SHARE = 0.75
#: Seconds an event stream stays open; it then ends, and the browser opens a new one
#: (EventSource does so by itself), counted against the caps again.
STREAM_SECONDS = 600.0
#: Matches whose newest row this process keeps for their streams (the least recently
#: changed forgotten first: a stream of one forgotten reads it again, once).
KEPT_ROWS = 1024

T = TypeVar("T")


class Unauthorized(Exception):
    """401: no player token, or one this server never issued."""


class Forbidden(Exception):
    """403: the token holds no seat that may do this."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def stream_key(row: MatchRow, seat: str | None) -> str | None:
    """The key of ``seat``'s own event streams of ``row``'s match (``None``: no such
    seat taken): told to its player alone, in his state, it shows that a stream is his.
    It is made from his token's digest, which only the server holds."""
    held = row.seat(seat) if seat in ("r", "b") else None
    if held is None:
        return None
    return hashlib.sha256(f"stream {row.id} {held}".encode()).hexdigest()[:32]


def seat_of(row: MatchRow, token: str | None) -> str | None:
    """The seat ``token`` holds in the match (``None``: none), compared in constant
    time against both seats."""
    if token is None:
        return None
    mine = digest(token)
    found = None
    for side in "rb":
        stored = row.seat(side)
        if hmac.compare_digest(stored or "", mine) and stored is not None:
            found = side
    return found


class Listener(NamedTuple):
    """One open event stream: where to wake it, the seat it says it listens for (``""``:
    a spectator) and the client address it came from."""

    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[Any]
    seat: str
    client: str


class Broker:
    """The open event streams of this process, by match: capped per seat, spectators
    per match and per client address, and all of them below ``most`` (spectators below
    :data:`SPECTATORS_SHARE` of it); wakes them on every change (safe from any thread:
    the PostgreSQL listener calls it from its own)."""

    def __init__(self, most: int = 1024) -> None:
        self.most = most
        self.open = 0
        """How many streams are open."""
        self.spectators = 0
        self.lock = threading.Lock()
        self.streams: dict[str, list[Listener]] = {}
        self.clients: dict[str, int] = {}
        """How many spectators' streams each client address holds open."""
        self.closed = False

    def refusal(self, streams: list[Listener], seat: str, client: str) -> str | None:
        """Why a new stream of ``seat`` (``""``: a spectator) is refused, if it is."""
        if seat:
            if sum(entry.seat == seat for entry in streams) >= STREAMS_PER_SEAT:
                return f"{STREAMS_PER_SEAT} event streams of your seat are open: close one first"
            if self.open >= self.most:
                return "the server's event streams are all open: try again shortly"
            return None
        if sum(not entry.seat for entry in streams) >= SPECTATORS_PER_MATCH:
            return (
                f"{SPECTATORS_PER_MATCH} spectators' event streams of this match are open: "
                "try again later"
            )
        if self.clients.get(client, 0) >= STREAMS_PER_CLIENT:
            return f"{STREAMS_PER_CLIENT} event streams are open from your address: close one first"
        if self.spectators >= int(self.most * SPECTATORS_SHARE):
            return "the server's event streams for spectators are all open: try again shortly"
        return None

    def subscribe(self, match_id: str, seat: str, client: str = "?") -> asyncio.Queue[Any]:
        """A new stream's queue, of the player of ``seat`` (``""``: a spectator);
        :class:`TooMany` (nothing opened) past a cap (:meth:`refusal`)."""
        queue: asyncio.Queue[Any] = asyncio.Queue()
        with self.lock:
            streams = self.streams.get(match_id, [])
            refused = self.refusal(streams, seat, client)
            if refused is not None:
                raise TooMany(refused)
            if self.closed:
                queue.put_nowait(None)
            self.streams[match_id] = [
                *streams,
                Listener(asyncio.get_running_loop(), queue, seat, client),
            ]
            self.open += 1
            if not seat:
                self.spectators += 1
                self.clients[client] = self.clients.get(client, 0) + 1
        if seat:
            self.publish(match_id, -1)  # who is online changed
        return queue

    def unsubscribe(self, match_id: str, queue: asyncio.Queue[Any]) -> None:
        with self.lock:
            streams = self.streams.get(match_id, [])
            gone = next((entry for entry in streams if entry.queue is queue), None)
            if gone is None:
                return
            kept = [entry for entry in streams if entry.queue is not queue]
            if kept:
                self.streams[match_id] = kept
            else:
                self.streams.pop(match_id, None)
            self.open -= 1
            if not gone.seat:
                self.spectators -= 1
                left = self.clients[gone.client] - 1
                if left:
                    self.clients[gone.client] = left
                else:
                    del self.clients[gone.client]
        if gone.seat:
            self.publish(match_id, -1)

    def online(self, match_id: str) -> dict[str, bool]:
        with self.lock:
            seats = {entry.seat for entry in self.streams.get(match_id, [])}
        return {side: side in seats for side in "rb"}

    def publish(self, match_id: str, version: int | None) -> None:
        """Wakes the streams of ``match_id``: ``version`` a new version, ``-1`` who is
        online changed, ``None`` the server stops."""
        with self.lock:
            streams = self.streams.get(match_id, [])  # replaced, never changed in place
        for loop, queue, _, _ in streams:
            if not loop.is_closed():
                loop.call_soon_threadsafe(queue.put_nowait, version)

    def close(self) -> None:
        """Ends every stream now (the server stops; safe from a signal handler)."""
        with self.lock:
            self.closed = True
            names = list(self.streams)
        for name in names:
            self.publish(name, None)


class Online:
    """The online matches of one server process."""

    def __init__(
        self,
        url: str,
        service: Service,
        expire_seconds: float = EXPIRE_SECONDS,
        most_streams: int | None = None,
    ) -> None:
        """``most_streams``: the event streams this process keeps open at once (by
        default :data:`STREAMS_SHARE` of the connections it serves)."""
        if not expire_seconds > 0:  # NaN included: every unfinished match would go
            raise ValueError(f"expire_seconds must be above 0, not {expire_seconds}")
        threads = 4 if url.startswith("postgres") else 1
        self.db = AsyncStore(url, threads=threads)
        self.service = service
        self.expire_seconds = expire_seconds
        if most_streams is None:
            most_streams = max(8, int(connection_cap() * STREAMS_SHARE))
        self.broker = Broker(most_streams)
        self.states: OrderedDict[tuple[str, int], StateView] = OrderedDict()
        self.events: OrderedDict[tuple[str, int, str, bool, bool], bytes] = OrderedDict()
        self.finished: OrderedDict[tuple[str, int], tuple[dict[str, Any], str]] = OrderedDict()
        """Each scored battle's JSON, by match and number: it never changes, so a move
        encodes its own battle only, not the match's (:func:`battle_encoded`)."""
        self.spent: OrderedDict[tuple[str, int], dict[str, float]] = OrderedDict()
        self.rows: OrderedDict[str, MatchRow] = OrderedDict()
        """The newest row of each match that this process has read or written: what its
        streams show, so that a change is read once, however many streams it has."""
        self.flights: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        """The reads under way, by what they read (see :meth:`once`)."""
        self.stop = threading.Event()
        self.swept = -SWEEP_SECONDS
        self.opened = False

    async def ready(self) -> None:
        """Opens the store on first use, sweeps the expired matches now and then, and
        listens to the other processes where the database announces changes."""
        if self.service.closed:
            raise Stopping
        await self.db.opened()
        now = time.monotonic()
        if now - self.swept >= SWEEP_SECONDS:
            self.swept = now
            before = self.db.now() - self.expire_seconds
            await self.db.call(lambda store: store.expire(before))
            for gone in [key for key, row in self.rows.items() if row.updated < before]:
                del self.rows[gone]  # expired with the store's (an action reads again)
        if not self.opened:
            self.opened = True
            store = await self.db.call(lambda store: store)
            if store.announces:
                thread = threading.Thread(
                    target=store.listen,
                    args=(self.broker.publish, self.stop),
                    name="store-listen",
                    daemon=True,
                )
                thread.start()

    def close(self) -> None:
        self.stop.set()
        self.broker.close()

    # --- players --------------------------------------------------------------------
    async def new_player(self, client: str = "?") -> str:
        """A new player's token, made from the address ``client``."""
        await self.ready()
        token = secrets.token_urlsafe(32)
        maker = maker_of(client)
        try:
            await self.db.call(
                lambda store: store.add_player(
                    digest(token), self.db.now(), maker, IDLE_PLAYERS_PER_CLIENT
                )
            )
        except Full:
            raise TooMany(
                f"{IDLE_PLAYERS_PER_CLIENT} players made from your address are in no match "
                "yet: use one of their tokens, or wait for them to expire"
            ) from None
        return token

    async def player(self, token: str | None) -> str:
        """``token``, checked: one this server issued (else 401)."""
        if token is None:
            raise Unauthorized("this needs your player token (Authorization: Bearer ...)")
        await self.ready()
        if not TOKEN.fullmatch(token) or not await self.db.call(
            lambda store: store.has_player(digest(token), self.db.now())
        ):
            raise Unauthorized("unknown player token: get one from POST /api/players")
        return token

    # --- matches --------------------------------------------------------------------
    async def load(self, match_id: str) -> MatchRow:
        await self.ready()
        row = await self.db.call(lambda store: store.load(match_id[:64]))
        if row is None:
            raise NotFound(f"no online match {match_id[:64]!r} (or it expired)")
        self.remember(row)
        return row

    async def known(self, match_id: str, version: int, token: str) -> MatchRow:
        """The row an action at ``version`` by ``token`` is made against: the newest this
        process knows where it is at that version and seats that token (its commit is
        refused if the store has moved on since: the action's own version check), else
        the store's."""
        await self.ready()
        row = self.rows.get(match_id[:64])
        if row is None or row.version != version or seat_of(row, token) is None:
            return await self.load(match_id)
        self.rows.move_to_end(row.id)
        return row

    def remember(self, row: MatchRow) -> None:
        """Keeps ``row`` as its match's newest unless a newer one is known."""
        known = self.rows.get(row.id)
        if known is None or known.version < row.version:
            self.rows[row.id] = row
        self.rows.move_to_end(row.id)
        while len(self.rows) > KEPT_ROWS:
            self.rows.popitem(last=False)

    async def once(self, key: tuple[Any, ...], work: Callable[[], Awaitable[T]]) -> T:
        """``work()``, run once for all the callers asking for ``key`` while it runs
        (the streams of one match woken by one change share one read); a caller that
        goes away leaves it running for the others."""
        loop = asyncio.get_running_loop()
        key = (loop, *key)  # a future belongs to its loop (a test client runs several)
        flight = self.flights.get(key)
        if flight is None:
            flight = asyncio.ensure_future(work())
            self.flights[key] = flight

            def landed(done: asyncio.Future[Any]) -> None:
                if self.flights.get(key) is done:
                    del self.flights[key]
                if not done.cancelled():
                    done.exception()  # seen: nobody left to ask is no warning

            flight.add_done_callback(landed)
        result: T = await asyncio.shield(flight)
        return result

    async def newest(self, match_id: str, version: int) -> MatchRow:
        """The row of ``match_id`` at ``version`` or later: the newest one this process
        knows, else read from the store once for all the streams that ask at once."""
        row = self.rows.get(match_id)
        for _ in range(3):  # a read begun before the change may answer the one before
            if row is not None and row.version >= version:
                return row
            row = await self.once(("load", match_id), lambda: self.load(match_id))
        assert row is not None
        return row  # what the store has

    async def create(
        self, token: str, host: str, settings: dict[str, Any], client: str = "?"
    ) -> tuple[MatchRow, str]:
        """A new match with ``token`` seated at ``host``, made from the address
        ``client``; the row and the invite code."""
        # The host's seed is only a proposal (the guest agrees to it on joining): until
        # then the deals are the server's own draw, which nobody knows in advance.
        match = Match(settings["starter"], target=settings["target"])
        key = secrets.token_urlsafe(12)
        invite = secrets.token_urlsafe(16)
        now = self.db.now()
        mine = digest(token)
        row = MatchRow(
            id=key,
            red=mine if host == "r" else None,
            black=mine if host == "b" else None,
            invite=digest(invite),
            host=host,
            settings=settings,
            state=match.__getstate__(),
            version=0,
            ended=None,
            winner=None,
            created=now,
            updated=now,
        )
        maker = maker_of(client)
        try:
            await self.db.call(lambda store: store.add_match(row, maker, WAITING_PER_CLIENT))
        except Full:
            raise TooMany(
                f"{WAITING_PER_CLIENT} matches made from your address wait for their "
                "second player: send their invites, or wait for them to expire"
            ) from None
        return row, invite

    async def join(
        self, match_id: str, token: str, invite: str, seed: int | None = None
    ) -> tuple[MatchRow, str]:
        """Seats ``token`` at the free seat (again: his seat, nothing written). A
        ``seed`` equal to the host's makes it the match's: both players chose it."""
        row = await self.load(match_id)
        seat = seat_of(row, token)
        if not hmac.compare_digest(digest(invite), row.invite):
            raise Forbidden("this is not the invite code of this match")
        guest = "b" if row.host == "r" else "r"
        if seat == guest:
            return row, seat
        if seat is not None:
            raise Forbidden("you already hold the other seat: send the invite to a friend")
        if row.seat(guest) is not None:
            raise Forbidden("this seat is taken")
        settings, state = row.settings, row.state  # else the server's draw stands
        if seed is not None and seed == settings.get("seed") and row.version == 0:
            state = Match(settings["starter"], target=settings["target"], seed=seed).__getstate__()
        seated = replace(
            row,
            red=digest(token) if guest == "r" else row.red,
            black=digest(token) if guest == "b" else row.black,
            state=state,
            version=row.version + 1,
            updated=self.db.now(),
        )
        committed = await self.commit(row, seated, "join", guest)
        return committed, guest

    async def act(
        self,
        match_id: str,
        token: str | None,
        version: int,
        kind: str,
        change: Callable[[Match, str], str],
    ) -> tuple[MatchRow, Match, str]:
        """Applies ``change(match, seat)`` (which raises to refuse, and names the value
        stored) to the match at ``version``, and commits it; the new row, the match and
        the seat."""
        if token is None:
            raise Unauthorized("this needs your player token (Authorization: Bearer ...)")
        row = await self.known(match_id, version, token)
        seat = seat_of(row, token)
        if seat is None:
            raise Forbidden("your token holds no seat in this match (you may watch it)")
        now = self.db.now()
        ran_out = await self.flag(row, now)
        if ran_out is not None:
            if ran_out.winner != seat:
                raise Conflict("your time ran out")
            raise Conflict("the match is over: your opponent's time ran out")
        if version != row.version:
            raise Conflict(f"the match is at version {row.version}, not {version}: reload it first")
        if row.ended is not None:
            raise Conflict("the match is over")
        if row.red is None or row.black is None:
            raise Conflict("the match has not begun: the other seat is still free")
        match = restore(row)
        value = change(match, seat)
        if online_clock.limit_of(row) is not None:
            value = online_clock.tagged(value, online_clock.running(row))
        ended, winner = row.ended, row.winner
        if kind == "resign":
            ended, winner = "resigned", "b" if seat == "r" else "r"
        elif match.is_over:
            ended, winner = "won", match.winner.letter if match.winner else None
        after = replace(
            row,
            state=match.__getstate__(),
            version=row.version + 1,
            ended=ended,
            winner=winner,
            updated=now,
        )
        return await self.commit(row, after, kind, value), match, seat

    # --- clocks ---------------------------------------------------------------------
    async def used(self, row: MatchRow) -> dict[str, float]:
        """The seconds each seat had used at ``row``'s last action (from the stored
        actions' commit times; kept by version, as the states are)."""
        key = (row.id, row.version)
        found = self.spent.get(key)
        if found is None:

            async def sum_up() -> dict[str, float]:
                actions = await self.db.call(lambda store: store.actions(row.id))
                found = online_clock.used([a for a in actions if a.version <= row.version])
                self.spent[key] = found  # before the callers resume: none reads it again
                while len(self.spent) > 1024:
                    self.spent.popitem(last=False)
                return found

            found = await self.once(("used", *key), sum_up)
        return found

    async def flag(self, row: MatchRow, now: float | None = None) -> MatchRow | None:
        """Ends ``row`` on time if the running seat's time has run out at ``now``,
        committed (the other seat wins); the row so ended (``None``: time is left)."""
        if online_clock.limit_of(row) is None or online_clock.running(row) is None:
            return None
        now = self.db.now() if now is None else now
        side = online_clock.flagged(row, await self.used(row), now)
        if side is None:
            return None
        after = replace(
            row,
            version=row.version + 1,
            ended="time",
            winner="b" if side == "r" else "r",
            updated=now,
        )
        try:
            return await self.commit(row, after, "time", online_clock.tagged(side, side))
        except Conflict:  # another request or process ended it (or moved) first
            return None

    async def due(self, match_id: str) -> MatchRow:
        """The newest row of ``match_id`` once its running seat's deadline may have
        passed, ended on time (committed) where that seat's time has run out; checked
        once for all the streams of the match, the store read only when another change
        (of another process, unannounced) came first."""

        async def check() -> MatchRow:
            row = self.rows.get(match_id) or await self.load(match_id)
            if online_clock.limit_of(row) is None or online_clock.running(row) is None:
                return row
            if online_clock.flagged(row, await self.used(row), self.db.now()) is None:
                return row
            ended = await self.flag(row)
            if ended is not None:
                return ended
            found = await self.load(match_id)
            if found.version > row.version:
                self.broker.publish(match_id, found.version)  # this process's streams
            return found

        return await self.once(("due", match_id), check)

    async def current(self, row: MatchRow) -> MatchRow:
        """``row``, ended on time first where the running seat's time has run out."""
        return await self.flag(row) or row

    async def clock(self, row: MatchRow) -> dict[str, Any] | None:
        """``state.clock`` of ``row`` at this moment (``None``: no clock)."""
        if online_clock.limit_of(row) is None:
            return None
        return online_clock.clock_json(row, await self.used(row), self.db.now())

    async def seen(self, row: MatchRow, state: StateView, seat: str | None) -> dict[str, Any]:
        """``state`` (of ``row``) as ``seat`` sees it now: with who is online and the
        clock's time left at this moment."""
        online, clock = self.broker.online(row.id), await self.clock(row)
        return state.json(seat, online, clock, stream_key(row, seat))

    async def answer(self, row: MatchRow, state: StateView, seat: str | None) -> bytes:
        """:meth:`seen`, encoded (only what differs per caller is encoded again)."""
        online, clock = self.broker.online(row.id), await self.clock(row)
        return state.encode(seat, online, clock, stream_key(row, seat)).encode()

    async def commit(self, before: MatchRow, after: MatchRow, kind: str, value: str) -> MatchRow:
        if self.service.closed:
            raise Stopping
        try:
            await self.db.commit(Change(after, before.version, kind, value))
        except Stale:
            raise Conflict("another change of this match was accepted first: reload it") from None
        self.remember(after)
        self.broker.publish(after.id, after.version)
        return after

    async def state(
        self, row: MatchRow, match: Match | None = None, played: bool | None = None
    ) -> StateView:
        """The state of ``row`` for everyone, with ``played`` when the change that led
        to it was a move (looked up when not said); kept for the streams."""
        key = (row.id, row.version)
        found = self.states.get(key)
        if found is not None:
            return found

        def keep(played: bool) -> StateView:
            found = state_view(row, match or restore(row), self.battle(row.id), played=played)
            self.states[key] = found  # before the callers resume: none makes it again
            while len(self.states) > 1024:
                self.states.popitem(last=False)
            return found

        if played is not None or row.version == 0:
            return keep(bool(played))

        async def look_up() -> StateView:
            last = await self.db.call(lambda store: store.action(row.id, row.version))
            return keep(last is not None and last.kind == "play")

        return await self.once(("state", *key), look_up)

    def battle(self, match_id: str) -> Callable[[Match, int], tuple[dict[str, Any], str]]:
        """The JSON of the scored battles of ``match_id``, each made once."""

        def finished(match: Match, number: int) -> tuple[dict[str, Any], str]:
            key = (match_id, number)
            found = self.finished.get(key)
            if found is None:
                found = self.finished[key] = battle_encoded(match, number)
                while len(self.finished) > 4096:
                    self.finished.popitem(last=False)
            return found

        return finished

    def event(self, state: StateView, kind: str, clock: dict[str, Any] | None = None) -> bytes:
        """``state`` as a server-sent event for everyone (``you`` null), its ``id`` the
        version; the same bytes for every stream of the match (but a ``clock``, the time
        left counted at this moment, where the match has one)."""
        match_id, version = state.data["id"], state.version
        online = self.broker.online(match_id)
        if clock is not None:
            data = state.encode(None, online, clock)
            return f"id: {version}\nevent: {kind}\ndata: {data}\n\n".encode()
        key = (match_id, version, kind, online["r"], online["b"])
        found = self.events.get(key)
        if found is None:
            data = state.encode(None, online)
            found = f"id: {version}\nevent: {kind}\ndata: {data}\n\n".encode()
            self.events[key] = found
            while len(self.events) > 256:
                self.events.popitem(last=False)
        return found

    async def mine(self, token: str) -> list[tuple[MatchRow, str]]:
        mine = digest(token)
        rows = await self.db.call(lambda store: store.mine(mine, MINE_LIMIT))
        return [(row, "r" if row.red == mine else "b") for row in rows]
