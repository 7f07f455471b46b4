"""The database on PostgreSQL: asyncpg, a pool of connections.

The repositories' queries are written once with ``?`` placeholders and
translated here to ``$1, $2…``; only the schema (:mod:`bot.db.schema_postgres`),
the locks, the JSON operators and the notices between processes are
PostgreSQL's own. Several bot processes may share one database: a migration
runs under a transaction-scoped advisory lock, a finishing game locks its
game's ratings until it commits, and a table is held across processes by a
session advisory lock (kept after use, let go when another process asks).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot import caches
from bot.db.core import Conn, Database, StoreError, TableBusy
from bot.db.schema_postgres import MIGRATIONS

log = logging.getLogger("bot.store_pg")

# the advisory lock a migration holds ("chabudai" in ASCII)
SCHEMA_LOCK = 0x6368616275646169

POOL_SIZE = 10

# connections per process that hold table locks
LOCK_CONNECTIONS = 4
# the first key of every table lock (pg_advisory_lock(TABLE_LOCKS, table))
TABLE_LOCKS = 0x63686162  # "chab"
# a table lock kept after use, in case this process uses the table again
KEEP_LOCK_SECONDS = 10.0
# … at most so many kept (the least recently used let go first)
MAX_KEPT_LOCKS = 256
# a table another process asked for is not kept for so long
ASKED_SECONDS = 5.0
# a process waiting for a table waits on the server so long at a time
# (``lock_timeout`` of the lock connections) …
LOCK_WAIT_MS = 25
# … and asks for it again every so many waits (~0.5 s)
ASK_EVERY = 20
# the channel on which a process asks the others for a table's lock
# ("ask <table>")
LOCKS_CHANNEL = "chabudai_locks"

# the tables whose ``id`` is an identity column (copy-db moves their counters)
IDENTITY_TABLES = ("tables", "results", "tournaments", "tournament_matches")


def _lock_key(table_id: int) -> int:
    """A table's id as the second key of its lock (a signed 32-bit int)."""
    return ((table_id + 2**31) % 2**32) - 2**31


@dataclass(eq=False)
class _Kept:
    """A table lock this process holds: on which connection, whether a use
    holds it now, and (kept after use) until when."""

    slot: int
    conn: asyncpg.Connection
    in_use: bool = False
    until: float = 0.0  # kept after use till then (time.monotonic())
    asked: bool = False  # another process asked for it


# the server could not be reached or went away: it stopped or restarts, or
# ended the session (pg_terminate_backend, a shutdown); the connection is lost
UNREACHABLE = (
    OSError,
    asyncpg.InterfaceError,  # (ConnectionDoesNotExistError: closed mid-operation)
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
)


