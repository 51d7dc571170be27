"""The SQL shared by both databases: migrations, the match rows and the actions."""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import fields
from typing import Any, ClassVar, TypeVar

from buttonup.web.store import base
from buttonup.web.store.base import (
    SEEN_SECONDS,
    Action,
    AiMatchRow,
    Change,
    MatchRow,
    Stale,
    Store,
)
from buttonup.web.store.schema import AI_COLUMNS, COLUMNS, MIGRATIONS

Cursor = Any  # a DB-API cursor (sqlite3's or psycopg's)


def optional(kind: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else kind(value)


#: How a stored column becomes a row's field, by the field's annotation.
FROM_COLUMN: dict[str, Callable[[Any], Any]] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "str | None": optional(str),
    "int | None": optional(int),
    "dict[str, Any]": json.loads,
}

Row = TypeVar("Row", MatchRow, AiMatchRow)


def row_of(kind: type[Row], values: Sequence[Any]) -> Row:
    """The stored columns ``values`` (``COLUMNS`` or ``AI_COLUMNS``: the order of the
    row's fields) as a ``kind``."""
    kinds = fields(kind)
    if len(values) != len(kinds):
        raise ValueError(f"{len(values)} columns for the {len(kinds)} fields of {kind.__name__}")
    return kind(*(FROM_COLUMN[str(field.type)](value) for field, value in zip(kinds, values)))


