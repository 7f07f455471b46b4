"""The live game first under a rush of reviews (issue 35, docs/cpu.md "Live
play first"): the computers' move latency while many reviews are asked for
at once, on this checkout's bot and on another's in the same run.

    python bench/fair.py [--reviews 50] [--delay 1.0] [--runs 1]
                         [--against DIR] [--sixtysix 10]

Five tables where computers play each other with the strong level — Sixty-Six,
Yahtzee, Six Dice, Nine and Bluff, each in a loop of games, a move asked of
:func:`bot.ai.choose` every ``--delay`` seconds, as the ``cpu`` follower asks
it (``bot.cpu_delay``: 1-2 s in the bot) — play for ``--warmup`` seconds; then
``--reviews`` reviews of finished games are asked for at once
(:func:`bot.ai.job` with :func:`games.review.review_json`, as the Review
button asks; ``--sixtysix`` of them Sixty-Six matches to 7, which take
seconds of a worker, the rest the other four games in turn), and the tables
play on until the last review is back and ``--after`` seconds more.

Printed per checkout (the median of ``--runs`` runs, and each run):

- the computers' move latency (the ``choose`` call, from the ask to the
  move) during the rush — from the reviews' ask to the last review back —
  p50, p99 and max, and how many moves were asked then; the same before the
  rush (no review queued);
- reviews delivered (a review back, not ``AIUnavailable``) of those asked,
  and the time from the ask to the last one.

``--against DIR`` runs the same workload on the bot's code of another
checkout (``git worktree add DIR main``): each run is the other checkout's,
then this one's (A B A B …, so both see the same load on a shared machine).
Each run is its own process (``--side``) with DIR (or this checkout) first
on its path; the AI workers it starts import the same code. The workers'
settings are the bot's defaults (``CHABUDAI_AI_WORKERS`` 2, ``nice`` +10;
this checkout adds its review worker, ``CHABUDAI_AI_REVIEW_WORKERS`` 1).
The finished games are played once, before the runs (``--seed``), and
handed to every run. The machine's load average is printed with each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# the live tables: game, seats, options
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("sixtysix", 2, {}),
    ("yahtzee", 1, {}),
    ("sixdice", 2, {}),
    ("nine", 2, {}),
    ("bluff", 2, {}),
]
# the other reviews, in turn (kinds of bench/review.py)
OTHERS: list[tuple[str, int, dict[str, Any]]] = [
    ("yahtzee", 1, {}),
    ("nine", 2, {}),
    ("sixdice", 2, {"target": 3000, "start": 500}),
    ("bluff", 2, {}),
]


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


# ------------------------------------------------------------------ records


def finished_games(reviews: int, sixtysix: int, seed: str) -> list[dict[str, Any]]:
    """``reviews`` finished games' records (JSON) with their people: the
    first ``sixtysix`` Sixty-Six matches, the others in turn; computer
    levels ``normal`` (a Sixty-Six review of a normal match: 2.8 s median,
    docs/review.md "Speed")."""
    sys.path.insert(0, str(HERE))
    from review import play  # the same games as the review bench (bench/review.py)

    out = []
    for i in range(reviews):
        game, seats, options = ("sixtysix", 2, {}) if i < sixtysix else OTHERS[i % len(OTHERS)]
        rec = play(game, seats, options, "normal", f"{seed}-{i}")
        out.append({"game": game, "record": rec.to_json(), "humans": list(rec.players)})
    return out


# ------------------------------------------------------------------ one run


async def table_loop(
    index: int,
    game: str,
    seats: int,
    options: dict[str, Any],
    delay: float,
    stop: asyncio.Event,
    asked: list[tuple[float, float]],
) -> None:
    """Computers playing ``game`` at the strong level, one move every
    ``delay`` seconds; each move's (asked at, latency) into ``asked``."""
    from bot import ai
    from games import registry
    from games.core import SeededSource

    spec = registry.spec(game)
    eng = spec.engine
    players = [f"CPU{i + 1}" for i in range(seats)]
    rng = random.Random(index)
    n = 0
    while not stop.is_set():
        state = eng.new_game(players, options, players[0], SeededSource(f"fair-{index}-{n}"))
        n += 1
        while not stop.is_set() and not eng.is_finished(state):
            await asyncio.sleep(delay)
            me = next((p for p in eng.to_move(state) if eng.legal_moves(state, p)), None)
            if me is None:
                break
            legal = eng.legal_moves(state, me)
            t0 = time.perf_counter()
            try:
                move = await ai.choose(game, eng.view(state, me), me, legal, "strong", rng)
            except ai.AIUnavailable:
                move = spec.timeout_move(state, me, legal, [])[0]
            asked.append((t0, time.perf_counter() - t0))
            eng.apply(state, me, move)
            if spec.after_cpu_move is not None:
                spec.after_cpu_move(state, me, move)


