"""The PostgreSQL store (the ``postgres`` extra: psycopg 3): one connection per thread
of the store's pool, and one more that listens, so that a change committed through any
``buttonup serve`` process sharing the database reaches the others (``NOTIFY`` at
commit, ``LISTEN`` here)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ClassVar

import psycopg

from buttonup.web.store.sql import Cursor, SqlStore

#: The channel of the changes: each payload is ``<match id> <version>``.
CHANNEL = "buttonup_online"
#: The key of the advisory lock the migrations hold.
SCHEMA_LOCK = 0x42_75_74_74
#: The first key of the makers' locks (two-key locks: a space apart from the schema's).
MAKER_LOCKS = 0x4D_61_6B_65


class PostgresStore(SqlStore):
    mark = "%s"
    integrity: ClassVar[type[Exception]] = psycopg.errors.UniqueViolation
    announces = True

    def __init__(self, url: str) -> None:
        self.url = url
        self.local = threading.local()
        self.connections: list[psycopg.Connection[tuple[object, ...]]] = []
        self.lock = threading.Lock()
        try:
            self.connection()
        except psycopg.OperationalError as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else "?"
            raise ValueError(f"cannot reach the database: {first}") from None
        self.migrate()

    def connection(self) -> psycopg.Connection[tuple[object, ...]]:
        """This thread's connection (made on its first call)."""
        connection: psycopg.Connection[tuple[object, ...]] | None = getattr(
            self.local, "connection", None
        )
        if connection is None or connection.closed:
            connection = psycopg.connect(self.url, autocommit=False)
            self.local.connection = connection
            with self.lock:
                self.connections.append(connection)
        return connection

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        connection = self.connection()
        with connection.transaction(), connection.cursor() as cursor:
            yield cursor

    def lock_schema(self, cursor: Cursor) -> None:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def lock_maker(self, cursor: Cursor, maker: str) -> None:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (MAKER_LOCKS, maker))

    def announce(self, cursor: Cursor, match_id: str, version: int) -> None:
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{match_id} {version}"))

    def listen(self, deliver: Callable[[str, int], None], stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    while not stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            match_id, _, version = note.payload.partition(" ")
                            if version.isdigit():
                                deliver(match_id, int(version))
            except psycopg.OperationalError:
                stop.wait(1.0)  # the database went away: try again shortly

    def close(self) -> None:
        with self.lock:
            for connection in self.connections:
                connection.close()
            self.connections.clear()
