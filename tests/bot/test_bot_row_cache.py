"""A table's row kept by the process that holds its lock (PostgreSQL): a
load under a lock held since the last load or save sends nothing, and what
it returns is what the database holds — whatever this process wrote since,
versioned or not; another process's change is loaded once it had the lock,
with what that process noted of the table."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

from simtable import on_postgres
from test_bot_processes import _stores

from bot.storage import Store
from bot.tables.rows import Ledger
from bot.tables.service import TableService


def _count_reads(store: Store) -> list[int]:
    """How many times ``store`` asked the database for something to read."""
    reads = [0]
    reading = store.db.reading

    @asynccontextmanager
    async def counted():
        reads[0] += 1
        async with reading() as c:
            yield c

    store.db.reading = counted  # type: ignore[method-assign]
    return reads


async def _new_table(store: Store, channel: int = 100) -> int:
    row = await store.tables.create_table(
        guild_id=1, channel_id=channel, game="nine", host_id=1,
        seats=[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], options={}, now=1.0,
    )  # fmt: skip
    assert row is not None
    assert await store.tables.save_table(row, now=1.0, ledger=Ledger("opened", "command"))
    return row.id


@on_postgres
async def test_a_row_loaded_under_a_held_lock_is_what_the_database_holds(new_database):
    a, b = await _stores(new_database, 2)
    try:
        t = await _new_table(a)
        reads = _count_reads(a)
        async with a.tables.table_lock(t):
            row = await a.tables.get_table(t)
            assert row is not None and reads[0] == 1
            before_ui = dict(row.ui)
            row.phase = "playing"
            row.state = {"history": {"moves": ["a roll"]}, "n": 1}
            row.ui["log"] = [{"e": 1}]
            row.ui["lang"] = "ja"
            row.deadline, row.cpu_due, row.shown = 50.0, 40.0, 1
            row.clock = {"player": "a"}
            patch = {k: row.ui.get(k) for k in row.ui.keys() | before_ui.keys()}
            assert await a.tables.save_table(row, now=2.0, ledger=Ledger("a roll", "press"), ui_patch=patch)
            again = await a.tables.get_table(t)
            assert reads[0] == 1  # nothing sent: the row as saved
            stored = await b.tables.get_table(t)
            assert again == stored and again.state == row.state and again.ui == row.ui
            again.ui["log"].append({"e": 2})  # a caller's row is its own
        async with a.tables.table_lock(t):  # the lock was kept: the row too
            kept = await a.tables.get_table(t)
            assert reads[0] == 1 and kept == stored
            # written outside a versioned save, under the lock: kept with
            # the write in it (the sweep's flush writes the versions shown
            # every second), so nothing is sent, and it is what is stored
            for write in (
                a.tables.patch_ui({t: {"ping": 5, "lang": None}}),
                a.tables.set_message(t, 999),
                a.tables.set_shown({t: 2}),
                a.tables.set_shown({t: 1}),  # (never back)
                a.tables.patch_ui({t: {"ping": None, "log": [{"e": 3}], "new": {"k": [1, 2]}}}),
            ):
                await write
                seen = reads[0]
                kept = await a.tables.get_table(t)
                assert reads[0] == seen
                assert kept == await b.tables.get_table(t)
            assert kept.shown == 2 and kept.message_id == 999
            assert kept.ui == {"log": [{"e": 3}], "new": {"k": [1, 2]}}
            row = await a.tables.get_table(t)
            old = dict(row.clock)
            row.clock = {**old, "warned": True}
            assert await a.tables.set_clock(row, old)
            assert await a.tables.get_table(t) == await b.tables.get_table(t)
        # another process asks for the table and changes it
        async with asyncio.timeout(5):
            async with b.tables.table_lock(t):
                theirs = await b.tables.get_table(t)
                theirs.seats.append({"id": 3, "name": "c"})
                assert await b.tables.save_table(theirs, now=3.0, ledger=Ledger("seats", "command"))
        assert t not in a.tables.kept.rows  # let go: forgotten
        async with asyncio.timeout(5):
            async with a.tables.table_lock(t):
                seen = reads[0]
                mine = await a.tables.get_table(t)
                assert reads[0] == seen + 1 and mine.seats == theirs.seats
                assert mine == await b.tables.get_table(t)
        # a stale save keeps nothing
        mine.version -= 1
        async with a.tables.table_lock(t):
            assert not await a.tables.save_table(mine, now=4.0)
            seen = reads[0]
            assert await a.tables.get_table(t) == await b.tables.get_table(t) and reads[0] == seen + 1
    finally:
        await a.close()
        await b.close()


@on_postgres
async def test_what_a_process_noted_of_a_table_is_written_before_another_takes_it(
    new_database,
):
    """A process keeps notes (a turn ping's id, the version shown) to write
    with the table's next save or its next flush; asked for the table, it
    writes them before it lets go, so the process that takes the table
    loads them (and, keeping the row, never misses them)."""
    a, b = await _stores(new_database, 2)
    try:
        t = await _new_table(b)
        service = TableService(b)
        async with service.lock(t):
            loaded = await service.load(t)
            assert loaded is not None
        service.note_ui(t, "ping", 1234)
        service.mark_shown(t, 1)
        async with asyncio.timeout(5):
            async with a.tables.table_lock(t):
                row = await a.tables.get_table(t)
        assert row is not None and row.ui.get("ping") == 1234 and row.shown == 1
        assert service._notes == {} and service._shown == {}  # written, not again
    finally:
        await a.close()
        await b.close()


async def _save_raced(a, t, meanwhile):
    """Table ``t`` loaded and saved under its lock while ``meanwhile`` writes
    right after the save's statement, then loaded again: (the reads counter,
    its count after the save, the row saved, the row loaded again)."""
    reads = _count_reads(a)
    write = a.db.update_then_insert

    async def raced(*args, **kwargs):
        n = await write(*args, **kwargs)
        await meanwhile()
        return n

    a.db.update_then_insert = raced  # type: ignore[method-assign]
    async with a.tables.table_lock(t):
        row = await a.tables.get_table(t)
        assert row is not None
        assert await a.tables.save_table(row, now=2.0, ledger=Ledger("ui", "press"))
        seen = reads[0]
        again = await a.tables.get_table(t)
    return reads, seen, row, again


@on_postgres
async def test_a_save_raced_by_another_write_of_the_process_keeps_no_row(new_database):
    """The sweep's flush (not under the table's lock) writes the version
    shown while a save is on its way: the row saved is not kept as it
    stands, it is loaded anew."""
    (a,) = await _stores(new_database, 1)
    try:
        t = await _new_table(a)

        async def meanwhile() -> None:
            await a.tables.set_shown({t: 7})

        reads, seen, row, again = await _save_raced(a, t, meanwhile)
        assert reads[0] == seen + 1 and again is not None and again.shown == 7
    finally:
        await a.close()


@on_postgres
async def test_a_write_of_another_table_does_not_make_a_save_forget_its_row(new_database):
    """The sweep's flush writes the versions shown of the other tables while
    a save is on its way (every second, on a busy process): the saved row
    is kept all the same (before, any such write of the process made every
    save and load under way keep nothing: a load more a press)."""
    (a,) = await _stores(new_database, 1)
    try:
        t, other = await _new_table(a), await _new_table(a, channel=101)

        async def meanwhile() -> None:
            await a.tables.set_shown({other: 1})
            await a.tables.patch_ui({other: {"ping": 1}})

        reads, seen, row, again = await _save_raced(a, t, meanwhile)
        assert reads[0] == seen and again is not None and again.version == row.version
    finally:
        await a.close()


@on_postgres
async def test_a_write_outside_a_save_raced_by_a_save_keeps_the_newer_row(new_database):
    """A save of the table goes through while the flush's write of its
    shown version is on its way: what is loaded next is what the database
    holds — the newer version with the version shown — never the older row
    amended, nor the save's without the flush's write."""
    a, b = await _stores(new_database, 2)
    try:
        t = await _new_table(a)
        async with a.tables.table_lock(t):
            row = await a.tables.get_table(t)
            assert row is not None
            writing = a.db.writing

            @asynccontextmanager
            async def slow():
                a.db.writing = writing  # type: ignore[method-assign]
                async with writing() as c:
                    saved = await a.tables.save_table(row, now=2.0, ledger=Ledger("x", "press"))
                    assert saved and t in a.tables.kept.rows
                    yield c

            a.db.writing = slow  # type: ignore[method-assign]
            await a.tables.set_shown({t: 1})
            kept = await a.tables.get_table(t)
            # (before: the save's row kept, its shown -1 where the database said 1)
            assert kept == await b.tables.get_table(t) and kept.version == row.version
    finally:
        await a.close()
        await b.close()


@on_postgres
async def test_writes_outside_a_save_while_a_save_is_on_its_way_keep_no_older_row(new_database):
    """The sweep's flush writes a table's version shown, then its UI notes,
    while a save of it is on its way (a press at full speed): neither write
    may put back the row as it was before the save — the next press would
    be refused as stale (before: 261 of 1,274 presses refused at full speed
    on one process, bench/scale.py)."""
    a, b = await _stores(new_database, 2)
    try:
        t = await _new_table(a)
        async with a.tables.table_lock(t):
            row = await a.tables.get_table(t)
            assert row is not None
            go = asyncio.Event()
            write = a.db.update_then_insert

            async def held(*args, **kwargs):
                await go.wait()
                return await write(*args, **kwargs)

            a.db.update_then_insert = held  # type: ignore[method-assign]
            writing = a.db.writing
            save = None

            @asynccontextmanager
            async def saving_meanwhile():
                nonlocal save
                a.db.writing = writing  # type: ignore[method-assign]
                save = asyncio.create_task(
                    a.tables.save_table(row, now=2.0, ledger=Ledger("x", "press"))
                )
                await asyncio.sleep(0.05)  # the save is on its way, held
                async with writing() as c:
                    yield c

            a.db.writing = saving_meanwhile  # type: ignore[method-assign]
            await a.tables.set_shown({t: 1})
            await a.tables.patch_ui({t: {"ping": 7}})
            go.set()
            assert save is not None and await save
            a.db.update_then_insert = write  # type: ignore[method-assign]
            kept = await a.tables.get_table(t)
            stored = await b.tables.get_table(t)
            assert kept == stored and kept.version == row.version
    finally:
        await a.close()
        await b.close()
