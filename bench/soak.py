"""The chaos soak (issue 24): whole games of every kind through SimCord with
faults injected at random from a seeded generator, invariants checked after
each game and at the end (the machinery: tests/bot/simsoak.py; the short
version in the default test run: tests/bot/test_soak.py).

    python bench/soak.py --games 1000 --seed 1
    python bench/soak.py --seed 1 --start 40 --games 5   # replay a session
    python bench/soak.py --games 1000 --seed 1 --jobs 2  # sessions in 2 processes
    python bench/soak.py --pg --procs 3 --games 300      # on PostgreSQL, its server failing

``--pg`` (issue 35): every session on its own schema of one throwaway
PostgreSQL server (tests/bot/pgcluster.py, durable: synchronous_commit on),
and the server's faults drawn too: restarted (``pg_ctl restart -m fast`` and
``-m immediate``), stopped for a press and a command, every backend
terminated; each time the bot must be back to work within 5 s of the
server's return (the seconds are printed). ``--procs N``: N processes play
their sessions at once on that one server (each server fault hits all of
them), the kill -9 games as before (another process finishes the game).

Prints games/s, the faults injected by kind, and every violation with the
command that plays its session again. Exit status 1 if there was any.

Every 50th game (``i % 50 == 49``) is a real kill -9: a child process
(``--child``) builds the game's world (the same ids in every process, as
bench/scale_worker.py does), plays the game with its faults and reports each
press; after a random number of presses it is killed with SIGKILL. Then a
new bot on the same database, in a world built the same way, finishes the
game (its start-up repair, or the table put on this world's screen as
scale_worker's ``resync`` does), and the game is checked like any other.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bot"))
sys.path.insert(0, str(ROOT / "bench"))

import simsoak as soak  # noqa: E402  (tests/bot/simsoak.py)

WORLD_AT = 7 * 86400.0  # SimCord seconds: when a kill -9 game's worlds are built
SESSION_SECONDS = 1200.0  # --jobs: a session's process that takes longer is killed
TRACEBACK = re.compile(r"Traceback|Ignoring exception|Task exception was never retrieved")


# ------------------------------------------------------------ kill -9


async def child(cfg: dict[str, Any]) -> None:
    """Play a kill -9 game until killed, one JSON line a press."""
    if cfg.get("server"):
        soak.SERVER = server_of(cfg["server"])
    p = soak.plan(cfg["seed"], cfg["index"], mix_of(parse(cfg["mix"].split())))
    db = cfg["db"] if "://" in cfg["db"] else Path(cfg["db"])
    async with soak.world(db, cfg["seed"], at=WORLD_AT, shift=1) as session:
        for name in cfg["closed"]:
            session.close_dms(name)
        session.game_index = p.index
        holder: dict[str, Any] = {}

        def pressed(n: int) -> None:
            run = holder.get("run")
            print(json.dumps({"press": n, "problems": run.problems if run else []}), flush=True)

        run = soak.GameRun(p, session.fixed)
        holder["run"] = run
        print(json.dumps({"channel": session.fixed.id}), flush=True)
        await soak.play_game(session, p, channel=session.fixed, on_press=pressed, run=run)
        print(json.dumps({"over": True, "problems": run.problems}), flush=True)
    # a game that ended before its kill: the parent checks it all the same


async def kill_game(
    p: soak.Plan, db: Path, tally: soak.Tally, mix: soak.Mix
) -> tuple[soak.GameRun, str]:
    """The child plays until its ``kill_after``-th press and dies by SIGKILL;
    a new bot in a world built the same way finishes the game."""
    closed = ["bob"] if p.index % 100 == 99 else []
    cfg = {"seed": p.seed, "index": p.index, "db": str(db), "closed": closed,
           "mix": mix.options(), "server": server_doc()}  # fmt: skip
    with tempfile.NamedTemporaryFile("w+", prefix="soak-child-", suffix=".log") as errlog:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(cfg),
            stdout=asyncio.subprocess.PIPE, stderr=errlog, cwd=str(ROOT),
        )  # fmt: skip
        assert proc.stdout is not None
        channel = None
        problems: list[str] = []
        killed = False
        while line := await proc.stdout.readline():
            doc = json.loads(line)
            if "channel" in doc:
                channel = doc["channel"]
            problems = doc.get("problems", problems)
            if doc.get("press", 0) >= (p.kill_after or 0):
                proc.kill()  # SIGKILL: dies at once, mid-whatever
                killed = True
                break
        await proc.wait()
        errlog.seek(0)
        child_log = errlog.read()
    if killed:
        tally.faults["kill9"] += 1
    rest = soak.Plan(p.seed, p.index, p.game, p.people, p.cpus, p.lang, p.locales, [], None, p.mix)
    with soak.capture_logs() as logs:
        async with soak.world(db, p.seed, at=WORLD_AT, shift=2) as session:
            for name in closed:
                session.close_dms(name)
            run = soak.GameRun(rest, session.fixed)
            for what in problems:
                run.problem(what)
            for text in child_log.splitlines():
                error = text.split(" ERROR ", 1)[1] if " ERROR " in text else None
                if TRACEBACK.search(text) or (
                    error is not None and not any(a.search(error) for a in soak.ACTIONABLE)
                ):
                    run.problem(f"the killed process logged: {text[:160]}")
                    break
            if channel != session.fixed.id:
                run.problem(f"the worlds differ: channel {channel} then {session.fixed.id}")
            async with soak.server_turn():  # (--procs: not while another process has the server away)
                row = await session.store.tables.table_in_channel(session.fixed.id)
                if row is None:
                    tables = await session.store.tables.ledger()
                    run.table_id = tables[-1]["table_id"] if tables else None
                else:
                    run.table_id = row.id
                    await adopt(session, row.id)
            if row is not None:
                await soak.play_game(session, rest, channel=session.fixed, table_id=row.id, run=run)
            async with soak.server_turn():
                ended = await soak.check_game(session, run, logs.records)
                for what in await soak.check_session(session):
                    run.problem(f"at the session's end, {what}")
            soak.record(tally, run, ended)
            run.faults["kill9"] += killed
    return run, ended


async def adopt(session: soak.Session, table_id: int) -> None:
    """This new world lacks the killed process's messages (Discord would
    still show them): unless the bot's start-up repair drew the table (it
    was behind), it is put on this world's screen (scale_worker.resync)."""
    import scale_worker

    if soak.newest_with_controls(session.env, session.fixed.id, table_id) is not None:
        return

    class Driver:
        env = session.env
        bot = session.bot

    await scale_worker.resync(Driver(), session.fixed.id)  # type: ignore[arg-type]
    await session.env.settle()


