"""The post-game review's speed and its accuracy bands (docs/review.md).

    python bench/review.py [--only yahtzee,nine,sixdice,bluff,sixtysix]
                           [--games N] [--sixtysix-games N]
                           [--levels strong,normal,easy,random] [--seed S]
                           [--workers N] [--dump FILE.jsonl] [--from FILE.jsonl]

For each game and level, plays ``--games`` games with every seat at that
level (``random``: a uniformly random legal move) from seeded dice, reviews
each record with :func:`games.review.review` and prints:

- the accuracy of the players with 5 decisions or more (the others are
  counted apart: too few to grade): mean with its 95 % interval (mean ±
  1.96 standard errors over the players' accuracies), median, 10th and 90th
  percentiles, and the median (p10, p90) and mean of the average loss per
  decision — the medians the game's ``GRADES`` anchors are fitted to;
- the words the bot puts on these figures (docs/review.md, "Bands and
  classes": :func:`games.review.grades`): how many players land in each
  accuracy band, the share of decisions that lost anything, the quartiles
  and 90th/99th percentiles of the losses that were not 0, and the
  inaccuracies, mistakes and blunders a player makes on average;
- flags (``!``): a level whose median accuracy falls outside its intended
  band (strong excellent, normal good, easy fair, random needs work), and
  any player below good without a listed mistake (none may be);
- the review's wall time per game (median, max) and its CPU time (the
  process's; on a machine shared with other jobs the wall time is longer) —
  the issue's targets: a whole Yahtzee game in ≤ 2 s, a Sixty-Six match in
  ≤ 20 s.

Seats: Yahtzee 1 (solitaire), Nine 2 and 3, Six Dice 2 (the race measure; target
3000, start 500 to keep games short) and 3 (the points measure), Bluff 2 and 3,
Sixty-Six 2 (a match to 7). Single process by default (the machine is
shared); ``--workers N`` plays and reviews the games in N processes (the
same seeds, so the same figures; the CPU time is each worker's). Each line
ends with the machine's load average (``os.getloadavg()``) when the kind
started and when it ended (the levels are played round-robin).

Raw data: ``--dump FILE.jsonl`` appends one JSON line per game as it is
reviewed (the kind, game, level, seed, unit, the review's wall and CPU
seconds, and per player: decisions, the sum of the losses and every
decision's loss), so that a run cut short keeps what it measured;
``--from FILE.jsonl`` (repeatable) prints the figures again from dumps
without playing a game — the losses do not depend on how accuracy is read
from them, so the bands are calibrated once from raw data. The games are
played round-robin over the levels (game 0 of every level, then game 1,
...), so a cut-short run has about as many games a level.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games import registry
from games.core import Record, SeededSource, record_of
from games.review import BANDS, CLASSES, grades, review

# name, game, seats, options
KINDS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("yahtzee", "yahtzee", 1, {}),
    ("nine-2p", "nine", 2, {}),
    ("nine-3p", "nine", 3, {}),
    ("sixdice-2p", "sixdice", 2, {"target": 3000, "start": 500}),
    ("sixdice-3p", "sixdice", 3, {"target": 3000, "start": 500}),
    ("bluff-2p", "bluff", 2, {}),
    ("bluff-3p", "bluff", 3, {}),
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


def one(job: tuple[str, str, int, dict[str, Any], str, str]) -> dict[str, Any]:
    """Play and review one game: the raw figures of a dump line (each
    player's decisions, sum of losses and every decision's loss), the
    review's wall and CPU seconds and its unit."""
    name, game, seats, options, level, seed = job
    importlib.import_module(f"games.{game}.review")
    rec = play(game, seats, options, level, seed)
    t0, c0 = time.perf_counter(), time.process_time()
    rv = review(rec)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "kind": name,
        "game": game,
        "level": level,
        "seed": seed,
        "unit": rv.unit,
        "wall": wall,
        "cpu": cpu,
        "players": [
            {"player": p.player, "decisions": p.decisions, "lost": p.lost, "losses": list(p.losses)}
            for p in rv.players
        ],
    }


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval."""
    if len(xs) < 2:
        return (xs[0] if xs else math.nan), math.nan
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def words(game: str, unit: str, accs: list[float], every: list[list[float]]) -> str:
    """The bands the players land in, the losses that were not 0 and the
    classes a player gets on average (docs/review.md, "Bands and classes")."""
    g = grades(game, unit)
    bands = dict.fromkeys(BANDS, 0)
    for acc in accs:
        bands[g.band(acc)] += 1
    flat = [x for each in every for x in each]
    lossy = [x for x in flat if x > 0]
    counts = dict.fromkeys(CLASSES, 0)
    for each in every:
        for kind, n in g.counts(each).items():
            counts[kind] += n
    quantiles = (
        " ".join(f"p{round(100 * q)} {pct(lossy, q):.4g}" for q in (0.25, 0.5, 0.75, 0.9, 0.99))
        if lossy
        else "-"
    )
    return (
        "bands "
        + " ".join(f"{b} {bands[b]}" for b in BANDS)
        + f" | lossy decisions {len(lossy) / max(1, len(flat)):.2f}, losses ({unit}) {quantiles}"
        + " | a player: "
        + " ".join(f"{k} {counts[k] / len(every):.2f}" for k in CLASSES)
    )


def report(name: str, level: str, lines: list[dict[str, Any]], head: str) -> str:
    """Print a level's figures from its games' dump lines; return the cell
    of the medians' table: the median accuracy, its band and the median
    average loss a decision ("80.5 good (0.978)"), or why there is none."""
    game = lines[0]["game"]
    unit = lines[0]["unit"]  # every game of a kind has one measure
    g = grades(game, unit)
    accs: list[float] = []
    losses: list[float] = []
    every: list[list[float]] = []  # each graded player's losses
    decisions = 0
    few = 0
    for line in lines:
        for p in line["players"]:
            each = [float(x) for x in p["losses"]]
            acc = g.accuracy(each)
            if acc is None:
                few += 1
                continue
            accs.append(acc)
            losses.append(sum(each) / len(each))
            decisions += len(each)
            every.append(each)
    times = [float(line["wall"]) for line in lines]
    cpu = [float(line["cpu"]) for line in lines]
    if not accs:
        print(f"{name:11s} {level:7s} games {len(lines):4d}: no player with enough decisions")
        return f"none graded of {few}"
    mean, half = interval(accs)
    print(
        f"{name:11s} {level:7s} games {len(lines):4d} players {len(accs):4d}"
        f" (too few decisions {few})"
        f" accuracy {mean:5.1f} ± {half:4.1f}"
        f" (median {pct(accs, 0.5):5.1f}, p10 {pct(accs, 0.1):5.1f},"
        f" p90 {pct(accs, 0.9):5.1f})"
        f" loss/decision median {pct(losses, 0.5):.4g} mean {statistics.fmean(losses):.4g}"
        f" (p10 {pct(losses, 0.1):.4g}, p90 {pct(losses, 0.9):.4g})"
        f" decisions/player {decisions / len(accs):.1f}"
        f" | review s/game median {statistics.median(times):.3f}"
        f" max {max(times):.3f} (CPU median {statistics.median(cpu):.3f}"
        f" max {max(cpu):.3f}){head}",
        flush=True,
    )
    print(f"{'':11s} {level:7s} {words(game, unit, accs, every)}", flush=True)
    band = g.band(pct(accs, 0.5))
    if band != INTENDED.get(level, band):
        print(f"{'':11s} {level:7s} ! median reads {band}, intended {INTENDED[level]}", flush=True)
    silent = sum(
        1
        for each, acc in zip(every, accs, strict=True)
        if BANDS.index(g.band(acc)) > 1 and not any(g.kind(x) for x in each)
    )
    if silent:
        print(f"{'':11s} {level:7s} ! {silent} players below good with no listed mistake")
    said = "needs work" if band == "poor" else band  # the band as the review words it
    cell = f"{pct(accs, 0.5):.1f} {said} ({pct(losses, 0.5):.4g})"
    return cell + (f", {len(accs)} graded of {len(accs) + few}" if few else "")


def medians(table: dict[str, dict[str, str]], levels: list[str]) -> None:
    """The medians per game and level, in one table at the end (docs/review.md
    "Calibration"): accuracy, its band, and the average loss a decision."""
    if not table:
        return
    print("\nmedian accuracy, its band (median average loss a decision), per game and level:")
    print(" | ".join(["game".ljust(11), *(level for level in levels)]))
    for name, cells in table.items():
        print(" | ".join([name.ljust(11), *(cells.get(level, "-") for level in levels)]))


# the band each level's median should read (docs/review.md)
INTENDED = {"strong": "excellent", "normal": "good", "easy": "fair", "random": "poor"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=",".join(k[0] for k in KINDS))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--sixtysix-games", type=int, default=10)
    ap.add_argument("--levels", default="strong,normal,easy,random")
    ap.add_argument("--seed", default="review-bench")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--dump", help="append one JSON line per game to this file")
    ap.add_argument(
        "--from",
        dest="sources",
        action="append",
        default=[],
        help="print the figures from dump files (no game is played)",
    )
    args = ap.parse_args()
    only = args.only.split(",")
    levels = args.levels.split(",")
    kinds = [k for k in KINDS if any(k[0] == o or k[0].startswith(o + "-") for o in only)]
    if args.sources:
        got: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for path in args.sources:
            with open(path, encoding="utf-8") as f:
                for text in f:
                    if text.strip():
                        line = json.loads(text)
                        got.setdefault((line["kind"], line["level"]), []).append(line)
        table: dict[str, dict[str, str]] = {}
        for name, game, _seats, _options in kinds:
            importlib.import_module(f"games.{game}.review")
            for level in levels:
                if (name, level) in got:
                    cell = report(name, level, got[name, level], "")
                    table.setdefault(name, {})[level] = cell
        medians(table, levels)
        return 0
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    dump = open(args.dump, "a", encoding="utf-8") if args.dump else None  # noqa: SIM115
    table: dict[str, dict[str, str]] = {}
    for name, game, seats, options in kinds:
        n = args.sixtysix_games if game == "sixtysix" else args.games
        importlib.import_module(f"games.{game}.review")
        started = time.perf_counter()
        load0 = load()
        jobs = [
            (name, game, seats, options, level, f"{args.seed}:{name}:{level}:{i}")
            for i in range(n)
            for level in levels
        ]
        results = pool.map(one, jobs) if pool is not None else map(one, jobs)
        by_level: dict[str, list[dict[str, Any]]] = {level: [] for level in levels}
        for line in results:
            by_level[line["level"]].append(line)
            if dump is not None:
                dump.write(json.dumps(line) + "\n")
                dump.flush()
        head = (
            f" | kind total {time.perf_counter() - started:.0f} s"
            f" | workers {args.workers} load {load0} -> {load()}"
        )
        for level in levels:
            try:
                table.setdefault(name, {})[level] = report(name, level, by_level[level], head)
            except Exception as err:  # the dump is kept; print it again with --from
                print(f"{name} {level}: no figures ({err!r}); see the dump", flush=True)
    medians(table, levels)
    if dump is not None:
        dump.close()
    if pool is not None:
        pool.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
