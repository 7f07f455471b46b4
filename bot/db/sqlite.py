"""The database on SQLite: aiosqlite on a local file, WAL — zero set-up,
one process (or several on one file, serialized by SQLite's write lock)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.db.core import Conn, Database, dumps
from bot.db.schema_sqlite import MIGRATIONS

# how long SQLite waits for another process's write lock
BUSY_SECONDS = 5.0


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


def _execute_many_all(
    steps: Sequence[tuple[str, Sequence[Sequence[Any]]]],
) -> Callable[[sqlite3.Connection], None]:
    def run(conn: sqlite3.Connection) -> None:
        for sql, rows in steps:
            conn.executemany(sql, rows).close()

    return run


def _update_and_insert(
    sql: str, args: Sequence[Any], insert: str, insert_args: Sequence[Any]
) -> Callable[[sqlite3.Connection], int]:
    """A versioned update and, if it changed the row, the row that depends
    on it (``insert`` with ``insert_args``), in a transaction of their own
    (BEGIN IMMEDIATE … COMMIT; ROLLBACK if any of it fails): the rows
    updated."""

    def run(conn: sqlite3.Connection) -> int:
        conn.execute("BEGIN IMMEDIATE").close()
        try:
            cur = conn.execute(sql, args)
            n = cur.rowcount
            cur.close()
            if n == 1:
                conn.execute(insert, insert_args).close()
            conn.execute("COMMIT").close()
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK").close()
            raise
        return int(n)

    return run


class _SqliteConn(Conn):
    def __init__(self, database: SqliteDatabase) -> None:
        self.connection = database.connection
        self.store = database

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Sequence[Any]]:
        self.store._sent(sql)
        return list(await _one_hop(self.connection, _fetch_all(sql, args)))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        self.store._sent(sql)
        return int(await _one_hop(self.connection, _execute(sql, args)))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.store._sent(sql)
        await _one_hop(self.connection, _execute_many(sql, rows))

    async def executemany_all(self, steps: Sequence[tuple[str, Sequence[Sequence[Any]]]]) -> None:
        for sql, _ in steps:
            self.store._sent(sql)
        await _one_hop(self.connection, _execute_many_all(steps))


class SqliteDatabase(Database):
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
    def connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("the database is not open")
        return self._db

    @property
    def is_open(self) -> bool:
        return self._db is not None

    async def _x(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Execute one statement and close its cursor (one hop)."""
        self._sent(sql)
        await _one_hop(self.connection, _execute(sql, args))

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
            await self.prepare_schema()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Conn]:
        yield _SqliteConn(self)

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Conn]:
        async with self._tx:
            yield _SqliteConn(self)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        async with self._tx:
            # the write lock first, then reads: nobody writes between them
            await self._x("BEGIN IMMEDIATE")
            try:
                yield _SqliteConn(self)
            except BaseException:
                await self._x("ROLLBACK")
                raise
            await self._x("COMMIT")

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
        """The transaction in one hop to aiosqlite's thread (BEGIN, UPDATE,
        the INSERT, COMMIT: four statements, each a hop of its own through
        :meth:`transaction`), so no other coroutine's wait and no
        cancellation comes between them."""
        insert_args = (*key, *values)
        insert = f"INSERT INTO {into} VALUES ({', '.join('?' * len(insert_args))})"
        async with self._tx:
            run = _update_and_insert(update, args, insert, insert_args)
            n = int(await _one_hop(self.connection, run))
        for statement in ("BEGIN IMMEDIATE", update, *([insert] if n == 1 else []), "COMMIT"):
            self._sent(statement)
        return n

    async def lock_schema(self, tx: Conn) -> None:
        pass  # BEGIN IMMEDIATE took the write lock

    async def lock_in_transaction(self, tx: Conn, name: str) -> None:
        pass  # BEGIN IMMEDIATE took the write lock

    async def snapshot(self, tx: Conn) -> None:
        pass  # BEGIN IMMEDIATE: nobody writes until the export commits

    async def after_import(self, tx: Conn) -> None:
        pass  # AUTOINCREMENT's counter follows the largest id inserted

    async def has_table(self, conn: Conn, name: str) -> bool:
        row = await conn.fetchone(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        )
        return row is not None

    def json_patch(self, column: str, patch: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        # json_patch merges objects into objects: the keys are removed first
        # (a null each), then set, so a key's value is replaced whole
        return f"json_patch(json_patch({column}, ?), ?)", (
            dumps(dict.fromkeys(patch)),
            dumps({k: v for k, v in patch.items() if v is not None}),
        )

    def json_unset(self, column: str, key: str) -> str:
        return f"COALESCE(json_extract({column}, '$.{key}'), 0) = 0"