# ------------------------------------------------------------ PostgreSQL


def server_doc() -> str | None:
    """The --pg soak's server, for a child process (its data directory,
    options and URL: the child restarts the same server)."""
    s = soak.SERVER
    return None if s is None else json.dumps({"dir": str(s.dir), "url": s.url, "options": s.options})


def server_of(doc: str) -> Any:
    from pgcluster import Cluster

    d = json.loads(doc)
    server = Cluster(durable=True)
    server.dir, server.url, server.options = Path(d["dir"]), d["url"], d["options"]
    return server


def recovery(seconds: list[float]) -> str:
    if not seconds:
        return "the server's returns: none measured"
    s = sorted(seconds)
    return (f"back to work after the server's return ({len(s)} times): median {s[len(s) // 2]:.2f} s,"
            f" max {s[-1]:.2f} s")  # fmt: skip


# ------------------------------------------------------------ main


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games to play (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="the fault generator's seed")
    parser.add_argument("--start", type=int, default=0, help="the first game's number")
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes, each a share of the sessions"
    )
    parser.add_argument("--kinds", default="", help="only these faults (comma-separated)")
    parser.add_argument("--skip", default="", help="not these faults in these games (game:kind,…)")
    parser.add_argument(
        "--counts", default="", help="faults a game gets, one drawn (default 0,1,1,2,2,3,4)"
    )
    parser.add_argument("--verbose", action="store_true", help="a line per game")
    parser.add_argument("--log", help="append a JSON line per game to this file")
    parser.add_argument("--summary", help="print the figures of a --log file (a run cut short)")
    parser.add_argument(
        "--pg", action="store_true", help="on a throwaway PostgreSQL server, its faults drawn too"
    )
    parser.add_argument(
        "--procs", type=int, default=0, help="--pg: processes at once on the one server (--jobs)"
    )
    parser.add_argument("--pg-server", help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


async def run(args: argparse.Namespace) -> soak.Tally:
    mix = mix_of(args)

    def on_game(r: soak.GameRun, ended: str) -> None:
        if args.log:
            line = {"index": r.plan.index, "game": r.plan.game, "ended": ended,
                    "presses": r.presses, "faults": dict(r.faults), "problems": r.problems,
                    "reproduce": r.plan.reproduce, "seed": r.plan.seed, "at": time.time()}  # fmt: skip
            with open(args.log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
        if args.verbose:
            faults = ", ".join(f"{k} {n}" for k, n in sorted(r.faults.items())) or "no faults"
            print(f"game {r.plan.index} {r.plan.game}: {ended}, {r.presses} presses, {faults},"
                  f" {len(r.problems)} violations", flush=True)  # fmt: skip

    async def kill(p: soak.Plan, db: Path, tally: soak.Tally) -> None:
        on_game(*await kill_game(p, db, tally, mix))

    with tempfile.TemporaryDirectory(prefix="chabudai-soak-") as tmp:
        return await soak.soak(args.seed, args.start, args.games, mix=mix, workdir=Path(tmp),
                               on_game=on_game, kill=kill)  # fmt: skip


def mix_of(args: argparse.Namespace) -> soak.Mix:
    kinds = tuple(k for k in args.kinds.split(",") if k) or None
    skip = tuple(tuple(x.split(":", 1)) for x in args.skip.split(",") if x)
    counts = tuple(int(n) for n in args.counts.split(",") if n) or soak.Mix.counts
    return soak.Mix(kinds, skip, counts, pg=bool(getattr(args, "pg", False)))  # type: ignore[arg-type]


async def jobs(args: argparse.Namespace) -> soak.Tally:
    """The sessions shared out between ``--jobs`` processes (the same games,
    the same figures as one process)."""
    first = args.start - args.start % soak.SESSION
    end = args.start + args.games
    sessions = list(range(first, end, soak.SESSION))
    shares = [sessions[j :: args.jobs] for j in range(args.jobs)]
    t0 = time.perf_counter()

    async def one(share: list[int]) -> soak.Tally:
        tally = soak.Tally()
        for s in share:
            lo, hi = max(s, args.start), min(s + soak.SESSION, end)
            cmd = [sys.executable, str(Path(__file__).resolve()), "--seed", str(args.seed),
                   "--start", str(lo), "--games", str(hi - lo), "--json"]  # fmt: skip
            cmd += mix_of(args).options().split()
            if soak.SERVER is not None:
                cmd += ["--pg-server", server_doc() or ""]
            if args.log:
                cmd += ["--log", args.log]
            proc = await asyncio.create_subprocess_exec(
                *cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=str(ROOT)
            )
            try:
                out, err = await asyncio.wait_for(proc.communicate(), SESSION_SECONDS)
            except TimeoutError:  # a session that hangs: killed, said, the run goes on
                proc.kill()
                out, err = b"", f"no end after {SESSION_SECONDS:.0f} s".encode()
            try:
                doc = json.loads(out.decode().strip().splitlines()[-1])
            except (IndexError, ValueError):  # the session's process died: say so, go on
                tail = err.decode(errors="replace").strip().splitlines()[-3:]
                p = soak.plan(args.seed, lo, mix_of(args))
                what = f"the session's process ended ({proc.returncode}): {' | '.join(tail)[:300]}"
                tally.violations.append(soak.Violation(args.seed, lo, p.game, what, p.reproduce))
                continue
            part = soak.Tally(
                doc["games"], doc["finished"], doc["unrated"], doc["live"], doc["presses"]
            )
            part.faults.update(doc["faults"])
            soak.RECOVERIES.extend(doc.get("recoveries", []))
            part.violations = [soak.Violation(**v) for v in doc["violations"]]
            tally.add(part)
            if args.verbose:
                print(f"games {lo}-{hi - 1}: {len(part.violations)} violations", flush=True)
        return tally

    total = soak.Tally()
    for part in await asyncio.gather(*(one(s) for s in shares if s)):
        total.add(part)
    total.violations.sort(key=lambda v: v.index)
    total.seconds = time.perf_counter() - t0
    return total


def summary(path: Path) -> soak.Tally:
    """The figures of a ``--log`` file (games/s from its first to its last line)."""
    tally = soak.Tally()
    times = []
    for text in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(text)
        r = soak.GameRun(soak.plan(d["seed"], d["index"]), None, presses=d["presses"])
        r.faults.update(d["faults"])
        r.problems = d["problems"]
        soak.record(tally, r, d["ended"])
        for v in tally.violations[-len(r.problems) or len(tally.violations) :]:
            v.reproduce = d["reproduce"]
        times.append(d["at"])
    tally.violations.sort(key=lambda v: v.index)
    span = max(times) - min(times) if len(times) > 1 else 0.0
    tally.seconds = span * len(times) / max(len(times) - 1, 1)  # the first game's time too
    return tally


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")  # fmt: skip
    if args.child:
        asyncio.run(child(json.loads(args.child)))
        return 0
    if args.summary:
        print(summary(Path(args.summary)).report())
        return 0
    if args.procs:
        args.jobs = args.procs
        os.environ[soak.PROCS_ENV] = str(args.procs)  # (the children take turns with the server)
    started = None
    if args.pg_server:
        soak.SERVER = server_of(args.pg_server)
    elif args.pg:
        from pgcluster import Cluster, why_not

        if (reason := why_not()) is not None:
            print(f"--pg: {reason}", file=sys.stderr)
            return 2
        started = soak.SERVER = Cluster(durable=True)
        started.start()
    try:
        if args.jobs > 1:
            tally = asyncio.run(jobs(args))
        else:
            tally = asyncio.run(run(args))
    finally:
        if started is not None:
            started.stop()
    if args.json:
        print(json.dumps({
            "games": tally.games, "finished": tally.finished, "unrated": tally.unrated,
            "live": tally.live, "presses": tally.presses, "faults": dict(tally.faults),
            "violations": [vars(v) for v in tally.violations],
            "recoveries": soak.RECOVERIES,
        }))  # fmt: skip
        return 0
    print(f"python bench/soak.py --games {args.games} --seed {args.seed}"
          + (f" --start {args.start}" if args.start else "") + mix_of(args).options()
          + (f" --procs {args.procs}" if args.procs else f" --jobs {args.jobs}" if args.jobs > 1 else ""))  # fmt: skip
    print(tally.report())
    if args.pg:
        print(recovery(soak.RECOVERIES))
    return 1 if tally.violations else 0


if __name__ == "__main__":
    sys.exit(main())
