"""The post-game review's speed and its accuracy bands (docs/review.md).

    python bench/review.py [--only yahtzee,nine,sixdice,bluff,sixtysix]
                           [--games N] [--sixtysix-games N]
                           [--levels strong,normal,easy,random] [--seed S]

For each game and level, plays ``--games`` games with every seat at that
level (``random``: a uniformly random legal move) from seeded dice, reviews
each record with :func:`games.review.review` and prints:

- the accuracy of the players: mean with its 95 % interval (mean ± 1.96
  standard errors over the players' accuracies), median, 10th and 90th
  percentiles, and the mean loss per decision;
- the review's wall time per game (median, max) and its CPU time (the
  process's; on a machine shared with other jobs the wall time is longer) —
  the issue's targets: a whole Yahtzee game in ≤ 2 s, a Sixty-Six match in
  ≤ 20 s.

Seats: Yahtzee 1 (solitaire), Nine 2, Six Dice 2 (the race measure; target
3000, start 500 to keep games short) and 3 (the points measure), Bluff 3,
Sixty-Six 2 (a match to 7). Single process: the machine is shared.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from games import registry
from games.core import Record, SeededSource, record_of
from games.review import review

# name, game, seats, options
KINDS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("yahtzee", "yahtzee", 1, {}),
    ("nine", "nine", 2, {}),
    ("sixdice-2p", "sixdice", 2, {"target": 3000, "start": 500}),
    ("sixdice-3p", "sixdice", 3, {"target": 3000, "start": 500}),
    ("bluff", "bluff", 3, {}),
    ("sixtysix", "sixtysix", 2, {}),
]


def play(game: str, seats: int, options: dict[str, Any], level: str, seed: str) -> Record:
    """One game with every seat at ``level``; a Bluff roller looks at once."""
    eng = registry.engine(game)
    ai = registry.spec(game).ai_module()
    players = [f"p{i}" for i in range(seats)]
    state = eng.new_game(players, options, players[0], SeededSource(seed))
    rng = random.Random(seed)
    after: Callable[[Any, str, str], Any] | None = registry.spec(game).after_cpu_move
    for _ in range(100_000):
        if eng.is_finished(state):
            break
        p = eng.to_move(state)[0]
        legal = eng.legal_moves(state, p)
        if level == "random":
            move = rng.choice(legal)
        else:
            move = ai.choose(eng.view(state, p), p, legal, level, rng)
        eng.apply(state, p, move)
        if after is not None:
            after(state, p, move)
    return record_of(game, state)


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval."""
    if len(xs) < 2:
        return (xs[0] if xs else math.nan), math.nan
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=",".join(k[0] for k in KINDS))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--sixtysix-games", type=int, default=10)
    ap.add_argument("--levels", default="strong,normal,easy,random")
    ap.add_argument("--seed", default="review-bench")
    args = ap.parse_args()
    only = args.only.split(",")
    levels = args.levels.split(",")
    for name, game, seats, options in KINDS:
        if not any(name == o or name.startswith(o + "-") for o in only):
            continue
        n = args.sixtysix_games if game == "sixtysix" else args.games
        importlib.import_module(f"games.{game}.review")
        for level in levels:
            accs: list[float] = []
            losses: list[float] = []
            times: list[float] = []
            cpu: list[float] = []
            decisions = 0
            started = time.perf_counter()
            for i in range(n):
                rec = play(game, seats, options, level, f"{args.seed}:{name}:{level}:{i}")
                t0, c0 = time.perf_counter(), time.process_time()
                rv = review(rec)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                for p in rv.players:
                    if p.accuracy is not None:
                        accs.append(p.accuracy)
                        losses.append(p.lost / p.decisions)
                        decisions += p.decisions
            mean, half = interval(accs)
            print(
                f"{name:11s} {level:7s} games {n:4d} players {len(accs):4d}"
                f" accuracy {mean:5.1f} ± {half:4.1f}"
                f" (median {pct(accs, 0.5):5.1f}, p10 {pct(accs, 0.1):5.1f},"
                f" p90 {pct(accs, 0.9):5.1f})"
                f" loss/decision {statistics.fmean(losses) if losses else math.nan:.4f}"
                f" decisions/player {decisions / max(1, len(accs)):.1f}"
                f" | review s/game median {statistics.median(times):.3f}"
                f" max {max(times):.3f} (CPU median {statistics.median(cpu):.3f}"
                f" max {max(cpu):.3f})"
                f" | total {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
