"""Button-press latency, SQL statements and memory per live table, through SimCord.

    python bench/interactions.py [--game nine [sixdice …]] [--tables 1 [100]] [--presses 400]
    python bench/interactions.py --live 10000 [--game nine] [--presses 400]

For 1 and for 100 live tables (``--tables``), users press the table's
buttons (the first legal control, round-robin over the tables) and we time
each press from the click to the bot's answer: the move committed to SQLite
and the table message edited (picture included). Two figures per press:

- ``end-to-end``: the whole ``click()`` through SimCord (its simulated gateway
  and REST add their own cost);
- ``bot``: the time inside :meth:`bot.presses.Presses.press` (load,
  check, apply, commit, render, respond).

SQL statements per press, counted at the store: the store's aiosqlite
connection is wrapped so that every ``execute`` and ``executemany`` (one
statement each, whatever the number of parameter rows; ``Store._x`` and
transactions' BEGIN/COMMIT go through ``execute`` too) made while a timed
press runs is counted: the mean per press, and per kind of statement (its
first words: ``SELECT … FROM tables WHERE id``, ``UPDATE tables SET ui``,
``BEGIN IMMEDIATE`` …). The press is counted from the click to the moment
SimCord has settled, so the work the bot does after answering (DMs, turn
pings, clocks) counts as well.

Memory per live table at rest: tracemalloc over creating 100 more started
tables, traces of SimCord's simulated Discord excluded.

``--live N``: N started tables in one bot (DESIGN.md budgets 10,000 at
≤ 20 KB each): the bytes reachable from the bot per table, the database
bytes per table, and the press latency on tables picked at random.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bot"))

import simcord  # noqa: E402
from simtable import first_choice, mover_of, press, table_controls  # noqa: E402

from bot.app import create_bot  # noqa: E402
from bot.storage import Store  # noqa: E402


def statement_kind(sql: str) -> str:
    """The first words of a statement: its verb and table, and for a SELECT
    the first column of its WHERE, for an UPDATE the first column it sets.

    >>> statement_kind("SELECT id, game FROM tables WHERE channel_id = ?")
    'SELECT … FROM tables WHERE channel_id'
    >>> statement_kind("UPDATE tables SET ui = ? WHERE id = ? AND version = ?")
    'UPDATE tables SET ui'
    """
    words = sql.split()
    verb = words[0].upper() if words else ""
    if verb == "SELECT":
        source = re.search(r"\bFROM\s+\(?\s*(\w+)", sql, re.IGNORECASE)
        where = re.search(r"\bWHERE\s+(\w+)", sql, re.IGNORECASE)
        kind = f"SELECT … FROM {source.group(1) if source else '?'}"
        return kind + (f" WHERE {where.group(1)}" if where else "")
    if verb == "UPDATE" and len(words) > 3:
        return f"UPDATE {words[1]} SET {words[3]}"
    if verb in ("INSERT", "DELETE", "REPLACE"):
        target = re.search(r"\b(INTO|FROM)\s+(\w+)", sql, re.IGNORECASE)
        return f"{verb} {target.group(1).upper()} {target.group(2)}" if target else verb
    return " ".join(words[:2])


class SqlCounter:
    """Counts the statements the store sends while ``active``, at the
    store's interface: the SQLite store counts each statement where it
    sends it (``SqliteStore.on_statement``; a hop to aiosqlite's thread
    may carry several — a save's BEGIN, UPDATE, ledger line and COMMIT —
    so wrapping the aiosqlite connection's ``execute`` saw none: "0.00
    statements")."""

    def __init__(self, store: Any) -> None:
        self.active = False
        self.kinds: Counter[str] = Counter()
        self.presses = 0
        self.hops = 0  # round trips to aiosqlite's thread
        store.db.on_statement = self.heard
        db = store.db
        hop = db._execute

        def counted(*args: Any, **kwargs: Any) -> Any:
            if self.active:
                self.hops += 1
            return hop(*args, **kwargs)

        db._execute = counted

    def heard(self, sql: str) -> None:
        if self.active:
            self.kinds[statement_kind(sql)] += 1

    @property
    def total(self) -> int:
        return sum(self.kinds.values())

    def per_press(self) -> float:
        return self.total / self.presses if self.presses else 0.0

    def breakdown(self) -> list[tuple[str, float]]:
        n = self.presses or 1
        return [(kind, count / n) for kind, count in self.kinds.most_common()]


@contextlib.asynccontextmanager
async def running(bot: Any) -> AsyncIterator[simcord.Env]:
    """``simcord.run(bot)``, and the bot's store closed after it (its
    connection's worker thread would keep the process alive)."""
    try:
        async with simcord.run(bot) as env:
            yield env
    finally:
        await bot.tables.store.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


async def open_started(host: Any, other: Any, channel: Any, game: str) -> Any:
    res = await host.slash(channel, "play", game=game)
    msg = res.response
    await other.click(msg, label="Join")
    await host.click(msg, label="Start")
    return msg


async def run(tables: int, presses: int, game: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Store(Path(tmp) / "bench.sqlite3"))
        inner: list[float] = []
        handler = bot.presses
        original = handler.press

        async def timed(*args: Any, **kwargs: Any) -> None:
            t0 = time.perf_counter()
            await original(*args, **kwargs)
            inner.append(time.perf_counter() - t0)

        handler.press = timed  # type: ignore[method-assign]
        async with running(bot) as env:
            guild = env.create_guild()
            alice = guild.add_member(env.create_user("alice"))
            bob = guild.add_member(env.create_user("bob"))
            users = [alice, bob]
            seats = []
            for i in range(tables):
                channel = guild.create_text_channel(f"t{i}")
                seats.append([channel, await open_started(alice, bob, channel, game)])
            # warm up (imports, font and sprite caches)
            for _ in range(5):
                channel, msg = seats[0]
                if not table_controls(msg):
                    seats[0][1] = await open_started(alice, bob, channel, game)
                    continue
                await press(mover_of(msg, users), msg, first_choice(msg))
            inner.clear()
            store = bot.tables.store
            assert store.db._db is not None, "the store opens when the bot starts"
            sql = SqlCounter(store)
            outer: list[float] = []
            i = 0
            while len(outer) < presses:
                channel, msg = seats[i % tables]
                i += 1
                if not table_controls(msg):  # game over: open the next one here
                    seats[(i - 1) % tables][1] = await open_started(alice, bob, channel, game)
                    continue
                user = mover_of(msg, users)
                choice = first_choice(msg)
                n = len(inner)
                sql.active = True
                t0 = time.perf_counter()
                await press(user, msg, choice)
                outer.append(time.perf_counter() - t0)
                sql.active = False
                sql.presses += 1
                assert len(inner) == n + 1
            inner_presses = inner[-presses:]
            memory = None
            if tables == 1:
                memory = await per_table_memory(env, guild, alice, bob, game)
    return {
        "tables": tables,
        "presses": len(outer),
        "e2e_p50": statistics.median(outer) * 1000,
        "e2e_p99": pct(outer, 0.99) * 1000,
        "bot_p50": statistics.median(inner_presses) * 1000,
        "bot_p99": pct(inner_presses, 0.99) * 1000,
        "memory": memory,
        "sql_per_press": sql.per_press(),
        "hops_per_press": sql.hops / max(sql.presses, 1),
        "sql_breakdown": sql.breakdown(),
    }


def reachable_bytes(root: Any) -> int:
    """Bytes of the objects reachable from ``root`` (the bot), not counting
    modules, classes, functions, or SimCord's simulated Discord."""
    import types

    seen: set[int] = set()
    stack = [root]
    total = 0
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        if type(obj).__module__.startswith("simcord"):
            continue
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


async def per_table_memory(
    env: Any,
    guild: Any,
    alice: Any,
    bob: Any,
    game: str,
    count: int = 100,
    trace: bool = True,
    messages: list[Any] | None = None,
) -> dict[str, float]:
    """Two measures over ``count`` more started tables: everything tracemalloc
    sees (SimCord's simulated Discord keeps every message, picture and HTTP
    log entry, so this is an upper bound; skipped without ``trace``), and the
    bytes reachable from the bot object (what the bot process itself holds
    per table). The tables' messages are appended to ``messages``."""
    channels = [guild.create_text_channel(f"m{i}") for i in range(count)]
    gc.collect()
    reach_before = reachable_bytes(env.bot)
    if trace:
        tracemalloc.start(1)
        before = tracemalloc.take_snapshot()
    for channel in channels:
        msg = await open_started(alice, bob, channel, game)
        if messages is not None:
            messages.append((channel, msg))
    await env.settle()
    gc.collect()
    out = {"bot_kb": (reachable_bytes(env.bot) - reach_before) / count / 1024}
    if trace:
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        out["all_kb"] = (
            sum(s.size_diff for s in after.compare_to(before, "filename")) / count / 1024
        )
    return out


async def live(count: int, presses: int, game: str) -> dict[str, Any]:
    """``count`` live tables in one bot: memory per table at rest (reachable
    from the bot), then presses on tables picked at random among them."""
    import random

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        bot = create_bot(Store(db))
        async with running(bot) as env:
            guild = env.create_guild()
            alice = guild.add_member(env.create_user("alice"))
            bob = guild.add_member(env.create_user("bob"))
            seats: list[Any] = []
            t0 = time.perf_counter()
            memory = await per_table_memory(
                env, guild, alice, bob, game, count, trace=False, messages=seats
            )
            opened = time.perf_counter() - t0
            live_rows = len(await bot.tables.store.tables.live_tables())
            rng = random.Random(7)
            times: list[float] = []
            while len(times) < presses:
                channel, msg = seats[rng.randrange(len(seats))]
                if not table_controls(msg):
                    continue
                t1 = time.perf_counter()
                await press(mover_of(msg, [alice, bob]), msg, first_choice(msg))
                times.append(time.perf_counter() - t1)
            size = sum(f.stat().st_size for f in (db, db.with_name(db.name + "-wal")) if f.exists())
    return {
        "tables": count,
        "live_rows": live_rows,
        "open_s": opened,
        "bot_kb": memory["bot_kb"],
        "db_kb": size / count / 1024,
        "p50": statistics.median(times) * 1000,
        "p99": pct(times, 0.99) * 1000,
        "presses": len(times),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--game",
        nargs="+",
        default=["nine"],
        choices=("nine", "sixdice", "yahtzee"),
        help="one or more games, run one after the other (--live: the first)",
    )
    parser.add_argument(
        "--tables",
        nargs="+",
        type=int,
        default=[1, 100],
        help="live tables per run (default: 1 and 100)",
    )
    parser.add_argument("--presses", type=int, default=400)
    parser.add_argument(
        "--live", type=int, default=0, help="only: this many live tables (memory, presses)"
    )
    args = parser.parse_args()
    if args.live:
        game = args.game[0]
        r = asyncio.run(live(args.live, args.presses, game))
        print(
            f"{game}: {r['tables']} live tables ({r['live_rows']} rows live, opened in"
            f" {r['open_s']:.0f} s): {r['bot_kb']:.3f} KB per table reachable from the bot,"
            f" {r['db_kb']:.1f} KB per table in SQLite; {r['presses']} presses on random"
            f" tables end-to-end p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms"
        )
        return 0
    for game in args.game:
        for tables in args.tables:
            r = asyncio.run(run(tables, args.presses, game))
            print(
                f"{game}: {r['tables']:>3} live table(s), {r['presses']} presses: "
                f"end-to-end p50 {r['e2e_p50']:.1f} ms, p99 {r['e2e_p99']:.1f} ms; "
                f"inside the bot p50 {r['bot_p50']:.1f} ms, p99 {r['bot_p99']:.1f} ms"
            )
            print(
                f"{game}: {r['tables']:>3} live table(s): SQL statements per press"
                f" {r['sql_per_press']:.2f} (round trips to the database's thread"
                f" {r['hops_per_press']:.2f})"
            )
            for kind, mean in r["sql_breakdown"]:
                print(f"{game}:     {mean:6.2f}  {kind}")
            if r["memory"]:
                m = r["memory"]
                print(
                    f"{game}: memory per live table at rest: {m['bot_kb']:.2f} KB reachable from the bot; "
                    f"{m['all_kb']:.1f} KB in all (tracemalloc, SimCord's simulated Discord included)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
