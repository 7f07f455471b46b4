"""The database: one interface (:class:`Store`), two backends — SQLite
(aiosqlite on a local file, WAL; this module) and PostgreSQL (asyncpg, a
pool; :mod:`bot.store_pg`). :func:`bot.storage.open_store` picks one from a path or a
``postgresql://`` URL. Numbered migrations per backend run at open (or as a
deploy step, ``python -m bot migrate``, with the bot started ``--no-migrate``);
:meth:`Store.export_rows` and :meth:`Store.import_rows` copy a whole database
to another one, of either backend (``python -m bot copy-db``).

All SQL of the bot lives in these two modules, and the queries are written
once (``?`` placeholders, translated to ``$1…`` for PostgreSQL) wherever both
databases accept them. A live game is one row of
``tables``; every write to it is a versioned read-modify-write
(``UPDATE … WHERE id=? AND version=?``) so a stale or duplicate press, or a
second process, can never overwrite a newer state. Finished games move to
``results`` (record, outcome, settlement) and ``result_players`` (one row per
seat, for leaderboards and statistics).
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import json
import logging
import os
import socket
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import orjson

log = logging.getLogger(__name__)

# how long SQLite waits for another process's write lock
BUSY_SECONDS = 5.0

# Migration N brings the schema from version N-1 to N. Never edit a released
# migration: add the next one (and the same step for PostgreSQL in
# bot/store_pg.py: a version number means the same schema on both).
MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE tables (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        message_id  INTEGER,
        game        TEXT NOT NULL,
        phase       TEXT NOT NULL,            -- lobby | playing
        host_id     INTEGER NOT NULL,
        seats       TEXT NOT NULL,            -- JSON list of {"id", "name", "bot"}
        options     TEXT NOT NULL,            -- JSON house options
        state       TEXT,                     -- JSON engine state (null in the lobby)
        ui          TEXT NOT NULL DEFAULT '{}',  -- JSON UI state (held dice, log…)
        seed        TEXT,                     -- secret until the game ends
        version     INTEGER NOT NULL DEFAULT 0,
        deadline    REAL,                     -- turn clock (unix seconds), null = none
        created_at  REAL NOT NULL,
        updated_at  REAL NOT NULL
    );
    CREATE UNIQUE INDEX tables_channel ON tables(channel_id);
    CREATE INDEX tables_deadline ON tables(deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE results (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id    INTEGER NOT NULL,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        game        TEXT NOT NULL,
        record      TEXT NOT NULL,            -- JSON games.core.Record
        outcome     TEXT NOT NULL,            -- JSON engine outcome
        settlement  TEXT NOT NULL,            -- JSON user id -> points
        seed        TEXT,
        has_bots    INTEGER NOT NULL DEFAULT 0,
        finished_at REAL NOT NULL
    );
    CREATE TABLE result_players (
        result_id   INTEGER NOT NULL REFERENCES results(id),
        user_id     INTEGER NOT NULL,
        guild_id    INTEGER,
        game        TEXT NOT NULL,
        name        TEXT NOT NULL,
        rank        INTEGER NOT NULL,         -- 1 = winner
        won         INTEGER NOT NULL,
        points      INTEGER NOT NULL,         -- settlement points (Yahtzee: total)
        best        INTEGER,                  -- best Yahtzee total / best Six Dice turn / …
        rated       INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (result_id, user_id)
    );
    CREATE INDEX result_players_game ON result_players(game, guild_id, user_id);
    CREATE TABLE ratings (
        game        TEXT NOT NULL,
        user_id     INTEGER NOT NULL,
        mu          REAL NOT NULL,
        sigma       REAL NOT NULL,
        games       INTEGER NOT NULL,
        PRIMARY KEY (game, user_id)
    );
    CREATE TABLE guild_settings (
        guild_id    INTEGER NOT NULL,
        key         TEXT NOT NULL,
        value       TEXT NOT NULL,            -- JSON
        PRIMARY KEY (guild_id, key)
    );
    """,
    # 2: turn-clock bookkeeping (warned, consecutive timeouts per player)
    """
    ALTER TABLE tables ADD COLUMN clock TEXT NOT NULL DEFAULT '{}';
    """,
    # 3: the version last shown on the table message (what is on screen);
    # tables written before it are taken as shown
    """
    ALTER TABLE tables ADD COLUMN shown INTEGER NOT NULL DEFAULT -1;
    UPDATE tables SET shown = version;
    CREATE INDEX tables_behind ON tables(updated_at) WHERE shown < version;
    """,
    # 4: who sat at a finished game and who hosted it (a rematch seats them
    # again: people by id, computers at their level); null before it
    """
    ALTER TABLE results ADD COLUMN seats TEXT;
    ALTER TABLE results ADD COLUMN host_id INTEGER;
    """,
    # 5: history and seasons — where a result's message is (channel_id and
    # message_id: a link), each result's season (null: seasons off, a DM),
    # each player's all-time rating after the game (the stats card's trend),
    # and ratings per server season (fresh each season; all-time goes on)
    """
    ALTER TABLE results ADD COLUMN message_id INTEGER;
    ALTER TABLE results ADD COLUMN season TEXT;
    ALTER TABLE result_players ADD COLUMN season TEXT;
    ALTER TABLE result_players ADD COLUMN rating REAL;
    CREATE INDEX result_players_user ON result_players(user_id, finished_at);
    CREATE INDEX results_guild ON results(guild_id, finished_at);
    CREATE TABLE season_ratings (
        guild_id    INTEGER NOT NULL,
        season      TEXT NOT NULL,            -- bot.seasons: "2026-11", "2026-Q4"
        game        TEXT NOT NULL,
        user_id     INTEGER NOT NULL,
        mu          REAL NOT NULL,
        sigma       REAL NOT NULL,
        games       INTEGER NOT NULL,
        PRIMARY KEY (guild_id, season, game, user_id)
    );
    """,
    # 6: several processes — the moves ledger (one row per stored version of a
    # table, written in the same transaction: the oracle of "no move lost or
    # doubled" and the data of game history), a computer's turn due time
    # (claimed like a turn clock, so a process dying mid-think loses
    # nothing) and the lease of whoever claimed a due table
    """
    CREATE TABLE moves (
        table_id    INTEGER NOT NULL,
        version     INTEGER NOT NULL,         -- the version this change stored
        actor       TEXT,                     -- the engine name of the mover, if a player
        move        TEXT NOT NULL,            -- moves in notation, or the lobby action / kind
        origin      TEXT NOT NULL,            -- press | command | clock | cpu
        process     TEXT NOT NULL,            -- host:pid of the process that stored it
        at          REAL NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    ALTER TABLE tables ADD COLUMN cpu_due REAL;
    ALTER TABLE tables ADD COLUMN lease_owner TEXT;
    ALTER TABLE tables ADD COLUMN lease_until REAL;
    CREATE INDEX tables_cpu_due ON tables(cpu_due) WHERE cpu_due IS NOT NULL;
    """,
    # 7: a small key/value table for the bot's own bookkeeping (the hash of
    # the slash commands last synced, per application: synced again only
    # when the command tree changed)
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 8: post-game reviews (bot/commands/review.py), computed once per result:
    # derived from the stored record, so not copied by copy-db; ``engine`` is
    # the review's version (games.review.VERSION): another version recomputes
    """
    CREATE TABLE reviews (
        result_id   INTEGER PRIMARY KEY,
        engine      TEXT NOT NULL,
        review      TEXT NOT NULL,            -- games.review.Review.to_json()
        created_at  REAL NOT NULL
    );
    """,
    # 9: tournaments (bot/tournament/, docs/tournaments.md): an event, its
    # players and its matches. A round is claimed by ``round = round + 1``
    # where the round is still the old one (one process wins) in the
    # transaction that stores its pairings, before any table is opened
    """
    CREATE TABLE tournaments (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id        INTEGER NOT NULL,
        channel_id      INTEGER NOT NULL,
        game            TEXT NOT NULL,
        format          TEXT NOT NULL,        -- swiss | round-robin | knockout
        rounds          INTEGER NOT NULL,     -- 0: as many as the format needs
        table_size      INTEGER NOT NULL,
        options         TEXT NOT NULL,        -- JSON house options
        clock_seconds   INTEGER,              -- the matches' turn clock (null: the server's)
        starts_at       REAL,                 -- null: when the host presses Start
        checkin_seconds INTEGER NOT NULL DEFAULT 0,
        cpu_fill        INTEGER NOT NULL DEFAULT 0,
        host_id         INTEGER NOT NULL,
        lang            TEXT NOT NULL,
        state           TEXT NOT NULL,        -- signup | checkin | running | finished | ended
        round           INTEGER NOT NULL DEFAULT 0,
        message_id      INTEGER,              -- the sign-up message
        standings_message_id INTEGER,
        version         INTEGER NOT NULL DEFAULT 0,
        created_at      REAL NOT NULL,
        finished_at     REAL
    );
    CREATE INDEX tournaments_guild ON tournaments(guild_id, created_at);
    CREATE TABLE tournament_players (
        tournament_id   INTEGER NOT NULL REFERENCES tournaments(id),
        user_id         INTEGER NOT NULL,
        name            TEXT NOT NULL,
        rating          REAL,
        seed            INTEGER,
        status          TEXT NOT NULL,        -- joined | checked_in | dropped | kicked
        joined_at       REAL NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_matches (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id   INTEGER NOT NULL REFERENCES tournaments(id),
        round           INTEGER NOT NULL,
        number          INTEGER NOT NULL,
        seats           TEXT NOT NULL,        -- JSON user ids (a computer: negative)
        thread_id       INTEGER,
        table_id        INTEGER,
        result_id       INTEGER,
        state           TEXT NOT NULL,        -- paired | open | finished | bye
        points          TEXT,                 -- JSON user id -> tournament points
        scores          TEXT,                 -- JSON user id -> game score
        UNIQUE (tournament_id, round, number)
    );
    CREATE INDEX tournament_matches_table ON tournament_matches(table_id);
    """,
]


