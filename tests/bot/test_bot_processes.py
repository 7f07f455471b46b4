"""Several processes on one database (issue: past one process): the moves
ledger, due tables claimed with a lease, table locks across processes, due
times announced between processes, and computers' turns that survive their
process."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import pytest
from simtable import on_both_databases, on_postgres

from bot.storage import Store, open_store
from bot.tables.rows import Ledger
from bot.tables.service import ledger_move, ledger_moves
from bot.turns import CPU_OVERDUE, first_turn_seconds
from games import registry

GAMES = [
    ("nine", 2, (), None, ()),
    ("sixdice", 2, (), "target=3000 start=500", ("m:stop",)),
    ("yahtzee", 1, ("easy",), None, ()),
    ("bluff", 1, ("easy", "easy"), "losses=1", ()),
    ("sixtysix", 1, ("easy",), None, ()),
]
@on_both_databases
@pytest.mark.parametrize(
    ("game", "count", "cpus", "options", "prefer"), GAMES, ids=[g[0] for g in GAMES]
)
async def test_the_ledger_holds_every_version_once_and_every_move(
    game_night, game, count, cpus, options, prefer
):
    async with game_night(seeded=True) as night:
        table = await night.table(game, players=count, cpus=cpus, options=options)
        await table.play_to_the_end(prefer=prefer, restart_at=2)
        [result] = await night.store.results.all()
        ledger = await night.store.tables.ledger()
        assert {line["table_id"] for line in ledger} == {ledger[0]["table_id"]}
        versions = [line["version"] for line in ledger]
        assert versions == list(range(1, len(versions) + 1))  # none lost, none doubled
        assert ledger[0]["move"] == "opened" and ledger[-1]["move"].endswith(
            tuple(result["record"]["moves"][-1:])
        )
        assert ledger_moves(ledger) == result["record"]["moves"]
        origins = {line["origin"] for line in ledger}
        assert "press" in origins and ("cpu" in origins) == bool(cpus)
        assert all(line["process"] for line in ledger)


def test_a_ledger_line_names_the_moves_since_the_row_was_loaded():
    from dataclasses import replace

    from bot.events import FINISHED, SAVED
    from bot.tables.rows import TableRow

    eng = registry.engine("nine")
    from games.core import SeededSource

    state = eng.new_game(["a", "b"], {}, None, SeededSource("x"))
    row = TableRow(1, 1, 1, 1, "nine", "playing", 1, [], {}, eng.to_json(state), {}, "s", 3,
                   None, 0.0, 0.0)  # fmt: skip
    before = replace(row)
    first = eng.to_move(state)[0]
    eng.apply(state, first, eng.legal_moves(state, first)[0])
    assert ledger_move(before, row, state, SAVED) == f"{first} roll"
    assert ledger_move(before, row, None, FINISHED) == "finished"


async def _stores(new_database, n: int) -> list[Store]:
    """``n`` stores (each its own connections: "processes") on one database."""
    target = await new_database()
    stores = []
    for _ in range(n):
        store = open_store(target)
        await store.open()
        stores.append(store)
    return stores


async def _due_tables(store: Store, n: int, *, at: float) -> list[int]:
    ids = []
    for i in range(n):
        row = await store.tables.create_table(
            guild_id=1, channel_id=100 + i, game="nine", host_id=1, seats=[], options={}, now=at
        )
        assert row is not None
        row.deadline = at - 1
        assert await store.tables.save_table(row, now=at, ledger=Ledger("opened", "command"))
        ids.append(row.id)
    return ids


@on_both_databases
async def test_sweepers_of_several_processes_split_the_due_tables(new_database, backend):
    stores = await _stores(new_database, 3)
    try:
        now = 1000.0
        ids = await _due_tables(stores[0], 12, at=now)
        claims = await asyncio.gather(
            *(
                s.tables.claim_due(until=now, cpu_until=now, now=now, owner=f"p{i}", lease=30)
                for i, s in enumerate(stores)
            )
        )
        claimed = [t for c in claims for t in c]
        assert sorted(claimed) == sorted(ids)  # each table once, by one process
        # a live lease keeps them from everyone; a released or lapsed one frees them
        assert await stores[1].tables.claim_due(until=now, cpu_until=now, now=now + 1, owner="x",
                                         lease=30) == []  # fmt: skip
        owner = next(i for i, c in enumerate(claims) if c)
        await stores[0].tables.release(claims[owner][0], f"p{owner}")
        assert await stores[2].tables.claim_due(until=now, cpu_until=now, now=now + 1, owner="y",
                                         lease=30) == [claims[owner][0]]  # fmt: skip
        later = await stores[2].tables.claim_due(until=now, cpu_until=now, now=now + 31, owner="z",
                                          lease=30)  # fmt: skip
        assert sorted(later) == sorted(ids)
    finally:
        for s in stores:
            await s.close()


@on_both_databases
async def test_a_clock_inside_its_warning_window_is_claimed_only_while_a_warning_is_owed(
    new_database, backend
):
    """The sweeper claims ``WARN_BEFORE`` seconds ahead for the warning; a
    table already warned (or a lobby, never warned) is claimed at its
    deadline, not loaded and let go at every sweep till then."""
    (store,) = await _stores(new_database, 1)
    try:
        now = 1000.0
        ids = {}
        for n, (phase, warned, deadline) in enumerate([
            ("playing", False, now + 10), ("playing", True, now + 10),
            ("lobby", False, now + 10), ("playing", True, now - 1), ("playing", None, now + 5),
        ]):  # fmt: skip
            row = await store.tables.create_table(guild_id=1, channel_id=200 + n, game="nine",
                                           host_id=1, seats=[], options={}, now=now)  # fmt: skip
            assert row is not None
            row.phase, row.deadline = phase, deadline
            row.clock = {"player": "a"} if warned is None else {"player": "a", "warned": warned}
            assert await store.tables.save_table(row, now=now, ledger=Ledger("start", "command"))
            ids[phase, warned, deadline] = row.id
        claimed = await store.tables.claim_due(until=now + 20, cpu_until=now, now=now, owner="p",
                                        lease=30)  # fmt: skip
        assert sorted(claimed) == sorted([
            ids["playing", False, now + 10], ids["playing", True, now - 1],
            ids["playing", None, now + 5],
        ])  # fmt: skip
        later = await store.tables.claim_due(until=now + 31, cpu_until=now, now=now + 11, owner="q",
                                      lease=30)  # fmt: skip
        assert sorted(later) == sorted([ids["playing", True, now + 10], ids["lobby", False, now + 10]])
    finally:
        await store.close()


@on_postgres
async def test_a_table_lock_holds_across_processes(new_database):
    a, b = await _stores(new_database, 2)
    try:
        order: list[str] = []

        async def first() -> None:
            async with a.tables.table_lock(7):
                order.append("a in")
                await asyncio.sleep(0.3)
                order.append("a out")

        async def second() -> None:
            await asyncio.sleep(0.05)
            async with b.tables.table_lock(8):  # another table: not held up
                order.append("b other")
            async with b.tables.table_lock(7):
                order.append("b in")

        await asyncio.gather(first(), second())
        assert order == ["a in", "b other", "a out", "b in"]
    finally:
        await a.close()
        await b.close()


async def _held(store: Store, table_id: int) -> int:
    """How many sessions hold ``table_id``'s lock (the server's own view)."""
    from bot.db.postgres import TABLE_LOCKS

    async with store.db.reading() as c:
        [(n,)] = await c.fetch(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid = ? AND objid = ? AND objsubid = 2",
            (TABLE_LOCKS, table_id),
        )
    return int(n)


async def _unlocked(store: Store) -> None:
    """The unlocks this store sent in tasks, done."""
    await asyncio.gather(*store.db._unlocking)


@on_postgres
async def test_a_table_lock_is_kept_after_use_until_another_process_asks(new_database):
    """A table used is locked still (the next press, the computers' moves
    and the clock take nothing: no round trips); another process that wants
    it asks, and has it at once; the first then asks in turn."""
    a, b = await _stores(new_database, 2)
    try:
        takes = 0
        take = a.db._take_table_lock

        async def counted(table_id: int, wait: float | None = None):
            nonlocal takes
            takes += 1
            return await take(table_id, wait)

        a.db._take_table_lock = counted
        for _ in range(3):
            async with a.tables.table_lock(7):
                pass
        assert takes == 1  # taken once, kept for the next two
        assert await _held(b, 7) == 1
        started = time.monotonic()
        async with asyncio.timeout(5):
            async with b.tables.table_lock(7):
                assert await _held(b, 7) == 1  # b's now, a's let go
                assert 7 not in a.db._kept
        assert time.monotonic() - started < 2.0  # asked for, not waited out
        async with asyncio.timeout(5):
            async with a.tables.table_lock(7):  # b was asked in turn
                pass
        assert takes == 2
    finally:
        await a.close()
        await b.close()


@on_postgres
async def test_kept_table_locks_are_let_go_in_time_in_number_and_after_a_failure(
    new_database, monkeypatch
):
    from bot.db import postgres as store_pg

    (a,) = await _stores(new_database, 1)
    # the store's clock is the test's (a lock kept "for 50 ms" let go while
    # the next lock's round trip took longer, on a loaded machine: the test
    # failed under -n 2), and each take is slow, as on such a machine
    now = time.monotonic()
    monkeypatch.setattr(store_pg, "time", SimpleNamespace(monotonic=lambda: now))
    take = a.db._take_table_lock

    async def slow(table_id: int, wait: float | None = None) -> Any:
        kept = await take(table_id, wait)
        await asyncio.sleep(0.06)
        return kept

    a.db._take_table_lock = slow
    try:
        # a use that fails lets go at once
        with pytest.raises(RuntimeError):
            async with a.tables.table_lock(1):
                raise RuntimeError("the press failed")
        assert await _held(a, 1) == 0 and 1 not in a.db._kept
        # no more than MAX_KEPT_LOCKS kept: the least recently used go first
        monkeypatch.setattr(store_pg, "MAX_KEPT_LOCKS", 2)
        for table_id in (2, 3, 4):
            async with a.tables.table_lock(table_id):
                pass
        async with a.tables.table_lock(3):
            pass
        await _unlocked(a)
        assert list(a.db._kept) == [4, 3]
        assert [await _held(a, t) for t in (2, 3, 4)] == [0, 1, 1]
        # past their time (the sweeper lets them go every second)
        monkeypatch.setattr(store_pg, "MAX_KEPT_LOCKS", 256)
        for table_id in (3, 4, 5):
            async with a.tables.table_lock(table_id):
                pass
        assert list(a.db._kept) == [3, 4, 5]  # however long the takes took
        now += store_pg.KEEP_LOCK_SECONDS - 0.01
        a.tables.let_go_idle_locks()
        assert list(a.db._kept) == [3, 4, 5]  # not yet
        now += 0.01
        a.tables.let_go_idle_locks()
        await _unlocked(a)
        assert a.db._kept == {} and [await _held(a, t) for t in (3, 4, 5)] == [0, 0, 0]
    finally:
        await a.close()


@on_postgres
async def test_a_kept_lock_whose_connection_was_lost_is_taken_anew(new_database):
    """The server ends the session that kept a lock (a restart, an admin):
    the lock went with it; another process can take the table, and the
    first takes it anew on a new connection, not believing it holds it."""
    a, b = await _stores(new_database, 2)
    try:
        async with a.tables.table_lock(7):
            pass
        kept = a.db._kept[7]
        async with b.db.reading() as c:
            await c.fetch("SELECT pg_terminate_backend(?)", (kept.conn.get_server_pid(),))
        for _ in range(100):  # the loop hears the connection close
            if kept.conn.is_closed():
                break
            await asyncio.sleep(0.01)
        async with asyncio.timeout(5):
            async with b.tables.table_lock(7):
                pass
        async with asyncio.timeout(5):
            async with a.tables.table_lock(7):
                assert a.db._kept[7] is not kept and await _held(a, 7) == 1
    finally:
        await a.close()
        await b.close()


async def _hang_holding(store: Store, table_id: int):
    """A "process" that takes ``table_id``'s lock (asking for it, as ours
    do) and then hangs: it never hears an ask."""
    import asyncpg

    from bot.db.postgres import LOCKS_CHANNEL, TABLE_LOCKS

    hung = await asyncpg.connect(store.db.url)
    await hung.execute("SELECT pg_notify($1, $2)", LOCKS_CHANNEL, f"ask {table_id}")
    await hung.execute("SELECT pg_advisory_lock($1, $2)", TABLE_LOCKS, table_id)
    return hung


@on_postgres
async def test_a_table_held_by_a_hung_process_is_waited_for_only_as_long_as_asked(
    new_database,
):
    from bot.db.core import TableBusy

    (a,) = await _stores(new_database, 1)
    try:
        hung = await _hang_holding(a, 7)
        started = time.monotonic()
        with pytest.raises(TableBusy):
            async with a.tables.table_lock(7, wait=0.3):
                pass
        assert 0.3 <= time.monotonic() - started < 3.0
        async with a.tables.table_lock(8, wait=0.3):  # the others are not held up
            pass
        await hung.close()  # its end frees its locks
        async with asyncio.timeout(5):
            async with a.tables.table_lock(7, wait=0.3):
                pass
    finally:
        await a.close()


@on_postgres
async def test_a_hung_process_holding_a_table_delays_only_that_tables_clock(
    game_night, monkeypatch, caplog
):
    """The sweeper waits for a table another process holds at most
    ``LOCK_WAIT``, says so, fires the other due clocks, and fires that one
    at a later sweep once it is free — one hung process never stops every
    turn clock (its kept locks are never let go while it hangs)."""
    from bot.followers import clock

    monkeypatch.setattr(clock, "LOCK_WAIT", 0.3)
    async with game_night(seeded=True) as night:
        stuck = await night.table("nine")
        other = await night.table("nine")
        hung = await _hang_holding(night.store, (await stuck.row()).id)
        try:
            # the first player's first turn of the game (docs/bot.md)
            await night.wait(first_turn_seconds(registry.spec("nine").turn_seconds) + 5)
            assert await stuck.moves() == []
            assert len(await other.moves()) == 2  # its timeout: roll, flip
            assert "its clock fires at the next sweep" in caplog.text
        finally:
            await hung.close()
        await night.wait(3)
        assert len(await stuck.moves()) == 2


@on_postgres
async def test_a_lock_whose_connection_broke_mid_cancel_lets_the_cancel_go_on(
    new_database, monkeypatch
):
    """A process stopping cancels a task holding a table lock; a query
    cancelled half-way leaves asyncpg's connection unusable ("got result for
    unknown protocol state"). Releasing the lock must not turn the
    cancellation into an error (a sweeper then swallowed it and kept
    sweeping a closed store): the connection is closed, which releases its
    locks, and another process can take the table."""
    a, b = await _stores(new_database, 2)
    try:
        import asyncpg

        async def holder() -> None:
            async with a.tables.table_lock(7):
                conn = a.db._lock_conns[7 % len(a.db._lock_conns)]
                assert conn is not None

                execute = asyncpg.Connection.execute

                async def broken(self: asyncpg.Connection, sql: str, *args: object) -> object:
                    if self is conn and "unlock" in sql:
                        raise asyncpg.InternalClientError("got result for unknown protocol state 3")
                    return await execute(self, sql, *args)

                monkeypatch.setattr(asyncpg.Connection, "execute", broken)
                await asyncio.sleep(10)

        task = asyncio.create_task(holder())
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with asyncio.timeout(5):  # the lock went with the connection
            async with b.tables.table_lock(7):
                pass
        async with a.tables.table_lock(7):  # the first process connects anew
            pass
    finally:
        await a.close()
        await b.close()


@on_postgres
async def test_a_due_time_set_by_one_process_is_heard_by_another(new_database):
    a, b = await _stores(new_database, 2)
    try:
        heard: asyncio.Queue[float] = asyncio.Queue()
        await b.tables.listen_due(heard.put_nowait)
        started = time.monotonic()
        await a.tables.announce_due(1234.5)
        assert await asyncio.wait_for(heard.get(), 1.0) == 1234.5
        assert time.monotonic() - started < 1.0
    finally:
        await a.close()
        await b.close()


@on_both_databases
async def test_a_computer_whose_process_died_mid_think_moves_later(game_night):
    async with game_night(seeded=True, cpu_delay=1.0) as night:
        table = await night.table("nine", players=1, cpus=["easy"])
        computers = night.bot.computers
        # the process that stores the person's move "dies" before its
        # computer moves: its in-process kick never runs (the sweeper's
        # claim of an overdue turn is the only way left)
        computers.kick = lambda table_id: None
        for _ in range(20):
            row = await table.row()
            if row is not None and row.cpu_due is not None:
                break
            await table.play()
        row = await table.row()
        assert row is not None and row.cpu_due is not None, table.content
        moved = len(await night.store.tables.ledger())
        await night.wait(CPU_OVERDUE / 2)
        assert len(await night.store.tables.ledger()) == moved  # not overdue yet: nobody moved
        await night.wait(CPU_OVERDUE)  # overdue: claimed by a sweeper and moved
        after = await night.store.tables.ledger()
        assert len(after) > moved and after[moved]["origin"] == "cpu"


@on_postgres
async def test_a_setting_changed_by_one_process_is_seen_by_another(new_database):
    a, b = await _stores(new_database, 2)
    try:
        assert await a.settings.guild_setting(5, "clock.nine") is None  # now cached in a
        await b.settings.set_guild_setting(5, "clock.nine", 90)
        for _ in range(100):  # the notice arrives within a second
            if await a.settings.guild_setting(5, "clock.nine") == 90:
                break
            await asyncio.sleep(0.01)
        assert await a.settings.guild_setting(5, "clock.nine") == 90
    finally:
        await a.close()
        await b.close()
