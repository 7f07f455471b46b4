"""Presses per second on one process + SQLite and on three processes + one
PostgreSQL, on this machine (issue 15's benchmark).

    python bench/scale.py [--config sqlite1 pg1 pg3] [--runs 3] [--duration 30]
                          [--clients 6] [--per-game 4] [--clocks 6] [--idle 5]
                          [--pg postgresql://…] [--rate R] [--against DIR]

The same workload in each configuration: ``--per-game`` live tables of
every game (Nine, Six Dice, Yahtzee, Bluff, Sixty-Six — people against
people or computers, pictures drawn at every press), ``--clients``
concurrent clients pressing the first legal control of the tables they
play (a finished game is opened again in its channel), after ``--warmup``
seconds for ``--duration`` seconds; plus ``--clocks`` idle tables on a
server with a short turn clock (``--clock-seconds``), whose clocks fire
while nobody plays.

These are totals, the same in every configuration: with several processes
each one carries its share (:func:`split`: as even as can be, the first
processes one more, so the totals match exactly — ``--per-game 4`` over
three processes is 2, 1 and 1 tables of each game), as a bot of three
shards carries the same servers as one process, split among them. (Before
issue 35 they were per process: three processes had three times the tables,
clocks and clients of one, and a press of pg3 paid for three times the
idle clocks.) Each run prints the totals the processes reported opening,
and the split.

``--idle S`` (5 s; 0: none): before the tables open, every process runs S
seconds with nothing to do — its sweeper, its timers, its pool, its
simulated Discord — and the run prints what one process costs a second
(CPU ms a second, the mean of the processes; the event loop's thread) and
the PostgreSQL server's CPU a second alongside, with the statements and
round trips a second: the price a process pays whatever its share of the
presses.

Every process is a real OS process (``bench/scale_worker.py``: a bot, its
own SimCord world, its own servers — as shards would be — all on the one
database). PostgreSQL is a throwaway cluster started here with the tests'
helper (``tests/bot/pgcluster.py``; durability off, as in the tests) unless
``--pg`` (or ``CHABUDAI_TEST_POSTGRES``) names a server; each run gets a
database of its own. SQLite is a file in a temporary directory.

Printed per configuration (the median of ``--runs`` runs, and each run):

- presses/s: acknowledged and refused presses of all processes, per second
  of the measured window;
- p50/p90/p99: a press from its dispatch to the return of the bot's handler
  (lock, load, apply, commit, the table message edited with its picture);
- SQL statements and round trips per press: everything the processes sent
  to the database in the window (computers' moves, the sweeper, bookkeeping
  included), divided by the presses; statements at the store's interface
  (PostgreSQL's table locks at the driver: a lock kept after use sends
  none), round trips at the driver (see ``scale_worker.Counts``);
- Discord requests per press: every request the processes sent to the
  (simulated) Discord in the window — interaction answers, message posts,
  edits and deletes, DMs — divided by the presses (``--verbose``: by kind);
- clock fire lag p50/p99: from a turn clock's deadline to its commit
  (``service.clock()`` at the commit of the ``clock``-origin change; the
  same moment as the ledger line's ``at``), wall time;
- doubles: from the moves ledger — a (table, version) twice (the primary key
  forbids it), a table whose ledger's moves differ from its stored state's
  history or its result's record, a deadline fired twice; must be 0. Also
  lost (an acknowledged press with no ledger line) and gaps (a version with
  no ledger line);
- CPU ms per press (the processes' own CPU time, and PostgreSQL's server
  processes' when it runs here), the part of it on the event loop's thread
  (what one process cannot spread over cores) and how busy that thread was
  (100 %: the process can go no faster), the part spent drawing pictures
  (table, hand and result pictures, on whatever thread draws them: the
  event loop's for a cheap kind, else a worker thread) with the pictures
  drawn a press and each kind's CPU ms a picture, and the largest process
  RSS (``--verbose``: what each cache of the first process holds at its
  end, against its bound: :mod:`bot.caches`, and its RSS then by kind —
  anonymous, file-backed — and whether it imported numpy);
- where a press waits: from its dispatch to the start of the bot's handler,
  and (PostgreSQL) to take the table's advisory lock.

The machine's load average is printed with each run: the cores are shared.

``--rate R`` offers a fixed load: the clients of all processes press at R
presses/s in all (each at most once every ``clients / R`` seconds),
so latencies compare at the same load whatever the code's speed.

``--against DIR`` runs the same workload, this harness, on the bot's code of
another checkout too (``git worktree add DIR <commit>``; the workers put DIR
first on their path): each run is the other checkout's, then this one's
(A B A B …, so both see the same load on a shared machine), and the medians
are printed side by side with their ratios (this / other).

``--profile PATH`` profiles each process's measured window (cProfile of
the main thread's CPU time, to ``PATH.<config>.<run>.prof.w<process>``) and
prints the main thread's busy time by part: the simulated Discord (SimCord
runs in the bot's process), discord.py, the bot, the games, the database
driver, the event loop. Profiling slows a process ~8× (the thread's clock
read at every call); read the parts, not the rate.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bot"))

from pgcluster import SERVER_ENV, Cluster, why_not, with_database  # noqa: E402

from bot.storage import open_store  # noqa: E402
from bot.tables.service import ledger_moves  # noqa: E402

WORKER = Path(__file__).resolve().with_name("scale_worker.py")
REMOVED = {"cancelled", "expired", "abandoned"}


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


# ------------------------------------------------------------- processes


class Worker:
    """One ``scale_worker.py`` process, its lines read as they come: the
    presses it saw acknowledged and the clocks it fired (``stream``), and
    its ``ready`` / ``started`` / ``done`` reports."""

    def __init__(self, proc: asyncio.subprocess.Process, index: int, log: Path) -> None:
        self.proc = proc
        self.index = index
        self.log = log
        self.docs: dict[str, dict[str, Any]] = {}
        self.acks: list[list[Any]] = []
        self.fired: list[list[Any]] = []
        self._events: dict[str, asyncio.Event] = defaultdict(asyncio.Event)
        self.ended = asyncio.Event()
        self._pump = asyncio.create_task(self.pump())

    async def pump(self) -> None:
        assert self.proc.stdout is not None
        try:
            while line := await self.proc.stdout.readline():
                doc = json.loads(line)
                if "ack" in doc:
                    self.acks.append(doc["ack"])
                elif "fired" in doc:
                    self.fired.append(doc["fired"])
                else:
                    for key, value in doc.items():
                        self.docs[key] = value
                        self._events[key].set()
        finally:
            self.ended.set()

    async def expect(self, key: str, timeout: float) -> dict[str, Any]:
        got = asyncio.create_task(self._events[key].wait())
        ended = asyncio.create_task(self.ended.wait())
        try:
            await asyncio.wait([got, ended], timeout=timeout, return_when="FIRST_COMPLETED")
        finally:
            got.cancel()
            ended.cancel()
        if key in self.docs:
            return self.docs[key]
        tail = self.log.read_text()[-3000:] if self.log.exists() else ""
        why = "ended" if self.ended.is_set() else f"said nothing in {timeout:.0f} s"
        raise RuntimeError(f"worker {self.index} {why} before {key!r}:\n{tail}")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())

    def kill(self) -> None:
        """SIGKILL: the process dies at once, mid-whatever."""
        if self.proc.returncode is None:
            self.proc.kill()

    def report(self) -> dict[str, Any]:
        """Its ``done`` report, or (killed) what it said before it died."""
        return self.docs.get("done") or {"acked": self.acks, "fired": self.fired}


async def spawn(settings: dict[str, Any], index: int, logs: Path) -> Worker:
    log = logs / f"worker-{index}-{settings.get('generation', 0)}.log"
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(WORKER),
        json.dumps(settings | {"index": index}),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=log.open("w"),
        cwd=str(ROOT),
        limit=2**26,
    )
    return Worker(proc, index, log)


async def start(workers: list[Worker], procs: int) -> list[dict[str, Any]]:
    """Wait until every worker is ready (the same world everywhere), say go,
    and wait until each has opened its tables."""
    ready = [await w.expect("ready", 180) for w in workers]
    check_ids(ready, procs)
    for w in workers:
        w.send("go")
    return [await w.expect("started", 300) for w in workers]


def check_ids(ready: list[dict[str, Any]], procs: int) -> int:
    """Every process built the same world (the same id for every name) and
    no two names share an id: a channel is one channel in every process,
    two processes' channels never the same. Returns the number of ids."""
    first = ready[0]["ids"]
    for other in ready[1:]:
        assert other["ids"] == first, "the processes' worlds differ"
    ids = list(first.values())
    assert len(set(ids)) == len(ids), "two objects share an id"
    return len(ids)


