"""The schema of the online matches' database, as numbered migration steps.

``schema_version`` holds the number of the last step applied; opening a database
applies the steps after it, each in one transaction with its new number. A step once
released is never changed: a change of schema is a new step at the end.
"""

from __future__ import annotations

#: The steps, in order; step ``n`` is ``MIGRATIONS[n - 1]`` (portable SQL: SQLite and
#: PostgreSQL read it alike).
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE players (
            token_hash TEXT PRIMARY KEY,
            created DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE matches (
            id TEXT PRIMARY KEY,
            red TEXT,
            black TEXT,
            invite TEXT NOT NULL,
            host TEXT NOT NULL,
            settings TEXT NOT NULL,
            state TEXT NOT NULL,
            version BIGINT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            ended TEXT,
            winner TEXT,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX matches_red ON matches (red)",
        "CREATE INDEX matches_black ON matches (black)",
        "CREATE INDEX matches_unfinished ON matches (finished, updated)",
        """CREATE TABLE actions (
            match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
            version BIGINT NOT NULL,
            kind TEXT NOT NULL,
            value TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (match_id, version)
        )""",
    ],
    [
        # the page's matches against the AI and pass and play (one row each, rewritten
        # at every change; no seats: the unguessable id is the key)
        """CREATE TABLE ai_matches (
            id TEXT PRIMARY KEY,
            state TEXT NOT NULL,
            human TEXT NOT NULL,
            level INTEGER NOT NULL,
            players INTEGER NOT NULL,
            seed TEXT,
            finished INTEGER NOT NULL DEFAULT 0,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX ai_matches_unfinished ON ai_matches (finished, updated)",
    ],
    [
        # the page's matches versioned like the online ones: a save names the version
        # it read, so that a stale write from another process is refused
        "ALTER TABLE ai_matches ADD COLUMN version BIGINT NOT NULL DEFAULT 1",
    ],
    [
        # when each player was last seen, so that players without a match expire
        "ALTER TABLE players ADD COLUMN seen DOUBLE PRECISION",
        "UPDATE players SET seen = created",
        "CREATE INDEX players_seen ON players (seen)",
    ],
    [
        # who made each online match (a digest of the client's address), so that the
        # matches waiting for their second player are capped per address in the store,
        # whatever process made them
        "ALTER TABLE matches ADD COLUMN maker TEXT",
        "CREATE INDEX matches_maker ON matches (maker, finished)",
    ],
    [
        # who made each player (the same digest), so that the players in no match yet
        # are capped per address in the store
        "ALTER TABLE players ADD COLUMN maker TEXT",
        "CREATE INDEX players_maker ON players (maker)",
    ],
    [
        # the page's match against one of the server's extra opponents, by name
        # (buttonup serve --opponent NAME=SPEC); NULL: the AI at its level
        "ALTER TABLE ai_matches ADD COLUMN opponent TEXT",
    ],
    [
        # who made each of the page's matches (a digest of the client's address), so
        # that the unfinished ones are capped per address in the store
        "ALTER TABLE ai_matches ADD COLUMN maker TEXT",
        "CREATE INDEX ai_matches_maker ON ai_matches (maker, finished)",
    ],
    [
        # the server time last noted by a serving process: a restart resumes from it,
        # so that the time the server was down (or its clock's jump) is nobody's
        "CREATE TABLE server_time (id INTEGER PRIMARY KEY, alive DOUBLE PRECISION NOT NULL)",
    ],
]

COLUMNS = "id, red, black, invite, host, settings, state, version, ended, winner, created, updated"

AI_COLUMNS = "id, state, human, level, players, seed, finished, created, updated, version, opponent"
