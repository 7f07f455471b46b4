"""Render benchmark: median render+encode time and PNG size of each game's
table picture (a typical mid-game view from tests/render/views.py), the
/stats card and the /leaderboard picture (tests/render/stats_views.py; the
budget for those too: ≤ 15 ms, ≤ 150 KB).

``--cold`` empties the cache of rasterised text before every run: the
time of a card or board whose names were never drawn before.

"median ms" is wall time (the budget: ≤ 15 ms); "cpu ms" is this process's
CPU time, which stays honest when other jobs share the two cores; "encode
ms" the part of the wall time spent encoding the PNG (8-bit palette).

    /work/venv/bin/python bench/render.py [--runs N]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.pictures import board_picture, stats_picture, table_picture  # noqa: E402
from bot.render import _base  # noqa: E402
from tests.render.stats_views import board, card  # noqa: E402
from tests.render.views import NAMES8, bench_views, play  # noqa: E402

ENCODED: list[float] = []  # seconds each PNG encode took, this draw


def _timed_encode() -> None:
    """Time :func:`bot.render._base.encode` (the 8-bit palette PNG) apart
    from the drawing: the pictures call it through the module."""
    encode = _base.encode

    def timed(img: Any, colours: int = 160) -> bytes:
        t0 = time.perf_counter()
        try:
            return encode(img, colours)
        finally:
            ENCODED.append(time.perf_counter() - t0)

    _base.encode = timed  # type: ignore[assignment]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--cold", action="store_true", help="no cached text between runs")
    args = ap.parse_args()
    views = bench_views()
    e, s = play("yahtzee", NAMES8[:4], 60, 3)
    views["yahtzee(4p)"] = e.view(s, None)
    e, s = play("nine", NAMES8, 30, 3)
    views["nine(8p)"] = e.view(s, None)
    drawings: dict[str, Callable[[], Any]] = {
        game: functools.partial(table_picture, view) for game, view in views.items()
    }
    drawings["stats card"] = functools.partial(stats_picture, card())
    drawings["stats card ja"] = functools.partial(stats_picture, card(), lang="ja")
    drawings["leaderboard"] = functools.partial(board_picture, board())
    drawings["leaderboard ja"] = functools.partial(board_picture, board(), lang="ja")
    _timed_encode()
    print(f"{'game':<14} {'median ms':>9} {'p90 ms':>7} {'cpu ms':>7} {'encode ms':>9} {'KB':>6}")
    for game, draw in drawings.items():
        draw()  # warm the sprite caches
        times, cpu, encode = [], [], []
        for _ in range(args.runs):
            if args.cold:
                _base._text_mask.cache_clear()
            ENCODED.clear()
            t0, c0 = time.perf_counter(), time.process_time()
            pic = draw()
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            encode.append(sum(ENCODED) * 1000)
        times.sort()
        p90 = times[int(len(times) * 0.9) - 1]
        print(
            f"{game:<14} {statistics.median(times):9.2f} {p90:7.2f} {statistics.median(cpu):7.2f}"
            f" {statistics.median(encode):9.2f} {len(pic.png) / 1024:6.1f}"
        )


if __name__ == "__main__":
    main()
