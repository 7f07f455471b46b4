"""The database core, below every concern's repository: one connection
interface (:class:`Conn`), the :class:`Database` with its three ways in —
``reading()`` (any connection), ``writing()`` (one statement that changes
something) and ``transaction()`` (several statements, all or nothing) — and
the differences of the two backends written once, as the repositories see
them: placeholders (``?``, translated to ``$1…`` on PostgreSQL), JSON
patches and flags, the locks (a table's across processes, a name's inside a
transaction), a versioned update with a row that depends on it, notices
between processes; the schema's version, migrations, and the bot's own
bookkeeping (``meta``).

The backends: :mod:`bot.db.sqlite` (aiosqlite on a file, WAL: the default)
and :mod:`bot.db.postgres` (asyncpg, a pool; several processes). Their
numbered migrations are :mod:`bot.db.schema_sqlite` and
:mod:`bot.db.schema_postgres`; :mod:`bot.db.copy` moves a whole database to
another (``python -m bot copy-db``). The queries themselves live with the
concern that owns them (docs/bot.md, "Storage").
"""

from __future__ import annotations

import abc
import contextlib
import json
import logging
import os
import socket
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import orjson

log = logging.getLogger("bot.store")

PROCESS = f"{socket.gethostname()}:{os.getpid()}"  # who wrote a ledger line


