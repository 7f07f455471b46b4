"""Render benchmark: median render+encode time and PNG size of each game's
table picture (a typical mid-game view from tests/render/views.py).

"median ms" is wall time (the budget: ≤ 15 ms); "cpu ms" is this process's
CPU time, which stays honest when other jobs share the two cores.

    /work/venv/bin/python bench/render.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.pictures import table_picture  # noqa: E402
from tests.render.views import NAMES8, bench_views, play  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=60)
    args = ap.parse_args()
    views = bench_views()
    e, s = play("yahtzee", NAMES8[:4], 60, 3)
    views["yahtzee(4p)"] = e.view(s, None)
    e, s = play("nine", NAMES8, 30, 3)
    views["nine(8p)"] = e.view(s, None)
    print(f"{'game':<14} {'median ms':>9} {'p90 ms':>7} {'cpu ms':>7} {'KB':>6}")
    for game, view in views.items():
        table_picture(view)  # warm the sprite caches
        times, cpu = [], []
        for _ in range(args.runs):
            t0, c0 = time.perf_counter(), time.process_time()
            pic = table_picture(view)
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        times.sort()
        p90 = times[int(len(times) * 0.9) - 1]
        print(
            f"{game:<14} {statistics.median(times):9.2f} {p90:7.2f} {statistics.median(cpu):7.2f} {len(pic.png) / 1024:6.1f}"
        )


if __name__ == "__main__":
    main()
