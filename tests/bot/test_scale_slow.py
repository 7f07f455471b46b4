"""Three real OS processes on one PostgreSQL; one is killed with SIGKILL in
the middle of its games and started again (issue 15's slow test).

Each process is ``bench/scale_worker.py`` (the benchmark's worker): a real
bot on the shared database, its own SimCord world — the same servers,
channels and users with the same ids in every process, as one Discord seen
by several shards — and clients pressing at once in the process's own
servers (tables of every game, people against people and computers), plus
idle tables with a six-second turn clock that fire while nobody plays.

Process 1 is killed right after one of its presses was acknowledged (so its
table message is ahead of what the database says is shown) and a new
process takes its servers over: a new SimCord world built the same way (the
same ids) finds its tables in the database; the bot's start-up repair draws
the tables that were behind, the others are put on the new world's screen
(its copy of Discord lost the old messages), and play goes on.

Then the database is checked: no acknowledged press missing from the
ledger, none doubled (each (table, version) once, every table's ledger
moves equal to its stored state's history or its result's record),
versions contiguous, each turn clock fired once, the killed process's
computers moving again after the restart.

    .venv/bin/python -m pytest -m multiprocess
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bot.storage import open_store

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import scale  # noqa: E402  (bench/scale.py)

PROCS = 3
CLOCK = 6  # seconds: the idle tables' turn clock
SETTINGS = {
    "procs": PROCS,
    "per_game": 1,  # a table of each game per process
    "clocks": 2,  # idle tables with a short clock per process
    "clock_seconds": CLOCK,
    "clients": 2,
    "warmup": 0.0,
    "duration": 0.0,  # until told to stop
    "cpu_delay": 0.3,  # computers think a little: a process may die mid-think
    "stream": True,  # acknowledged presses and clock fires as they happen
}

# not in the default run (pyproject's addopts: -m "not multiprocess"); not a
# "postgres" run either, so ``pytest -m postgres`` does not select it
pytestmark = [pytest.mark.slow, pytest.mark.multiprocess]


async def _rows(db: str) -> list:
    store = open_store(db)
    await store.open()
    try:
        return await store.tables.live_tables()
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_three_processes_one_killed_and_restarted(new_database):
    db = str(await new_database())
    store = open_store(db)  # migrated before the processes start
    await store.open()
    await store.close()
    settings = SETTINGS | {"db": db}
    with tempfile.TemporaryDirectory(prefix="chabudai-slow-") as tmp:
        logs = Path(tmp)
        workers = [await scale.spawn(settings, i, logs) for i in range(PROCS)]
        fresh = None
        try:
            started = await scale.start(workers, PROCS)
            assert all(s["tables"] == 5 for s in started)
            ids = workers[0].docs["ready"]["ids"]
            victim = workers[1]
            servers = {ids["p1"], ids["p1-clock"]}

            # play until every process has had presses acknowledged and
            # some clocks have fired
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and (
                min(len(w.acks) for w in workers) < 15 or sum(len(w.fired) for w in workers) < 3
            ):
                await asyncio.sleep(0.2)
            assert min(len(w.acks) for w in workers) >= 15, [len(w.acks) for w in workers]

            # kill process 1 right after a press of its was acknowledged
            seen = len(victim.acks)
            while len(victim.acks) == seen and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
            victim.kill()
            await victim.proc.wait()
            killed_at = time.time()
            at_kill = [r for r in await _rows(db) if r.guild_id in servers]
            with_cpus = {r.id for r in at_kill if r.phase == "playing"
                         and any(s.get("bot") for s in r.seats)}  # fmt: skip
            thinking = {r.id for r in at_kill if r.cpu_due is not None}  # a computer to move
            await asyncio.sleep(2.0)  # the others go on meanwhile

            # a new process takes over process 1's servers
            behind = {r.channel_id: r.version for r in await _rows(db)
                      if r.guild_id in servers and r.shown < r.version}  # fmt: skip
            fresh = await scale.spawn(settings | {"generation": 1, "adopt": True}, 1, logs)
            ready = await fresh.expect("ready", 180)
            assert ready["ids"] == ids  # the same world: its channels, its tables
            # drawn meanwhile by another process's repair sweep (or the new
            # bot's start-up repair): the database shows it at that version
            rows_now = {r.channel_id: r for r in await _rows(db)}
            caught_up = {c for c, v in behind.items()
                         if c in rows_now and rows_now[c].shown >= v}  # fmt: skip
            fresh.send("go")
            adopted = (await fresh.expect("started", 300))["adopted"]
            restarted_at = time.time()
            # what was behind was drawn by a bot, not by the test's resync
            drawn = set(adopted["drawn_by_bot"]) | set(adopted["gone"]) | caught_up
            assert set(behind) <= drawn, (behind, adopted)

            # play on, then stop everyone
            seen = len(fresh.acks)
            deadline = time.monotonic() + 60
            while len(fresh.acks) < seen + 15 and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            await asyncio.sleep(CLOCK)  # a clock of the restarted process's servers fires
            alive = [workers[0], workers[2], fresh]
            for w in alive:
                w.send("stop")
            reports = [await w.expect("done", 120) for w in alive]
            for w in alive:
                await asyncio.wait_for(w.proc.wait(), 60)
        finally:
            for w in [*workers, *([fresh] if fresh else [])]:
                w.kill()
                await w.proc.wait()
        logs_text = {w.log.name: w.log.read_text() for w in [*workers, fresh] if w}

    for name, text in logs_text.items():
        assert "Traceback" not in text, f"{name}:\n{text[-3000:]}"
    assert len(fresh.acks) > seen, "the restarted process played on"
    assert all(not r["errors"] for r in reports), [r["errors"] for r in reports]

    audit = await scale.audit(db, [*reports, victim.report()])
    assert audit["twice"] == 0  # no (table, version) twice
    assert audit["differ"] == 0, audit  # ledger moves == stored history / result record
    assert audit["gaps"] == 0, audit  # versions contiguous
    assert audit["lost"] == 0, audit  # every acknowledged press is in the ledger
    assert audit["fired_twice"] == 0, audit  # no deadline fired twice
    assert audit["processes"] >= PROCS + 1  # the restarted process wrote lines too

    store = open_store(db)
    await store.open()
    try:
        ledger = await store.tables.ledger()
    finally:
        await store.close()
    by_table: dict[int, list[dict]] = {}
    for line in ledger:
        by_table.setdefault(line["table_id"], []).append(line)
    # each turn clock fired once: two clock changes of a table in a row are
    # a whole clock apart (the deadline is set again at each change)
    fires = 0
    for lines in by_table.values():
        for prev, line in zip(lines, lines[1:], strict=False):
            if line["origin"] == "clock" and prev["origin"] == "clock":
                assert line["at"] - prev["at"] >= CLOCK - 0.5, (prev, line)
        fires += sum(line["origin"] == "clock" for line in lines)
    assert fires >= 3
    # the killed process's computers moved again after the restart
    resumed = {
        t
        for t in with_cpus
        if any(line["origin"] == "cpu" and line["at"] > restarted_at for line in by_table[t])
    }
    assert with_cpus and resumed, (with_cpus, killed_at, restarted_at)
    # a computer whose turn it was when its process died moved after all
    for t in thinking:
        assert any(line["origin"] == "cpu" and line["at"] > killed_at for line in by_table[t]), t
    print(f"killed mid-think: {len(thinking)} table(s); behind at the restart: {len(behind)};"
          f" computers resumed on {len(resumed)} of {len(with_cpus)}; clock fires {fires};"
          f" presses acknowledged {sum(len(w.acks) for w in [*workers, fresh])}")  # fmt: skip