@functools.lru_cache(maxsize=512)
def dollars(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2…`` (our SQL has no ``?``
    inside a literal)."""
    numbers = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _m: f"${next(numbers)}", sql)


caches.lru("db.placeholders", dollars)  # the store's statements: ~0.5 KB each


@contextmanager
def _errors(conn: asyncpg.Connection | None = None) -> Iterator[None]:
    """asyncpg's failures (and a lost server) as :class:`StoreError`. A
    connection whose backend ended mid-statement (``pg_terminate_backend``,
    a shutdown) can leave asyncpg's protocol half-way (``InternalClientError:
    cannot switch to state…``): ``conn`` is closed then, so that the pool
    never hands it out again."""
    try:
        yield
    except asyncpg.InternalClientError as err:
        if conn is not None:
            conn.terminate()
        store_error = StoreError(f"{type(err).__name__}: {err}")
        store_error.unreachable = True
        raise store_error from err
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as err:
        store_error = StoreError(f"{type(err).__name__}: {err}")
        store_error.unreachable = isinstance(err, UNREACHABLE)
        raise store_error from err


class _PgConn(Conn):
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Sequence[Any]]:
        with _errors(self.conn):
            return list(await self.conn.fetch(dollars(sql), *args))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        with _errors(self.conn):
            status = await self.conn.execute(dollars(sql), *args)
        # "UPDATE 1", "DELETE 0", "INSERT 0 1", "CREATE TABLE"
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with _errors(self.conn):
            await self.conn.executemany(dollars(sql), rows)


async def _session_kept(conn: asyncpg.Connection) -> None:
    """A pool connection given back: asyncpg has rolled back an open
    transaction and dropped its listeners; nothing else to undo — the pool's
    connections hold no session state (table locks and ``LISTEN`` have
    connections of their own, the other advisory locks and ``SET`` are the
    transaction's) — so no reset query: a round trip less per use (asyncpg
    sends ``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET
    ALL`` by default)."""


class PostgresDatabase(Database):
    """PostgreSQL through an asyncpg pool: every statement on any free
    connection, a transaction on one connection of its own. Nothing is
    serialized in this process: the versioned writes and the database's
    locks keep the rows right, here and across processes."""

    migrations = MIGRATIONS

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        super().__init__(migrate=migrate)
        self.url = str(url)
        self._pool: asyncpg.Pool | None = None
        # the connections that hold table locks (a table always on the same
        # one), each one statement at a time
        self._lock_conns: list[asyncpg.Connection | None] = [None] * LOCK_CONNECTIONS
        self._lock_guards = [asyncio.Lock() for _ in range(LOCK_CONNECTIONS)]
        self._listen_conn: asyncpg.Connection | None = None  # LISTEN for due times
        # what is listened to (every channel again on a new connection after
        # a lost one), what is called once the notices come again (the
        # notices sent meanwhile were missed), the task that reconnects
        self._listeners: list[tuple[str, Callable[[Any, int, str, str], None]]] = []
        self._missed: list[Callable[[], None]] = []
        self._relistening: asyncio.Task[None] | None = None
        self._lost_at: float | None = None  # the notices lost since (time.monotonic())
        # table locks held by this process (in use, or kept after use), the
        # most recently used last; tables other processes asked for lately
        # (until when: time.monotonic()); unlocks under way
        self._kept: dict[int, _Kept] = {}
        self._asked: dict[int, float] = {}
        self._unlocking: set[asyncio.Task[None]] = set()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the database is not open")
        return self._pool

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    @property
    def listening(self) -> bool:
        """Whether the notices' connection is up (not lost with the server)."""
        return self._lost_at is None

    async def open(self) -> None:
        with _errors():
            # min_size 0: no connection floor restored in the background
            # (asyncpg retries it every second with a traceback while the
            # server is down); a connection lost is made again when needed
            # max_inactive_connection_lifetime 0: no inactivity timer set at
            # every release and cancelled at every acquire (~20-30 µs of the
            # event loop a statement, a third of the pool's cost: bench/scale.py,
            # docs/operations.md); an idle connection stays open (POOL_SIZE at
            # most), as the lock and LISTEN connections do
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=0,
                max_size=POOL_SIZE,
                reset=_session_kept,
                max_inactive_connection_lifetime=0,
            )
        try:
            await self.prepare_schema()
            await self._listen(LOCKS_CHANNEL, self._heard_lock_notice)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        self._kept.clear()
        self._listeners.clear()
        self._missed.clear()
        if self._relistening is not None:
            self._relistening.cancel()
            self._relistening = None
        for task in list(self._unlocking):
            task.cancel()
        self._lost_at = None
        for conn in (*self._lock_conns, self._listen_conn):
            if conn is not None and not conn.is_closed():
                try:
                    await conn.close()
                except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError):
                    conn.terminate()  # the server is gone already (its sessions with it)
        self._lock_conns = [None] * LOCK_CONNECTIONS
        self._listen_conn = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Conn]:
        with _errors():
            async with self.pool.acquire() as conn:
                yield _PgConn(conn)

    writing = reading

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        with _errors():
            async with self.pool.acquire() as conn, conn.transaction():
                yield _PgConn(conn)

    async def lock_schema(self, tx: Conn) -> None:
        await tx.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))

    # ------------------------------------------------- several processes

    skip_locked = " FOR UPDATE SKIP LOCKED"
    share_lock = " FOR SHARE"

    async def _locker(self, slot: int) -> asyncpg.Connection:
        """A connection that holds this process's table locks (session
        advisory locks: released by the server if the process dies)."""
        conn = self._lock_conns[slot]
        if conn is None or conn.is_closed():
            with _errors():
                conn = self._lock_conns[slot] = await asyncpg.connect(
                    self.url, server_settings={"lock_timeout": f"{LOCK_WAIT_MS}ms"}
                )
        return conn

    @asynccontextmanager
    async def table_lock(self, table_id: int, *, wait: float | None = None) -> AsyncIterator[None]:
        """A session advisory lock on the table, in the key space of two
        integers (apart from the one-number keys of migrations and ratings),
        on one of a few connections kept for them (the table's id picks it:
        presses of different tables do not queue behind one connection).
        Taken with ``pg_try_advisory_lock``; held by another session, waited
        for in short spells (:meth:`_take_table_lock`), so waiting for one
        table never blocks its connection for the others.

        **Kept after use** (:class:`_Kept`): a table this process used is
        locked still for :data:`KEEP_LOCK_SECONDS`, so the next press, the
        computers' moves after it and the clock's firing take and release
        nothing (two round trips a change fewer). Another process that finds
        it held asks for it (``pg_notify`` on :data:`LOCKS_CHANNEL`): a kept
        lock not in use is let go at once, one in use when its use ends, and
        the table is not kept again for :data:`ASKED_SECONDS`. A use that
        ends in an exception lets go at once."""
        kept = self._kept.get(table_id)
        # (a use outside this process's lock: counted anew)
        if kept is not None and not kept.in_use and self._still_held(kept):
            del self._kept[table_id]
        else:
            kept = await self._take_table_lock(table_id, wait)
        kept.in_use = True
        self._kept[table_id] = kept  # the most recently used last
        self.let_go_idle_locks()
        ok = False
        try:
            yield
            ok = True
        finally:
            kept.in_use = False
            if ok and self._keep(table_id, kept):
                kept.until = time.monotonic() + KEEP_LOCK_SECONDS
            else:
                if self._kept.get(table_id) is kept:
                    del self._kept[table_id]
                await self._unlock(table_id, kept)

    def lock_token(self, table_id: int) -> object | None:
        # the lock this process holds on the table, taken once and not let
        # go since: no other process can have saved the row meanwhile (every
        # save is made under the lock); a new one is another object
        kept = self._kept.get(table_id)
        return kept if kept is not None and self._still_held(kept) else None

    def _still_held(self, kept: _Kept) -> bool:
        """Whether a kept lock's session is this process's still (a lost
        connection lost its locks; the slot connects anew)."""
        return kept.conn is self._lock_conns[kept.slot] and not kept.conn.is_closed()

    def _keep(self, table_id: int, kept: _Kept) -> bool:
        """Whether a lock just used is kept: the store is open and no other
        process asked for the table while it was used, nor lately."""
        if self._pool is None or kept.asked:
            return False
        asked = self._asked.get(table_id)
        if asked is None:
            return True
        if asked > time.monotonic():
            return False
        del self._asked[table_id]
        return True

    async def _take_table_lock(self, table_id: int, wait: float | None = None) -> _Kept:
        """The table's lock taken. While another session holds it, this
        process asks for it (``ask <table>``, again every :data:`ASK_EVERY`
        waits) and waits on the server for at most :data:`LOCK_WAIT_MS` at a
        time (``lock_timeout``; no timer here), letting the connection serve
        its other tables in between. :class:`TableBusy` past ``wait`` seconds
        of such spells (a process that hangs never lets go; counted, not
        timed: the server keeps the time)."""
        key = _lock_key(table_id)
        spells = None if wait is None else max(1, round(wait * 1000 / LOCK_WAIT_MS))
        slot = table_id % LOCK_CONNECTIONS
        guard = self._lock_guards[slot]
        tries = 0
        while True:
            async with guard:
                conn = await self._locker(slot)
                with _errors():
                    if tries == 0:
                        got = await conn.fetchval(
                            "SELECT pg_try_advisory_lock($1, $2)", TABLE_LOCKS, key
                        )
                    else:
                        try:
                            await conn.execute("SELECT pg_advisory_lock($1, $2)", TABLE_LOCKS, key)
                            got = True
                        except asyncpg.LockNotAvailableError:
                            got = False
            if got:
                return _Kept(slot, conn)
            if spells is not None and tries > spells:
                raise TableBusy(f"table {table_id}: another process held it for {wait:g} s")
            if tries % ASK_EVERY == 0:
                async with self.writing() as c:
                    await c.execute("SELECT pg_notify(?, ?)", (LOCKS_CHANNEL, f"ask {table_id}"))
            tries += 1

    def let_go_idle_locks(self) -> None:
        """The locks kept past their time, or past :data:`MAX_KEPT_LOCKS`,
        let go (the least recently used first). Called at each table lock
        and by the sweeper every second (so an idle process keeps none for
        long)."""
        now = time.monotonic()
        while self._kept:
            table_id = next(iter(self._kept))
            kept = self._kept[table_id]
            if kept.in_use or (kept.until > now and len(self._kept) <= MAX_KEPT_LOCKS):
                return
            self._let_go_later(table_id, kept)

    def _let_go_later(self, table_id: int, kept: _Kept) -> None:
        """A kept lock not in use let go (its time is up, too many are kept,
        or another process asked for it): out of the kept ones now, its
        unlock sent in a task (a use that comes first takes the lock again
        on the same session — counted — before or after it; either way it
        ends held once)."""
        if self._kept.get(table_id) is kept:
            del self._kept[table_id]
        task = asyncio.get_running_loop().create_task(self._unlock(table_id, kept))
        self._unlocking.add(task)
        task.add_done_callback(self._unlocking.discard)

    async def _unlock(self, table_id: int, kept: _Kept) -> None:
        if self.on_let_go is not None:
            self.on_let_go(table_id)  # (the row kept under the lock is forgotten)
        cancelled: asyncio.CancelledError | None = None
        if self.before_let_go is not None:
            try:  # what this process noted of the table, stored before another takes it
                await self.before_let_go(table_id)
            except asyncio.CancelledError as err:  # the lock is let go all the same, then
                cancelled = err
            except Exception as err:  # (written with the next flush)
                log.warning("table %d: what was noted of it is not written yet (%s)", table_id, err)
        try:
            await self._send_unlock(table_id, kept)
        finally:
            if cancelled is not None:
                raise cancelled

    async def _send_unlock(self, table_id: int, kept: _Kept) -> None:
        conn = kept.conn
        async with self._lock_guards[kept.slot]:
            if conn.is_closed():
                return  # the server released every lock it held
            try:
                await conn.execute(
                    "SELECT pg_advisory_unlock($1, $2)", TABLE_LOCKS, _lock_key(table_id)
                )
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                # a lost connection released every lock it held
                log.warning("table %d: could not release its lock", table_id)
            except asyncpg.InternalClientError:
                # a query on this connection was cancelled half-way (the
                # process is stopping): it cannot be used again; closing
                # it releases its locks, and the next lock connects anew.
                # The cancellation itself goes on (never swallowed here).
                log.warning("table %d: its lock's connection was closed", table_id)
                conn.terminate()

    def _heard_lock_notice(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        """``ask <table>``: another process waits for a table. A lock kept
        here and not in use is let go now, one in use when its use ends; the
        table is not kept again for :data:`ASKED_SECONDS` (every process
        hears every notice: most are not about its own)."""
        what, _, number = payload.partition(" ")
        if what != "ask" or not number.isdigit():
            return
        table_id = int(number)
        kept = self._kept.get(table_id)
        if kept is None:
            return
        kept.asked = True
        now = time.monotonic()
        self._asked[table_id] = now + ASKED_SECONDS
        if len(self._asked) > 4 * MAX_KEPT_LOCKS:  # forget the requests long past
            self._asked = {t: until for t, until in self._asked.items() if until > now}
        if not kept.in_use:
            self._let_go_later(table_id, kept)

    async def notify(self, channel: str, payload: str) -> None:
        async with self.writing() as c:
            await c.execute("SELECT pg_notify(?, ?)", (channel, payload))

    async def listen(
        self,
        channel: str,
        heard: Callable[[str], None],
        *,
        missed: Callable[[], None] | None = None,
    ) -> None:
        def hear(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            heard(payload)

        if missed is not None:
            self._missed.append(missed)
        await self._listen(channel, hear)

    async def _listen(self, channel: str, heard: Callable[[Any, int, str, str], None]) -> None:
        """``LISTEN`` on the connection kept for notices (and again on a new
        one whenever it is lost: :meth:`_relisten`)."""
        self._listeners.append((channel, heard))
        if self._lost_at is not None:
            return  # listened to on the new connection when it comes
        with _errors():
            if self._listen_conn is None or self._listen_conn.is_closed():
                self._listen_conn = await self._listen_connection()
            await self._listen_conn.add_listener(channel, heard)

    async def _listen_connection(self) -> asyncpg.Connection:
        conn = await asyncpg.connect(self.url)
        conn.add_termination_listener(self._listen_lost)
        return conn

    def _listen_lost(self, conn: asyncpg.Connection) -> None:
        """The LISTEN connection closed (the server restarted or stopped, its
        backend was terminated): said once; connected again at once if the
        server answers, else at the next :meth:`keep_listening`."""
        if conn is not self._listen_conn or self._pool is None:
            return  # closed by :meth:`close`, or an older one
        self._listen_conn = None
        self._lost_at = time.monotonic()
        log.warning("the database's notices were lost (its connection closed): listening"
                    " again as soon as the server answers")  # fmt: skip
        self.keep_listening()

    def keep_listening(self) -> None:
        # one try a call (the sweeper's, every second) while the notices are
        # lost; a task, so that the sweep does not wait for it
        if self._lost_at is None or self._pool is None:
            return
        if self._relistening is None or self._relistening.done():
            self._relistening = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        """Connect again and ``LISTEN`` on every channel again, then tell the
        listeners that notices were missed (what they kept may be stale);
        nothing said if the server does not answer yet (said when lost, and
        once when back)."""
        try:
            conn = await self._listen_connection()
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError):
            return
        try:
            for channel, heard in list(self._listeners):
                await conn.add_listener(channel, heard)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError):
            conn.terminate()
            return
        if self._pool is None or self._lost_at is None:
            conn.terminate()
            return
        self._listen_conn = conn
        lost, self._lost_at = self._lost_at, None
        log.warning("the database's notices come again (after %.1f s)", time.monotonic() - lost)
        for missed in list(self._missed):
            try:
                missed()
            except Exception:
                log.exception("a listener's catch-up after lost notices failed")

    async def lock_in_transaction(self, tx: Conn, name: str) -> None:
        await tx.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (name,))

    async def snapshot(self, tx: Conn) -> None:
        # every table read as of one moment, whatever commits meanwhile
        await tx.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")

    async def after_import(self, tx: Conn) -> None:
        # the identity columns' next values past the copied ids
        for name in IDENTITY_TABLES:
            await tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                f" COALESCE(MAX(id), 0) + 1, false) FROM {name}"
            )

    async def has_table(self, conn: Conn, name: str) -> bool:
        row = await conn.fetchone(
            "SELECT 1 FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_name = ?",
            (name,),
        )
        return row is not None

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
        # one statement, one round trip: the UPDATE in a CTE feeds the row
        # its key (the updated row's, as written); nothing is inserted if it
        # was stale
        marks = ", ".join("?" * len(values))
        async with self.writing() as c:
            return await c.execute(
                f"WITH changed AS ({update} RETURNING {returning})"
                f" INSERT INTO {into} SELECT {returning}, {marks} FROM changed",
                (*args, *values),
            )

    def json_patch(self, column: str, patch: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        # the keys removed, then set: a key's value is replaced whole
        return f"({column} - ?::text[]) || ?::jsonb", (
            list(patch),
            json.dumps({k: v for k, v in patch.items() if v is not None}, ensure_ascii=False),
        )

    def json_unset(self, column: str, key: str) -> str:
        return f"NOT COALESCE(({column}->>'{key}')::boolean, false)"
