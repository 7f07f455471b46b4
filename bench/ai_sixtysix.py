"""Sixty-Six computer player: win rates against baselines and decision times.

    python bench/ai_sixtysix.py [--games N] [--level strong] [--against random,greedy,rollout]
                                [--workers 2] [--seed S] [--log FILE]

Plays N games to 7 per opponent, the AI in seat 0 in even games and seat 1 in
odd ones (the first dealer is drawn by the seeded source), and prints the
AI's win rate with a 95 % Wilson interval, plus the median / p95 / max time
of the AI's decisions (every ``choose`` call that had more than one legal
move).

With ``--log FILE`` every finished game is appended to FILE as one JSON line
(opponent, seed, level, won, decision times); a later run with the same
``--log`` skips the games already there and reports over all of them, so a
long run can be stopped and resumed.

Both players get the engine's ``view(state, name)`` only, which includes the
deal's public memory (``played`` tricks, ``face_down_trump``,
``closing_opponent_had_trick``).

Baselines (all declare as soon as they have 66, pass below 66 after the last
trick, exchange the trump 9 when they may):

- random: a uniformly random move among the others (never closes);
- greedy: :func:`games.sixtysix.ai.greedy` — highest card on lead (a marriage
  first), cheapest winning card when following, else the cheapest card;
- rollout: every card move is tried in 8 sampled deals (the AI's sampler),
  each played on by random cards for 3 tricks; the best mean point
  difference (a declared deal counts its game points × 30) wins;
- normal, easy: the AI's own weaker levels (a head-to-head).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from games import sixtysix as g
from games.core import SeededSource
from games.sixtysix import ai, solver
from games.sixtysix.solver import Position, after, bits, follow_moves

Policy = Callable[[dict[str, Any], str, list[str], random.Random], str]


def random_policy(view: dict[str, Any], me: str, legal: list[str], rng: random.Random) -> str:
    forced = ai._forced(view, me, legal)
    if forced:
        return forced
    options = [m for m in legal if m not in ("declare", "close")]
    return rng.choice(options or legal)


def greedy_policy(view: dict[str, Any], me: str, legal: list[str], rng: random.Random) -> str:
    return ai.greedy(view, me, legal)


def _playout(pos: Position | int, rng: random.Random, tricks: int) -> float:
    done = 0
    while True:
        if isinstance(pos, int):
            return 30.0 * pos
        if pos.led < 0:
            if done >= tricks:
                return float(pos.points[0] - pos.points[1])
            done += 1
            moves = pos.hands[pos.turn]
        else:
            must = pos.closed or not pos.talon
            moves = follow_moves(pos.hands[pos.turn], pos.led, pos.trump, must, pos.strict)
        pos = after(pos, rng.choice(list(bits(moves))))


def rollout_policy(view: dict[str, Any], me: str, legal: list[str], rng: random.Random) -> str:
    forced = ai._forced(view, me, legal)
    if forced:
        return forced
    if "draw" in legal:
        return "draw"
    moves = ai._card_moves(legal)
    k = ai.knowledge(view, me)
    total = dict.fromkeys(moves, 0.0)
    for _ in range(8):
        pos = ai.sample(k, rng)
        for c in moves:
            total[c] += _playout(after(pos, c), rng, 3)
    return moves[max(total, key=lambda c: (total[c], -c))]


def level_policy(level: str) -> Policy:
    """Another level of the AI itself as the opponent (head-to-head)."""
    return lambda view, me, legal, rng: ai.choose(view, me, legal, level, rng)


BASELINES: dict[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "rollout": rollout_policy,
    "normal": level_policy("normal"),
    "easy": level_policy("easy"),
}


def play(job: tuple[int, str, str]) -> tuple[int, bool, list[float]]:
    """One game: AI vs the baseline; (seed, AI won, the AI's decision times)."""
    seed, level, against = job
    names = ["ai", "bl"] if seed % 2 == 0 else ["bl", "ai"]
    state = g.new_game(names, {}, None, SeededSource(f"bench-{seed}"))
    rng_ai = random.Random(seed * 7 + 1)
    rng_bl = random.Random(seed * 7 + 2)
    times: list[float] = []
    base = BASELINES[against]
    while not g.is_finished(state):
        who = g.to_move(state)[0]
        legal = g.legal_moves(state, who)
        view = g.view(state, who)
        if who == "ai":
            t0 = time.perf_counter()
            move = ai.choose(view, who, legal, level, rng_ai)
            if len(legal) > 1:
                times.append(time.perf_counter() - t0)
        else:
            move = base(view, who, legal, rng_bl)
        g.apply(state, who, move)
    return seed, state.winner == names.index("ai"), times


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--level", default="strong", choices=ai.LEVELS)
    ap.add_argument("--against", default="random,greedy,rollout")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--log", help="append each game to this JSON-lines file; resume from it")
    args = ap.parse_args()
    done: dict[tuple[str, str, int], tuple[bool, list[float]]] = {}
    if args.log:
        try:
            with open(args.log, encoding="utf-8") as f:
                for line in f:
                    r = json.loads(line)
                    done[(r["against"], r["level"], r["seed"])] = (r["won"], r["times"])
        except FileNotFoundError:
            pass
    all_times: list[float] = []
    with multiprocessing.Pool(args.workers) as pool:
        for against in args.against.split(","):
            t0 = time.perf_counter()
            seeds = range(args.seed, args.seed + args.games)
            results = {
                s: done[(against, args.level, s)] for s in seeds if (against, args.level, s) in done
            }
            jobs = [(s, args.level, against) for s in seeds if s not in results]
            for seed, won, ts in pool.imap_unordered(play, jobs, chunksize=2):
                results[seed] = (won, ts)
                if args.log:
                    with open(args.log, "a", encoding="utf-8") as f:
                        row = {
                            "against": against,
                            "level": args.level,
                            "seed": seed,
                            "won": won,
                            "times": ts,
                        }
                        f.write(json.dumps(row) + "\n")
            wins = sum(1 for w, _ in results.values() if w)
            times = [t for _, ts in results.values() for t in ts]
            all_times += times
            lo, hi = wilson(wins, len(results))
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
            print(
                f"{args.level} vs {against:8s} games {len(results):5d}  won {wins / len(results):6.1%}"
                f"  95% CI [{lo:.1%}, {hi:.1%}]  decisions {len(times)}"
                f"  median {statistics.median(times) * 1000:.0f} ms  p95 {p95 * 1000:.0f} ms"
                f"  max {max(times) * 1000:.0f} ms  ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
    all_times.sort()
    if all_times:
        p95 = all_times[int(0.95 * (len(all_times) - 1))]
        print(
            f"all decisions {len(all_times)}: median {statistics.median(all_times) * 1000:.0f} ms"
            f"  p95 {p95 * 1000:.0f} ms  max {all_times[-1] * 1000:.0f} ms"
        )


if __name__ == "__main__":
    _ = solver  # the solver is what the AI spends its time in
    main()
