"""RSS and the sweepers' CPU with idle tables in the database (issue 35).

    python bench/idle.py [--sizes 0 1000 10000] [--lobbies 0.1] [--sweeps 30]

For each size N: a fresh SQLite database holding N live tables in play
(Nine, a turn clock a day away) and ``--lobbies`` × N open lobbies (their
expiry an hour away), none of them behind its message, nothing due; a bot
built on it (not connected: nothing here talks to Discord), then
``--sweeps`` sweeps of the turn-clock sweeper (``Sweeper.sweep``, forced:
each one asks the database what is due, as a sweep does at least every
``RECHECK`` seconds, and repairs what is behind, as it does every
``REPAIR_EVERY``) and of the tournaments' sweeper (``Desk.sweep``).

Printed per size: the RSS of a fresh process (the database filled by
another) once its modules are loaded, before the bot is built, and after
the sweeps, and the CPU ms of one sweep of each — the
CPU a second they cost at one sweep a second, as the Clocks cog runs them.
Flat in N is the target: a sweep reads only what is due (the indexes on
``deadline``, ``cpu_due`` and the behind tables; docs/operations.md).

The tables are copies of one table made through the repository (a lobby
opened, a game started on it), written by one ``INSERT … SELECT`` each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import create_bot  # noqa: E402
from bot.storage import open_store  # noqa: E402
from bot.tables.rows import TABLE_COLS  # noqa: E402
from games import registry  # noqa: E402
from games.core import SeededSource  # noqa: E402

DAY = 86_400.0


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6


async def template(store: object, now: float, channel: int, *, playing: bool) -> int:
    """A table written through the repository: a lobby of two, or (``playing``)
    a game of Nine started on it; nothing due for a day (an hour: a lobby)."""
    tables = store.tables  # type: ignore[attr-defined]
    seats = [{"id": 1, "name": "alice"}, {"id": 2, "name": "bob"}]
    row = await tables.create_table(guild_id=1, channel_id=channel, game="nine", host_id=1,
                                    seats=seats, options={}, now=now)  # fmt: skip
    if playing:
        engine = registry.engine("nine")
        state = engine.new_game(["alice", "bob"], None, None, SeededSource("idle"))
        row.phase = "playing"
        row.state = engine.to_json(state)
        row.deadline = now + DAY
    else:
        row.deadline = now + 3600.0
    row.shown = row.version + 1  # its message shows it: not behind
    assert await tables.save_table(row, now=now)
    return int(row.id)


async def fill(path: Path, n: int, lobbies: int) -> None:
    store = open_store(path)
    await store.open()
    try:
        now = time.time()
        cols = [c for c in TABLE_COLS.split(", ") if c != "id"]
        for count, playing, base in ((n, True, 10**7), (lobbies, False, 2 * 10**7)):
            if not count:
                continue
            table_id = await template(store, now, base, playing=playing)
            picked = ", ".join(
                "channel_id + k" if c == "channel_id" else "deadline + k * 0.001" if c == "deadline"
                else c for c in cols
            )  # fmt: skip
            async with store.db.writing() as c:
                await c.execute(
                    "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ?)"
                    f" INSERT INTO tables ({', '.join(cols)}) SELECT {picked} FROM tables, n"
                    " WHERE id = ?",
                    (count - 1, table_id),
                )
    finally:
        await store.close()


async def measure(path: Path, sweeps: int) -> dict[str, float]:
    before = rss_mb()
    store = open_store(path)
    bot = create_bot(store, sync_commands="never")
    await store.open()
    try:
        counts = await store.tables.table_counts()
        await bot.sweeper.sweep(force=True)  # the first: the start-up repair of all
        await bot.tournaments.sweep()
        clock = bot.sweeper
        t0 = time.process_time()
        for _ in range(sweeps):
            clock.repaired_at = None  # a repair too, as every REPAIR_EVERY seconds
            await clock.sweep(force=True)
        clock_ms = (time.process_time() - t0) / sweeps * 1000
        t0 = time.process_time()
        for _ in range(sweeps):
            await bot.tournaments.sweep()
        desk_ms = (time.process_time() - t0) / sweeps * 1000
        return {
            "live": counts.get("playing", 0),
            "lobbies": counts.get("lobby", 0),
            "rss_before": before,
            "rss_after": rss_mb(),
            "clock_ms": clock_ms,
            "desk_ms": desk_ms,
        }
    finally:
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 1000, 10000])
    parser.add_argument("--lobbies", type=float, default=0.1, help="open lobbies per live table")
    parser.add_argument("--sweeps", type=int, default=30)
    parser.add_argument("--measure", default="", help=argparse.SUPPRESS)  # a filled database
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(asyncio.run(measure(Path(args.measure), args.sweeps))))
        return 0
    print("the bot in a fresh process for each size (filled by this one); CPU ms a sweep ="
          " ms of CPU a second at one sweep a second")  # fmt: skip
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "idle.sqlite3"
            asyncio.run(fill(path, n, round(n * args.lobbies)))
            out = subprocess.run(
                [sys.executable, __file__, "--measure", str(path), "--sweeps", str(args.sweeps)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"{r['live']:>6} live, {r['lobbies']:>5} lobbies: RSS {r['rss_after']:.1f} MB"
            f" ({r['rss_before']:.1f} MB before the bot was built); sweep CPU: clocks"
            f" {r['clock_ms']:.2f} ms, tournaments {r['desk_ms']:.2f} ms",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
