"""Finishing a game, old code against this checkout, alternately on the
same history (issue 35): each checkout's SQLite file is filled once with
``bench/data.py``'s history (at schema 9, migrated by that checkout's code)
and kept; each run copies it afresh and finishes ``--games`` rated
3-player games in a season (``data.finish_times``), in a process of its
own; the checkouts take turns for ``--rounds``. Prints each run's p50 and
the medians' ratio.

    PYTHONPATH=$PWD python bench/finish_ab.py /tmp/old --size 1e6 --games 600 --rounds 4

``/tmp/old``: a checkout of the old code (``git archive REV | tar -x -C
/tmp/old``); this ``bench/data.py`` is copied into it when it has none.
The kept files go to ``--keep`` (default /tmp/chabudai-finish-ab).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


async def one(root: str, kept: str, size: int, games: int) -> None:
    """In the checkout's own process: fill ``kept`` once, then time."""
    sys.path.insert(0, str(Path(root) / "bench"))
    import data  # this checkout's copy (it puts its checkout first on sys.path)

    from bot.storage import Store, open_database

    h = data.History(size)
    if not os.path.exists(kept):
        db = open_database(kept + ".part")
        everything = db.migrations
        db.migrations = everything[: data.FILLED_AT]
        store = Store(db)
        await store.open()
        await data.fill(store, h)
        await store.migrate(everything)
        await store.close()
        os.replace(kept + ".part", kept)
    work = kept + ".work"
    shutil.copy(kept, work)
    store = Store(open_database(work))
    await store.open()
    try:
        ms = await data.finish_times(store, data.History(size), games)
    finally:
        await store.close()
        os.remove(work)
    print(f"{statistics.median(ms):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="a checkout of the old code")
    parser.add_argument("--size", default="1e6", help="player results in the history")
    parser.add_argument("--games", type=int, default=600, help="games finished a run")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--keep", default="/tmp/chabudai-finish-ab")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # (checkout, kept file)
    args = parser.parse_args()
    size = int(float(args.size))
    if args.one:
        asyncio.run(one(args.one[0], args.one[1], size, args.games))
        return 0
    old = Path(args.old).resolve()
    if not (old / "bench" / "data.py").exists():
        shutil.copy(HERE / "bench" / "data.py", old / "bench" / "data.py")
    Path(args.keep).mkdir(parents=True, exist_ok=True)
    found: dict[str, list[float]] = {"old": [], "new": []}
    for _ in range(args.rounds):
        for name, root in (("old", old), ("new", HERE)):
            kept = str(Path(args.keep) / f"{name}-{size:.0e}.db")
            done = subprocess.run(
                [sys.executable, str(HERE / "bench" / "finish_ab.py"), str(old), "--size",
                 args.size, "--games", str(args.games), "--one", str(root), kept],
                env={**os.environ, "PYTHONPATH": str(root)}, cwd=root, capture_output=True,
                text=True, check=True,
            )
            found[name].append(float(done.stdout.split()[-1]))
            print(f"{name} p50 {found[name][-1]:.3f} ms", flush=True)
    a, b = statistics.median(found["old"]), statistics.median(found["new"])
    print(f"medians: old {a:.3f} ms, new {b:.3f} ms, {b / a:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