class SqlStore(Store):
    """A store on a DB-API connection; subclasses give the transactions."""

    #: The parameter mark of the driver (``?`` in the SQL below).
    mark: ClassVar[str] = "?"
    #: The exception of a broken uniqueness constraint.
    integrity: ClassVar[type[Exception]] = Exception

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Cursor]:
        """A cursor in a transaction: committed when the block ends, rolled back when
        it raises."""

    def lock_schema(self, cursor: Cursor) -> None:
        """Keeps other processes out of the migration (the transaction's lock)."""

    def lock_maker(self, cursor: Cursor, maker: str) -> None:
        """Keeps other transactions making a match for ``maker`` out until this one
        ends (SQLite's transactions, IMMEDIATE, already run one at a time)."""

    def announce(self, cursor: Cursor, match_id: str, version: int) -> None:
        """Tells other processes of a change, at commit."""

    def within_cap(self, cursor: Cursor, count: str, maker: str | None, cap: int | None) -> None:
        """With a ``maker`` and a ``cap``: holds ``maker``'s lock for the transaction and
        refuses (:class:`~.base.Full`) when ``count`` (a query of one ``maker = ?``)
        already counts ``cap`` of his."""
        if maker is None or cap is None:
            return
        self.lock_maker(cursor, maker)
        if self.run(cursor, count, (maker,)).fetchone()[0] >= cap:
            raise base.Full(maker)

    def run(self, cursor: Cursor, sql: str, params: tuple[Any, ...] = ()) -> Cursor:
        cursor.execute(sql if self.mark == "?" else sql.replace("?", self.mark), params)
        return cursor

    def one(self, sql: str, *params: Any) -> Any:
        """The first row that the query ``sql`` with ``params`` finds (in a transaction
        of its own), or ``None``."""
        with self.transaction() as cursor:
            return self.run(cursor, sql, params).fetchone()

    def migrate(self) -> None:
        with self.transaction() as cursor:
            self.lock_schema(cursor)
            self.run(cursor, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            found = self.run(cursor, "SELECT version FROM schema_version").fetchone()
            current = 0 if found is None else int(found[0])
            if found is None:
                self.run(cursor, "INSERT INTO schema_version (version) VALUES (0)")
            if current > len(MIGRATIONS):
                raise ValueError(
                    f"the database's schema is at version {current}, newer than this "
                    f"buttonup's ({len(MIGRATIONS)}): upgrade buttonup"
                )
            for number, step in enumerate(MIGRATIONS[current:], current + 1):
                for statement in step:
                    self.run(cursor, statement)
                self.run(cursor, "UPDATE schema_version SET version = ?", (number,))

    def schema_version(self) -> int:
        with self.transaction() as cursor:
            return int(self.run(cursor, "SELECT version FROM schema_version").fetchone()[0])

    def add_player(
        self, token_hash: str, now: float, maker: str | None = None, cap: int | None = None
    ) -> None:
        with self.transaction() as cursor:
            idle = (
                "SELECT COUNT(*) FROM players WHERE maker = ? AND NOT EXISTS (SELECT 1 "
                "FROM matches WHERE matches.red = players.token_hash) AND NOT EXISTS "
                "(SELECT 1 FROM matches WHERE matches.black = players.token_hash)"
            )
            self.within_cap(cursor, idle, maker, cap)
            self.run(
                cursor,
                "INSERT INTO players (token_hash, created, seen, maker) VALUES (?, ?, ?, ?)",
                (token_hash, now, now, maker),
            )

    def has_player(self, token_hash: str, now: float | None = None) -> bool:
        with self.transaction() as cursor:
            if now is not None:
                self.run(
                    cursor,
                    "UPDATE players SET seen = ? WHERE token_hash = ? AND seen < ?",
                    (now, token_hash, now - SEEN_SECONDS),
                )
            sql = "SELECT 1 FROM players WHERE token_hash = ?"
            return self.run(cursor, sql, (token_hash,)).fetchone() is not None

    def add_match(self, row: MatchRow, maker: str | None = None, cap: int | None = None) -> None:
        with self.transaction() as cursor:
            waiting = (
                "SELECT COUNT(*) FROM matches WHERE maker = ? AND finished = 0 "
                "AND (red IS NULL OR black IS NULL)"
            )
            self.within_cap(cursor, waiting, maker, cap)
            self.run(
                cursor,
                f"INSERT INTO matches ({COLUMNS}, finished, maker) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*self.values(row), int(row.ended is not None), maker),
            )
            self.announce(cursor, row.id, row.version)

    @staticmethod
    def values(row: MatchRow) -> tuple[Any, ...]:
        return (
            row.id,
            row.red,
            row.black,
            row.invite,
            row.host,
            json.dumps(row.settings),
            row.state,
            row.version,
            row.ended,
            row.winner,
            row.created,
            row.updated,
        )

    def load(self, match_id: str) -> MatchRow | None:
        found = self.one(f"SELECT {COLUMNS} FROM matches WHERE id = ?", match_id)
        return None if found is None else row_of(MatchRow, found)

    def commit_many(self, changes: list[Change]) -> list[Exception | None]:
        if any(change.row.version != change.before + 1 for change in changes):
            raise ValueError("a change makes the next version")
        refused: list[Exception | None] = []
        with self.transaction() as cursor:
            for change in changes:
                # each change in a savepoint of its own: a refused one is undone alone
                self.run(cursor, "SAVEPOINT change")
                try:
                    self.write_change(cursor, change)
                except Stale as stale:
                    self.run(cursor, "ROLLBACK TO SAVEPOINT change")
                    refused.append(stale)
                else:
                    refused.append(None)
                self.run(cursor, "RELEASE SAVEPOINT change")
        return refused

    def write_change(self, cursor: Cursor, change: Change) -> None:
        """One change of :meth:`commit_many`, in its transaction; :class:`Stale` (the
        caller undoes what it wrote) if the match is no longer at ``change.before``."""
        row = change.row
        # the row first: a second writer waits for the first's commit, then finds the
        # version moved on; the actions' key (match, version) backs it up
        updated = self.run(
            cursor,
            "UPDATE matches SET red = ?, black = ?, state = ?, version = ?, finished = ?, "
            "ended = ?, winner = ?, updated = ? WHERE id = ? AND version = ?",
            (
                row.red,
                row.black,
                row.state,
                row.version,
                int(row.ended is not None),
                row.ended,
                row.winner,
                row.updated,
                row.id,
                change.before,
            ),
        ).rowcount
        if updated != 1:
            raise Stale(row.id)
        try:
            self.run(
                cursor,
                "INSERT INTO actions (match_id, version, kind, value, at) VALUES (?, ?, ?, ?, ?)",
                (row.id, row.version, change.kind, change.value, row.updated),
            )
        except self.integrity:
            raise Stale(row.id) from None
        self.announce(cursor, row.id, row.version)

    def actions(self, match_id: str) -> list[Action]:
        with self.transaction() as cursor:
            sql = (
                "SELECT match_id, version, kind, value, at FROM actions "
                "WHERE match_id = ? ORDER BY version"
            )
            found = self.run(cursor, sql, (match_id,)).fetchall()
        return [Action(m, int(v), k, val, float(at)) for m, v, k, val, at in found]

    def action(self, match_id: str, version: int) -> Action | None:
        sql = (
            "SELECT match_id, version, kind, value, at FROM actions "
            "WHERE match_id = ? AND version = ?"
        )
        found = self.one(sql, match_id, version)
        if found is None:
            return None
        return Action(found[0], int(found[1]), found[2], found[3], float(found[4]))

    def mine(self, token_hash: str, limit: int) -> list[MatchRow]:
        with self.transaction() as cursor:
            sql = (
                f"SELECT {COLUMNS} FROM matches WHERE red = ? OR black = ? "
                "ORDER BY updated DESC LIMIT ?"
            )
            found = self.run(cursor, sql, (token_hash, token_hash, limit)).fetchall()
        return [row_of(MatchRow, values) for values in found]

    def expire(self, before: float) -> int:
        old = "SELECT id FROM matches WHERE finished = 0 AND updated < ?"
        with self.transaction() as cursor:
            self.run(cursor, f"DELETE FROM actions WHERE match_id IN ({old})", (before,))
            gone = self.run(
                cursor, "DELETE FROM matches WHERE finished = 0 AND updated < ?", (before,)
            ).rowcount
            # after the matches: one whose matches all expired goes in the same sweep
            self.run(
                cursor,
                "DELETE FROM players WHERE seen < ? AND NOT EXISTS (SELECT 1 FROM matches "
                "WHERE matches.red = players.token_hash OR matches.black = players.token_hash)",
                (before,),
            )
        return int(gone)

    # --- the page's matches against the AI ------------------------------------------
    def alive(self) -> float | None:
        # The note, or a later change of a match (made after the last note).
        found = self.one(
            "SELECT MAX(t) FROM (SELECT alive AS t FROM server_time "
            "UNION ALL SELECT MAX(updated) FROM matches "
            "UNION ALL SELECT MAX(updated) FROM ai_matches) AS times"
        )
        return None if found is None or found[0] is None else float(found[0])

    def note_alive(self, at: float) -> None:
        with self.transaction() as cursor:
            self.run(
                cursor,
                "INSERT INTO server_time (id, alive) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                (at,),
            )
            self.run(
                cursor, "UPDATE server_time SET alive = ? WHERE id = 1 AND alive < ?", (at, at)
            )

    def save_ai_match(
        self, row: AiMatchRow, before: int = 0, maker: str | None = None, cap: int | None = None
    ) -> None:
        if row.version != before + 1:
            raise ValueError("a change makes the next version")
        with self.transaction() as cursor:
            if before:
                updated = self.run(
                    cursor,
                    "UPDATE ai_matches SET state = ?, finished = ?, updated = ?, version = ? "
                    "WHERE id = ? AND version = ?",
                    (row.state, int(row.finished), row.updated, row.version, row.id, before),
                ).rowcount
                if updated != 1:
                    raise Stale(row.id)
                return
            unfinished = "SELECT COUNT(*) FROM ai_matches WHERE maker = ? AND finished = 0"
            self.within_cap(cursor, unfinished, maker, cap)
            try:
                self.run(
                    cursor,
                    f"INSERT INTO ai_matches ({AI_COLUMNS}, maker) VALUES ({', '.join('?' * 12)})",
                    (
                        row.id,
                        row.state,
                        row.human,
                        row.level,
                        row.players,
                        None if row.seed is None else str(row.seed),
                        int(row.finished),
                        row.created,
                        row.updated,
                        row.version,
                        row.opponent,
                        maker,
                    ),
                )
            except self.integrity:
                raise Stale(row.id) from None

    def ai_match_version(self, match_id: str) -> int | None:
        """The stored version of the page's match ``match_id`` (``None``: none)."""
        found = self.one("SELECT version FROM ai_matches WHERE id = ?", match_id)
        return None if found is None else int(found[0])

    def load_ai_match(self, match_id: str) -> AiMatchRow | None:
        found = self.one(f"SELECT {AI_COLUMNS} FROM ai_matches WHERE id = ?", match_id)
        return None if found is None else row_of(AiMatchRow, found)

    def expire_ai_matches(self, before: float) -> int:
        with self.transaction() as cursor:
            gone = self.run(
                cursor, "DELETE FROM ai_matches WHERE finished = 0 AND updated < ?", (before,)
            ).rowcount
        return int(gone)