def server_cpu(cluster: Cluster | None) -> float:
    """CPU seconds of the throwaway cluster's server processes (0 without one)."""
    if cluster is None or cluster.dir is None:
        return 0.0
    pidfile = cluster.dir / "data" / "postmaster.pid"
    try:
        master = int(pidfile.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == master or ppid == master:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


# ------------------------------------------------------------- the ledger


async def audit(
    db: str | Path, done: list[dict[str, Any]], *, generations: int = 1
) -> dict[str, Any]:
    """What the database says after the run: doubles, losses, gaps, clocks."""
    store = open_store(db)
    await store.open()
    try:
        ledger = await store.tables.ledger()
        live = {row.id: row for row in await store.tables.live_tables()}
        results = [await store.results.get_result(r["id"]) for r in await store.results.all()]
    finally:
        await store.close()
    by_table: dict[int, list[dict[str, Any]]] = defaultdict(list)
    seen: Counter[tuple[int, int]] = Counter()
    for line in ledger:
        by_table[line["table_id"]].append(line)
        seen[line["table_id"], line["version"]] += 1
    twice = sum(n - 1 for n in seen.values() if n > 1)
    gaps = 0
    for lines in by_table.values():
        versions = [line["version"] for line in lines]
        gaps += len(set(range(1, max(versions) + 1)) - set(versions))
    # the ledger's moves against each stored state's history and each result's record
    differ = []
    for table_id, row in live.items():
        if row.state is not None and ledger_moves(by_table[table_id]) != row.state["history"]["moves"]:
            differ.append(table_id)
    for result in results:
        assert result is not None
        if ledger_moves(by_table[result["table_id"]]) != result["record"]["moves"]:
            differ.append(result["table_id"])
    # every acknowledged press is a ledger line of its table's next version
    at = {(line["table_id"], line["version"]): line for line in ledger}
    lost = 0
    for d in done:
        for table_id, version, _actor in d["acked"]:
            line = at.get((table_id, version + 1))
            if line is None or line["origin"] != "press":
                lost += 1
    # every deadline fired once (by whichever process)
    fires: Counter[tuple[int, float]] = Counter()
    for d in done:
        for table_id, deadline, _when in d["fired"]:
            fires[table_id, round(deadline, 6)] += 1
    fired_twice = sum(n - 1 for n in fires.values() if n > 1)
    clock_lines = sum(1 for line in ledger if line["origin"] == "clock")
    processes = {line["process"] for line in ledger}
    return {
        "ledger_lines": len(ledger),
        "tables": len(by_table),
        "finished": len(results),
        "live": len(live),
        "twice": twice,
        "differ": len(differ),
        "differ_ids": differ[:10],
        "fired_twice": fired_twice,
        "doubles": twice + len(differ) + fired_twice,
        "lost": lost,
        "gaps": gaps,
        "clock_lines": clock_lines,
        "fires": sum(fires.values()),
        "processes": len(processes),
        "behind": sorted(row.id for row in live.values() if row.shown < row.version),
    }


# ------------------------------------------------------------- one run


async def run_once(
    config: str,
    args: argparse.Namespace,
    cluster: Cluster | None,
    server: str,
    n: int,
    code: str = "",
) -> dict[str, Any]:
    procs = args.procs if config == "pg3" else 1  # sqlite1, pg1: one process
    with tempfile.TemporaryDirectory(prefix="chabudai-scale-") as tmp:
        logs = Path(tmp)
        if config == "sqlite1":
            db: str | Path = str(logs / "bench.sqlite3")
        else:
            name = f"chabudai_scale_{os.getpid()}_{n}{'_a' if code else ''}"
            await admin(server, f'CREATE DATABASE "{name}"')
            db = with_database(server, name)
        store = open_store(db)  # migrated once, before the processes start
        await store.open()
        await store.close()
        settings = {
            "db": str(db),
            "procs": procs,
            # the same totals in every configuration, split among its processes
            "per_game": split(args.per_game, procs),
            "clocks": split(args.clocks, procs),
            "clock_seconds": args.clock_seconds,
            "clients": split(args.clients, procs),
            "warmup": args.warmup,
            "duration": args.duration,
            "cpu_delay": 0.0,
            "rate": args.rate,
            "code": code,
        }
        if args.profile:
            side = ".against" if code else ""
            settings["profile"] = str(Path(args.profile).with_suffix(f".{config}{side}.{n}.prof"))
        workers = [await spawn(settings, i, logs) for i in range(procs)]
        try:
            ready = [await w.expect("ready", 180) for w in workers]
            ids = check_ids(ready, procs)
            want = str(Path(code).resolve() if code else ROOT)
            assert all(r["code"] == want for r in ready), (want, [r["code"] for r in ready])
            idle = await idle_window(workers, args.idle, cluster if config != "sqlite1" else None)
            if not idle:  # (the idle window ends with the go)
                for w in workers:
                    w.send("go")
            started = [await w.expect("started", 300) for w in workers]
            # the server's CPU over (about) the workers' measured window: its
            # backends end with the workers, so it is read while they run
            await asyncio.sleep(args.warmup)
            pg = cluster if config != "sqlite1" else None  # SQLite: no server to count
            cpu0 = server_cpu(pg)
            load0 = os.getloadavg()[0]
            await asyncio.sleep(max(args.duration - 0.5, 0.0))
            cpu1 = server_cpu(pg)
            load1 = os.getloadavg()[0]
            timeout = args.warmup + args.duration + 300
            done = [await w.expect("done", timeout) for w in workers]
            for w in workers:
                await asyncio.wait_for(w.proc.wait(), 60)
            errors: Counter[str] = Counter()
            for w in workers:
                text = w.log.read_text()
                errors.update(
                    line.split(" ", 3)[-1][:100]
                    for line in text.splitlines()
                    if " ERROR " in line or "Traceback" in line
                )
        finally:
            for w in workers:
                w.kill()
                await w.proc.wait()
        report = await audit(db, done)
        if config != "sqlite1":
            await admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    latencies = [x for d in done for x in d["latencies"]]
    presses = len(latencies)
    window = max(d["elapsed"] for d in done)
    lags = [when - deadline for d in done for _t, deadline, when in d["fired"]]
    cpu = sum(d["cpu_s_window"] for d in done)
    main_cpu = sum(d["main_cpu_s_window"] for d in done)
    return {
        "config": config,
        "code": code or str(ROOT),
        "procs": procs,
        "totals": {  # the workload of all processes (the same in every configuration)
            # as the processes opened them (counted there, not computed here)
            "tables": sum(d["tables"] for d in started),
            "clock_tables": sum(d["clock_tables"] for d in started),
            "per_game": args.per_game,
            "clocks": args.clocks, "clients": sum(d.get("clients", 0) for d in started),
            "split": {"per_game": split(args.per_game, procs),
                      "clocks": split(args.clocks, procs),
                      "clients": split(args.clients, procs)},
        },  # fmt: skip
        "idle": idle,
        "idle_cpu_ms_s": idle.get("cpu_ms_s", float("nan")),
        "idle_server_ms_s": idle.get("server_ms_s", float("nan")),
        "ids": ids,
        "presses": presses,
        "rate": presses / window,
        "p50": pct(latencies, 0.5) * 1000,
        "p90": pct(latencies, 0.9) * 1000,
        "p99": pct(latencies, 0.99) * 1000,
        "refused": sum(sum(d["refused"].values()) for d in done),
        "client_errors": sum(sum(d["errors"].values()) for d in done),
        "statements": sum(d["statements"] for d in done) / max(presses, 1),
        "round_trips": sum(d["round_trips"] for d in done) / max(presses, 1),
        "statement_kinds": {  # per press, by the statement's first words (--verbose)
            kind: n / max(presses, 1)
            for kind, n in sum((Counter(d.get("kinds", {})) for d in done), Counter()).most_common()
        },
        "requests": sum(sum(d.get("requests", {}).values()) for d in done) / max(presses, 1),
        "request_kinds": {  # per press, by method and path (--verbose)
            kind: n / max(presses, 1)
            for kind, n in sum((Counter(d.get("requests", {})) for d in done), Counter()).most_common()
        },
        "lag_n": len(lags),
        "lag_p50": pct(lags, 0.5) * 1000,
        "lag_p99": pct(lags, 0.99) * 1000,
        "cpu_ms": cpu / max(presses, 1) * 1000,
        "main_cpu_ms": main_cpu / max(presses, 1) * 1000,
        "sweeper_ms": sum(d.get("sweeps_window", [0, 0.0])[1] for d in done)
        / max(presses, 1) * 1000,  # the turn-clock sweeps' CPU a press (all processes)
        "sweeps": sum(d.get("sweeps_window", [0, 0.0])[0] for d in done),
        "pictures": sum(d["pictures"] for d in done) / max(presses, 1),
        "picture_kinds": {
            kind: sum(d.get("picture_kinds", {}).get(kind, 0) for d in done) / max(presses, 1)
            for kind in ("table", "hand", "result")
        },
        "picture_ms": sum(d["picture_cpu_s"] for d in done) / max(presses, 1) * 1000,
        "picture_kind_ms": {  # CPU ms a picture of each kind
            kind: 1000 * sum(d.get("picture_kind_cpu_s", {}).get(kind, 0) for d in done)
            / max(1, sum(d.get("picture_kinds", {}).get(kind, 0) for d in done))
            for kind in ("table", "hand", "result")
        },
        "main_busy": max(d["main_cpu_s_window"] / window for d in done),
        "queue_p50": pct([x for d in done for x in d["queued"]], 0.5) * 1000,
        "lock_p50": pct([x for d in done for x in d["lock_waits"]], 0.5) * 1000,
        "lock_p99": pct([x for d in done for x in d["lock_waits"]], 0.99) * 1000,
        "server_cpu_ms": (cpu1 - cpu0) / max(presses, 1) * 1000,
        "total_cpu_ms": (cpu + cpu1 - cpu0) / max(presses, 1) * 1000,
        "rss_mb": max(d["rss_kb"] for d in done) / 1024,
        "caches": done[0].get("caches", {}),  # the first process's, at its end
        "memory": done[0].get("memory", {}),  # … and its RSS at its end by kind, its modules
        "load": (load0 + load1) / 2,
        "bot_errors": dict(errors.most_common(5)),
        "audit": report,
    }


def split(total: int, procs: int) -> list[int]:
    """``total`` among ``procs`` processes, as even as can be, the first ones
    one more: the totals match exactly (a bot of three shards carries the
    same servers as one process, split among them)."""
    return [total // procs + (1 if i < total % procs else 0) for i in range(procs)]


async def idle_window(workers: list[Worker], seconds: float, cluster: Cluster | None) -> dict[str, Any]:
    """``seconds`` with every process started and nothing to do (no table,
    no press: its sweeper, its timers, its pool, its SimCord): what one
    process costs a second, and the server (PostgreSQL) alongside. Ends
    with the ``go`` (the tables open)."""
    if seconds <= 0:
        return {}
    for w in workers:
        w.send("idle")
    cpu0 = server_cpu(cluster)
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    cpu1 = server_cpu(cluster)
    elapsed = time.perf_counter() - t0
    for w in workers:
        w.send("go")
    idled = [await w.expect("idled", 60) for w in workers]
    per = [d["cpu_s"] / d["elapsed"] * 1000 for d in idled]
    return {
        "cpu_ms_s": statistics.mean(per),  # a process's CPU ms a second, the mean of them
        "each_ms_s": per,
        "main_ms_s": statistics.mean(d["main_cpu_s"] / d["elapsed"] * 1000 for d in idled),
        "sweeper_ms_s": statistics.mean(d["sweep_cpu_s"] / d["elapsed"] * 1000 for d in idled),
        "sweeps_s": statistics.mean(d["sweeps"] / d["elapsed"] for d in idled),
        "server_ms_s": (cpu1 - cpu0) / elapsed * 1000,
        "statements_s": sum(d["statements"] for d in idled) / elapsed,
        "round_trips_s": sum(d["round_trips"] for d in idled) / elapsed,
        "kinds": dict(sum((Counter(d["kinds"]) for d in idled), Counter()).most_common(10)),
    }


async def admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def line(r: dict[str, Any]) -> str:
    a = r["audit"]
    return (
        f"{r['config']:>7}: {r['rate']:6.1f} presses/s ({r['presses']} in the window,"
        f" {r['refused']} refused), p50 {r['p50']:5.0f} ms, p90 {r['p90']:5.0f} ms,"
        f" p99 {r['p99']:5.0f} ms; SQL {r['statements']:.1f} statements,"
        f" {r['round_trips']:.1f} round trips per press; Discord requests"
        f" {r.get('requests', 0):.2f} a press; clock lag p50 {r['lag_p50']:.0f} ms,"
        f" p99 {r['lag_p99']:.0f} ms (n={r['lag_n']}); doubles {a['doubles']}, lost {a['lost']},"
        f" gaps {a['gaps']}; CPU {r['cpu_ms']:.1f} ms/press (event loop's thread"
        f" {r['main_cpu_ms']:.1f}, busy {100 * r['main_busy']:.0f} % of the window at most;"
        f" the sweeper {r['sweeper_ms']:.2f} in {r['sweeps']} sweeps;"
        f" pictures {r['picture_ms']:.1f}: {r['pictures']:.2f} a press — "
        + ", ".join(
            f"{k} {v:.2f} ({r['picture_kind_ms'].get(k, 0):.1f} ms)"
            for k, v in r["picture_kinds"].items()
        )
        + ")"
        + (f" + server {r['server_cpu_ms']:.1f}" if r["server_cpu_ms"] else "")
        + f"; RSS max {r['rss_mb']:.0f} MB; load {r['load']:.1f}"
        + workload(r)
        + idle_said(r.get("idle") or {})
        + f"; dispatch→handler p50 {r['queue_p50']:.1f} ms"
        + (
            f"; table lock wait p50 {r['lock_p50']:.1f} ms, p99 {r['lock_p99']:.0f} ms"
            if r["lock_p50"] == r["lock_p50"]  # not NaN: PostgreSQL's table locks
            else ""
        )
    )


def workload(r: dict[str, Any]) -> str:
    """The totals the processes carried (the same in every configuration)."""
    w = r["totals"]
    return (
        f"; workload in all: {w['tables']} tables ({w['per_game']} of each game),"
        f" {w['clock_tables']} idle clock tables, {w['clients']} clients"
        + (f" — per process {w['split']}" if r["procs"] > 1 else "")
    )


def idle_said(idle: dict[str, Any]) -> str:
    if not idle:
        return ""
    return (
        f"; idle: {idle['cpu_ms_s']:.1f} CPU ms a second a process"
        f" (event loop's thread {idle['main_ms_s']:.1f}; its sweeper {idle['sweeper_ms_s']:.2f}"
        f" in {idle['sweeps_s']:.1f} sweeps a second)"
        + (f" + server {idle['server_ms_s']:.1f} ms/s" if idle["server_ms_s"] else "")
        + f", {idle['statements_s']:.1f} statements/s, {idle['round_trips_s']:.1f} round trips/s"
    )


PARTS = (  # where a profiled process spends its main thread, by file path
    ("simulated Discord (SimCord)", ("/simcord/", "/copy.py")),
    ("discord.py", ("/discord/",)),
    ("bot", ("/bot/",)),
    ("games", ("/games/",)),
    ("database driver", ("/aiosqlite/", "/asyncpg/", "sqlite3")),
    ("json", ("/json/",)),
    ("bench clients", ("/bench/",)),
    ("event loop", ("/asyncio/", "selectors.py", "recv", "_contextvars", "socket")),
)


def profile_parts(path: str) -> str:
    """The main thread's busy time in a ``--profile`` file, by part (own
    time of each function; a built-in or standard-library function's time
    goes to the part that called it; waiting in ``epoll`` is left out): how
    much of a press is the simulated Discord the bench runs in the process."""
    import pstats

    def part_of(key: tuple[str, int, str]) -> str | None:
        where = f"{key[0]}:{key[2]}"
        return next((p for p, keys in PARTS if any(k in where for k in keys)), None)

    stats = pstats.Stats(path).stats  # type: ignore[attr-defined]
    parts: Counter[str] = Counter()
    for key, (_cc, _nc, own, _cum, callers) in stats.items():
        if "poll' of 'select.epoll" in key[2]:
            continue
        part = part_of(key)
        if part is not None:
            parts[part] += own
            continue
        edges = {caller: edge[2] for caller, edge in callers.items()}  # own time per caller
        total = sum(edges.values())
        for caller, t in edges.items():
            parts[part_of(caller) or "other"] += own * t / total if total else 0.0
        if not total:
            parts["other"] += own
    busy = sum(parts.values()) or 1.0
    return ", ".join(f"{p} {100 * v / busy:.0f} %" for p, v in parts.most_common())


KEYS = ("rate", "p50", "p90", "p99", "statements", "round_trips", "requests", "lag_p50", "lag_p99",
        "cpu_ms", "main_cpu_ms", "picture_ms", "pictures", "server_cpu_ms", "total_cpu_ms",
        "rss_mb", "load", "idle_cpu_ms_s", "idle_server_ms_s")  # fmt: skip
COMPARED = (  # (key, label): the figures --against compares, this / other
    ("cpu_ms", "CPU ms/press"),
    ("picture_ms", "pictures' CPU ms/press"),
    ("pictures", "pictures a press"),
    ("main_cpu_ms", "event loop's thread ms/press"),
    ("total_cpu_ms", "CPU ms/press with the server"),
    ("p50", "p50 ms"),
    ("p99", "p99 ms"),
    ("rate", "presses/s"),
    ("statements", "statements/press"),
    ("requests", "Discord requests/press"),
)


def medians_of(rs: list[dict[str, Any]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in rs) for k in KEYS}


def median_line(label: str, rs: list[dict[str, Any]]) -> str:
    med = medians_of(rs)
    doubles = sum(r["audit"]["doubles"] for r in rs)
    lost = sum(r["audit"]["lost"] for r in rs)
    gaps = sum(r["audit"]["gaps"] for r in rs)
    return (
        f"median of {len(rs)}: {label}: {med['rate']:.1f} presses/s, p50 {med['p50']:.0f} ms,"
        f" p90 {med['p90']:.0f} ms, p99 {med['p99']:.0f} ms; {med['statements']:.1f} statements,"
        f" {med['round_trips']:.1f} round trips, {med['requests']:.2f} Discord requests per press;"
        f" clock lag p50"
        f" {med['lag_p50']:.0f} ms, p99 {med['lag_p99']:.0f} ms; doubles {doubles}, lost {lost},"
        f" gaps {gaps} (all runs); CPU {med['cpu_ms']:.1f} ms/press"
        + (f" + server {med['server_cpu_ms']:.1f}" if med["server_cpu_ms"] else "")
        + f" (event loop's thread {med['main_cpu_ms']:.1f}; pictures {med['picture_ms']:.1f}:"
        f" {med['pictures']:.2f} a press); RSS max {med['rss_mb']:.0f} MB; load {med['load']:.1f}"
        + f"; idle a process {med['idle_cpu_ms_s']:.1f} CPU ms/s"
        + (f" + server {med['idle_server_ms_s']:.1f} ms/s" if med["idle_server_ms_s"] else "")
        + workload(rs[0])
    )


async def main_async(args: argparse.Namespace) -> int:
    cluster = None
    server = args.pg or os.environ.get(SERVER_ENV, "")
    if any(c != "sqlite1" for c in args.config) and not server:
        reason = why_not()
        if reason is not None:
            print(f"no PostgreSQL: {reason}")
            return 2
        cluster = Cluster()
        server = cluster.start()
    sides = ([args.against] if args.against else []) + [""]  # the other checkout first
    runs: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    try:
        for n in range(args.runs):
            for config in args.config:
                for code in sides:
                    r = await run_once(config, args, cluster, server, n, code)
                    runs[config, code].append(r)
                    who = f" [{Path(code).name}]" if code else (" [this]" if args.against else "")
                    print(f"run {n + 1}{who}: " + line(r), flush=True)
                    if args.profile:
                        side = ".against" if code else ""
                        for prof in sorted(Path(args.profile).parent.glob(
                                Path(args.profile).with_suffix(f".{config}{side}.{n}.prof").name
                                + "*")):  # fmt: skip
                            print(f"  main thread of {prof.name}: {profile_parts(str(prof))}")
                    if args.verbose:
                        print(json.dumps({k: v for k, v in r.items()}, indent=1, default=str))
    finally:
        if cluster is not None:
            cluster.stop()
    print()
    medians: dict[tuple[str, str], dict[str, float]] = {}
    for (config, code), rs in runs.items():
        medians[config, code] = medians_of(rs)
        label = f"{config:>7}" + (f" [{Path(code).name}]" if code else "")
        print(median_line(label, rs))
    if args.rate:
        print(f"offered load: {args.rate:g} presses/s in all")
    if args.against:
        print(f"\nthis checkout / {args.against} (medians of {args.runs} alternating runs):")
        for config in args.config:
            new, old = medians[config, ""], medians[config, args.against]
            parts = []
            for key, label in COMPARED:
                if key in ("server_cpu_ms", "total_cpu_ms") and not new["server_cpu_ms"]:
                    continue
                if old[key]:
                    parts.append(f"{label} {new[key]:.2f} / {old[key]:.2f} = {new[key] / old[key]:.2f}×")
            print(f"  {config}: " + "; ".join(parts))
    for code in sides:
        who = Path(code).name if code else "this"
        # pg3 / sqlite1 = (pg1 / sqlite1: the database) × (pg3 / pg1: several
        # processes on one machine — their coordination and their sharing
        # of its cores)
        for a, b, target in (("pg3", "sqlite1", " (target ≤ 1.2×)"), ("pg1", "sqlite1", ""),
                             ("pg3", "pg1", "")):  # fmt: skip
            if (a, code) in medians and (b, code) in medians:
                top, bottom = medians[a, code], medians[b, code]
                if not (bottom["total_cpu_ms"] and bottom["picture_ms"] and top["picture_ms"]
                        and bottom["rate"]):  # fmt: skip
                    print(f"{who}: {a} / {b}: no presses to compare")
                    continue
                print(
                    f"{who}: {a} CPU per press with the server {top['total_cpu_ms']:.1f} ms"
                    f" / {b} {bottom['total_cpu_ms']:.1f} ms ="
                    f" {top['total_cpu_ms'] / bottom['total_cpu_ms']:.2f}×{target};"
                    f" pictures' CPU {top['picture_ms'] / bottom['picture_ms']:.2f}×"
                    f" (the same pictures: the machine's contention), the ratio over it"
                    f" {top['total_cpu_ms'] / bottom['total_cpu_ms'] / (top['picture_ms'] / bottom['picture_ms']):.2f}×;"
                    f" {a} / {b} presses/s {top['rate'] / bottom['rate']:.2f}×"
                )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--config", nargs="+", default=["sqlite1", "pg3"],
                        choices=("sqlite1", "pg1", "pg3"))  # fmt: skip
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--procs", type=int, default=3, help="processes of pg3")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=6,
                        help="concurrent clients in all (split among the processes)")  # fmt: skip
    parser.add_argument("--per-game", type=int, default=4,
                        help="tables of each game in all (split among the processes)")  # fmt: skip
    parser.add_argument("--clocks", type=int, default=6,
                        help="idle tables with a short turn clock in all (split)")  # fmt: skip
    parser.add_argument("--idle", type=float, default=5.0,
                        help="seconds of an idle window before the tables open (0: none)")  # fmt: skip
    parser.add_argument("--clock-seconds", type=int, default=10)
    parser.add_argument("--pg", default="", help="a PostgreSQL server's URL (else a throwaway one)")
    parser.add_argument("--profile", default="", help="cProfile each process's window to PATH.*")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="presses/s offered by all clients together (0: as fast as they can)")
    parser.add_argument("--against", default="",
                        help="another checkout's bot code, run alternately with this one")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    t0 = time.time()
    code = asyncio.run(main_async(args))
    print(f"({time.time() - t0:.0f} s)")
    return code


if __name__ == "__main__":
    sys.exit(main())