def dumps(doc: Any) -> str:
    """``doc`` as compact JSON (UTF-8 kept): orjson writes it ~8× faster
    than ``json`` (a game's state: 4-10 µs where ``json`` took 33-77; a
    save writes 5 documents); ``json`` what orjson will not (an integer
    past 64 bits)."""
    try:
        return orjson.dumps(doc, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


#: every row of a database, by table: what :func:`bot.db.copy.export_rows` gives
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
    (or ``except StoreError`` for PostgreSQL alone) keeps working.
    ``unreachable``: the database server could not be reached or went away
    (it is restarting, stopped, or ended the session), not a refused write."""

    unreachable = False


class TableBusy(Exception):
    """Another process held a table past the time one would wait for it
    (:meth:`Database.table_lock`'s ``wait``): a process that hangs keeps its
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

    async def executemany_all(self, steps: Sequence[tuple[str, Sequence[Sequence[Any]]]]) -> None:
        """:meth:`executemany` of each ``(sql, rows)`` in turn (SQLite: all
        in one hop to its thread)."""
        for sql, rows in steps:
            await self.executemany(sql, rows)

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Sequence[Any] | None:
        rows = await self.fetch(sql, args)
        return rows[0] if rows else None


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


def statements(sql: str) -> list[str]:
    """Split a migration into statements (no semicolons inside our literals)."""
    out = []
    for part in sql.split(";"):
        lines = [ln.split("--")[0].rstrip() for ln in part.splitlines()]
        text = "\n".join(ln for ln in lines if ln.strip())
        if text:
            out.append(text)
    return out


class Database(abc.ABC):
    """The connection to the bot's database, whichever the backend, and
    what differs between the backends; ``await db.open()`` connects and
    migrates. The repositories (one per concern) write their queries once
    over it."""

    #: the backend's numbered migrations
    migrations: Sequence[str] = ()
    #: how a claim skips rows another transaction holds (PostgreSQL)
    skip_locked = ""
    #: a read of a row that holds it until the transaction ends (PostgreSQL:
    #: ``FOR SHARE``; SQLite's transactions are one at a time)
    share_lock = ""

    def __init__(self, *, migrate: bool = True) -> None:
        # at open: migrate (the default), or refuse a schema older than the
        # code (``False``: migrations are a deploy step of their own)
        self.migrate_at_open = migrate
        # called with a table's id before its lock is let go (PostgreSQL):
        # the table service writes what it noted of the table meanwhile
        # (:meth:`bot.tables.service.TableService.flush_table`), so the
        # process that takes the lock next loads it with the table
        self.before_let_go: Callable[[int], Awaitable[None]] | None = None
        # called with a table's id when this process's lock on it is let go
        # (the tables' repository forgets the row it kept under it)
        self.on_let_go: Callable[[int], None] | None = None

    @abc.abstractmethod
    async def open(self) -> None:
        """Connect, then migrate (or check the schema: :class:`SchemaBehind`)."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    @property
    @abc.abstractmethod
    def is_open(self) -> bool: ...

    @abc.abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Conn]: ...

    @abc.abstractmethod
    def writing(self) -> AbstractAsyncContextManager[Conn]: ...

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Conn]: ...

    # ------------------------------------------------- the backends' differences

    @abc.abstractmethod
    async def lock_schema(self, tx: Conn) -> None:
        """Inside a migration's transaction, before the version is read: make
        every other process wait (SQLite's ``BEGIN IMMEDIATE`` already does)."""

    @abc.abstractmethod
    async def lock_in_transaction(self, tx: Conn, name: str) -> None:
        """Inside a transaction: make another transaction that locks ``name``
        wait until this one ends (a finishing game locks its game's ratings;
        SQLite's ``BEGIN IMMEDIATE`` already serializes them)."""

    @abc.abstractmethod
    async def snapshot(self, tx: Conn) -> None:
        """First in an export's transaction: one consistent view of every
        table, whatever commits meanwhile."""

    @abc.abstractmethod
    async def after_import(self, tx: Conn) -> None:
        """Last in an import's transaction: new rows get ids past the copied
        ones."""

    @abc.abstractmethod
    async def has_table(self, conn: Conn, name: str) -> bool: ...

    @abc.abstractmethod
    def json_patch(self, column: str, patch: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        """The SQL expression (and its arguments) of the JSON object in
        ``column`` with ``patch``'s keys replaced whole or (``None``)
        removed; the expression is the same for every patch."""

    @abc.abstractmethod
    def json_unset(self, column: str, key: str) -> str:
        """The SQL condition: the JSON object in ``column`` has ``key``
        unset or false."""

    @abc.abstractmethod
    async def update_then_insert(
        self,
        update: str,
        args: Sequence[Any],
        *,
        into: str,
        returning: str,
        key: Sequence[Any],
        values: Sequence[Any],
    ) -> int:
        """A versioned ``UPDATE`` (``update``, one row at most) and, if it
        changed the row, a row ``INSERT INTO into`` of ``key`` (the updated
        row's ``returning`` columns as written) then ``values``, all or
        nothing; the rows updated (0: stale). SQLite: one hop to its thread;
        PostgreSQL: one statement."""

    def table_lock(
        self, table_id: int, *, wait: float | None = None
    ) -> AbstractAsyncContextManager[None]:
        """Exclusion of one table across processes, held around a press and
        what follows it (the commit and the table message's edit), so no two
        processes present one table out of order. ``wait``: raise
        :class:`TableBusy` if another process holds it longer (``None``: wait
        as long as it takes). SQLite serves one process (its in-process lock
        is :meth:`bot.tables.service.TableService.lock`)."""
        return contextlib.nullcontext()

    def lock_token(self, table_id: int) -> object | None:
        """What stands for this process's uninterrupted hold on the table
        (the same object as long as no other process can have changed the
        row since), or ``None``: PostgreSQL's kept table lock; nothing on
        SQLite, whose loads are a hop to its thread."""
        return None

    def let_go_idle_locks(self) -> None:  # noqa: B027 (SQLite keeps none)
        """Table locks kept after use (PostgreSQL) past their time let go;
        the sweeper calls it every second."""

    def keep_listening(self) -> None:  # noqa: B027 (SQLite listens to nothing)
        """The notices' connection (PostgreSQL), lost when the server went
        away, connected and listened on again (one try; the sweeper calls
        it every second)."""

    async def notify(self, channel: str, payload: str) -> None:
        """Tell every process listening on ``channel`` (PostgreSQL
        ``NOTIFY``); SQLite has no other processes to tell."""
        return None

    async def listen(
        self, channel: str, heard: Callable[[str], None], *, missed: Callable[[], None] | None = None
    ) -> None:
        """Call ``heard(payload)`` for every :meth:`notify` on ``channel`` of
        any process (PostgreSQL ``LISTEN``); nothing on SQLite. ``missed()``:
        the notices came again after a lost connection (the server restarted),
        so some may have been missed meanwhile."""
        return None

    # ------------------------------------------------------------ migrations

    async def schema_version(self) -> int:
        async with self.reading() as c:
            return await self.schema_version_of(c)

    async def schema_version_of(self, c: Conn) -> int:
        if not await self.has_table(c, "schema_version"):
            return 0
        row = await c.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self, migrations: Sequence[str] | None = None) -> int:
        """Apply every migration newer than the database, in one transaction
        that first locks the schema (several processes may open one database
        at once: one migrates, the others wait and find it done); returns the
        version."""
        steps = self.migrations if migrations is None else migrations
        async with self.transaction() as tx:
            await self.lock_schema(tx)
            await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await self.schema_version_of(tx)
            for number, sql in enumerate(steps, start=1):
                if number <= current:
                    continue
                log.info("applying database migration %d", number)
                for statement in statements(sql):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
                current = number
        return current

    async def prepare_schema(self) -> None:
        """At open: migrate, or (``migrate=False``) make sure nothing needs
        to be (:class:`SchemaBehind` otherwise)."""
        if self.migrate_at_open:
            await self.migrate()
            return
        found = await self.schema_version()
        if found < len(self.migrations):
            raise SchemaBehind(found, len(self.migrations))

    # ------------------------------------------------------- the bot's own

    async def ping(self) -> None:
        """A trivial query: raises if the database does not answer (/healthz)."""
        async with self.reading() as c:
            await c.fetchone("SELECT 1")

    async def get_meta(self, key: str) -> str | None:
        """The bot's own bookkeeping value ``key`` (``None``: never set)."""
        async with self.reading() as c:
            r = await c.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if r is None else str(r[0])

    async def set_meta(self, key: str, value: str) -> None:
        """Set the bookkeeping value ``key`` (the last write wins)."""
        async with self.writing() as c:
            await c.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def put_meta(self, tx: Conn, items: Sequence[tuple[str, str]]) -> None:
        """Set bookkeeping values inside ``tx`` (the last write wins)."""
        await tx.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            items,
        )

    async def meta_prefixed(self, prefix: str) -> list[tuple[str, str]]:
        """The bookkeeping values whose key starts with ``prefix``, by key."""
        async with self.reading() as c:
            rows = await c.fetch(
                "SELECT key, value FROM meta WHERE key LIKE ? ORDER BY key", (f"{prefix}%",)
            )
        return [(str(key), str(value)) for key, value in rows]

    async def drop_meta(self, keys: Sequence[str]) -> None:
        """Remove these bookkeeping values (those there are)."""
        if not keys:
            return
        marks = ",".join("?" * len(keys))
        async with self.writing() as c:
            await c.execute(f"DELETE FROM meta WHERE key IN ({marks})", list(keys))