@dataclass
class TableRow:
    """One live table as stored (JSON columns decoded)."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    game: str
    phase: str
    host_id: int
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    state: dict[str, Any] | None
    ui: dict[str, Any]
    seed: str | None
    version: int
    deadline: float | None
    created_at: float
    updated_at: float
    clock: dict[str, Any] = field(default_factory=dict)
    shown: int = -1  # the version last shown on the table message
    cpu_due: float | None = None  # a computer is to move by then (claimed if overdue)

    def seat_of(self, user_id: int) -> dict[str, Any] | None:
        for seat in self.seats:
            if seat["id"] == user_id:
                return seat
        return None


@dataclass(frozen=True)
class Ledger:
    """One line of the moves ledger: what a stored change did (the moves in
    notation, or the lobby action or the kind of removal), who and where
    from; written in the transaction that stores the change, one per
    (table, version)."""

    move: str
    origin: str
    actor: str | None = None


PROCESS = f"{socket.gethostname()}:{os.getpid()}"  # who wrote a ledger line
_LEDGER_SQL = (
    "INSERT INTO moves (table_id, version, actor, move, origin, process, at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _ledger_args(table_id: int, version: int, ledger: Ledger, now: float) -> tuple[Any, ...]:
    return (table_id, version, ledger.actor, ledger.move, ledger.origin, PROCESS, now)

UNSHOWN = "unshown."  # meta key prefix: a result whose message is not shown yet (+ its id)
# meta key prefixes of a game ended without a result (+ its table's id): its
# seed and game, kept to be checked (the 🔑 Seed button of its message), and
# what its message is drawn from, kept until it is shown
ENDED_SEED = "ended_seed."
ENDED_UNSHOWN = "ended_unshown."
STANDINGS_BEHIND = "standings_behind."  # meta: a tournament's standings message is behind (+ its id)


@dataclass
class PlayerResult:
    """One seat of a finished game."""

    user_id: int
    name: str
    rank: int
    won: bool
    points: int
    best: int | None = None


# (user → place, their ratings now) → new ratings
RateFn = Callable[[dict[int, int], dict[int, tuple[float, float]]], dict[int, tuple[float, float]]]


@dataclass
class Result:
    table_id: int
    guild_id: int | None
    channel_id: int
    game: str
    record: dict[str, Any]
    outcome: dict[str, Any]
    players: list[PlayerResult]
    seed: str | None
    has_bots: bool
    finished_at: float
    ratings: dict[int, tuple[float, float]] = field(default_factory=dict)
    # the table's seats as they ended (people, computers with their level)
    # and its host: what a rematch seats again
    seats: list[dict[str, Any]] | None = None
    host_id: int | None = None
    # the table message, which becomes the result message (history's link)
    message_id: int | None = None
    # the server's season (bot.seasons) when the game ended; None = none
    season: str | None = None
    season_ratings: dict[int, tuple[float, float]] = field(default_factory=dict)
    rated: bool | None = None  # None = rated unless has_bots (/config bots_rated)
    # (user → place, their ratings now) → new ratings: applied inside the
    # finishing transaction, so two games finishing at once both count
    rate: (
        Callable[[dict[int, int], dict[int, tuple[float, float]]], dict[int, tuple[float, float]]]
        | None
    ) = None


@dataclass
class TournamentRow:
    """One tournament as stored (``options`` decoded)."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    format: str  # swiss | round-robin | knockout
    rounds: int  # 0: as many as the format needs (round robin, knockout)
    table_size: int
    options: dict[str, Any]
    clock_seconds: int | None
    starts_at: float | None
    checkin_seconds: int
    cpu_fill: bool
    host_id: int
    lang: str
    state: str  # signup | checkin | running | finished | ended
    round: int  # the round being played (0: not started)
    message_id: int | None  # the sign-up message
    standings_message_id: int | None
    version: int
    created_at: float
    finished_at: float | None


@dataclass
class Entrant:
    """One player of a tournament."""

    user_id: int
    name: str
    rating: float | None
    seed: int | None
    status: str  # joined | checked_in | dropped | kicked
    joined_at: float


@dataclass
class MatchRow:
    """One match of a tournament: a table of ``seats`` (user ids; a
    computer filling a seat is negative), or a bye (one seat)."""

    id: int
    tournament_id: int
    round: int
    number: int
    seats: list[int]
    thread_id: int | None
    table_id: int | None
    result_id: int | None
    state: str  # paired | open | finished | bye
    points: dict[int, float]  # user id → tournament points (finished, bye)
    scores: dict[int, float]  # user id → the game's score (a tie-break)


_TOURNAMENT_COLS = (
    "id, guild_id, channel_id, game, format, rounds, table_size, options, clock_seconds,"
    " starts_at, checkin_seconds, cpu_fill, host_id, lang, state, round, message_id,"
    " standings_message_id, version, created_at, finished_at"
)
# what :meth:`Store.update_tournament` may change
TOURNAMENT_FIELDS = frozenset(
    {"state", "round", "starts_at", "finished_at", "host_id", "rounds", "checkin_seconds"}
)
_MATCH_COLS = (
    "id, tournament_id, round, number, seats, thread_id, table_id, result_id, state, points, scores"
)


def _tournament(r: Sequence[Any]) -> TournamentRow:
    return TournamentRow(
        id=int(r[0]),
        guild_id=int(r[1]),
        channel_id=int(r[2]),
        game=r[3],
        format=r[4],
        rounds=int(r[5]),
        table_size=int(r[6]),
        options=json.loads(r[7]),
        clock_seconds=r[8],
        starts_at=r[9],
        checkin_seconds=int(r[10]),
        cpu_fill=bool(r[11]),
        host_id=int(r[12]),
        lang=r[13],
        state=r[14],
        round=int(r[15]),
        message_id=r[16],
        standings_message_id=r[17],
        version=int(r[18]),
        created_at=float(r[19]),
        finished_at=r[20],
    )


def _by_user(doc: str | None) -> dict[int, float]:
    return {int(k): v for k, v in json.loads(doc).items()} if doc else {}


def _match(r: Sequence[Any]) -> MatchRow:
    return MatchRow(
        id=int(r[0]),
        tournament_id=int(r[1]),
        round=int(r[2]),
        number=int(r[3]),
        seats=[int(u) for u in json.loads(r[4])],
        thread_id=r[5],
        table_id=r[6],
        result_id=r[7],
        state=r[8],
        points=_by_user(r[9]),
        scores=_by_user(r[10]),
    )


_TABLE_COLS = (
    "id, guild_id, channel_id, message_id, game, phase, host_id, seats, options, state, ui, "
    "seed, version, deadline, created_at, updated_at, clock, shown, cpu_due"
)


_SHOWN = _TABLE_COLS.split(", ").index("shown")  # its place in a row as read


STATES_KEPT = 256  # tables whose state JSON a store keeps parsed (Store._states)


def _row(r: Sequence[Any], state: Any = None) -> TableRow:
    """A table's row as read (``state``: its state JSON parsed already)."""
    return TableRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        message_id=r[3],
        game=r[4],
        phase=r[5],
        host_id=r[6],
        seats=json.loads(r[7]),
        options=json.loads(r[8]),
        state=state if state is not None else json.loads(r[9]) if r[9] is not None else None,
        ui=json.loads(r[10]),
        seed=r[11],
        version=r[12],
        deadline=r[13],
        created_at=r[14],
        updated_at=r[15],
        clock=json.loads(r[16]),
        shown=r[17],
        cpu_due=r[18],
    )


def _dumps(doc: Any) -> str:
    """``doc`` as compact JSON (UTF-8 kept): orjson writes it ~8× faster
    than ``json`` (a game's state: 4-10 µs where ``json`` took 33-77; a
    save writes 5 documents); ``json`` what orjson will not (an integer
    past 64 bits)."""
    try:
        return orjson.dumps(doc, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


# What ``copy-db`` moves: every table of the schema with every column, in the
# order they are filled (a result before its players), and the order their
# rows are read in. Ids travel as they are: a posted button names its table
# by id and version, so it keeps working on the copy.
COPIED: dict[str, tuple[tuple[str, ...], str]] = {
    "tables": (tuple(_TABLE_COLS.split(", ")), "id"),
    "results": (
        (
            "id",
            "table_id",
            "guild_id",
            "channel_id",
            "game",
            "record",
            "outcome",
            "settlement",
            "seed",
            "has_bots",
            "finished_at",
            "seats",
            "host_id",
            "message_id",
            "season",
        ),
        "id",
    ),
    "result_players": (
        (
            "result_id",
            "user_id",
            "guild_id",
            "game",
            "name",
            "rank",
            "won",
            "points",
            "best",
            "rated",
            "finished_at",
            "season",
            "rating",
        ),
        "result_id, user_id",
    ),
    "ratings": (("game", "user_id", "mu", "sigma", "games"), "game, user_id"),
    "season_ratings": (
        ("guild_id", "season", "game", "user_id", "mu", "sigma", "games"),
        "guild_id, season, game, user_id",
    ),
    "guild_settings": (("guild_id", "key", "value"), "guild_id, key"),
    # tournaments (migration 9): an event before its players and matches
    "tournaments": (tuple(_TOURNAMENT_COLS.replace(" ", "").split(",")), "id"),
    "tournament_players": (
        ("tournament_id", "user_id", "name", "rating", "seed", "status", "joined_at"),
        "tournament_id, user_id",
    ),
    "tournament_matches": (tuple(_MATCH_COLS.split(", ")), "id"),
    "moves": (
        ("table_id", "version", "actor", "move", "origin", "process", "at"),
        "table_id, version",
    ),
}
# the JSON documents among them: exported decoded, imported in our own
# spelling (PostgreSQL's JSONB respells what it stores, and SQLite compares
# a turn clock as text)
JSON_COLUMNS = frozenset(
    {"seats", "options", "state", "ui", "clock", "record", "outcome", "settlement", "value"}
)
# … and those of the tournaments' tables, named with their table (their
# ``state`` is a word, ``tournament_matches.points`` a document while
# ``result_players.points`` is a number)
TOURNAMENT_JSON = frozenset(
    {"tournaments.options", "tournament_matches.seats", "tournament_matches.points",
     "tournament_matches.scores"}
)


def _is_json(table: str, column: str) -> bool:
    """Whether ``table.column`` holds a JSON document."""
    if table.startswith("tournament"):
        return f"{table}.{column}" in TOURNAMENT_JSON
    return column in JSON_COLUMNS


#: every row of a database, by table: what :meth:`Store.export_rows` gives
Rows = dict[str, list[tuple[Any, ...]]]


class SchemaBehind(RuntimeError):
    """The database's schema is older than the code and the store was told
    not to migrate it (``python -m bot --no-migrate``)."""

    def __init__(self, found: int, needed: int) -> None:
        super().__init__(
            f"the database is at schema version {found}, this code needs {needed}:"
            " run `python -m bot migrate` first (or start the bot without --no-migrate)"
        )
        self.found = found
        self.needed = needed


class NotEmpty(RuntimeError):
    """``copy-db`` into a database that already holds rows."""


class StoreError(sqlite3.Error):
    """A database failure, whichever the backend: PostgreSQL's are raised as
    this, SQLite's are ``sqlite3.Error`` already, so ``except sqlite3.Error``
    (or ``except StoreError`` for PostgreSQL alone) keeps working."""


class TableBusy(Exception):
    """Another process held a table past the time one would wait for it
    (:meth:`Store.table_lock`'s ``wait``): a process that hangs keeps its
    tables' locks. Not a database failure."""


class Conn(abc.ABC):
    """One connection as the shared queries see it (``?`` placeholders)."""

    @abc.abstractmethod
    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Sequence[Any]]: ...

    @abc.abstractmethod
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abc.abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Sequence[Any] | None:
        rows = await self.fetch(sql, args)
        return rows[0] if rows else None


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


