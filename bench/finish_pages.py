"""Finishing a game, counted instead of timed (issue 35): the pages each
finishing transaction writes to SQLite's WAL, the statements it sends and
the CPU time it takes, for each checkout given, on the kept files
``bench/finish_ab.py`` filled (``--keep``: ``old-SIZE.db`` for the old
checkout, ``new-SIZE.db`` for this one). Pages and statements are counts,
the same on a busy machine, where the times of ``finish_ab.py`` drift by a
third.

    PYTHONPATH=$PWD python bench/finish_pages.py /tmp/old:/tmp/ab/old-1e+06.db \\
        .:/tmp/ab/new-1e+06.db --games 300

Each checkout runs in a process of its own (its code), on a fresh copy of
its file, automatic checkpoints off: the WAL's frames after ``--games``
rated 3-player games in a season (``data.finish_times``), per game, and
the process's CPU time per game (its threads' — steadier than the wall
time when other processes take the cores; it includes the game's rating).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


async def one(root: str, kept: str, size: int, games: int) -> None:
    sys.path.insert(0, str(Path(root) / "bench"))
    import data  # the checkout's own copy

    from bot.storage import Store, open_database

    work = kept + ".pages"
    shutil.copy(kept, work)
    store = Store(open_database(work))
    await store.open()
    try:
        conn = store.db._db  # type: ignore[attr-defined]
        await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        await conn.execute("PRAGMA wal_autocheckpoint = 0")
        page = (await (await conn.execute("PRAGMA page_size")).fetchone())[0]
        before = getattr(store.db, "statements", 0)
        cpu = time.process_time()
        await data.finish_times(store, data.History(size), games)
        cpu = time.process_time() - cpu
        sent = getattr(store.db, "statements", 0) - before
        frames = (os.path.getsize(work + "-wal") - 32) / (page + 24)
    finally:
        await store.close()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(work + suffix):
                os.remove(work + suffix)
    print(f"{frames / games:.2f} {sent / games:.2f} {cpu * 1000 / games:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="CHECKOUT:KEPT_FILE")
    parser.add_argument("--size", default="1e6")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    size = int(float(args.size))
    if args.one:
        asyncio.run(one(args.one[0], args.one[1], size, args.games))
        return 0
    for run in args.runs:
        root, kept = run.split(":", 1)
        root = str(Path(root).resolve())
        done = subprocess.run(
            [sys.executable, str(HERE / "bench" / "finish_pages.py"), "x", "--size", args.size,
             "--games", str(args.games), "--one", root, kept],
            env={**os.environ, "PYTHONPATH": root}, cwd=root, capture_output=True, text=True,
            check=True,
        )
        frames, sent, cpu = done.stdout.split()[-3:]
        print(
            f"{root}: {frames} WAL pages a game, {sent} statements a game (0: not counted),"
            f" {cpu} ms of CPU a game (the process's, both threads)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
