"""A server's open tables are counted through its own rows of an index
(issue 35, migration 11): the limits of /play (bot/tables/repo.py
``open_counts``) read no other server's tables — SQLite's own query plan of
the statement as sent, its arguments in place — and count right."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage import open_store


def test_open_counts_read_the_servers_rows_through_an_index(tmp_path: Path) -> None:
    path = tmp_path / "counts.sqlite3"
    sent: list[str] = []

    async def run() -> tuple[int, int]:
        store = open_store(path)
        await store.open()
        try:
            for n in range(600):  # 60 servers, 10 tables each; host 7 hosts every third
                guild = 1_000 + n % 60
                row = await store.tables.create_table(
                    guild_id=guild, channel_id=50_000 + n, game="nine",
                    host_id=7 if n % 3 == 0 else 100 + n, seats=[], options={}, now=0.0,
                )
                assert row is not None
                if n % 7 < 3:  # 3 in 7 playing, not in the lobby
                    await store.db._db.execute(
                        "UPDATE tables SET phase = 'playing' WHERE id = ?", (row.id,)
                    )
            await store.db._db.set_trace_callback(sent.append)
            counts = await store.tables.open_counts(1_003, 7)
            await store.db._db.set_trace_callback(None)
            return counts
        finally:
            await store.close()

    tables, lobbies = asyncio.run(run())
    # an oracle of our own: server 1003's tables (n = 3, 63, …, 543), the
    # lobbies among them that host 7 hosts
    mine = [n for n in range(600) if 1_000 + n % 60 == 1_003]
    assert tables == len(mine) == 10
    assert lobbies == sum(1 for n in mine if n % 3 == 0 and n % 7 >= 3) > 0
    reads = [s for s in sent if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1, reads
    conn = sqlite3.connect(path)
    try:
        plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + reads[0])]
    finally:
        conn.close()
    assert not [step for step in plan if step.startswith("SCAN tables")], plan
    assert any("COVERING INDEX tables_guild (guild_id=?)" in step for step in plan), plan
