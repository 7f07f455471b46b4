"""Event-loop lag while the computer players think (DESIGN.md: p99 ≤ 10 ms).

    python bench/loop_lag.py [--reps 3] [--modes workers,threads] [--decisions 8]
                             [--start 1000] [--target 10000] [--workers 2]

An asyncio loop runs a 5 ms ticker (``await asyncio.sleep(0.005)``; its lag is
how much later than 5 ms each tick wakes). While it ticks, through
:mod:`bot.ai` as the bot calls it:

- ``--decisions`` (8) strong Sixty-Six decisions at once (``ai.choose``), on
  real positions: seeded deals (``SeededSource("lag-<seed>")``) played on by
  the greedy player for a few moves, the slowest decisions of 30 such deals
  (0.3-0.4 s each on the dev machine);
- one fresh Six Dice table build (``ai.prepare``: the race, win and points
  tables of ``start``/``target``; every repetition uses another ``straight``
  value, so every table is built from scratch in both modes).

The lag is measured from the moment they start until the last one is done
(and, separately, until the last decision is done: the build alone goes on
longer), for each mode:

- ``workers``: the default, ``CHABUDAI_AI_WORKERS=2`` worker processes
  (``--workers``);
- ``threads``: ``CHABUDAI_AI_WORKERS=0``, the AI in threads of this process.

Before a mode's runs the bot's start-up is mimicked (the Yahtzee solver is
warmed, which also starts the workers). Printed per run and as the median of
the repetitions: the ticker's lag p50 / p99 / max, the ticks counted, how long
the decisions took (the last one) and the build.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from typing import Any

from bot import ai
from games import sixtysix as g
from games.core import SeededSource
from games.sixdice.scoring import DEFAULT_STRAIGHT
from games.sixtysix import ai as sixtysix_ai

TICK = 0.005
# (deal seed, greedy moves played before the decision): the slowest strong
# decisions found among the first 8 moves of the deals lag-0 … lag-29
POSITIONS = [(5, 4), (6, 7), (5, 7), (18, 4), (17, 7), (22, 7), (10, 1), (6, 4)]


def position(seed: int, plies: int) -> tuple[dict[str, Any], str, list[str]]:
    state = g.new_game(["A", "B"], {}, None, SeededSource(f"lag-{seed}"))
    for k in range(plies + 1):
        me = next(p for p in g.to_move(state) if g.legal_moves(state, p))
        legal = g.legal_moves(state, me)
        view = g.view(state, me)
        if k == plies:
            return view, me, legal
        g.apply(state, me, sixtysix_ai.greedy(view, me, legal))
    raise AssertionError("unreachable")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def one_run(
    positions: list[tuple[dict[str, Any], str, list[str]]], options: dict[str, Any]
) -> dict[str, float]:
    ticks: list[tuple[float, float]] = []  # (when, lag)
    running = True

    async def ticker() -> None:
        while running:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            ticks.append((now, now - before - TICK))

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.3)  # the ticker settles
    ticks.clear()
    t0 = time.perf_counter()
    done: dict[str, float] = {}

    async def decide(i: int, view: dict[str, Any], me: str, legal: list[str]) -> None:
        move = await ai.choose("sixtysix", view, me, legal, "strong", random.Random(i))
        assert move in legal
        done[f"decision {i}"] = time.perf_counter() - t0

    async def build() -> None:
        await ai.prepare("sixdice", options)
        assert ai.is_ready("sixdice", options)
        done["build"] = time.perf_counter() - t0

    await asyncio.gather(build(), *(decide(i, *p) for i, p in enumerate(positions)))
    running = False
    await tick
    decisions = max(v for k, v in done.items() if k.startswith("decision"))
    lags = [lag for _, lag in ticks]
    early = [lag for when, lag in ticks if when - t0 <= decisions] or [0.0]
    return {
        "p50": percentile(lags, 0.50) * 1000,
        "p99": percentile(lags, 0.99) * 1000,
        "max": max(lags) * 1000,
        "ticks": len(lags),
        "d_p50": percentile(early, 0.50) * 1000,
        "d_p99": percentile(early, 0.99) * 1000,
        "decisions": decisions,
        "build": done["build"],
    }


async def idle_lag(seconds: float = 2.0) -> dict[str, float]:
    lags = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        before = time.perf_counter()
        await asyncio.sleep(TICK)
        lags.append(time.perf_counter() - before - TICK)
    return {"p50": percentile(lags, 0.5) * 1000, "p99": percentile(lags, 0.99) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--modes", default="workers,threads")
    parser.add_argument("--decisions", type=int, default=8)
    parser.add_argument("--start", type=int, default=1000)
    parser.add_argument("--target", type=int, default=10000)
    parser.add_argument("--workers", type=int, default=ai.DEFAULT_WORKERS, help="in workers mode")
    args = parser.parse_args()
    positions = [position(*p) for p in (POSITIONS * 4)[: args.decisions]]
    load = os.getloadavg() if hasattr(os, "getloadavg") else ()
    print(
        f"{args.decisions} strong Sixty-Six decisions + a Six Dice build "
        f"(start={args.start} target={args.target}); {os.cpu_count()} cores; "
        f"load average {' '.join(f'{x:.1f}' for x in load)}"
    )
    idle = asyncio.run(idle_lag())
    print(f"idle ticker: lag p50 {idle['p50']:.2f} ms, p99 {idle['p99']:.2f} ms")
    fresh = iter(range(1, 1000))
    for mode in args.modes.split(","):
        os.environ["CHABUDAI_AI_WORKERS"] = {"workers": str(args.workers), "threads": "0"}[mode]
        ai.shutdown()
        ai.warm_up_now("yahtzee", {})  # the bot's start-up (and the workers start)
        time.sleep(0.5)
        runs = []
        for rep in range(args.reps):
            options = {
                "start": args.start,
                "target": args.target,
                "straight": DEFAULT_STRAIGHT + 50 * next(fresh),  # every table fresh
            }
            r = asyncio.run(one_run(positions, options))
            runs.append(r)
            print(
                f"  {mode:8} run {rep + 1}: lag p50 {r['p50']:6.2f} ms  p99 {r['p99']:7.2f} ms  "
                f"max {r['max']:7.1f} ms  ({r['ticks']:.0f} ticks); until the decisions are "
                f"done p50 {r['d_p50']:6.2f} ms  p99 {r['d_p99']:7.2f} ms; decisions done "
                f"{r['decisions']:5.2f} s  build done {r['build']:5.2f} s"
            )
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(
            f"{mode:8} median of {args.reps}: lag p50 {med['p50']:.2f} ms, p99 {med['p99']:.2f} ms, "
            f"max {med['max']:.1f} ms (until the decisions are done: p50 {med['d_p50']:.2f} ms, "
            f"p99 {med['d_p99']:.2f} ms); decisions done {med['decisions']:.2f} s, "
            f"build done {med['build']:.2f} s"
        )
    ai.shutdown()


if __name__ == "__main__":
    main()