class Store(abc.ABC):
    """The bot's database, whichever the backend. ``await store.open()``
    connects and migrates.

    The public methods are the interface the bot uses; their SQL is written
    here once, over three ways in for each backend: ``_reading()`` (any
    connection), ``_writing()`` (one statement that changes something) and
    ``_transaction()`` (several statements, all or nothing).
    ``Store(path)`` is SQLite; a URL goes through :func:`bot.storage.open_store`.
    """

    #: the backend's numbered migrations
    migrations: Sequence[str] = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> Store:
        if cls is Store:  # ``Store(path)``: the default, SQLite on a file
            target = args[0] if args else kwargs["path"]
            if is_postgres_url(target):
                raise ValueError("a PostgreSQL URL: open it with bot.storage.open_store")
            return object.__new__(SqliteStore)
        return object.__new__(cls)

    def __init__(self, *, migrate: bool = True) -> None:
        # at open: migrate (the default), or refuse a schema older than the
        # code (``False``: migrations are a deploy step of their own)
        self.migrate_at_open = migrate
        # guild settings change rarely and are read on every move (turn
        # clocks): kept here once read, replaced when written
        self._settings: dict[tuple[int, str], Any] = {}
        # a table's state JSON as last written or read here, and parsed
        # (never changed in place, only replaced): a load of the same text
        # shares it instead of parsing it again (a Yahtzee state: ~2.5 KB)
        self._states: dict[int, tuple[str, Any]] = {}
        # a table's row as this process last loaded or saved it (in the
        # columns' order, its documents as JSON text), kept only while the
        # backend says nobody else can have changed it (:meth:`_row_token`:
        # PostgreSQL, the table lock this process has held since; never on
        # SQLite): a load then sends nothing
        self._rows: dict[int, tuple[object, tuple[Any, ...]]] = {}
        self._forgotten = 0  # rows forgotten so far: a read or save it raced keeps nothing
        # called with a table's id before its lock is let go (PostgreSQL):
        # the table service writes what it noted of the table meanwhile
        # (:meth:`bot.tables.TableService.flush_table`), so the process that
        # takes the lock next loads it with the table
        self.before_let_go: Callable[[int], Awaitable[None]] | None = None

    # ----------------------------------------------------- the backend's part

    def _row_token(self, table_id: int) -> object | None:
        """What stands for this process's uninterrupted hold on the table
        (the same object as long as no other process can have changed the
        row since), or ``None`` (no row of it is kept): PostgreSQL's kept
        table lock; nothing on SQLite, whose loads are a hop to its thread."""
        return None

    def _forget_rows(self, table_ids: Iterable[int]) -> None:
        """Written here outside a versioned save, or removed: loaded anew."""
        self._forgotten += 1
        for table_id in table_ids:
            self._rows.pop(table_id, None)

    @abc.abstractmethod
    async def open(self) -> None: ...

    @abc.abstractmethod
    async def close(self) -> None: ...

    @property
    @abc.abstractmethod
    def is_open(self) -> bool: ...

    @abc.abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Conn]: ...

    @abc.abstractmethod
    def _writing(self) -> AbstractAsyncContextManager[Conn]: ...

    @abc.abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Conn]: ...

    @abc.abstractmethod
    async def _lock_schema(self, tx: Conn) -> None:
        """Inside a migration's transaction, before the version is read: make
        every other process wait (SQLite's ``BEGIN IMMEDIATE`` already does)."""

    @abc.abstractmethod
    async def _lock_ratings(self, tx: Conn, game: str) -> None:
        """Inside a finishing transaction, before the ratings are read: make
        another finishing game of ``game`` wait until this one commits."""

    @abc.abstractmethod
    async def _snapshot(self, tx: Conn) -> None:
        """First in an export's transaction: one consistent view of every
        table, whatever commits meanwhile."""

    @abc.abstractmethod
    async def _after_import(self, tx: Conn) -> None:
        """Last in an import's transaction: new rows get ids past the copied
        ones."""

    @abc.abstractmethod
    async def _has_table(self, conn: Conn, name: str) -> bool: ...

    @abc.abstractmethod
    async def patch_ui(self, patches: dict[int, dict[str, Any]]) -> None:
        """Set keys of tables' UI state (``None`` removes a key), whatever
        their version: bookkeeping such as the id of a table's turn ping, in
        one statement. A key's value is replaced whole (not merged into)."""

    @abc.abstractmethod
    def _ui_patch(self, patch: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        """The SQL expression (and its arguments) of ``ui`` with ``patch``'s
        keys replaced or (``None``) removed."""

    # ------------------------------------------------------------ migrations

    async def schema_version(self) -> int:
        async with self._reading() as c:
            return await self._schema_version(c)

    async def _schema_version(self, c: Conn) -> int:
        if not await self._has_table(c, "schema_version"):
            return 0
        row = await c.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self, migrations: Sequence[str] | None = None) -> int:
        """Apply every migration newer than the database, in one transaction
        that first locks the schema (several processes may open one database
        at once: one migrates, the others wait and find it done); returns the
        version."""
        steps = self.migrations if migrations is None else migrations
        async with self._transaction() as tx:
            await self._lock_schema(tx)
            await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await self._schema_version(tx)
            for number, sql in enumerate(steps, start=1):
                if number <= current:
                    continue
                log.info("applying database migration %d", number)
                for statement in _statements(sql):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
                current = number
        return current

    async def _prepare_schema(self) -> None:
        """At open: migrate, or (``migrate=False``) make sure nothing needs
        to be (:class:`SchemaBehind` otherwise)."""
        if self.migrate_at_open:
            await self.migrate()
            return
        found = await self.schema_version()
        if found < len(self.migrations):
            raise SchemaBehind(found, len(self.migrations))

    # ------------------------------------------------------------ copy-db

    async def export_rows(self) -> Rows:
        """Every row of every table (:data:`COPIED`), read in one
        transaction; JSON documents decoded."""
        out: Rows = {}
        async with self._transaction() as tx:
            await self._snapshot(tx)
            for name, (columns, order) in COPIED.items():
                rows = await tx.fetch(f"SELECT {', '.join(columns)} FROM {name} ORDER BY {order}")
                out[name] = [
                    tuple(
                        json.loads(v) if _is_json(name, col) and v is not None else v
                        for col, v in zip(columns, r, strict=True)
                    )
                    for r in rows
                ]
        return out

    async def import_rows(self, rows: Rows) -> dict[str, int]:
        """Write ``rows`` (from :meth:`export_rows` of any store) into this
        empty database, ids included, in one transaction; how many rows per
        table. :class:`NotEmpty` if any table already holds a row."""
        async with self._transaction() as tx:
            full = []
            for name in COPIED:
                r = await tx.fetchone(f"SELECT COUNT(*) FROM {name}")
                if r and r[0]:
                    full.append(f"{name} ({r[0]} rows)")
            if full:
                raise NotEmpty("the destination is not empty: " + ", ".join(full))
            for name, (columns, _order) in COPIED.items():
                batch = [
                    tuple(
                        _dumps(v) if _is_json(name, col) and v is not None else v
                        for col, v in zip(columns, row, strict=True)
                    )
                    for row in rows.get(name, [])
                ]
                if batch:
                    marks = ", ".join("?" * len(columns))
                    await tx.executemany(
                        f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({marks})", batch
                    )
            await self._after_import(tx)
        self._settings.clear()
        return {name: len(rows.get(name, [])) for name in COPIED}

    # ---------------------------------------------------------------- tables

    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        seats: list[dict[str, Any]],
        options: dict[str, Any],
        now: float,
    ) -> TableRow | None:
        """A new lobby; ``None`` if the channel already has a table."""
        async with self._writing() as c:
            r = await c.fetchone(
                "INSERT INTO tables (guild_id, channel_id, game, phase, host_id, seats, options,"
                " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?)"
                " ON CONFLICT (channel_id) DO NOTHING RETURNING id",
                (guild_id, channel_id, game, host_id, _dumps(seats), _dumps(options), now, now),
            )
        if r is None:
            return None
        return await self.get_table(r[0])

    async def _tables(self, where: str, args: Sequence[Any] = ()) -> list[TableRow]:
        async with self._reading() as c:
            rows = await c.fetch(f"SELECT {_TABLE_COLS} FROM tables {where}", args)
        return [self._decoded(r) for r in rows]

    def _decoded(self, r: Sequence[Any]) -> TableRow:
        text = r[9]
        known = self._states.get(r[0])
        if text is not None and known is not None and known[0] == text:
            return _row(r, known[1])
        row = _row(r)
        if text is not None:
            self._keep_state(row.id, text, row.state)
        return row

    def _keep_state(self, table_id: int, text: str, doc: Any) -> None:
        if len(self._states) >= STATES_KEPT and table_id not in self._states:
            self._states.clear()  # a table not played for a while parses its state again
        self._states[table_id] = (text, doc)

    async def get_table(self, table_id: int) -> TableRow | None:
        token = self._row_token(table_id)
        if token is not None:
            kept = self._rows.get(table_id)
            if kept is not None and kept[0] is token:
                return self._decoded(kept[1])
        forgotten = self._forgotten
        async with self._reading() as c:
            found = await c.fetch(f"SELECT {_TABLE_COLS} FROM tables WHERE id = ?", (table_id,))
        if not found:
            return None
        # held all along, and nothing of this process wrote meanwhile
        if token is not None and self._row_token(table_id) is token and forgotten == self._forgotten:
            self._rows[table_id] = (token, tuple(found[0]))
        return self._decoded(found[0])

    async def table_in_channel(self, channel_id: int) -> TableRow | None:
        rows = await self._tables("WHERE channel_id = ?", (channel_id,))
        return rows[0] if rows else None

    async def live_tables(self) -> list[TableRow]:
        return await self._tables("ORDER BY id")

    async def guild_tables(self, guild_id: int) -> list[TableRow]:
        """The live tables of one server, oldest first (``/game list``)."""
        return await self._tables("WHERE guild_id = ? ORDER BY created_at, id", (guild_id,))

    async def ping(self) -> None:
        """A trivial query: raises if the database does not answer (/healthz)."""
        async with self._reading() as c:
            await c.fetchone("SELECT 1")

    async def table_counts(self) -> dict[str, int]:
        """How many tables there are per phase (/metrics), without loading them."""
        async with self._reading() as c:
            rows = await c.fetch("SELECT phase, COUNT(*) FROM tables GROUP BY phase")
        return {str(phase): int(n) for phase, n in rows}

    async def get_meta(self, key: str) -> str | None:
        """The bot's own bookkeeping value ``key`` (``None``: never set)."""
        async with self._reading() as c:
            r = await c.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if r is None else str(r[0])

    async def set_meta(self, key: str, value: str) -> None:
        """Set the bookkeeping value ``key`` (the last write wins)."""
        async with self._writing() as c:
            await c.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def get_review(self, result_id: int, engine: str) -> dict[str, Any] | None:
        """The stored review of a result made by review version ``engine``
        (``None``: none, or another version's)."""
        async with self._reading() as c:
            r = await c.fetchone(
                "SELECT review FROM reviews WHERE result_id = ? AND engine = ?",
                (result_id, engine),
            )
        return None if r is None else dict(json.loads(r[0]))

    async def save_review(
        self, result_id: int, engine: str, review: dict[str, Any], *, now: float
    ) -> None:
        """Keep a result's review (the last write wins)."""
        async with self._writing() as c:
            await c.execute(
                "INSERT INTO reviews (result_id, engine, review, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (result_id) DO UPDATE SET engine = excluded.engine,"
                " review = excluded.review, created_at = excluded.created_at",
                (result_id, engine, _dumps(review), now),
            )

    async def set_message(self, table_id: int, message_id: int) -> None:
        """Where the table message is (not a game change: no version bump)."""
        self._forget_rows((table_id,))
        async with self._writing() as c:
            await c.execute("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))

    async def save_table(
        self,
        row: TableRow,
        *,
        now: float,
        ledger: Ledger | None = None,
        ui_patch: dict[str, Any] | None = None,
    ) -> bool:
        """Write ``row`` if the stored version is still ``row.version``; on
        success ``row.version`` is incremented. ``False`` = someone was first.
        ``row.shown`` (what is on screen) is written along, never backwards.
        With ``ledger``, the change's ledger line is written in the same
        transaction. With ``ui_patch`` only those keys of the UI state are
        written (``None`` removes one), never the whole of it: another
        process's bookkeeping in other keys stays."""
        if ui_patch is None:
            ui_sql, ui_args = "?", (_dumps(row.ui),)
        else:
            ui_sql, ui_args = self._ui_patch(ui_patch)
        state = None
        if row.state is not None:
            known = self._states.get(row.id)  # the state as loaded (a UI change, a lobby)
            state = known[0] if known is not None and known[1] is row.state else _dumps(row.state)
        seats, options = _dumps(row.seats), _dumps(row.options)
        sql = (
            "UPDATE tables SET phase = ?, host_id = ?, seats = ?, options = ?, state = ?,"
            f" ui = {ui_sql}, seed = ?, deadline = ?, clock = ?, cpu_due = ?,"
            " shown = CASE WHEN shown > ? THEN shown ELSE ? END, version = version + 1,"
            " updated_at = ? WHERE id = ? AND version = ?"
        )
        args = (
            row.phase,
            row.host_id,
            seats,
            options,
            state,
            *ui_args,
            row.seed,
            row.deadline,
            _dumps(row.clock),
            row.cpu_due,
            row.shown,
            row.shown,
            now,
            row.id,
            row.version,
        )
        token = self._row_token(row.id)
        kept = self._rows.pop(row.id, None)  # (a failed write: loaded anew)
        forgotten = self._forgotten
        if ledger is None:
            async with self._writing() as c:
                n = await c.execute(sql, args)
        else:
            n = await self._update_with_ledger(sql, args, row.id, row.version + 1, ledger, now)
        if n == 1:
            row.version += 1
            if state is not None:
                self._keep_state(row.id, state, row.state)
            if token is not None and self._row_token(row.id) is token and (
                forgotten == self._forgotten  # (another write of this process meanwhile)
            ):
                # the row as stored now: its UI state is the loaded one with
                # this change's keys, that is ``row.ui``; ``shown`` never back
                shown = max(row.shown, kept[1][_SHOWN] if kept is not None else -1)
                self._rows[row.id] = (token, (  # in _TABLE_COLS' order
                    row.id, row.guild_id, row.channel_id, row.message_id, row.game, row.phase,
                    row.host_id, seats, options, state, _dumps(row.ui), row.seed,
                    row.version, row.deadline, row.created_at, now, _dumps(row.clock),
                    shown, row.cpu_due,
                ))  # fmt: skip
        return n == 1

    @abc.abstractmethod
    async def _update_with_ledger(
        self,
        sql: str,
        args: Sequence[Any],
        table_id: int,
        version: int,
        ledger: Ledger,
        now: float,
    ) -> int:
        """The versioned ``UPDATE tables`` and its ledger line, all or nothing;
        the rows updated (0: stale). SQLite: one hop to its thread;
        PostgreSQL: one statement."""

    async def _write_ledger(
        self, tx: Conn, table_id: int, version: int, ledger: Ledger, now: float
    ) -> None:
        await tx.execute(_LEDGER_SQL, _ledger_args(table_id, version, ledger, now))

    async def ledger(self, table_id: int | None = None) -> list[dict[str, Any]]:
        """The moves ledger (of one table, or all), in order."""
        sql = "SELECT table_id, version, actor, move, origin, process, at FROM moves"
        args: tuple[Any, ...] = ()
        if table_id is not None:
            sql += " WHERE table_id = ?"
            args = (table_id,)
        async with self._reading() as c:
            rows = await c.fetch(sql + " ORDER BY table_id, version", args)
        keys = ("table_id", "version", "actor", "move", "origin", "process", "at")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    # ------------------------------------------------- several processes

    #: how a claim skips rows another transaction holds (PostgreSQL)
    _skip_locked = ""
    # a table's clock has not warned yet (``clock.warned`` unset or false)
    _unwarned = "COALESCE(json_extract(clock, '$.warned'), 0) = 0"

    def table_lock(
        self, table_id: int, *, wait: float | None = None
    ) -> AbstractAsyncContextManager[None]:
        """Exclusion of one table across processes, held around a press and
        what follows it (the commit and the table message's edit), so no two
        processes present one table out of order. ``wait``: raise
        :class:`TableBusy` if another process holds it longer (``None``: wait
        as long as it takes). SQLite serves one process (its in-process lock
        is :meth:`bot.tables.TableService.lock`)."""
        return contextlib.nullcontext()

    def let_go_idle_locks(self) -> None:  # noqa: B027 (SQLite keeps none)
        """Table locks kept after use (PostgreSQL) past their time let go;
        the sweeper calls it every second."""

    async def claim_due(
        self, *, until: float, cpu_until: float, now: float, owner: str, lease: float
    ) -> list[int]:
        """Claim, for ``lease`` seconds, the tables whose turn clock is due by
        ``now`` — by ``until`` while its warning is owed (a game in play
        whose clock has not warned yet; a warned one waits for its deadline,
        not claimed, loaded and let go every sweep till then) — or whose
        computer's turn is overdue (due by ``cpu_until``), and which nobody
        holds a live lease on; their ids, earliest first. Two sweepers never
        claim one table at once (PostgreSQL: ``FOR UPDATE SKIP LOCKED``;
        SQLite: one writer), and the versioned write stays the final guard."""
        async with self._writing() as c:
            rows = await c.fetch(
                "UPDATE tables SET lease_owner = ?, lease_until = ? WHERE id IN ("
                " SELECT id FROM tables WHERE ((deadline IS NOT NULL AND (deadline <= ?"
                f" OR (deadline <= ? AND phase = 'playing' AND {self._unwarned})))"
                " OR (cpu_due IS NOT NULL AND cpu_due <= ?))"
                " AND (lease_until IS NULL OR lease_until <= ?)"
                " ORDER BY deadline LIMIT 200" + self._skip_locked + ") RETURNING id, deadline",
                (owner, now + lease, now, until, cpu_until, now),
            )
        rows.sort(key=lambda r: (r[1] is None, r[1] or 0.0, r[0]))
        return [int(r[0]) for r in rows]

    async def release(self, table_id: int, owner: str) -> None:
        """Give up the lease on ``table_id`` (its due work is done)."""
        async with self._writing() as c:
            await c.execute(
                "UPDATE tables SET lease_owner = NULL, lease_until = NULL"
                " WHERE id = ? AND lease_owner = ?",
                (table_id, owner),
            )

    async def announce_due(self, when: float) -> None:
        """Tell the other processes that something is due at ``when`` (a new
        deadline or computer turn): PostgreSQL ``NOTIFY``; SQLite has no
        other processes to tell."""
        return None

    async def listen_due(self, callback: Callable[[float], None]) -> None:
        """Call ``callback(when)`` for every :meth:`announce_due` of any
        process (PostgreSQL ``LISTEN``); nothing on SQLite."""
        return None

    async def set_shown(self, shown: dict[int, int]) -> None:
        """Record the versions now shown on table messages (``table id →
        version``), in one statement; never moves a table's ``shown`` back."""
        if not shown:
            return
        self._forget_rows(shown)
        async with self._writing() as c:
            await c.executemany(
                "UPDATE tables SET shown = ? WHERE id = ? AND shown < ?",
                [(version, table_id, version) for table_id, version in shown.items()],
            )

    async def behind_tables(self, changed_before: float) -> list[TableRow]:
        """Tables whose message shows an older version than the stored one,
        last changed at or before ``changed_before`` (the repair sweep)."""
        return await self._tables(
            "WHERE shown < version AND updated_at <= ? ORDER BY id", (changed_before,)
        )

    async def due_tables(self, until: float) -> list[TableRow]:
        """Tables whose deadline is at or before ``until`` (the turn-clock sweeper)."""
        return await self._tables(
            "WHERE deadline IS NOT NULL AND deadline <= ? ORDER BY deadline", (until,)
        )

    async def next_deadline(self, after: float, *, cpu_overdue: float = 0.0) -> float | None:
        """The earliest deadline later than ``after`` — or, with
        ``cpu_overdue``, the earliest time a computer's turn becomes overdue
        (its due time plus that) — the sweeper's next wake."""
        async with self._reading() as c:
            r = await c.fetchone(
                "SELECT MIN(t) FROM (SELECT MIN(deadline) AS t FROM tables WHERE deadline > ?"
                " UNION ALL SELECT MIN(cpu_due) + ? FROM tables"
                " WHERE ? > 0 AND cpu_due IS NOT NULL AND cpu_due + ? > ?) AS due",
                (after, cpu_overdue, cpu_overdue, cpu_overdue, after),
            )
        return float(r[0]) if r and r[0] is not None else None

    async def set_clock(self, row: TableRow, expected: dict[str, Any]) -> bool:
        """Write only ``row.clock`` (the turn-clock warning), if the version is
        unchanged and the stored clock is still ``expected``: whoever writes
        first wins, so a warning is given once. No version bump."""
        self._forget_rows((row.id,))
        async with self._writing() as c:
            n = await c.execute(
                "UPDATE tables SET clock = ? WHERE id = ? AND version = ? AND clock = ?",
                (_dumps(row.clock), row.id, row.version, _dumps(expected)),
            )
        return n == 1

    async def delete_table(
        self,
        row: TableRow,
        *,
        ledger: Ledger | None = None,
        now: float = 0.0,
        screen: dict[str, Any] | None = None,
    ) -> bool:
        """Remove a table (cancelled lobby) if its version is unchanged (and
        write its ledger line in the same transaction). ``screen``: a game
        ended without a result — what its message is drawn from, kept until
        it is shown (:meth:`unshown_ends`), and its seed, kept to be checked
        (:meth:`ended_seed`)."""
        self._forget_rows((row.id,))
        async with self._transaction() as tx:
            n = await tx.execute(
                "DELETE FROM tables WHERE id = ? AND version = ?", (row.id, row.version)
            )
            if n == 1 and ledger is not None:
                await self._write_ledger(tx, row.id, row.version + 1, ledger, now)
            if n == 1 and screen is not None:
                await tx.executemany(
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [(f"{ENDED_UNSHOWN}{row.id}", _dumps(screen))]
                    + ([(f"{ENDED_SEED}{row.id}", _dumps({"game": row.game, "seed": row.seed}))]
                       if row.seed else []),
                )  # fmt: skip
        return n == 1

    async def unshown_ends(self, ended_before: float) -> dict[int, dict[str, Any]]:
        """The games ended without a result whose message is not shown yet
        (table id → what it is drawn from), ended at or before
        ``ended_before`` (the repair sweep)."""
        async with self._reading() as c:
            rows = await c.fetch(
                "SELECT key, value FROM meta WHERE key LIKE ? ORDER BY key",
                (f"{ENDED_UNSHOWN}%",),
            )
        found = {int(key[len(ENDED_UNSHOWN) :]): json.loads(value) for key, value in rows}
        return {k: v for k, v in found.items() if float(v.get("at", 0.0)) <= ended_before}

    async def ends_shown(self, table_ids: Sequence[int]) -> None:
        """The messages of these games ended without a result show it now."""
        if not table_ids:
            return
        marks = ",".join("?" * len(table_ids))
        async with self._writing() as c:
            await c.execute(
                f"DELETE FROM meta WHERE key IN ({marks})",
                [f"{ENDED_UNSHOWN}{i}" for i in table_ids],
            )

    async def ended_seed(self, table_id: int) -> dict[str, Any] | None:
        """The game and seed of a game that ended without a result at table
        ``table_id`` (``None``: no such game — a live table tells nothing)."""
        value = await self.get_meta(f"{ENDED_SEED}{table_id}")
        return None if value is None else dict(json.loads(value))

    async def finish_table(
        self,
        row: TableRow,
        result: Result,
        *,
        ledger: Ledger | None = None,
        screen: dict[str, Any] | None = None,
    ) -> int | None:
        """In one transaction: check the version, store the result, its
        players and ratings (read and written inside it, so two games sharing
        a player that finish at once both count), and remove the live table.
        ``screen``: what the result message is drawn from, kept until it is
        shown (:meth:`unshown_results`), so a failed edit or a process killed
        before it still ends with the result on screen. ``None`` = stale."""
        self._forget_rows((row.id,))
        async with self._transaction() as tx:
            result_id = await self._finish(tx, row, result)
            if result_id is not None and ledger is not None:
                await self._write_ledger(tx, row.id, row.version + 1, ledger, result.finished_at)
            if result_id is not None and screen is not None:
                await tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    (f"{UNSHOWN}{result_id}", _dumps(screen)),
                )
        if result_id is not None:
            row.version += 1
        return result_id

    async def unshown_results(self, finished_before: float) -> dict[int, dict[str, Any]]:
        """The results whose message is not shown yet (result id → what it
        is drawn from, :meth:`finish_table`'s ``screen``), finished at or
        before ``finished_before`` (the repair sweep)."""
        async with self._reading() as c:
            rows = await c.fetch(
                "SELECT key, value FROM meta WHERE key LIKE ? ORDER BY key", (f"{UNSHOWN}%",)
            )
        found = {int(key[len(UNSHOWN) :]): json.loads(value) for key, value in rows}
        return {k: v for k, v in found.items() if float(v.get("at", 0.0)) <= finished_before}

    async def results_shown(self, result_ids: Sequence[int]) -> None:
        """The messages of these results show them now: nothing to repair."""
        if not result_ids:
            return
        marks = ",".join("?" * len(result_ids))
        async with self._writing() as c:
            await c.execute(
                f"DELETE FROM meta WHERE key IN ({marks})", [f"{UNSHOWN}{i}" for i in result_ids]
            )

    async def _finish(self, tx: Conn, row: TableRow, result: Result) -> int | None:
        n = await tx.execute(
            "DELETE FROM tables WHERE id = ? AND version = ?", (row.id, row.version)
        )
        if n != 1:
            return None
        if result.rate is not None:
            await self._lock_ratings(tx, result.game)
            ranks = {p.user_id: p.rank for p in result.players}
            current = await self._ratings(tx, result.game, list(ranks))
            result.ratings = result.rate(ranks, current)
            if result.season is not None and result.guild_id is not None:
                # the season's ratings: fresh (the model's defaults) for a
                # player's first game of the season, under the same lock
                now_season = await self._season_ratings(
                    tx, result.guild_id, result.season, result.game, list(ranks)
                )
                result.season_ratings = result.rate(ranks, now_season)
        settlement = {str(p.user_id): p.points for p in result.players}
        r = await tx.fetchone(
            "INSERT INTO results (table_id, guild_id, channel_id, game, record, outcome,"
            " settlement, seed, has_bots, finished_at, seats, host_id, message_id, season)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                result.table_id,
                result.guild_id,
                result.channel_id,
                result.game,
                _dumps(result.record),
                _dumps(result.outcome),
                _dumps(settlement),
                result.seed,
                int(result.has_bots),
                result.finished_at,
                _dumps(result.seats) if result.seats is not None else None,
                result.host_id,
                result.message_id,
                result.season,
            ),
        )
        assert r is not None
        result_id = int(r[0])
        await tx.executemany(
            "INSERT INTO result_players (result_id, user_id, guild_id, game, name, rank, won,"
            " points, best, rated, finished_at, season, rating)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    result_id,
                    p.user_id,
                    result.guild_id,
                    result.game,
                    p.name,
                    p.rank,
                    int(p.won),
                    p.points,
                    p.best,
                    int(not result.has_bots if result.rated is None else result.rated),
                    result.finished_at,
                    result.season,
                    # the displayed all-time rating after this game (mu − 3σ)
                    (
                        result.ratings[p.user_id][0] - 3 * result.ratings[p.user_id][1]
                        if p.user_id in result.ratings
                        else None
                    ),
                )
                for p in result.players
            ],
        )
        if result.ratings:
            await tx.executemany(
                "INSERT INTO ratings (game, user_id, mu, sigma, games) VALUES (?, ?, ?, ?, 1)"
                " ON CONFLICT (game, user_id) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, games = ratings.games + 1",
                [(result.game, uid, mu, sigma) for uid, (mu, sigma) in result.ratings.items()],
            )
        if result.season_ratings:
            await tx.executemany(
                "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, games)"
                " VALUES (?, ?, ?, ?, ?, ?, 1)"
                " ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, games = season_ratings.games + 1",
                [
                    (result.guild_id, result.season, result.game, uid, mu, sigma)
                    for uid, (mu, sigma) in result.season_ratings.items()
                ],
            )
        return result_id

    async def _season_ratings(
        self, c: Conn, guild_id: int, season: str, game: str, user_ids: Sequence[int]
    ) -> dict[int, tuple[float, float]]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await c.fetch(
            "SELECT user_id, mu, sigma FROM season_ratings WHERE guild_id = ? AND season = ?"
            f" AND game = ? AND user_id IN ({marks})",
            (guild_id, season, game, *user_ids),
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    # --------------------------------------------------------------- ratings

    async def ratings(self, game: str, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        async with self._reading() as c:
            return await self._ratings(c, game, user_ids)

    async def _ratings(
        self, c: Conn, game: str, user_ids: Sequence[int]
    ) -> dict[int, tuple[float, float]]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await c.fetch(
            f"SELECT user_id, mu, sigma FROM ratings WHERE game = ? AND user_id IN ({marks})",
            (game, *user_ids),
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    # ------------------------------------------------- leaderboards and stats

    async def leaderboard(
        self,
        game: str,
        *,
        guild_id: int | None,
        by: str,
        limit: int = 10,
        season: str | None = None,
    ) -> list[dict[str, Any]]:
        """Top players of ``game`` (``guild_id=None`` = every server).

        ``by``: ``rating`` (mu − 3σ, rated games), ``wins``, ``points`` (sum of
        settlement) or ``best``. ``season`` (a server's, so with ``guild_id``):
        only that season's games, and its own ratings. Each row's ``rated``
        is its rated games (by rating; ``None`` otherwise: bot.ratings.shown).
        """
        where = "rp.game = ?"
        args: list[Any] = [game]
        if guild_id is not None:
            where += " AND rp.guild_id = ?"
            args.append(guild_id)
        if season is not None:
            where += " AND rp.season = ?"
            args.append(season)
        agg = (
            "SELECT rp.user_id, MAX(rp.name) AS name, COUNT(*) AS games, SUM(rp.won) AS wins,"
            " SUM(rp.points) AS points, MAX(rp.best) AS best"
            f" FROM result_players rp WHERE {where} GROUP BY rp.user_id"
        )
        if by == "rating":
            if season is not None:
                join = (
                    " JOIN season_ratings r ON r.guild_id = ? AND r.season = ? AND r.game = ?"
                    " AND r.user_id = a.user_id"
                )
                args += [guild_id, season, game, limit]
            else:
                join = " JOIN ratings r ON r.game = ? AND r.user_id = a.user_id"
                args += [game, limit]
            sql = (
                f"SELECT a.user_id, a.name, a.games, a.wins, a.points, a.best,"
                f" r.mu - 3 * r.sigma AS value, r.games AS rated FROM ({agg}) a{join}"
                " ORDER BY value DESC, a.wins DESC LIMIT ?"
            )
        else:
            column = {"wins": "wins", "points": "points", "best": "best"}[by]
            extra = " WHERE best IS NOT NULL" if by == "best" else ""
            sql = (
                f"SELECT user_id, name, games, wins, points, best, {column} AS value,"
                f" NULL AS rated FROM ({agg}) a{extra} ORDER BY value DESC, wins DESC, user_id"
                " LIMIT ?"
            )
            args.append(limit)
        async with self._reading() as c:
            rows = await c.fetch(sql, args)
        keys = ("user_id", "name", "games", "wins", "points", "best", "value", "rated")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    async def stats(
        self,
        user_id: int,
        *,
        game: str | None,
        guild_id: int | None,
        season: str | None = None,
    ) -> list[dict[str, Any]]:
        """Per-game statistics of one player (optionally one game / server /
        that server's ``season``, whose ratings are the season's own)."""
        where = "user_id = ?"
        args: list[Any] = [user_id]
        if game is not None:
            where += " AND game = ?"
            args.append(game)
        if guild_id is not None:
            where += " AND guild_id = ?"
            args.append(guild_id)
        if season is not None:
            where += " AND season = ?"
            args.append(season)
        async with self._reading() as c:
            rows = await c.fetch(
                "SELECT game, COUNT(*), SUM(won), SUM(points), MAX(best), MAX(points)"
                f" FROM result_players WHERE {where} GROUP BY game ORDER BY game",
                args,
            )
            out = [
                {"game": g, "games": n, "wins": wins, "points": points, "best": best, "top": top}
                for g, n, wins, points, best, top in rows
            ]
            if out:
                if season is not None:
                    rated = await c.fetch(
                        "SELECT game, mu, sigma FROM season_ratings"
                        " WHERE user_id = ? AND guild_id = ? AND season = ?",
                        (user_id, guild_id, season),
                    )
                else:
                    rated = await c.fetch(
                        "SELECT game, mu, sigma FROM ratings WHERE user_id = ?", (user_id,)
                    )
                ratings = {g: (mu, sigma) for g, mu, sigma in rated}
                for item in out:
                    if item["game"] in ratings:
                        mu, sigma = ratings[item["game"]]
                        item["rating"] = mu - 3 * sigma
        return out

    async def rated_games(
        self, user_id: int, *, guild_id: int | None = None, season: str | None = None
    ) -> dict[str, int]:
        """How many rated games each of a player's ratings counts, by game
        (all-time; a server's ``season``'s own with ``guild_id``): below
        bot.ratings.PROVISIONAL_GAMES the rating is shown provisional."""
        async with self._reading() as c:
            if season is not None:
                rows = await c.fetch(
                    "SELECT game, games FROM season_ratings"
                    " WHERE user_id = ? AND guild_id = ? AND season = ?",
                    (user_id, guild_id, season),
                )
            else:
                rows = await c.fetch(
                    "SELECT game, games FROM ratings WHERE user_id = ?", (user_id,)
                )
        return {str(g): int(n) for g, n in rows}

    async def board_counts(
        self, game: str, *, guild_id: int | None, season: str | None = None
    ) -> dict[str, int]:
        """Why a board may be empty: the places in finished games of ``game``
        (a server's / a season's, as :meth:`leaderboard`) — ``finished``
        all of them, ``rated`` those of rated games, ``with_bots`` those of
        games with computer players."""
        where = "rp.game = ?"
        args: list[Any] = [game]
        if guild_id is not None:
            where += " AND rp.guild_id = ?"
            args.append(guild_id)
        if season is not None:
            where += " AND rp.season = ?"
            args.append(season)
        async with self._reading() as c:
            row = await c.fetchone(
                "SELECT COUNT(*), COALESCE(SUM(rp.rated), 0), COALESCE(SUM(r.has_bots), 0)"
                f" FROM result_players rp JOIN results r ON r.id = rp.result_id WHERE {where}",
                args,
            )
        assert row is not None
        return {"finished": int(row[0]), "rated": int(row[1]), "with_bots": int(row[2])}

    async def rating_trend(self, user_id: int, game: str, *, limit: int = 20) -> list[float]:
        """A player's all-time rating after each of their last rated games
        of ``game``, oldest first (the stats card's chart)."""
        async with self._reading() as c:
            rows = await c.fetch(
                "SELECT rating FROM result_players WHERE user_id = ? AND game = ?"
                " AND rating IS NOT NULL ORDER BY finished_at DESC, result_id DESC LIMIT ?",
                (user_id, game, limit),
            )
        return [float(r[0]) for r in reversed(rows)]

    async def seasons(self, guild_id: int) -> list[str]:
        """The seasons of a server that have finished games, newest first."""
        async with self._reading() as c:
            rows = await c.fetch(
                "SELECT DISTINCT season FROM results WHERE guild_id = ? AND season IS NOT NULL"
                " ORDER BY season DESC",
                (guild_id,),
            )
        return [str(r[0]) for r in rows]

    async def history(
        self,
        *,
        guild_id: int | None,
        user_id: int | None = None,
        game: str | None = None,
        limit: int = 10,
    ) -> list[dict[str, Any]]:
        """The last finished games, newest first: of a server
        (``guild_id``), and/or with ``user_id`` among the players, of
        ``game``. Each with where its result message is, its seed, seats,
        outcome and places (``players``, as :meth:`get_result`)."""
        where: list[str] = []
        args: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        if game is not None:
            where.append("game = ?")
            args.append(game)
        if user_id is not None:
            where.append("id IN (SELECT result_id FROM result_players WHERE user_id = ?)")
            args.append(user_id)
        sql = (
            "SELECT id, guild_id, channel_id, message_id, game, seed, finished_at, outcome, seats"
            " FROM results"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " ORDER BY finished_at DESC, id DESC LIMIT ?"
        )
        args.append(limit)
        async with self._reading() as c:
            rows = await c.fetch(sql, args)
            ids = [r[0] for r in rows]
            places: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                marks = ",".join("?" * len(ids))
                for p in await c.fetch(
                    "SELECT result_id, user_id, name, rank, won, points FROM result_players"
                    f" WHERE result_id IN ({marks}) ORDER BY rank, name",
                    ids,
                ):
                    places[p[0]].append(
                        {
                            "user_id": p[1],
                            "name": p[2],
                            "rank": p[3],
                            "won": bool(p[4]),
                            "points": p[5],
                        }
                    )
        return [
            {
                "id": r[0],
                "guild_id": r[1],
                "channel_id": r[2],
                "message_id": r[3],
                "game": r[4],
                "seed": r[5],
                "finished_at": float(r[6]),
                "outcome": json.loads(r[7]),
                "seats": json.loads(r[8]) if r[8] is not None else None,
                "players": places[r[0]],
            }
            for r in rows
        ]

    async def results(self, *, game: str | None = None) -> list[dict[str, Any]]:
        """Finished games, oldest first (for tests and tools)."""
        sql = "SELECT id, game, record, outcome, settlement, seed, has_bots, guild_id FROM results"
        args: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            args = (game,)
        async with self._reading() as c:
            rows = await c.fetch(sql + " ORDER BY id", args)
        return [
            {
                "id": r[0],
                "game": r[1],
                "record": json.loads(r[2]),
                "outcome": json.loads(r[3]),
                "settlement": json.loads(r[4]),
                "seed": r[5],
                "has_bots": bool(r[6]),
                "guild_id": r[7],
            }
            for r in rows
        ]

    async def display_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """Each user's display name at their latest finished game that kept
        its seats (results since migration 4), for boards that name people
        as they chose (``result_players.name`` is the engine name, "Bob_Smith");
        users without such a game are left out."""
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        async with self._reading() as c:
            latest = await c.fetch(
                "SELECT rp.user_id, MAX(r.id) FROM result_players rp"
                " JOIN results r ON r.id = rp.result_id"
                f" WHERE rp.user_id IN ({marks}) AND r.seats IS NOT NULL GROUP BY rp.user_id",
                tuple(ids),
            )
            if not latest:
                return {}
            results = sorted({int(r[1]) for r in latest})
            seats = await c.fetch(
                f"SELECT id, seats FROM results WHERE id IN ({', '.join('?' for _ in results)})",
                tuple(results),
            )
        by_result = {int(r[0]): json.loads(r[1]) for r in seats}
        out: dict[int, str] = {}
        for user_id, result_id in latest:
            for seat in by_result.get(int(result_id), []):
                if seat.get("id") == int(user_id) and not seat.get("bot"):
                    out[int(user_id)] = str(seat.get("display") or seat.get("name"))
        return out

    async def get_result(self, result_id: int) -> dict[str, Any] | None:
        """One finished game: its record, outcome, places and where it was
        played (``None`` if there is no such result)."""
        async with self._reading() as c:
            r = await c.fetchone(
                "SELECT id, table_id, guild_id, channel_id, game, record, outcome, settlement,"
                " seed, has_bots, finished_at, seats, host_id, message_id, season FROM results"
                " WHERE id = ?",
                (result_id,),
            )
            if r is None:
                return None
            players = await c.fetch(
                "SELECT user_id, name, rank, won, points, best, rated FROM result_players"
                " WHERE result_id = ? ORDER BY rank, name",
                (result_id,),
            )
        return {
            "id": r[0],
            "table_id": r[1],
            "guild_id": r[2],
            "channel_id": r[3],
            "game": r[4],
            "record": json.loads(r[5]),
            "outcome": json.loads(r[6]),
            "settlement": json.loads(r[7]),
            "seed": r[8],
            "has_bots": bool(r[9]),
            "finished_at": float(r[10]),
            # the seats and host (None for games finished before migration 4)
            "seats": json.loads(r[11]) if r[11] is not None else None,
            "host_id": r[12],
            "message_id": r[13],  # the result message (None before migration 5)
            "season": r[14],
            "players": [
                {
                    "user_id": p[0],
                    "name": p[1],
                    "rank": p[2],
                    "won": bool(p[3]),
                    "points": p[4],
                    "best": p[5],
                    "rated": bool(p[6]),
                }
                for p in players
            ],
        }

    # ------------------------------------------------------------ tournaments

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        format: str,
        rounds: int,
        table_size: int,
        options: dict[str, Any],
        clock_seconds: int | None,
        starts_at: float | None,
        checkin_seconds: int,
        cpu_fill: bool,
        host_id: int,
        lang: str,
        now: float,
    ) -> TournamentRow:
        """A new tournament taking sign-ups."""
        async with self._writing() as c:
            r = await c.fetchone(
                "INSERT INTO tournaments (guild_id, channel_id, game, format, rounds, table_size,"
                " options, clock_seconds, starts_at, checkin_seconds, cpu_fill, host_id, lang,"
                " state, round, version, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', 0, 0, ?) RETURNING id",
                (guild_id, channel_id, game, format, rounds, table_size, _dumps(options),
                 clock_seconds, starts_at, checkin_seconds, int(cpu_fill), host_id, lang, now),
            )  # fmt: skip
        assert r is not None
        found = await self.get_tournament(int(r[0]))
        assert found is not None
        return found

    async def _tournaments(self, where: str, args: Sequence[Any] = ()) -> list[TournamentRow]:
        async with self._reading() as c:
            rows = await c.fetch(f"SELECT {_TOURNAMENT_COLS} FROM tournaments {where}", args)
        return [_tournament(r) for r in rows]

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._tournaments("WHERE id = ?", (tournament_id,))
        return rows[0] if rows else None

    async def guild_tournaments(self, guild_id: int, *, limit: int = 10) -> list[TournamentRow]:
        """A server's tournaments, newest first."""
        return await self._tournaments(
            "WHERE guild_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", (guild_id, limit)
        )

    async def live_tournaments(self) -> list[TournamentRow]:
        """Tournaments taking sign-ups, checking in or running, oldest first."""
        return await self._tournaments(
            "WHERE state IN ('signup', 'checkin', 'running') ORDER BY id"
        )

    async def update_tournament(self, row: TournamentRow, **changes: Any) -> bool:
        """Write ``changes`` (of :data:`TOURNAMENT_FIELDS`) if the stored
        version is still ``row.version``; on success ``row`` holds them and
        its new version. ``False``: someone (another process) was first."""
        bad = set(changes) - TOURNAMENT_FIELDS
        if bad or not changes:
            raise ValueError(f"not a tournament field to change: {sorted(bad)}")
        names = sorted(changes)
        sets = ", ".join(f"{name} = ?" for name in names)
        async with self._writing() as c:
            n = await c.execute(
                f"UPDATE tournaments SET {sets}, version = version + 1"
                " WHERE id = ? AND version = ?",
                (*(changes[name] for name in names), row.id, row.version),
            )
        if n == 1:
            for name in names:
                setattr(row, name, changes[name])
            row.version += 1
        return n == 1

    async def set_tournament_message(
        self, tournament_id: int, *, message_id: int | None = None, standings: int | None = None
    ) -> None:
        """Where the sign-up or the standings message is (no version bump)."""
        async with self._writing() as c:
            if message_id is not None:
                await c.execute(
                    "UPDATE tournaments SET message_id = ? WHERE id = ?",
                    (message_id, tournament_id),
                )
            if standings is not None:
                await c.execute(
                    "UPDATE tournaments SET standings_message_id = ? WHERE id = ?",
                    (standings, tournament_id),
                )

    async def note_standings_behind(self, tournament_id: int, behind: bool) -> None:
        """Whether the tournament's standings message is behind (its edit
        failed: the sweep edits it again), kept in ``meta``."""
        key = f"{STANDINGS_BEHIND}{tournament_id}"
        async with self._writing() as c:
            if behind:
                await c.execute(
                    "INSERT INTO meta (key, value) VALUES (?, '1')"
                    " ON CONFLICT (key) DO NOTHING",
                    (key,),
                )
            else:
                await c.execute("DELETE FROM meta WHERE key = ?", (key,))

    async def standings_behind(self) -> list[int]:
        """The tournaments whose standings message is behind."""
        async with self._reading() as c:
            rows = await c.fetch(
                "SELECT key FROM meta WHERE key LIKE ? ORDER BY key", (f"{STANDINGS_BEHIND}%",)
            )
        return [int(str(r[0])[len(STANDINGS_BEHIND) :]) for r in rows]

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """A tournament's players in the order they joined."""
        async with self._reading() as c:
            rows = await c.fetch(
                "SELECT user_id, name, rating, seed, status, joined_at FROM tournament_players"
                " WHERE tournament_id = ? ORDER BY joined_at, user_id",
                (tournament_id,),
            )
        return [
            Entrant(int(r[0]), r[1], r[2], r[3], r[4], float(r[5])) for r in rows
        ]

    # a read of the tournament's row that holds it until the transaction
    # ends: its start (a versioned write) waits for a join, or the join
    # sees the start (PostgreSQL: FOR SHARE; SQLite's transactions are one
    # at a time)
    _share_lock = ""

    async def _tournament_state(self, tx: Conn, tournament_id: int) -> str | None:
        rows = await tx.fetch(
            "SELECT state FROM tournaments WHERE id = ?" + self._share_lock, (tournament_id,)
        )
        return str(rows[0][0]) if rows else None

    async def join_tournament(
        self, tournament_id: int, user_id: int, name: str, rating: float | None, *, now: float
    ) -> bool:
        """Sign ``user_id`` up (again, after leaving) while the tournament
        takes sign-ups — during check-in, checked in — in one transaction
        with a look at its state, so a join and the start
        (:meth:`update_tournament` out of ``signup``/``checkin``) come one
        after the other: the start sees the player, or the join sees the
        start. ``False`` if they are signed up already, were kicked, or the
        tournament no longer takes sign-ups."""
        async with self._transaction() as tx:
            state = await self._tournament_state(tx, tournament_id)
            if state not in ("signup", "checkin"):
                return False
            status = "checked_in" if state == "checkin" else "joined"
            n = await tx.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, rating, status,"
                " joined_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (tournament_id, user_id) DO UPDATE SET status = excluded.status,"
                " name = excluded.name, rating = excluded.rating, joined_at = excluded.joined_at"
                " WHERE tournament_players.status = 'dropped'",
                (tournament_id, user_id, name, rating, status, now),
            )
        return n == 1

    async def set_entrant_status(
        self,
        tournament_id: int,
        user_id: int,
        status: str,
        *,
        only_from: Sequence[str],
        while_state: Sequence[str] = (),
    ) -> bool:
        """Set a player's status if it is one of ``only_from`` (and, given
        ``while_state``, the tournament's state is one of those: checked in
        the same transaction, as :meth:`join_tournament` does); whether it was."""
        marks = ", ".join("?" for _ in only_from)
        sql = (
            f"UPDATE tournament_players SET status = ? WHERE tournament_id = ? AND user_id = ?"
            f" AND status IN ({marks})"
        )
        args = (status, tournament_id, user_id, *only_from)
        if not while_state:
            async with self._writing() as c:
                return await c.execute(sql, args) == 1
        async with self._transaction() as tx:
            if await self._tournament_state(tx, tournament_id) not in while_state:
                return False
            return await tx.execute(sql, args) == 1

    async def seed_entrants(self, tournament_id: int, seeds: dict[int, int]) -> None:
        """Each player's seed (1 = the top: by rating at the start)."""
        async with self._writing() as c:
            await c.executemany(
                "UPDATE tournament_players SET seed = ? WHERE tournament_id = ? AND user_id = ?",
                [(seed, tournament_id, user) for user, seed in seeds.items()],
            )

    async def matches(self, tournament_id: int, *, round: int | None = None) -> list[MatchRow]:
        """A tournament's matches (of one round), in order."""
        sql = f"SELECT {_MATCH_COLS} FROM tournament_matches WHERE tournament_id = ?"
        args: tuple[Any, ...] = (tournament_id,)
        if round is not None:
            sql += " AND round = ?"
            args += (round,)
        async with self._reading() as c:
            rows = await c.fetch(sql + " ORDER BY round, number", args)
        return [_match(r) for r in rows]

    async def get_match(self, match_id: int) -> MatchRow | None:
        async with self._reading() as c:
            r = await c.fetchone(
                f"SELECT {_MATCH_COLS} FROM tournament_matches WHERE id = ?", (match_id,)
            )
        return None if r is None else _match(r)

    async def claim_round(
        self,
        row: TournamentRow,
        pairings: Sequence[Sequence[int]],
        *,
        byes: dict[int, float] | None = None,
        state: str = "running",
    ) -> bool:
        """Round ``row.round + 1`` paired, exactly once whoever asks: one
        transaction claims it (``round = round + 1`` where it is still
        ``row.round``: one process wins) and stores its matches — a seat
        tuple of one is a bye, worth ``byes[user]`` points — before any table
        is opened. On success ``row`` is the new round."""
        number = row.round + 1
        async with self._transaction() as tx:
            n = await tx.execute(
                "UPDATE tournaments SET round = round + 1, state = ?, version = version + 1"
                " WHERE id = ? AND round = ? AND state IN ('signup', 'checkin', 'running')",
                (state, row.id, row.round),
            )
            if n != 1:
                return False
            await self._insert_matches(tx, row.id, number, pairings, byes or {})
        row.round = number
        row.state = state
        row.version += 1
        return True

    async def _insert_matches(
        self,
        tx: Conn,
        tournament_id: int,
        round_no: int,
        pairings: Sequence[Sequence[int]],
        byes: dict[int, float],
    ) -> None:
        rows = []
        for number, seats in enumerate(pairings, start=1):
            bye = len(seats) == 1
            points = {str(seats[0]): byes.get(seats[0], 1.0)} if bye else None
            rows.append((
                tournament_id, round_no, number, _dumps([int(u) for u in seats]),
                "bye" if bye else "paired", _dumps(points) if points is not None else None,
            ))  # fmt: skip
        if rows:
            await tx.executemany(
                "INSERT INTO tournament_matches (tournament_id, round, number, seats, state,"
                " points) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )

    async def repair_round(
        self,
        row: TournamentRow,
        pairings: Sequence[Sequence[int]],
        *,
        byes: dict[int, float] | None = None,
    ) -> list[MatchRow] | None:
        """The current round paired again (the host's re-pair, before any of
        its games is played — the caller checks): its matches replaced in
        one transaction, if ``row.version`` is still the stored one. The
        matches removed (their tables are to be closed), or ``None``:
        someone was first."""
        async with self._transaction() as tx:
            n = await tx.execute(
                "UPDATE tournaments SET version = version + 1"
                " WHERE id = ? AND version = ? AND state = 'running'",
                (row.id, row.version),
            )
            if n != 1:
                return None
            old = [
                _match(r)
                for r in await tx.fetch(
                    f"SELECT {_MATCH_COLS} FROM tournament_matches"
                    " WHERE tournament_id = ? AND round = ? ORDER BY number",
                    (row.id, row.round),
                )
            ]
            await tx.execute(
                "DELETE FROM tournament_matches WHERE tournament_id = ? AND round = ?",
                (row.id, row.round),
            )
            await self._insert_matches(tx, row.id, row.round, pairings, byes or {})
        row.version += 1
        return old

    async def open_match(self, match_id: int, *, thread_id: int | None, table_id: int) -> bool:
        """A paired match's table is open (where): once; ``False`` if another
        process opened it first."""
        async with self._writing() as c:
            n = await c.execute(
                "UPDATE tournament_matches SET thread_id = ?, table_id = ?, state = 'open'"
                " WHERE id = ? AND state = 'paired'",
                (thread_id, table_id, match_id),
            )
        return n == 1

    async def set_match_thread(self, match_id: int, thread_id: int) -> None:
        """The thread made for a paired match (before its table is opened),
        so a repair after a crash uses it again instead of making another."""
        async with self._writing() as c:
            await c.execute(
                "UPDATE tournament_matches SET thread_id = ? WHERE id = ? AND thread_id IS NULL",
                (thread_id, match_id),
            )

    async def record_match(
        self,
        match_id: int,
        *,
        points: dict[int, float],
        scores: dict[int, float],
        result_id: int | None,
    ) -> bool:
        """A match's result, once: ``False`` if it was recorded already (by
        another process, or a repair)."""
        async with self._writing() as c:
            n = await c.execute(
                "UPDATE tournament_matches SET state = 'finished', points = ?, scores = ?,"
                " result_id = ? WHERE id = ? AND state IN ('paired', 'open')",
                (
                    _dumps({str(u): p for u, p in points.items()}),
                    _dumps({str(u): p for u, p in scores.items()}),
                    result_id,
                    match_id,
                ),
            )
        return n == 1

    async def match_of_table(self, table_id: int) -> MatchRow | None:
        """The tournament match played at table ``table_id``, if any."""
        async with self._reading() as c:
            r = await c.fetchone(
                f"SELECT {_MATCH_COLS} FROM tournament_matches WHERE table_id = ?"
                " ORDER BY id DESC LIMIT 1",
                (table_id,),
            )
        return None if r is None else _match(r)

    async def stranded_matches(self) -> list[MatchRow]:
        """Matches of running tournaments left behind by a crash: paired but
        never opened, or open at a table that is gone (its game ended while
        no process recorded it)."""
        async with self._reading() as c:
            rows = await c.fetch(
                f"SELECT {', '.join('m.' + col for col in _MATCH_COLS.split(', '))}"
                " FROM tournament_matches m JOIN tournaments t ON t.id = m.tournament_id"
                " WHERE t.state = 'running' AND t.round = m.round AND (m.state = 'paired'"
                " OR (m.state = 'open' AND NOT EXISTS (SELECT 1 FROM tables x"
                " WHERE x.id = m.table_id))) ORDER BY m.id"
            )
        return [_match(r) for r in rows]

    async def result_of_table(self, table_id: int) -> int | None:
        """The stored result of the game played at table ``table_id``, if it finished."""
        async with self._reading() as c:
            r = await c.fetchone(
                "SELECT id FROM results WHERE table_id = ? ORDER BY id DESC LIMIT 1", (table_id,)
            )
        return None if r is None else int(r[0])

    # -------------------------------------------------------- guild settings

    async def guild_setting(self, guild_id: int, key: str) -> Any:
        """A server setting (``None`` = not set); cached once read."""
        if (guild_id, key) in self._settings:
            return self._settings[guild_id, key]
        async with self._reading() as c:
            r = await c.fetchone(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            )
        value = json.loads(r[0]) if r else None
        self._settings[guild_id, key] = value
        return value

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        async with self._writing() as c:
            await c.execute(
                "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                (guild_id, key, _dumps(value)),
            )
        self._settings[guild_id, key] = value
        await self._setting_changed(guild_id, key)

    async def _setting_changed(self, guild_id: int, key: str) -> None:
        """Tell other processes to forget their copy of a server setting
        (PostgreSQL ``NOTIFY``; SQLite serves one process)."""
        return None

    def forget_setting(self, guild_id: int, key: str) -> None:
        """Drop the cached copy of a setting another process changed."""
        self._settings.pop((guild_id, key), None)


def _one_hop(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], Any]) -> Any:
    """Run ``fn`` on aiosqlite's thread with its sqlite3 connection: one
    hop to the thread and back. aiosqlite's own ``execute`` takes a hop to
    run the statement and another to close the cursor (three to fetch);
    each hop waits for the thread and then for the event loop, and under
    load for the GIL too. ``Connection._execute`` is how every aiosqlite
    method queues its work (0.20 … 0.22)."""
    return db._execute(fn, db._conn)


