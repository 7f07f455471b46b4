"""A sweep reads only what is due (issue 35): with thousands of idle tables
in the database — games in play whose clock is a day away, open lobbies —
every statement the turn-clock and tournament sweepers send is answered
through an index, never by a scan of the tables (SQLite's own query plan
of each statement as sent, its arguments in place)."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import idle  # noqa: E402

from bot.app import create_bot  # noqa: E402
from bot.storage import open_store  # noqa: E402


def test_sweeps_read_idle_tables_through_indexes(tmp_path: Path) -> None:
    path = tmp_path / "idle.sqlite3"
    asyncio.run(idle.fill(path, 3000, 300))
    sent: list[str] = []

    async def sweep() -> None:
        store = open_store(path)
        bot = create_bot(store, sync_commands="never")
        await store.open()
        try:
            await store.db._db.set_trace_callback(sent.append)
            for _ in range(2):
                bot.sweeper.repaired_at = None  # the repair sweep too
                await bot.sweeper.sweep(force=True)
                await bot.tournaments.sweep()
            await store.db._db.set_trace_callback(None)
        finally:
            await store.close()

    asyncio.run(sweep())
    reads = [s for s in sent if s.lstrip().upper().startswith(("SELECT", "UPDATE", "WITH", "DELETE"))]
    assert any("shown < version" in s for s in reads)  # the repair's read was among them
    conn = sqlite3.connect(path)
    try:
        scans = {}
        for statement in reads:
            plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + statement)]
            full = [step for step in plan if step.startswith("SCAN tables")]
            if full:
                scans[statement[:120]] = full
    finally:
        conn.close()
    assert not scans, scans