async def side(games: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    from bot import ai
    from games import registry
    from games.review import review_json

    for game in registry.names():  # as the bot starts: the tables it loads at once
        if registry.spec(game).warm_at_start:
            await ai.prepare(game, {})
    stop = asyncio.Event()
    asked: list[tuple[float, float]] = []
    loops = [
        asyncio.create_task(table_loop(i, g, s, o, args.delay, stop, asked))
        for i, (g, s, o) in enumerate(TABLES)
    ]
    await asyncio.sleep(args.warmup)

    async def one(doc: dict[str, Any]) -> float | None:
        try:
            await ai.job(doc["game"], review_json, (doc["record"], doc["humans"]), "a review")
        except ai.AIUnavailable:
            return None
        return time.perf_counter()

    rush = time.perf_counter()
    done = await asyncio.gather(*(one(doc) for doc in games))
    back = [d for d in done if d is not None]
    last = max(back) if back else time.perf_counter()
    await asyncio.sleep(args.after)
    stop.set()
    await asyncio.gather(*loops)
    ai.shutdown()
    during = [lat for at, lat in asked if rush <= at <= last]
    before = [lat for at, lat in asked if at < rush]
    return {
        "during": during,
        "before": before,
        "delivered": len(back),
        "asked": len(games),
        "to_last": last - rush,
        "load": load(),
    }


# ------------------------------------------------------------------ the harness


def run_side(code: str, games_file: str, args: argparse.Namespace) -> dict[str, Any]:
    """One run in its own process, ``code``'s bot first on the path."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        env = {**os.environ, "PYTHONPATH": code}
        cmd = [sys.executable, str(Path(__file__).resolve()), "--side", out.name,
               "--games-file", games_file, "--delay", str(args.delay),
               "--warmup", str(args.warmup), "--after", str(args.after)]  # fmt: skip
        subprocess.run(cmd, env=env, check=True, cwd=code)
        result: dict[str, Any] = json.load(out)
        return result


def line(name: str, r: dict[str, Any]) -> str:
    d, b = r["during"], r["before"]
    return (
        f"{name:<22} during the rush: {len(d):3d} moves, p50 {pct(d, 0.5):6.3f} s, "
        f"p99 {pct(d, 0.99):6.3f} s, max {max(d, default=float('nan')):6.3f} s | "
        f"before: p50 {pct(b, 0.5):.3f} s, p99 {pct(b, 0.99):.3f} s | "
        f"reviews {r['delivered']}/{r['asked']}, last after {r['to_last']:.1f} s | "
        f"load {r['load']}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reviews", type=int, default=50)
    parser.add_argument("--sixtysix", type=int, default=10, help="of them, Sixty-Six matches")
    parser.add_argument("--delay", type=float, default=1.0, help="seconds between a table's moves")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--after", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", default="fair")
    parser.add_argument("--against", default="", help="another checkout's directory")
    parser.add_argument("--side", default="", help=argparse.SUPPRESS)
    parser.add_argument("--games-file", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        games = json.loads(Path(args.games_file).read_text())
        result = asyncio.run(side(games, args))
        Path(args.side).write_text(json.dumps(result))
        return 0
    t0 = time.perf_counter()
    games = finished_games(args.reviews, args.sixtysix, args.seed)
    print(f"{len(games)} finished games played in {time.perf_counter() - t0:.1f} s")
    codes = ([str(Path(args.against).resolve())] if args.against else []) + [str(ROOT)]
    results: dict[str, list[dict[str, Any]]] = {code: [] for code in codes}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(games, f)
        f.flush()
        for run in range(args.runs):
            for code in codes:
                r = run_side(code, f.name, args)
                results[code].append(r)
                name = "this" if code == str(ROOT) else Path(code).name
                print(line(f"run {run + 1} [{name}]", r), flush=True)
    print(f"\nmedians of {args.runs} run(s):")
    for code in codes:
        name = "this" if code == str(ROOT) else Path(code).name
        rs = results[code]
        med = {
            "during": [statistics.median(pct(r["during"], q) for r in rs) for q in (0.5, 0.99)],
            "max": statistics.median(max(r["during"], default=float("nan")) for r in rs),
            "before": statistics.median(pct(r["before"], 0.99) for r in rs),
            "delivered": statistics.median(r["delivered"] for r in rs),
            "to_last": statistics.median(r["to_last"] for r in rs),
        }
        print(
            f"{name:<12} move latency during the rush p50 {med['during'][0]:.3f} s, "
            f"p99 {med['during'][1]:.3f} s, max {med['max']:.3f} s (before it: p99 "
            f"{med['before']:.3f} s); reviews delivered "
            f"{med['delivered']:.0f}/{args.reviews}, the last after {med['to_last']:.1f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