def _fetch_all(sql: str, args: Sequence[Any]) -> Callable[[sqlite3.Connection], list[Any]]:
    def run(conn: sqlite3.Connection) -> list[Any]:
        cur = conn.execute(sql, args)
        try:
            return cur.fetchall()
        finally:
            cur.close()

    return run


def _execute(sql: str, args: Sequence[Any]) -> Callable[[sqlite3.Connection], int]:
    def run(conn: sqlite3.Connection) -> int:
        cur = conn.execute(sql, args)
        try:
            return cur.rowcount
        finally:
            cur.close()

    return run


def _execute_many(sql: str, rows: Sequence[Sequence[Any]]) -> Callable[[sqlite3.Connection], None]:
    def run(conn: sqlite3.Connection) -> None:
        conn.executemany(sql, rows).close()

    return run


def _update_and_log(
    sql: str, args: Sequence[Any], ledger_args: Sequence[Any] | None
) -> Callable[[sqlite3.Connection], int]:
    """A versioned update and, if it changed the row, its ledger line (the
    moves row's values; ``None``: none), in a transaction of their own
    (BEGIN IMMEDIATE … COMMIT; ROLLBACK if any of it fails): the rows
    updated."""

    def run(conn: sqlite3.Connection) -> int:
        conn.execute("BEGIN IMMEDIATE").close()
        try:
            cur = conn.execute(sql, args)
            n = cur.rowcount
            cur.close()
            if n == 1 and ledger_args is not None:
                conn.execute(_LEDGER_SQL, ledger_args).close()
            conn.execute("COMMIT").close()
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK").close()
            raise
        return int(n)

    return run


