"""What a server asks of its own rows is read through an index (issue 35,
migration 11) — SQLite's own query plan of the statement as sent, its
arguments in place: the limits of /play (bot/tables/repo.py
``open_counts``) read no other server's tables and count right; a server's
/history of one game reads its newest ten of that game."""

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


def test_a_servers_history_of_one_game_reads_its_newest_ten_by_an_index(tmp_path: Path) -> None:
    """``/history`` of a server and a game (migration 11): the plan reads the
    server's results of that game newest first from ``results_guild_game``
    — ten index entries — not the server's every newest result until ten
    are of the game; and the history is right (an oracle of our own)."""
    path = tmp_path / "history.sqlite3"
    sent: list[str] = []
    games = ("nine", "bluff", "yahtzee")

    async def run() -> list[dict]:
        store = open_store(path)
        await store.open()
        try:
            async with store.db.transaction() as tx:
                await tx.executemany(
                    "INSERT INTO results (id, table_id, guild_id, channel_id, game, record,"
                    " outcome, settlement, has_bots, finished_at)"
                    " VALUES (?, ?, ?, 1, ?, '{}', '{}', '{}', 0, ?)",
                    [(i, i, 1 + i % 4, games[i % 3], float(i)) for i in range(1, 301)],
                )
            await store.db._db.set_trace_callback(sent.append)
            found = await store.results.history(guild_id=2, game="bluff", limit=10)
            await store.db._db.set_trace_callback(None)
            return found
        finally:
            await store.close()

    found = asyncio.run(run())
    mine = sorted((i for i in range(1, 301) if 1 + i % 4 == 2 and games[i % 3] == "bluff"), reverse=True)
    assert [r["id"] for r in found] == mine[:10]
    first = next(s for s in sent if s.lstrip().upper().startswith("SELECT"))
    conn = sqlite3.connect(path)
    try:
        plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + first)]
    finally:
        conn.close()
    assert any("INDEX results_guild_game (guild_id=? AND game=?)" in step for step in plan), plan
    assert not any("TEMP B-TREE" in step for step in plan), plan
