"""Migration 11 (issue 35) on both databases: a database of schema 10 with
open tables opens on today's code, migrates, and counts each server's open
tables as before, through the new index; the reviews' waits start empty and
count; copy-db carries the tables (their counts the same on the copy) and
not the waits (nobody waits on the copy)."""

from __future__ import annotations

import random

from simtable import on_both_databases

from bot.db import schema_postgres, schema_sqlite
from bot.storage import Store, open_database, open_store

GUILDS = (101, 102, 103)
HOSTS = (1, 2, 3, 4)


async def open_tables(store: Store, n: int, seed: int) -> dict[int, list[tuple[str, int]]]:
    """``n`` tables in random servers, by random hosts, some of them in play;
    the oracle: each server's (phase, host)."""
    rng = random.Random(seed)
    kept: dict[int, list[tuple[str, int]]] = {g: [] for g in GUILDS}
    for i in range(n):
        guild, host = rng.choice(GUILDS), rng.choice(HOSTS)
        row = await store.tables.create_table(
            guild_id=guild, channel_id=80_000 + seed * 1_000 + i, game="nine", host_id=host,
            seats=[], options={}, now=0.0,
        )
        assert row is not None
        phase = "lobby"
        if rng.random() < 0.4:
            phase = "playing"
            async with store.db.writing() as c:
                await c.execute("UPDATE tables SET phase = ? WHERE id = ?", (phase, row.id))
        kept[guild].append((phase, host))
    return kept


async def counts_right(store: Store, kept: dict[int, list[tuple[str, int]]]) -> None:
    for guild, rows in kept.items():
        for host in HOSTS:
            lobbies = sum(1 for phase, h in rows if phase == "lobby" and h == host)
            assert await store.tables.open_counts(guild, host) == (len(rows), lobbies)


async def has_index(store: Store, name: str) -> bool:
    async with store.db.reading() as c:
        if store.is_postgres:
            rows = await c.fetch(
                "SELECT 1 FROM pg_indexes WHERE indexname = ? AND schemaname = current_schema()",
                (name,),
            )
        else:
            rows = await c.fetch(
                "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)
            )
    return bool(rows)


@on_both_databases
async def test_migration_11_on_a_schema_10_database(new_database, backend):
    target = await new_database()
    everything = (schema_postgres if backend == "postgres" else schema_sqlite).MIGRATIONS
    db = open_database(target)
    db.migrations = everything[:10]
    old = Store(db)
    await old.open()
    try:
        assert await old.schema_version() == 10
        kept = await open_tables(old, 40, 1)
        assert not await has_index(old, "tables_guild")
    finally:
        await old.close()
    store = open_store(target)  # today's code: migrates at open
    await store.open()
    try:
        assert await store.schema_version() == len(everything) >= 11
        assert await has_index(store, "tables_guild")
        assert await has_index(store, "results_guild_game")
        await counts_right(store, kept)
        more = await open_tables(store, 20, 2)  # and they go on
        await counts_right(store, {g: kept[g] + more[g] for g in GUILDS})
        assert await store.reviews.wait(1, 10, 101, now=5.0, limits=(2, 10)) is None
        assert await store.reviews.wait(2, 10, 101, now=5.0, limits=(2, 10)) is None
        assert await store.reviews.wait(3, 10, 102, now=5.0, limits=(2, 10)) == (2, 0)
    finally:
        await store.close()


@on_both_databases
async def test_copy_db_carries_the_tables_and_not_the_waits(new_database):
    source = open_store(await new_database())
    copy = open_store(await new_database())
    await source.open()
    await copy.open()
    try:
        kept = await open_tables(source, 30, 3)
        assert await source.reviews.wait(1, 10, 101, now=5.0) is None
        counts = await copy.import_rows(await source.export_rows())
        assert counts["tables"] == 30 and "review_waits" not in counts
        await counts_right(copy, kept)
        async with copy.db.reading() as c:
            assert await c.fetch("SELECT * FROM review_waits") == []
    finally:
        await source.close()
        await copy.close()
