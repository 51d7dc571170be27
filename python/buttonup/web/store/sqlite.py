"""The SQLite store (the default): one file, written ahead (WAL) and synced at every
commit (``synchronous=FULL``), so that a committed move survives the process killed
at any moment, and the machine losing power too."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

from buttonup.web.store.sql import Cursor, SqlStore


class SqliteStore(SqlStore):
    mark = "?"
    integrity: ClassVar[type[Exception]] = sqlite3.IntegrityError

    def __init__(self, path: str) -> None:
        try:
            self.open(path)
        except (OSError, sqlite3.Error) as error:
            raise ValueError(f"cannot open the database {path[:200]!r}: {error}") from None

    def open(self, path: str) -> None:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.connection = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, timeout=30.0
        )
        self.lock = threading.Lock()
        self.connection.execute("PRAGMA busy_timeout = 30000")
        if path != ":memory:":
            self.connection.execute("PRAGMA journal_mode = WAL")
        self.connection.execute("PRAGMA synchronous = FULL")
        self.migrate()

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        with self.lock:
            cursor = self.connection.cursor()
            # IMMEDIATE: the write lock from the start (another process sharing the
            # file waits for it instead of failing halfway)
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
            except BaseException:
                self.connection.rollback()
                raise
            else:
                cursor.execute("COMMIT")
            finally:
                cursor.close()

    def close(self) -> None:
        with self.lock:
            self.connection.close()