class _SqliteConn(Conn):
    def __init__(self, store: SqliteStore) -> None:
        self.db = store.db
        self.store = store

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Sequence[Any]]:
        self.store._sent(sql)
        return list(await _one_hop(self.db, _fetch_all(sql, args)))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        self.store._sent(sql)
        return int(await _one_hop(self.db, _execute(sql, args)))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.store._sent(sql)
        await _one_hop(self.db, _execute_many(sql, rows))


class SqliteStore(Store):
    """SQLite on a local file (aiosqlite, WAL): zero set-up.

    One connection: a transaction (finishing a game, a migration) must not
    take in another coroutine's write, which its ROLLBACK would undo, so
    every write waits for the open transaction, and vice versa (``_tx``).
    Several processes on one file are serialized by SQLite's write lock
    (``BEGIN IMMEDIATE`` for a transaction, a busy wait of 5 s)."""

    migrations = MIGRATIONS

    def __init__(self, path: str | Path, *, migrate: bool = True) -> None:
        super().__init__(migrate=migrate)
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._tx = asyncio.Lock()
        # the statements sent, counted where they are sent (a hop to
        # aiosqlite's thread may carry several: a save's transaction);
        # ``on_statement`` hears each one's SQL (bench/interactions.py)
        self.statements = 0
        self.on_statement: Callable[[str], None] | None = None

    def _sent(self, sql: str) -> None:
        self.statements += 1
        if self.on_statement is not None:
            self.on_statement(sql)

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    @property
    def is_open(self) -> bool:
        return self._db is not None

    async def _x(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Execute one statement and close its cursor (one hop)."""
        self._sent(sql)
        await _one_hop(self.db, _execute(sql, args))

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None, timeout=BUSY_SECONDS)
        # a fresh file opened by several processes at once: switching it to
        # WAL needs the file to itself for a moment, and SQLite's busy wait
        # does not cover that step, so it is tried again for a while
        for attempt in range(int(BUSY_SECONDS / 0.05)):
            try:
                await self._x("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or attempt == int(BUSY_SECONDS / 0.05) - 1:
                    raise
                await asyncio.sleep(0.05)
        await self._x("PRAGMA synchronous=NORMAL")
        await self._x("PRAGMA foreign_keys=ON")
        try:
            await self._prepare_schema()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Conn]:
        yield _SqliteConn(self)

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[Conn]:
        async with self._tx:
            yield _SqliteConn(self)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Conn]:
        async with self._tx:
            # the write lock first, then reads: nobody writes between them
            await self._x("BEGIN IMMEDIATE")
            try:
                yield _SqliteConn(self)
            except BaseException:
                await self._x("ROLLBACK")
                raise
            await self._x("COMMIT")

    async def _update_with_ledger(
        self,
        sql: str,
        args: Sequence[Any],
        table_id: int,
        version: int,
        ledger: Ledger,
        now: float,
    ) -> int:
        """The save's transaction in one hop to aiosqlite's thread (BEGIN,
        UPDATE, the ledger line, COMMIT: four statements, each a hop of its
        own through :meth:`_transaction`), so no other coroutine's wait and
        no cancellation comes between them."""
        async with self._tx:
            run = _update_and_log(sql, args, _ledger_args(table_id, version, ledger, now))
            n = int(await _one_hop(self.db, run))
        for statement in ("BEGIN IMMEDIATE", sql, *([_LEDGER_SQL] if n == 1 else []), "COMMIT"):
            self._sent(statement)
        return n

    async def _lock_schema(self, tx: Conn) -> None:
        pass  # BEGIN IMMEDIATE took the write lock

    async def _lock_ratings(self, tx: Conn, game: str) -> None:
        pass  # BEGIN IMMEDIATE took the write lock

    async def _snapshot(self, tx: Conn) -> None:
        pass  # BEGIN IMMEDIATE: nobody writes until the export commits

    async def _after_import(self, tx: Conn) -> None:
        pass  # AUTOINCREMENT's counter follows the largest id inserted

    async def _has_table(self, conn: Conn, name: str) -> bool:
        row = await conn.fetchone(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        )
        return row is not None

    def _ui_patch(self, patch: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        # json_patch merges objects into objects: the keys are removed first
        # (a null each), then set, so a key's value is replaced whole
        return "json_patch(json_patch(ui, ?), ?)", (
            _dumps(dict.fromkeys(patch)),
            _dumps({k: v for k, v in patch.items() if v is not None}),
        )

    async def patch_ui(self, patches: dict[int, dict[str, Any]]) -> None:
        if not patches:
            return
        self._forget_rows(patches)
        rows = [(*self._ui_patch(patch)[1], table_id) for table_id, patch in patches.items()]
        async with self._writing() as c:
            await c.executemany(
                "UPDATE tables SET ui = json_patch(json_patch(ui, ?), ?) WHERE id = ?", rows
            )


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (no semicolons inside our literals)."""
    out = []
    for part in sql.split(";"):
        lines = [ln.split("--")[0].rstrip() for ln in part.splitlines()]
        text = "\n".join(ln for ln in lines if ln.strip())
        if text:
            out.append(text)
    return out
